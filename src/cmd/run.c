/* `run`: not built yet; answers NOT_IMPLEMENTED (exit 70). */
#include "cmd/cmds.h"

const opt_spec run_opts[] = {
    OPT_END,
};

int cmd_run(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
