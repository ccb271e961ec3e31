/* `list`: not built yet; answers NOT_IMPLEMENTED (exit 70). */
#include "cmd/cmds.h"

const opt_spec list_opts[] = {
    OPT_END,
};

int cmd_list(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
