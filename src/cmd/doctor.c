/* `doctor`: placeholder until its issue lands; answers NOT_IMPLEMENTED (exit 70). */
#include "cmds.h"

const opt_spec doctor_opts[] = {
    OPT_END,
};

int cmd_doctor(cmd_ctx *ctx)
{
	return cmd_not_implemented(ctx);
}
