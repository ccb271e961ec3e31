/* `run --backend ncu`: capture one kernel with Nsight Compute into a bundle
 * (drive/ncu_capture.h: <bundle>/ncu/ exports, logs/, capture.json), then the report on it
 * (report.json, REPORT.md in the bundle). The envelope's data: {capture, report} where report
 * is the data `flyprof report` prints. */
#ifndef FLYPROF_CMD_RUN_NCU_H
#define FLYPROF_CMD_RUN_NCU_H

#include "cmd/command.h"

int cmd_run_ncu(cmd_ctx *ctx);

#endif
