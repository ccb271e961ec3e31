/* Entry points and option tables of the commands, one file each under src/cmd/. */
#ifndef FLYPROF_CMD_CMDS_H
#define FLYPROF_CMD_CMDS_H

#include "cmd/command.h"

#define FLYPROF_COMMANDS(X)                                                                        \
	X(list)                                                                                    \
	X(doctor)                                                                                  \
	X(tile)                                                                                    \
	X(capture)                                                                                 \
	X(counters)                                                                                \
	X(bubbles)                                                                                 \
	X(map)                                                                                     \
	X(report)                                                                                  \
	X(bundle)                                                                                  \
	X(run)                                                                                     \
	X(diff)                                                                                    \
	X(ledger)

#define X(name)                                                                                    \
	int cmd_##name(cmd_ctx *ctx);                                                              \
	extern const opt_spec name##_opts[];
FLYPROF_COMMANDS(X)
#undef X

/* Shared answer of a command that is not built yet: NOT_IMPLEMENTED, never a fake result. */
int cmd_not_implemented(cmd_ctx *ctx);

#endif
