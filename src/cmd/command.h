/* The command interface. A command parses nothing itself (its options are declared), prints
 * nothing and never exits: it reads ctx->opts, fills ctx->data (and warnings/truncated), and
 * returns 0, or -1 with ctx->err set. main renders the one envelope from the context. */
#ifndef FLYPROF_CLI_COMMAND_H
#define FLYPROF_CLI_COMMAND_H

#include "base/err.h"
#include "base/json/jv.h"
#include "cmd/opts.h"

#include <stddef.h>

struct bundle;

enum command_flags {
	CMD_NEEDS_GPU = 1 << 0,	 /* talks to a GPU through a profiler */
	CMD_RUNS_TOOLS = 1 << 1, /* runs external programs (profiler, rocminfo, ...) */
	CMD_READS_BUNDLE = 1 << 2,
	CMD_WRITES_BUNDLE = 1 << 3,
	CMD_PROFILER_OPTS = 1 << 4, /* takes --timeout --iter-range --tag --invocation --shape */
	CMD_ANALYSIS_OPTS = 1 << 5, /* takes --tag --dispatch --top --all */
	CMD_TAKES_PROGRAM = 1 << 6, /* positionals after the first: the program to run (after --) */
};

typedef struct cmd_ctx cmd_ctx;

typedef struct command {
	const char *name;
	int (*fn)(cmd_ctx *ctx);
	unsigned flags;
	const char *positional; /* name of the optional positional ("kernel"), or NULL */
	const opt_spec *opts;	/* command-specific options, OPT_END terminated */
	const char *summary;
} command;

struct cmd_ctx {
	const command *cmd;
	opts opts;
	const char *positional; /* first positional argument or NULL (borrowed from opts) */
	int argc;		/* the original command line, recorded in bundle manifests */
	char **argv;
	jv *data;	       /* object the command fills */
	jv *warnings;	       /* array of strings */
	jv *truncated;	       /* object: what was cut and how much existed */
	char *bundle_path;     /* shown as "bundle" in the envelope (absolute), owned */
	struct bundle *bundle; /* opened for writing by the command, closed by main */
	fp_err err;
};

/* Sets up ctx to run command c (may be NULL until it is known) for the command line argv:
 * empty data, warnings and truncated, no error. */
void cmd_ctx_init(cmd_ctx *ctx, const command *c, int argc, char **argv);
/* Frees what a run left in ctx (options, data, warnings, truncated, bundle path, error); the
 * bundle itself is closed by whoever ran the command, after recording the step. */
void cmd_ctx_release(cmd_ctx *ctx);
/* Runs ctx->cmd in process with the options in argv[0..argc), as main would: a failure that
 * set no error becomes INTERNAL, a signal that arrived meanwhile INTERRUPTED. Returns 0 or -1
 * with ctx->err set. The step record and closing ctx->bundle are left to the caller. */
int cmd_ctx_run(cmd_ctx *ctx, int argc, char **argv);
/* After cmd_ctx_run: records the step (its exit status and `seconds`) in the bundle the command
 * wrote, if any, and closes it. Returns rc, or -1 with ctx->err set when a successful run's
 * step could not be recorded. */
int cmd_ctx_finish_bundle(cmd_ctx *ctx, int rc, double seconds);
void ctx_warn(cmd_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes that list `what` was cut to `shown` of `total` items and names the flag that lifts it. */
void ctx_truncated(cmd_ctx *ctx, const char *what, size_t shown, size_t total, const char *flag);
/* Sets the bundle path shown in the envelope. */
void ctx_set_bundle_path(cmd_ctx *ctx, const char *path);

/* The command table (src/cli/commands.c) and its lookup. */
extern const command commands[];
extern const size_t commands_count;
const command *command_find(const char *name);

/* Universal options every command takes, and the option groups of docs/architecture.md#commands. */
extern const opt_spec universal_opts[];
extern const opt_spec profiler_opts[];
extern const opt_spec analysis_opts[];
/* The option arrays a command accepts, NULL terminated (at most 4 + 1). */
void command_option_specs(const command *c, const opt_spec *specs[5]);

#endif
