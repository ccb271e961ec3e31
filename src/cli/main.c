/* flyprof entry point: find the command, parse its declared options, run it, render the one
 * envelope (JSON or table) and exit with the status bound to error.code. Nothing else is
 * printed on stdout except for --help and --version. */
#include "base/err.h"
#include "base/fileio.h"
#include "base/signals.h"
#include "base/strbuf.h"
#include "base/suggest.h"
#include "base/undo.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "cmd/command.h"
#include "cli/help.h"
#include "out/envelope.h"
#include "base/json/json_write.h"
#include "out/knob_table_md.h"
#include "out/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int takes_value(const char *arg)
{
	if (arg[0] != '-' || strchr(arg, '='))
		return 0;
	for (const opt_spec *s = universal_opts; s->name; s++) {
		if (s->kind == OPT_FLAG)
			continue;
		if ((arg[1] == '-' && strcmp(arg + 2, s->name) == 0) ||
		    (arg[1] == s->short_name && arg[2] == '\0' && s->short_name))
			return 1;
	}
	return 0;
}

/* Index of the command word: the first bare word that is not the value of a universal option
 * given before it (so `flyprof --bundle B bubbles` works too). -1 if none. */
static int find_command(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		if (argv[i][0] != '-')
			return i;
		if (takes_value(argv[i]))
			i++;
	}
	return -1;
}

static int has_arg(int argc, char **argv, const char *a, const char *b)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], a) == 0 || (b && strcmp(argv[i], b) == 0))
			return 1;
	return 0;
}

static void print_text(const strbuf *sb)
{
	fwrite(sb_str(sb), 1, sb->len, stdout);
	fflush(stdout);
}

/* The format comes from --format / -f, FLYPROF_FORMAT, else whether stdout is a terminal. A
 * bad value still yields a JSON envelope (the error is reported by opts_parse). */
static int want_table(const cmd_ctx *ctx)
{
	const char *f = opts_str(&ctx->opts, "format");
	if (f)
		return strcmp(f, "table") == 0;
	return isatty(STDOUT_FILENO);
}

/* Columns of the table view: $COLUMNS, else the terminal's, else TABLE_DEFAULT_WIDTH. */
static int table_width(void)
{
	const char *c = getenv("COLUMNS");
	long w = c ? strtol(c, NULL, 10) : 0;
	struct winsize ws;
	if (w <= 0 && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		w = ws.ws_col;
	return w > 0 && w < 10000 ? (int)w : TABLE_DEFAULT_WIDTH;
}

static int emit(cmd_ctx *ctx, const char *command_name, int table)
{
	/* Only a signal that arrives after settle() committed the result gets here: the result
	 * is complete and stands. */
	if (!ctx->err.set && signals_pending())
		ctx_warn(ctx, "signal %d arrived after the result was written; it stands",
			 signals_pending());
	jv *env = envelope_build(command_name, ctx->bundle_path, ctx->data, ctx->warnings,
				 ctx->truncated, &ctx->err);
	strbuf out = STRBUF_INIT;
	if (table)
		table_render(&out, env, table_width(), opts_flag(&ctx->opts, "full"));
	else {
		json_write(&out, env, opts_flag(&ctx->opts, "compact") ? 0 : 2);
		sb_addc(&out, '\n');
	}
	print_text(&out);
	sb_release(&out);
	jv_free(env);
	return envelope_exit_status(&ctx->err);
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_command(cmd_ctx *ctx, int argc, char **argv, int ci)
{
	const opt_spec *specs[5];
	command_option_specs(ctx->cmd, specs);
	/* Everything except the command word goes to the option parser. */
	char **rest = xcalloc((size_t)argc, sizeof *rest);
	int nrest = 0;
	for (int i = 1; i < argc; i++)
		if (i != ci)
			rest[nrest++] = argv[i];
	int rc = opts_parse(&ctx->opts, specs, nrest, rest, &ctx->err);
	free(rest);
	if (rc)
		return -1;
	if (ctx->opts.help) {
		strbuf sb = STRBUF_INIT;
		help_command(&sb, ctx->cmd);
		print_text(&sb);
		sb_release(&sb);
		return 1;
	}
	size_t max_pos = ctx->cmd->positional ? 1 : 0;
	if (ctx->opts.nargs > max_pos && !(ctx->cmd->flags & CMD_TAKES_PROGRAM))
		return fp_fail(&ctx->err, ERR_USAGE, "unexpected argument '%s'",
			       ctx->opts.args[max_pos]);
	ctx->positional = ctx->opts.nargs ? ctx->opts.args[0] : NULL;
	const char *b = opts_str(&ctx->opts, "bundle");
	if (b) {
		char *abs = path_abs(b);
		ctx_set_bundle_path(ctx, abs ? abs : b);
		free(abs);
	}
	double t0 = now_seconds();
	rc = ctx->cmd->fn(ctx);
	if (rc != 0 && !ctx->err.set)
		fp_fail(&ctx->err, ERR_INTERNAL, "`%s` failed without saying why", ctx->cmd->name);
	if (rc == 0 && ctx->err.set)
		rc = -1; /* an error recorded on the way wins over a claimed success */
	/* rc == 0 exactly when no error is set here, as cmd_ctx_finish_bundle expects */
	return cmd_ctx_finish_bundle(ctx, rc, now_seconds() - t0);
}

/* The one interruption model (docs/security.md): a signal received before the command's
 * result is committed ends it with INTERRUPTED, and everything it created or replaced is
 * restored (base/undo.h), wherever in the command the signal landed. A command that fails
 * after creating its output bundle removes it again, unless the failure left its evidence
 * there (a profiler log the error names: undo_keep_on_failure); other failures keep what they
 * wrote (the step record of the bundle says what happened). */
static void settle(cmd_ctx *ctx, int rc)
{
	int sig = signals_pending();
	if (sig && !undo_committed()) {
		if (!ctx->err.set || ctx->err.code != ERR_INTERRUPTED) {
			fp_err_clear(&ctx->err);
			fp_fail(
			    &ctx->err, ERR_INTERRUPTED,
			    "interrupted by signal %d before the result was complete; every file "
			    "this run created or replaced was restored",
			    sig);
		}
		undo_rollback();
		return;
	}
	if (rc < 0 && undo_fresh() && !undo_keeps_failure())
		undo_rollback();
	else
		undo_commit();
}

/* `--man` (flyprof(1)) or `--man=COMMAND`; 1 when asked (sb empty for an unknown command). */
static int man_request(int argc, char **argv, strbuf *sb)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--man") == 0) {
			help_man(sb, NULL);
			return 1;
		}
		if (strncmp(argv[i], "--man=", 6) == 0) {
			const command *c = command_find(argv[i] + 6);
			if (c)
				help_man(sb, c);
			return 1;
		}
	}
	return 0;
}

static int unknown_man_page(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--man=", 6) == 0)
			fprintf(stderr, "flyprof: no command '%s'\n", argv[i] + 6);
	return 64;
}

/* USAGE for an unknown command word, naming the nearest command when one is close. */
static void unknown_command(cmd_ctx *ctx, const char *name)
{
	const char *names[64];
	size_t n = 0;
	jv *avail = jv_array();
	for (size_t i = 0; i < commands_count && n < 64; i++) {
		names[n++] = commands[i].name;
		jv_push(avail, jv_str(commands[i].name));
	}
	const char *near = suggest_nearest(name, names, n);
	if (near) {
		fp_fail(&ctx->err, ERR_USAGE, "unknown command '%s'; did you mean '%s'?", name,
			near);
		fp_err_extra(&ctx->err, "suggestion", jv_str(near));
	} else {
		fp_fail(&ctx->err, ERR_USAGE, "unknown command '%s'", name);
	}
	fp_err_extra(&ctx->err, "available", avail);
}

/* `flyprof help [COMMAND]`: the same text as --help. Returns the exit status, or -1 when
 * COMMAND is unknown (the caller then answers with a USAGE envelope). */
static int help_word(int argc, char **argv, int ci)
{
	const char *topic = ci + 1 < argc ? argv[ci + 1] : NULL;
	const command *c = topic ? command_find(topic) : NULL;
	if (topic && !c)
		return -1;
	strbuf sb = STRBUF_INIT;
	if (c)
		help_command(&sb, c);
	else
		help_top(&sb);
	print_text(&sb);
	sb_release(&sb);
	return 0;
}

int main(int argc, char **argv)
{
	xalloc_tune_heap();
	signals_install();
	int ci = find_command(argc, argv);
	if (ci < 0) {
		strbuf sb = STRBUF_INIT;
		if (has_arg(argc, argv, "--version", NULL)) {
			sb_addf(&sb, "flyprof %s (commit %s)\n", FLYPROF_VERSION, flyprof_commit);
		} else if (has_arg(argc, argv, "--errors-md", NULL)) {
			help_errors_md(&sb);
		} else if (has_arg(argc, argv, "--config-md", NULL)) {
			help_config_md(&sb);
		} else if (has_arg(argc, argv, "--knob-table-md", NULL)) {
			int st = knob_table_md_main(&sb);
			if (st) {
				sb_release(&sb);
				return st;
			}
		} else if (has_arg(argc, argv, "--completion", NULL) ||
			   has_arg(argc, argv, "--completion=bash", NULL)) {
			help_completion_bash(&sb);
		} else if (has_arg(argc, argv, "--completion=zsh", NULL)) {
			help_completion_zsh(&sb);
		} else if (has_arg(argc, argv, "--command-names", NULL)) {
			for (size_t i = 0; i < commands_count; i++)
				sb_addf(&sb, "%s\n", commands[i].name);
		} else if (man_request(argc, argv, &sb)) {
			if (!sb.len)
				return unknown_man_page(argc, argv);
		} else if (has_arg(argc, argv, "--help", "-h")) {
			help_top(&sb);
		}
		if (sb.len) {
			print_text(&sb);
			sb_release(&sb);
			return 0;
		}
	}
	cmd_ctx ctx;
	cmd_ctx_init(&ctx, NULL, argc, argv);
	const char *name = ci >= 0 ? argv[ci] : NULL;
	if (name && strcmp(name, "help") == 0) {
		int st = help_word(argc, argv, ci);
		if (st >= 0) {
			cmd_ctx_release(&ctx);
			return st;
		}
		name = argv[ci + 1]; /* an unknown topic is answered like an unknown command */
	}
	int status;
	if (ci < 0) {
		fp_fail(&ctx.err, ERR_USAGE, "no command given; run `flyprof --help`");
		status = emit(&ctx, NULL, isatty(STDOUT_FILENO));
	} else if (!(ctx.cmd = command_find(name))) {
		unknown_command(&ctx, name);
		status = emit(&ctx, name, isatty(STDOUT_FILENO));
	} else {
		undo_begin();
		xalloc_oom_envelope(ctx.cmd->name);
		int rc = run_command(&ctx, argc, argv, ci);
		settle(&ctx, rc);
		status = rc == 1 ? 0 : emit(&ctx, name, want_table(&ctx));
	}
	cmd_ctx_release(&ctx);
	return status;
}
