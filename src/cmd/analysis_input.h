/* The input side shared by the analysis commands (bubbles, map, report): one --bundle, one
 * chosen dispatch, its trace, and where the command's artifact goes.
 *
 *   analysis_open   requires --bundle (BAD_ARGS when missing), opens it (bundle_open) and the
 *                   dispatch through its backend (core/backend/backend.h: the AMD one selects
 *                   from --tag/--dispatch with NO_ARTIFACT, EMPTY_ATT, DISPATCH_OUT_OF_RANGE
 *                   and reads code.json; the NVIDIA one takes --dispatch as the export prefix).
 *                   Artifacts go: into --out DIR when given (bundle_open_write(DIR, "output"),
 *                   refusing foreign directories with NOT_A_BUNDLE); else into the bundle itself
 *                   when it is a flyprof bundle (opened for writing, so BUNDLE_LOCKED if another
 *                   flyprof writes it); else nowhere (a raw dispatch or foreign capture: the
 *                   result is in the envelope only). The writable bundle becomes ctx->bundle
 *                   (main records the step and closes it) and the envelope's "bundle" path is
 *                   the artifact bundle when there is one, else the --bundle directory.
 *   analysis_bubbles the bubbles object of the opened dispatch (fill, rank, write).
 *   analysis_write  writes <artifact bundle>/<name> as pretty JSON, or does nothing when there
 *                   is no artifact bundle; 0 or -1 with ctx->err set.
 *   analysis_close  releases what analysis_open acquired (not ctx->bundle: main owns it).
 *
 * in->trace (== &in->disp.trace) is the dispatch's instructions; its arch is --arch when given,
 * else the flyprof manifest's "arch", else what the backend read. */
#ifndef FLYPROF_CMD_ANALYSIS_INPUT_H
#define FLYPROF_CMD_ANALYSIS_INPUT_H

#include "cmd/command.h"
#include "core/backend/backend.h"
#include "core/bundle/bundle.h"

typedef struct analysis_input {
	bundle src;		       /* --bundle, opened for reading */
	backend_dispatch disp;	       /* the analysed dispatch, through its backend */
	const dispatch_choice *choice; /* == &disp.choice */
	trace_dispatch *trace;	       /* == &disp.trace */
	bundle *out; /* == ctx->bundle when artifacts are written, else NULL (borrowed) */
	int opened;  /* src is open */
} analysis_input;

int analysis_open(cmd_ctx *ctx, analysis_input *in);
/* The vendor of the opened input. */
vendor_id analysis_vendor(const analysis_input *in);
int analysis_bubbles(cmd_ctx *ctx, analysis_input *in, const bubbles_params *p, jv **out,
		     bubbles_counts *counts);
/* Fills a profile of the opened dispatch (classes set in in->trace), warnings discarded: for
 * views that need each instruction's class, not the bubbles object. profile_release after. */
int analysis_classify(cmd_ctx *ctx, analysis_input *in, stall_profile *p);
int analysis_write(cmd_ctx *ctx, analysis_input *in, const char *name, const jv *doc);
void analysis_close(analysis_input *in);

#endif
