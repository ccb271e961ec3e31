/* `counters`: hardware counter passes on a kernel (docs/capture.md): derived metrics, the
 * roofline against the SoC table and counters.json, which `report` uses for the bound and
 * the counter rules. The verdict in the envelope is the one bound function's (bound.h). */
#include "cmd/capture_req.h"
#include "cmd/cmds.h"
#include "core/diagnose/bound.h"

const opt_spec counters_opts[] = {
    {"backend", 0, OPT_STR, "NAME", NULL, NULL, 1, "capture backend (default rocprofv3)"},
    OPT_END,
};

int cmd_counters(cmd_ctx *ctx)
{
	capture_req q;
	const backend *ops = capture_req_init(ctx, &q, 1);
	if (!ops)
		return -1;
	struct backend_counters_req cr = {q};
	jv *out = NULL;
	int rc = ops->counters(&cr, &out, &ctx->err);
	jv_free(ctx->data);
	ctx->data = out ? out : jv_object();
	for (size_t i = 0; i < jv_len(q.warnings); i++)
		ctx_warn(ctx, "%s", jv_string(jv_at(q.warnings, i)));
	if (rc == 0) {
		bound_verdict v;
		bound_decide(NULL, jv_get(ctx->data, "counters"), &v);
		jv_set(ctx->data, "bound", bound_to_jv(&v));
	}
	capture_req_release(&q);
	return rc;
}
