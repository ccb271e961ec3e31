/* The input side shared by the analysis commands (bubbles, map, report): one --bundle, one
 * chosen dispatch, its trace, and where the command's artifact goes.
 *
 *   analysis_open   requires --bundle (BAD_ARGS when missing), opens it (bundle_open), selects
 *                   the dispatch from --tag/--dispatch (dispatch_select: NO_ARTIFACT, EMPTY_ATT,
 *                   DISPATCH_OUT_OF_RANGE) and reads its code.json (att_code_read: BAD_INPUT).
 *                   Artifacts go: into --out DIR when given (bundle_open_write(DIR, "output"),
 *                   refusing foreign directories with NOT_A_BUNDLE); else into the bundle itself
 *                   when it is a flyprof bundle (opened for writing, so BUNDLE_LOCKED if another
 *                   flyprof writes it); else nowhere (a raw dispatch or foreign capture: the
 *                   result is in the envelope only). The writable bundle becomes ctx->bundle
 *                   (main records the step and closes it) and the envelope's "bundle" path is
 *                   the artifact bundle when there is one, else the --bundle directory.
 *   analysis_write  writes <artifact bundle>/<name> as pretty JSON, or does nothing when there
 *                   is no artifact bundle; 0 or -1 with ctx->err set.
 *   analysis_close  releases what analysis_open acquired (not ctx->bundle: main owns it).
 *
 * trace.arch is --arch when given, else the flyprof manifest's "arch", else NULL.
 *
 * NVIDIA: a bundle with an ncu/ directory of Nsight Compute exports (or a directory holding
 * the exports itself) is read through ncu_trace_load instead; --dispatch then picks the
 * export prefix when several captures share the directory (docs/nvidia.md). */
#ifndef FLYPROF_CMD_ANALYSIS_INPUT_H
#define FLYPROF_CMD_ANALYSIS_INPUT_H

#include "cmd/command.h"
#include "core/bundle/bundle.h"
#include "core/amd/bubbles.h"
#include "core/amd/dispatch_select.h"
#include "core/nvidia/ncu_bundle.h"
#include "model/trace.h"

typedef struct analysis_input {
	bundle src;		/* --bundle, opened for reading */
	dispatch_choice choice; /* the analysed dispatch */
	trace_dispatch trace;	/* its code.json */
	bundle *out; /* == ctx->bundle when artifacts are written, else NULL (borrowed) */
	int opened;  /* src is open */
	int nvidia;  /* the input is an Nsight Compute capture: ncu holds its exports */
	ncu_exports ncu;
} analysis_input;

int analysis_open(cmd_ctx *ctx, analysis_input *in);
/* The bubbles object of the opened input, whichever backend produced it (rocprofv3 ATT or
 * Nsight Compute; the same keys, docs/bubbles.md and docs/nvidia.md). */
int analysis_bubbles(cmd_ctx *ctx, analysis_input *in, const bubbles_params *p, jv **out,
		     bubbles_counts *counts);
int analysis_write(cmd_ctx *ctx, analysis_input *in, const char *name, const jv *doc);
void analysis_close(analysis_input *in);

#endif
