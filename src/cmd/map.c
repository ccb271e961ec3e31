/* `map`: placeholder until its issue lands; answers NOT_IMPLEMENTED (exit 70). */
#include "cmds.h"

const opt_spec map_opts[] = {
    OPT_END,
};

int cmd_map(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
