/* The capture side of a vendor backend: running the profiler on a kernel and writing what it
 * measured into a bundle. AMD: rocprofv3 (docs/capture.md says what runs, in which order, with
 * which environment and deadline). These are the capture/counters operations a backend
 * exposes; `capture`, `counters` and `run` reach them through capture_backend_for().
 *
 * Every external program runs through the process runner (drive/proc.h): argv vectors, its own
 * process group, the --timeout deadline per pass, output streamed to <bundle>/logs/. Output a
 * pass produces is written into a temporary directory inside the bundle and moved into place
 * only when the pass succeeded, so a failed, timed-out or interrupted pass leaves the previous
 * artifacts intact. JSON artifacts are written atomically through the bundle. */
#ifndef FLYPROF_CORE_BACKEND_CAPTURE_H
#define FLYPROF_CORE_BACKEND_CAPTURE_H

#include "base/err.h"
#include "base/json/jv.h"
#include "core/backend/backend.h"
#include "core/bundle/bundle.h"

/* The request behind backend.h's capture and counters slots (one shape for both). */
typedef struct backend_capture_req capture_req;
struct backend_capture_req {
	const char *kernel;   /* what the user typed (a recipe or kernel name) */
	const char *worktree; /* FlyDSL checkout, or NULL */
	/* Opens the bundle for writing and sets b; the backend calls it once its preflight
	 * passed, so a command refused before anything ran leaves no directory behind. */
	int (*open_bundle)(capture_req *q, fp_err *e);
	void *opener; /* the caller's context for open_bundle */
	bundle *b;
	const char *invocation; /* --invocation (argv words) or NULL */
	const char *shape;	/* --shape or NULL */
	const char *iter_range; /* --iter-range or NULL */
	const char *tag;	/* "small", "big" or "both" */
	int gpu;
	double timeout_s; /* per profiler pass; <= 0 = none */
	const char *arch; /* --arch or NULL (then the capture's agent table decides) */
	jv *warnings;	  /* array the operations append strings to */
};

struct backend_counters_req {
	capture_req req;
};

/* Preflight (profiler, worktree and build tree, recipe: what a capture needs before anything
 * runs), capture (discovery, kernel choice, ATT pass per tag, inventory, capture.json) and
 * counters (counter passes, derived metrics, counters.json), filling `data`. */
int amd_preflight(capture_req *q, jv *data, fp_err *e);
int amd_capture(capture_req *q, jv *data, fp_err *e);
int amd_counters(capture_req *q, jv *data, fp_err *e);
/* The same in the shape of backend.h's slots (backend_amd.capture / .counters): *out is a new
 * object with what data would hold. */
int amd_capture_slot(const struct backend_capture_req *r, jv **out, fp_err *e);
int amd_counters_slot(const struct backend_counters_req *r, jv **out, fp_err *e);

/* The one place that maps a --backend name (NULL = the default, "rocprofv3") to the backend
 * whose capture slots serve it; NULL with BAD_ARGS (error.available = the names of the
 * backends that can capture) for an unknown name or one without capture slots. */
const backend *capture_backend_for(const char *name, fp_err *e);
/* `doctor`'s key for a backend's readiness ("amd", "nvidia"). */
const char *capture_doctor_key(const backend *be);

#endif
