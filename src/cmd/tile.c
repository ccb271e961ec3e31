/* `tile`: placeholder until its issue lands; answers NOT_IMPLEMENTED (exit 70). */
#include "cmds.h"

const opt_spec tile_opts[] = {
    OPT_END,
};

int cmd_tile(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
