/* `counters`: not built yet; answers NOT_IMPLEMENTED (exit 70). */
#include "cmd/cmds.h"

const opt_spec counters_opts[] = {
    OPT_END,
};

int cmd_counters(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
