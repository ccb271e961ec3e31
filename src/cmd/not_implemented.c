#include "cmd/cmds.h"

int cmd_not_implemented(cmd_ctx *ctx)
{
	return fp_fail(&ctx->err, ERR_NOT_IMPLEMENTED,
		       "`%s` is not implemented in this build of flyprof", ctx->cmd->name);
}
