/* The backend interface: what a command needs from a vendor's capture, as a struct of
 * operations with one instance per vendor (in the manner of git's ref-storage backends).
 *
 *   detect        1 when this backend reads the bundle (a flyprof bundle, a capture directory,
 *                 an export folder), asking b->dir's names of the listing it is given (the one
 *                 open then has in out->listing), not of the directory again
 *   open          opens the dispatch chosen by tag / dispatch (NULL = the backend's rule) and
 *                 reads its instructions into out->trace
 *   open_sibling  opens another dispatch of the same capture by directory (report's
 *                 run-to-run variation); NULL when the vendor has no sibling dispatches
 *   fill          fills a stall profile (model/profile.h, unranked) of an opened dispatch and
 *                 sets every instruction's class in out->trace
 *   close         releases what open acquired
 *   capture, counters  the capture side: slots for the capture path, NULL until a backend
 *                 implements them
 *
 * The instances live in their vendor folders (core/amd/amd_backend.c,
 * core/nvidia/nvidia_backend.c); registry.c lists them and is the one place the vendor of an
 * input is decided: backend_for() asks each in order (NVIDIA exports first, since an ATT
 * trace wins when a bundle has both and the AMD backend is the fallback whose errors name
 * what is missing). */
#ifndef FLYPROF_CORE_BACKEND_H
#define FLYPROF_CORE_BACKEND_H

#include "base/err.h"
#include "base/fileio.h"
#include "base/json/jv.h"
#include "core/bundle/bundle.h"
#include "core/bundle/choice.h"
#include "model/classes.h"
#include "model/profile.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Work a caller adds to a backend's own parallel pass over the trace's records, so that they
 * are read once (report: idle waves, exposed stall, the timeline). Each backend with such a
 * pass defines what it calls (AMD: core/amd/wave_pass.h); the others ignore it. */
struct wave_pass_hooks;

/* What a fill computes. (Named bubbles_params, not bubbles_opts: that name is the option table
 * of src/cmd/bubbles.c.) */
typedef struct bubbles_params {
	size_t top;			     /* length of hotspots, lines, waits; 0 = everything */
	int64_t detail_line;		     /* --detail CODE_LINE, or -1 (AMD only) */
	int threads;			     /* wave-file workers; 0 = one per online core */
	const struct wave_pass_hooks *hooks; /* NULL, or work added to the pass (above) */
} bubbles_params;

struct backend;

/* One opened dispatch. choice and trace are filled by open; priv is the backend's own. */
typedef struct backend_dispatch {
	const struct backend *be;
	dispatch_choice choice;
	trace_dispatch trace;
	const char *sources_from; /* the file the source lines came from (borrowed), or NULL */
	/* The files the dispatch was read from, when they are not simply the files of choice.dir
	 * (an ATT dispatch directory): an array of {"path" (absolute), "as" (its name inside a
	 * flyprof bundle)}, owned; NULL otherwise. `bundle` copies them. */
	jv *inputs;
	/* The names of the directory the dispatch is read from, listed once for every question
	 * about them (core/amd: --bundle's directory while the backend is chosen, then the chosen
	 * dispatch directory, when that is the one the registry listed or the only candidate;
	 * walked when first asked, released by backend_close). */
	file_listing listing;
	void *priv;
} backend_dispatch;

/* Capture and counter requests: defined by the capture path when it implements the slots. */
struct backend_capture_req;
struct backend_counters_req;

typedef struct backend {
	const char *name;     /* the manifest's backend name: "rocprofv3", "ncu" */
	const char *profiler; /* what the captures are made with, for messages */
	vendor_id vendor;
	prof_unit unit;
	int (*detect)(const bundle *b, file_listing *top); /* top: b->dir's names */
	int (*open)(const bundle *b, const char *tag, const char *dispatch, backend_dispatch *out,
		    fp_err *e);
	int (*open_sibling)(const backend_dispatch *like, const char *dir, backend_dispatch *out,
			    fp_err *e);
	int (*fill)(backend_dispatch *d, const bubbles_params *p, stall_profile *out, jv *warnings,
		    fp_err *e);
	void (*close)(backend_dispatch *d);
	int (*capture)(const struct backend_capture_req *req, jv **out, fp_err *e);
	int (*counters)(const struct backend_counters_req *req, jv **out, fp_err *e);
} backend;

/* The instances (core/amd, core/nvidia). */
extern const backend backend_amd;
extern const backend backend_nvidia;

/* The backend that reads bundle b (never NULL: AMD is the fallback). */
const backend *backend_for(const bundle *b);
/* The backend of a vendor. */
const backend *backend_of_vendor(vendor_id v);
/* backend_for(b)->open, with out zeroed first; on failure out is closed again. */
int backend_open(const bundle *b, const char *tag, const char *dispatch, backend_dispatch *out,
		 fp_err *e);
/* Opens a sibling dispatch of like; NO_ARTIFACT when the backend has none. */
int backend_open_sibling(const backend_dispatch *like, const char *dir, backend_dispatch *out,
			 fp_err *e);
/* Closes an opened (or zeroed) dispatch; safe to call twice. */
void backend_close(backend_dispatch *d);
/* Fill, rank (cut to p->top) and write: the bubbles object of an opened dispatch (owned by the
 * caller). counts (may be NULL) gets the list lengths before the cut. */
typedef struct bubbles_counts {
	size_t hotspots, lines, waits;
} bubbles_counts;
int backend_bubbles(backend_dispatch *d, const bubbles_params *p, jv **out, bubbles_counts *counts,
		    jv *warnings, fp_err *e);
/* The ranked profile backend_bubbles writes (profile_rank with p->top); the caller releases it
 * (also on failure), and it borrows d's trace: release it before closing d. */
int backend_profile(backend_dispatch *d, const bubbles_params *p, stall_profile *out, jv *warnings,
		    fp_err *e);

#endif
