#include "cmd/command.h"

#include "base/signals.h"
#include "base/xalloc.h"
#include "core/bundle/bundle.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cmd_ctx_init(cmd_ctx *ctx, const command *c, int argc, char **argv)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->err = (fp_err)FP_ERR_INIT;
	ctx->cmd = c;
	ctx->argc = argc;
	ctx->argv = argv;
	ctx->data = jv_object();
	ctx->warnings = jv_array();
	ctx->truncated = jv_object();
}

void cmd_ctx_release(cmd_ctx *ctx)
{
	opts_release(&ctx->opts);
	jv_free(ctx->data);
	jv_free(ctx->warnings);
	jv_free(ctx->truncated);
	free(ctx->bundle_path);
	fp_err_clear(&ctx->err);
}

int cmd_ctx_run(cmd_ctx *ctx, int argc, char **argv)
{
	const opt_spec *specs[5];
	command_option_specs(ctx->cmd, specs);
	int rc = opts_parse(&ctx->opts, specs, argc, argv, &ctx->err);
	if (rc == 0) {
		ctx->positional = ctx->opts.nargs ? ctx->opts.args[0] : NULL;
		rc = ctx->cmd->fn(ctx);
	}
	const char *name = ctx->cmd->name;
	if (rc != 0 && !ctx->err.set)
		fp_fail(&ctx->err, ERR_INTERNAL, "`%s` failed without saying why", name);
	if (rc == 0 && signals_pending())
		rc = fp_fail(&ctx->err, ERR_INTERRUPTED, "interrupted during `%s`", name);
	return rc;
}

int cmd_ctx_finish_bundle(cmd_ctx *ctx, int rc, double seconds)
{
	if (!ctx->bundle)
		return rc;
	fp_err e2 = FP_ERR_INIT;
	int status = rc ? err_exit_status(ctx->err.code) : 0;
	if (bundle_record_step(ctx->bundle, ctx->cmd->name, ctx->argc, ctx->argv, status, seconds,
			       &e2) &&
	    rc == 0) {
		fp_err_move(&ctx->err, &e2);
		rc = -1;
	}
	fp_err_clear(&e2);
	bundle_close(ctx->bundle);
	free(ctx->bundle);
	ctx->bundle = NULL;
	return rc;
}

void ctx_warn(cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jv_push(ctx->warnings, jv_vstrf(fmt, ap));
	va_end(ap);
}

void ctx_truncated(cmd_ctx *ctx, const char *what, size_t shown, size_t total, const char *flag)
{
	jv *t = jv_set(ctx->truncated, what, jv_object());
	jv_set_int(t, "shown", (int64_t)shown);
	jv_set_int(t, "total", (int64_t)total);
	if (flag)
		jv_set_str(t, "more", flag);
}

void ctx_set_bundle_path(cmd_ctx *ctx, const char *path)
{
	free(ctx->bundle_path);
	ctx->bundle_path = path ? xstrdup(path) : NULL;
}

void command_option_specs(const command *c, const opt_spec *specs[5])
{
	int n = 0;
	specs[n++] = c->opts;
	if (c->flags & CMD_PROFILER_OPTS)
		specs[n++] = profiler_opts;
	if (c->flags & CMD_ANALYSIS_OPTS)
		specs[n++] = analysis_opts;
	specs[n++] = universal_opts;
	specs[n] = NULL;
}
