/* `report`: placeholder until its issue lands; answers NOT_IMPLEMENTED (exit 70). */
#include "cmds.h"

const opt_spec report_opts[] = {
    OPT_END,
};

int cmd_report(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
