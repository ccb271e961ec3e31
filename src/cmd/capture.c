/* `capture`: runs the profiler on a kernel (docs/capture.md): a discovery pass, the kernel
 * choice with its confidence and the candidate list, one thread-trace pass per tag, the
 * dispatch inventory and capture.json in the bundle. */
#include "cmd/capture_req.h"
#include "cmd/cmds.h"

const opt_spec capture_opts[] = {
    {"backend", 0, OPT_STR, "NAME", NULL, NULL, 1, "capture backend (default rocprofv3)"},
    OPT_END,
};

static void move_warnings(cmd_ctx *ctx, capture_req *q)
{
	for (size_t i = 0; q->warnings && i < jv_len(q->warnings); i++)
		ctx_warn(ctx, "%s", jv_string(jv_at(q->warnings, i)));
}

int cmd_capture(cmd_ctx *ctx)
{
	capture_req q;
	const backend *ops = capture_req_init(ctx, &q, 0);
	if (!ops)
		return -1;
	jv *out = NULL;
	int rc = ops->capture(&q, &out, &ctx->err);
	jv_free(ctx->data);
	ctx->data = out ? out : jv_object();
	move_warnings(ctx, &q);
	capture_req_release(&q);
	return rc;
}
