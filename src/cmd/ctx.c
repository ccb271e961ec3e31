#include "cmd/command.h"

#include "base/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
