/* `run`: the full pipeline on one kernel: capture, then report. The backend is chosen here
 * and only here: --backend (FLYPROF_BACKEND) when given, else the machine's profiler (ncu
 * when it is on PATH and rocprofv3 is not). The Nsight Compute path is src/cmd/run_ncu.c; the
 * rocprofv3 path is not built yet (NOT_IMPLEMENTED). */
#include "cmd/cmds.h"
#include "cmd/run_ncu.h"
#include "drive/proc.h"

#include <stdlib.h>
#include <string.h>

const opt_spec run_opts[] = {
    {"backend", 0, OPT_STR, "rocprofv3|ncu", NULL, "rocprofv3|ncu", 1,
     "profiler backend (default: the one this machine has; ncu when only it is on PATH)"},
    {"launch-skip", 0, OPT_INT, "N", "0", NULL, 0,
     "ncu: matching kernel launches to skip before the one profiled (ncu -s)"},
    {"clock-control", 0, OPT_STR, "none|base", "none", "none|base", 1,
     "ncu: GPU clocks during profiling (ncu --clock-control)"},
    {"ncu", 0, OPT_STR, "PATH", NULL, NULL, 1, "the ncu executable (default: ncu on PATH)"},
    OPT_END,
};

static int machine_has(const char *prog)
{
	char *p = proc_which(prog);
	free(p);
	return p != NULL;
}

int cmd_run(cmd_ctx *ctx)
{
	const char *be = opts_str(&ctx->opts, "backend");
	if (!be)
		be = machine_has("rocprofv3") ||
			     !machine_has(opts_str(&ctx->opts, "ncu") ? opts_str(&ctx->opts, "ncu")
								      : "ncu")
			 ? "rocprofv3"
			 : "ncu";
	if (strcmp(be, "ncu") == 0)
		return cmd_run_ncu(ctx);
	return cmd_not_implemented(ctx);
}
