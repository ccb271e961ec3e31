/* capture_req.h */
#include "cmd/capture_req.h"

#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static char *owned_kernel; /* a kernel name read from capture.json (one command per process) */

char *capture_default_bundle(const char *kernel)
{
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "flyprof-bundles/");
	for (const char *p = kernel; *p; p++)
		sb_addc(&sb, (strchr("._-", *p) || (*p >= '0' && *p <= '9') ||
			      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) &&
				     !(p == kernel && *p == '.')
				 ? *p
				 : '_');
	return sb_detach(&sb);
}

static char *kernel_of_bundle(const char *dir)
{
	char *path = path_join(dir, "capture.json");
	fp_err e = FP_ERR_INIT;
	jv *cap = file_is_reg(path) ? json_parse_file(path, &e) : NULL;
	fp_err_clear(&e);
	free(path);
	const char *k = jv_string(jv_get(cap, "recipe_kernel"));
	char *out = k ? xstrdup(k) : NULL;
	jv_free(cap);
	return out;
}

static int open_bundle(capture_req *q, fp_err *e)
{
	cmd_ctx *ctx = q->opener;
	if (ctx->bundle) {
		q->b = ctx->bundle;
		return 0;
	}
	const char *bdir = opts_str(&ctx->opts, "bundle");
	char *dflt = bdir ? NULL : capture_default_bundle(q->kernel);
	bundle *b = xcalloc(1, sizeof *b);
	if (bundle_open_write(b, bdir ? bdir : dflt, "run", e)) {
		bundle_close(b);
		free(b);
		free(dflt);
		return -1;
	}
	free(dflt);
	ctx->bundle = b;
	ctx_set_bundle_path(ctx, b->dir);
	q->b = b;
	return 0;
}

const backend *capture_req_init(cmd_ctx *ctx, capture_req *q, int kernel_from_bundle)
{
	memset(q, 0, sizeof *q);
	const backend *ops = capture_backend_for(opts_str(&ctx->opts, "backend"), &ctx->err);
	if (!ops)
		return NULL;
	const char *bdir = opts_str(&ctx->opts, "bundle");
	q->kernel = ctx->positional;
	if (!q->kernel && kernel_from_bundle && bdir) {
		free(owned_kernel);
		owned_kernel = kernel_of_bundle(bdir);
		q->kernel = owned_kernel;
	}
	if (!q->kernel) {
		fp_fail(&ctx->err, ERR_USAGE, "`%s` needs a kernel name (see `flyprof list`)%s",
			ctx->cmd->name,
			kernel_from_bundle ? " or a --bundle holding capture.json" : "");
		return NULL;
	}
	if (opts_str(&ctx->opts, "out")) {
		fp_fail(&ctx->err, ERR_BAD_ARGS,
			"`%s` writes into its bundle; use --bundle DIR instead of --out",
			ctx->cmd->name);
		return NULL;
	}
	q->open_bundle = open_bundle;
	q->opener = ctx;
	q->worktree = opts_str(&ctx->opts, "worktree");
	q->invocation = opts_str(&ctx->opts, "invocation");
	q->shape = opts_str(&ctx->opts, "shape");
	q->iter_range = opts_str(&ctx->opts, "iter-range");
	q->tag = opts_str(&ctx->opts, "tag") ? opts_str(&ctx->opts, "tag") : "big";
	q->gpu = (int)opts_int(&ctx->opts, "gpu", 0);
	q->timeout_s = opts_num(&ctx->opts, "timeout", 1200);
	q->arch = opts_str(&ctx->opts, "arch");
	q->warnings = jv_array();
	return ops;
}

void capture_req_release(capture_req *q)
{
	jv_free(q->warnings);
	q->warnings = NULL;
}
