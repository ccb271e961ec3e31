#include "cmd/analysis_input.h"

#include "base/fileio.h"
#include "base/output_guard.h"
#include "base/xalloc.h"

#include <stdio.h>
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
		bundle_set_meta(b, "source", jv_str(in->choice->dir));
		if (in->trace->kernel)
			bundle_set_meta(b, "kernel", jv_str(in->trace->kernel));
		if (in->trace->arch)
			bundle_set_meta(b, "arch", jv_str(in->trace->arch));
		bundle_set_meta(b, "backend", jv_str(in->disp.be->name));
	}
	ctx->bundle = b;
	in->out = b;
	ctx_set_bundle_path(ctx, b->dir);
	return 0;
}

/* Outputs named on the command line are checked before any work (docs/security.md): no
 * device, FIFO, socket, directory or link as a target file, and nothing inside the dispatch
 * being analysed or inside a read-only input. */
static int check_outputs(cmd_ctx *ctx, const analysis_input *in)
{
	static const char *const names[] = {"out",   "folded",	 "speedscope", "svg",
					    "sarif", "timeline", NULL};
	const char *roots[3] = {NULL, NULL, NULL};
	size_t n = 0;
	if (in->choice->dir)
		roots[n++] = in->choice->dir;
	if (in->src.kind != BUNDLE_FLYPROF)
		roots[n++] = in->src.dir;
	for (size_t i = 0; names[i]; i++) {
		const char *p = opts_str(&ctx->opts, names[i]);
		if (!p)
			continue;
		char flag[32];
		snprintf(flag, sizeof flag, "--%s", names[i]);
		if (strcmp(names[i], "out") != 0 && output_guard_target(p, flag, &ctx->err))
			return -1;
		if (output_guard_outside(p, flag, roots, &ctx->err))
			return -1;
	}
	return 0;
}

static void set_arch(cmd_ctx *ctx, analysis_input *in)
{
	const char *a = opts_str(&ctx->opts, "arch");
	if (!a && in->src.manifest)
		a = jv_string(jv_get(in->src.manifest, "arch"));
	if (!a)
		return; /* keep what the reader found (Nsight Compute details name it) */
	free(in->trace->arch);
	in->trace->arch = xstrdup(a);
}

vendor_id analysis_vendor(const analysis_input *in)
{
	return in->disp.be ? in->disp.be->vendor : VENDOR_AMD;
}

int analysis_bubbles(cmd_ctx *ctx, analysis_input *in, const bubbles_params *p, jv **out,
		     bubbles_counts *counts)
{
	if (p->detail_line >= 0 && analysis_vendor(in) != VENDOR_AMD) {
		bubbles_params q = *p;
		q.detail_line = -1;
		ctx_warn(ctx,
			 "--detail is not available for %s captures (no per-warp records); "
			 "ignored",
			 in->disp.be->profiler);
		return backend_bubbles(&in->disp, &q, out, counts, ctx->warnings, &ctx->err);
	}
	return backend_bubbles(&in->disp, p, out, counts, ctx->warnings, &ctx->err);
}

int analysis_classify(cmd_ctx *ctx, analysis_input *in, stall_profile *p)
{
	bubbles_params q = {0, -1, 0, NULL};
	jv *scratch = jv_array();
	int rc = in->disp.be->fill(&in->disp, &q, p, scratch, &ctx->err);
	jv_free(scratch);
	return rc;
}

int analysis_open(cmd_ctx *ctx, analysis_input *in)
{
	memset(in, 0, sizeof *in);
	in->choice = &in->disp.choice;
	in->trace = &in->disp.trace;
	trace_dispatch_init(in->trace);
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
	/* --dispatch is a dispatch id, a directory name or an export prefix, joined to a
	 * directory of the input: a path there would read outside --bundle. */
	const char *dsp = opts_str(&ctx->opts, "dispatch");
	if (dsp && (!*dsp || strchr(dsp, '/') || strcmp(dsp, ".") == 0 || strcmp(dsp, "..") == 0))
		return fp_fail(&ctx->err, ERR_BAD_ARGS,
			       "--dispatch '%s' must name a dispatch or export prefix, not a path",
			       dsp);
	if (backend_open(&in->src, opts_str(&ctx->opts, "tag"), dsp, &in->disp, &ctx->err))
		return -1;
	set_arch(ctx, in);
	if (check_outputs(ctx, in))
		return -1;
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
	backend_close(&in->disp);
	memset(in, 0, sizeof *in);
}
