#include "cmd/analysis_input.h"

#include "base/xalloc.h"
#include "base/fileio.h"
#include "core/nvidia/ncu_bubbles.h"
#include "read/amd/att_code.h"

#include <stdlib.h>
#include <string.h>

static int open_artifact_bundle(cmd_ctx *ctx, analysis_input *in)
{
	const char *out = opts_str(&ctx->opts, "out");
	if (!out && in->src.kind != BUNDLE_FLYPROF)
		return 0;
	bundle *b = xcalloc(1, sizeof *b);
	if (bundle_open_write(b, out ? out : in->src.dir, out ? "output" : "run", &ctx->err)) {
		bundle_close(b);
		free(b);
		return -1;
	}
	if (out) {
		bundle_set_meta(b, "source", jv_str(in->choice.dir));
		if (in->trace.kernel)
			bundle_set_meta(b, "kernel", jv_str(in->trace.kernel));
		if (in->trace.arch)
			bundle_set_meta(b, "arch", jv_str(in->trace.arch));
		bundle_set_meta(b, "backend", jv_str(in->nvidia ? "ncu" : "rocprofv3"));
	}
	ctx->bundle = b;
	in->out = b;
	ctx_set_bundle_path(ctx, b->dir);
	return 0;
}

static void set_arch(cmd_ctx *ctx, analysis_input *in)
{
	const char *a = opts_str(&ctx->opts, "arch");
	if (!a && in->src.manifest)
		a = jv_string(jv_get(in->src.manifest, "arch"));
	if (!a)
		return; /* keep what the reader found (Nsight Compute details name it) */
	free(in->trace.arch);
	in->trace.arch = a ? xstrdup(a) : NULL;
}

/* The directory of Nsight Compute exports when the input is an NVIDIA capture (and holds no
 * ATT trace, which wins when a bundle has both), else NULL. Caller frees. */
static char *find_ncu_dir(const bundle *b)
{
	char *att = path_join(b->dir, "att");
	int has_att = file_is_dir(att);
	free(att);
	if (has_att)
		return NULL;
	if (ncu_bundle_has_exports(b->dir))
		return path_join(b->dir, "ncu");
	return ncu_dir_has_exports(b->dir) ? xstrdup(b->dir) : NULL;
}

static int open_ncu(cmd_ctx *ctx, analysis_input *in, const char *dir)
{
	const char *prefix = opts_str(&ctx->opts, "dispatch");
	if (ncu_exports_find(dir, prefix, &in->ncu, &ctx->err))
		return -1;
	in->nvidia = 1;
	if (ncu_trace_load(&in->ncu, &in->trace, &ctx->err))
		return -1;
	free(in->trace.dir);
	in->trace.dir = xstrdup(in->ncu.dir);
	in->choice.dir = xstrdup(in->ncu.dir);
	in->choice.id = prefix ? xstrdup(prefix) : NULL;
	in->choice.why =
	    xstrdup(prefix ? "the Nsight Compute exports named by --dispatch"
			   : "the only set of Nsight Compute exports in the directory");
	in->choice.candidates = jv_array();
	return 0;
}

int analysis_bubbles(cmd_ctx *ctx, analysis_input *in, const bubbles_params *p, jv **out,
		     bubbles_counts *counts)
{
	if (!in->nvidia)
		return bubbles_compute(&in->trace, &in->choice, p, out, counts, ctx->warnings,
				       &ctx->err);
	ncu_bubbles_params np = {p->top};
	ncu_bubbles_counts nc = {0, 0, 0};
	if (p->detail_line >= 0)
		ctx_warn(ctx, "--detail is not available for Nsight Compute captures (no per-warp "
			      "records); ignored");
	int rc = ncu_bubbles_from_exports(&in->ncu, &np, out, &nc, ctx->warnings, &ctx->err);
	if (counts) {
		counts->hotspots = nc.hotspots;
		counts->lines = nc.lines;
		counts->waits = nc.waits;
	}
	return rc;
}

int analysis_open(cmd_ctx *ctx, analysis_input *in)
{
	memset(in, 0, sizeof *in);
	trace_dispatch_init(&in->trace);
	const char *path = opts_str(&ctx->opts, "bundle");
	if (!path) {
		fp_fail(&ctx->err, ERR_BAD_ARGS, "`%s` needs --bundle DIR", ctx->cmd->name);
		fp_err_set_help(&ctx->err, "pass --bundle a flyprof bundle, a capture directory or "
					   "a ui_output_agent_*_dispatch_* directory");
		return -1;
	}
	if (bundle_open(&in->src, path, &ctx->err))
		return -1;
	in->opened = 1;
	ctx_set_bundle_path(ctx, in->src.dir);
	char *ncu_dir = find_ncu_dir(&in->src);
	if (ncu_dir) {
		int rc = open_ncu(ctx, in, ncu_dir);
		free(ncu_dir);
		if (rc)
			return -1;
	} else {
		if (dispatch_select(&in->src, opts_str(&ctx->opts, "tag"),
				    opts_str(&ctx->opts, "dispatch"), &in->choice, &ctx->err))
			return -1;
		if (att_code_read(in->choice.dir, &in->trace, &ctx->err))
			return -1;
	}
	set_arch(ctx, in);
	return open_artifact_bundle(ctx, in);
}

int analysis_write(cmd_ctx *ctx, analysis_input *in, const char *name, const jv *doc)
{
	if (!in->out)
		return 0;
	return bundle_write_json(in->out, name, doc, &ctx->err);
}

void analysis_close(analysis_input *in)
{
	if (in->opened)
		bundle_close(&in->src);
	dispatch_choice_release(&in->choice);
	trace_dispatch_free(&in->trace);
	ncu_exports_free(&in->ncu);
	memset(in, 0, sizeof *in);
}
