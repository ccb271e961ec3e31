/* The state of one `flyprof bundle` run and its two bookkeeping phases (src/cmd/bundle.c
 * drives them):
 *
 *   export_copy        creates the temporary bundle (role "example"), copies the kept
 *                      dispatch's files (an ATT dispatch directory with the code objects
 *                      beside it and the rocprofv3 evidence; or the backend's input files,
 *                      e.g. Nsight Compute exports into ncu/) and (from a flyprof bundle)
 * counters.json / tile.json that report reads, sets the manifest (kernel, backend, arch, synthetic,
 * generator, source) and writes capture.json (which dispatch was kept and why, the candidate
 * inventory, what was copied/skipped). export_meta_finish after the analysis steps: fills the
 * manifest's arch from report.json when nothing named it earlier and writes the bundle's README.md.
 *   export_describe    the envelope data of a finished export.
 *
 * Ownership: an export_job owns everything it points to except the *_arg/tag/dispatch/name/
 * arch option strings (borrowed from ctx->opts); export_job_release frees it. Functions
 * return 0, or -1 with the error set. */
#ifndef FLYPROF_CMD_BUNDLE_EXPORT_META_H
#define FLYPROF_CMD_BUNDLE_EXPORT_META_H

#include "cmd/command.h"
#include "core/bundle/bundle.h"
#include "core/backend/backend.h"
#include "model/trace.h"

typedef struct export_job {
	const char *src_arg, *out_arg, *tag, *dispatch, *name, *arch;
	bundle src, old; /* the input; the example bundle being replaced (locked) */
	int src_open, old_open;
	backend_dispatch disp;	       /* the kept dispatch, opened through its backend */
	const dispatch_choice *choice; /* == &disp.choice */
	trace_dispatch *trace;	       /* == &disp.trace: its instructions */
	char *final, *tmp;	       /* absolute: the destination and the temporary tree */
	char *kept_rel;	  /* att/<tag>/<dispatch dir> (ATT) or ncu (Nsight Compute exports),
			     relative to the bundle */
	jv *src_manifest; /* manifest of the source (or of the bundle around a raw
			     dispatch), NULL if none */
	jv *report;	  /* report's envelope data */
	long files, code_objects;
	int made_parents; /* directory levels above final created for it */
	int fresh_fd;	  /* lock on a new or empty final, taken before any work; -1 if none */
	int fresh_made;	  /* final was created by this run (removed again on failure) */
} export_job;

void export_job_init(export_job *j);
void export_job_release(export_job *j);
int export_copy(cmd_ctx *ctx, export_job *j);
int export_meta_finish(bundle *b, export_job *j, fp_err *e);
void export_describe(cmd_ctx *ctx, const export_job *j);
double export_now(void);

#endif
