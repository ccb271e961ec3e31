/* `bundle`: not built yet; answers NOT_IMPLEMENTED (exit 70). */
#include "cmds.h"

const opt_spec bundle_opts[] = {
    OPT_END,
};

int cmd_bundle(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
