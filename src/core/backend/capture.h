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
#include "core/bundle/bundle.h"

typedef struct capture_req capture_req;
struct capture_req {
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

typedef struct capture_ops {
	const char *name;	    /* "rocprofv3": what --backend takes */
	const char *doctor_backend; /* the key of `doctor`'s data.backends that gates `run` */
	/* Checks what a capture needs before anything runs (profiler, worktree and build tree,
	 * recipe); fills `data` with what it found. */
	int (*preflight)(capture_req *q, jv *data, fp_err *e);
	/* Discovery pass, kernel choice, ATT pass per tag, dispatch inventory; capture.json. */
	int (*capture)(capture_req *q, jv *data, fp_err *e);
	/* Counter passes and derived metrics; counters.json. */
	int (*counters)(capture_req *q, jv *data, fp_err *e);
} capture_ops;

int amd_preflight(capture_req *q, jv *data, fp_err *e);
int amd_capture(capture_req *q, jv *data, fp_err *e);
int amd_counters(capture_req *q, jv *data, fp_err *e);

extern const capture_ops amd_capture_ops;

/* The one place that maps a --backend name (NULL = the default, "rocprofv3") to its capture
 * operations; NULL with BAD_ARGS (error.available = the names) for an unknown one. */
const capture_ops *capture_backend_for(const char *name, fp_err *e);

#endif
