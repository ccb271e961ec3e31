/* `run KERNEL`: the whole pipeline on one kernel. The backend is chosen here and only here:
 * --backend (FLYPROF_BACKEND) when given, else the machine's profiler (ncu when it is on PATH
 * and rocprofv3 is not). The Nsight Compute path is src/cmd/run_ncu.c.
 *
 * rocprofv3 (docs/capture.md#run), with --worktree W:
 * doctor gate -> tile -> capture -> counters -> bubbles -> map -> report -> bundle (the
 * self-contained example goes beside the bundle, into <bundle>.example).
 * Each step is the command itself, run in-process on the same bundle, which it opens, writes
 * and closes, so every artifact is written (atomically) by its own command and an interrupted
 * run leaves every earlier artifact intact. Optional steps (tile, counters, map, bundle) fail
 * soft as warnings; the others stop the run with their own error plus error.step. run.json
 * records every step, also when the run stops. Progress goes to stderr when it is a
 * terminal. */
#include "cmd/cmds.h"
#include "cmd/capture_req.h"
#include "cmd/run_ncu.h"
#include "drive/proc.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/backend/capture.h"
#include "core/bundle/bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

enum { STEP_HARD, STEP_SOFT };

typedef struct run_state {
	cmd_ctx *ctx;
	const char *bundle; /* as given or the default */
	jv *steps;	    /* run.json steps */
	int progress;	    /* stderr is a terminal */
	size_t index, total;
} run_state;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct argvec {
	char **v;
	size_t n;
} argvec;

static void arg(argvec *a, const char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void arg_opt(argvec *a, const cmd_ctx *ctx, const char *name)
{
	const char *v = opts_str(&ctx->opts, name);
	if (v && opts_given(&ctx->opts, name)) {
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "--%s", name);
		arg(a, sb_str(&sb));
		arg(a, v);
		sb_release(&sb);
	}
}

static void argvec_release(argvec *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* Runs `flyprof <argv...>` in-process the way main would: options, the command, the step
 * record in the bundle it wrote. Returns 0, or -1 with sub->err moved into *err. */
static int sub_run(run_state *st, argvec *a, jv **data, fp_err *err)
{
	cmd_ctx sub;
	cmd_ctx_init(&sub, command_find(a->v[1]), (int)a->n, a->v);
	double t0 = now_s();
	int rc = cmd_ctx_run(&sub, (int)a->n - 2, a->v + 2);
	rc = cmd_ctx_finish_bundle(&sub, rc, now_s() - t0);
	for (size_t i = 0; i < jv_len(sub.warnings); i++)
		ctx_warn(st->ctx, "%s: %s", sub.cmd->name, jv_string(jv_at(sub.warnings, i)));
	if (rc)
		fp_err_move(err, &sub.err);
	else if (data)
		*data = sub.data, sub.data = NULL;
	cmd_ctx_release(&sub);
	return rc;
}

static jv *record(run_state *st, const char *name, const char *status, double secs)
{
	jv *o = jv_push(st->steps, jv_object());
	jv_set_str(o, "step", name);
	jv_set_str(o, "status", status);
	jv_set_round(o, "seconds", secs, 2);
	return o;
}

static void progress(run_state *st, const char *name)
{
	st->index++;
	if (st->progress)
		fprintf(stderr, "flyprof run: [%zu/%zu] %s\n", st->index, st->total, name);
}

/* One step. Soft steps that fail become a warning and a "failed" record; an interrupt is
 * never soft. Returns 0 to go on, -1 to stop (ctx->err set, error.step named). */
static int step(run_state *st, const char *name, int soft, argvec *a, jv **data,
		const char *summary_key)
{
	progress(st, name);
	fp_err e = FP_ERR_INIT;
	double t0 = now_s();
	int rc = sub_run(st, a, data, &e);
	jv *rec = record(st, name, rc ? "failed" : "ok", now_s() - t0);
	if (rc == 0) {
		if (summary_key && data && *data)
			jv_set(rec, "summary", jv_copy(jv_get(*data, summary_key)));
		fp_err_clear(&e);
		return 0;
	}
	jv_set_str(rec, "code", err_name(e.code));
	jv_set_str(rec, "message", e.message ? e.message : "");
	if (soft && e.code != ERR_INTERRUPTED) {
		ctx_warn(st->ctx, "step %s skipped: %s %s", name, err_name(e.code),
			 e.message ? e.message : "");
		fp_err_clear(&e);
		return 0;
	}
	fp_err_move(&st->ctx->err, &e);
	fp_err_extra(&st->ctx->err, "step", jv_str(name));
	return -1;
}

static void base_args(argvec *a, const cmd_ctx *ctx, const char *cmd, const char *bdir)
{
	arg(a, "flyprof");
	arg(a, cmd);
	arg(a, "--bundle");
	arg(a, bdir);
	arg(a, "--format");
	arg(a, "json");
}

/* The doctor gate: the backend's readiness from `doctor`'s own verdict. */
static int gate(run_state *st, const backend *ops)
{
	argvec a = {0};
	arg(&a, "flyprof");
	arg(&a, "doctor");
	arg_opt(&a, st->ctx, "worktree");
	arg_opt(&a, st->ctx, "gpu");
	progress(st, "doctor");
	jv *d = NULL;
	fp_err e = FP_ERR_INIT;
	double t0 = now_s();
	int rc = sub_run(st, &a, &d, &e);
	argvec_release(&a);
	jv *rec = record(st, "doctor", rc ? "failed" : "ok", now_s() - t0);
	if (rc) {
		fp_err_move(&st->ctx->err, &e);
		fp_err_extra(&st->ctx->err, "step", jv_str("doctor"));
		return -1;
	}
	const jv *be = jv_get(jv_get(d, "backends"), capture_doctor_key(ops));
	const jv *ready = jv_get(be, "ready");
	const jv *blockers = jv_get(be, "blockers");
	jv_set(
	    rec, "summary",
	    jv_strf("%s %s", capture_doctor_key(ops), jv_is_true(ready) ? "ready" : "not ready"));
	if (!jv_is_true(ready)) {
		const jv *b0 = jv_at(blockers, 0);
		int code = err_lookup(jv_string(jv_get(b0, "code")));
		jv_set_str(rec, "status", "failed");
		fp_fail(&st->ctx->err, code >= 0 ? (err_code)code : ERR_INTERNAL,
			"doctor: the %s backend is not ready: %s", capture_doctor_key(ops),
			jv_string(jv_get(b0, "message")) ? jv_string(jv_get(b0, "message")) : "?");
		fp_err_extra(&st->ctx->err, "step", jv_str("doctor"));
		fp_err_extra(&st->ctx->err, "blockers", jv_copy(blockers));
		jv_free(d);
		return -1;
	}
	jv_free(d);
	return 0;
}

/* run.json into the bundle (when it exists); the run's own step is recorded by main. */
static int write_run_json(run_state *st, const char *kernel, const char *stopped, jv *extra)
{
	cmd_ctx *ctx = st->ctx;
	if (!file_is_dir(st->bundle))
		return 0;
	bundle *b = xcalloc(1, sizeof *b);
	fp_err e = FP_ERR_INIT;
	if (bundle_open_write(b, st->bundle, "run", &e)) {
		bundle_close(b);
		free(b);
		if (!ctx->err.set)
			fp_err_move(&ctx->err, &e);
		fp_err_clear(&e);
		return -1;
	}
	jv *doc = jv_object();
	jv_set_str(doc, "kernel", kernel);
	jv_set(doc, "stopped_in", stopped ? jv_str(stopped) : jv_null());
	jv_set(doc, "steps", jv_copy(st->steps));
	if (extra)
		jv_set(doc, "outputs", jv_copy(extra));
	int rc = bundle_write_json(b, "run.json", doc, &e);
	if (rc && !ctx->err.set)
		fp_err_move(&ctx->err, &e);
	fp_err_clear(&e);
	jv_free(doc);
	ctx->bundle = b;
	ctx_set_bundle_path(ctx, b->dir);
	return rc;
}

static int run_rocprofv3(cmd_ctx *ctx, const char *backend_name)
{
	const char *kernel = ctx->positional;
	if (!kernel)
		return fp_fail(&ctx->err, ERR_USAGE,
			       "`run` needs a kernel name (see `flyprof list`)");
	if (opts_str(&ctx->opts, "out"))
		return fp_fail(&ctx->err, ERR_BAD_ARGS,
			       "`run` writes into its bundle; use --bundle DIR instead of --out");
	const backend *ops = capture_backend_for(backend_name, &ctx->err);
	if (!ops)
		return -1;
	char *dflt = opts_str(&ctx->opts, "bundle") ? NULL : capture_default_bundle(kernel);
	run_state st = {ctx, dflt ? dflt : opts_str(&ctx->opts, "bundle"), jv_array(), isatty(2), 0,
			8};
	const char *tag = opts_str(&ctx->opts, "tag");
	const char *atag = tag && strcmp(tag, "small") == 0 ? "small" : "big";
	const char *stopped = NULL;
	jv *outputs = jv_object();
	int rc = gate(&st, ops);
	if (rc)
		stopped = "doctor";
	if (rc == 0 && opts_str(&ctx->opts, "shape")) {
		argvec a = {0};
		base_args(&a, ctx, "tile", st.bundle);
		arg_opt(&a, ctx, "shape");
		arg_opt(&a, ctx, "arch");
		jv *d = NULL;
		if (step(&st, "tile", STEP_SOFT, &a, &d, NULL))
			rc = -1, stopped = "tile";
		jv_free(d);
		argvec_release(&a);
	} else if (rc == 0) {
		progress(&st, "tile");
		jv_set_str(record(&st, "tile", "skipped", 0), "message", "no --shape");
	}
	static const char *const cap_opts[] = {"worktree",   "gpu",	"arch",
					       "shape",	     "timeout", "iter-range",
					       "invocation", "backend", NULL};
	const char *names[] = {"capture", "counters", NULL};
	for (size_t i = 0; rc == 0 && names[i]; i++) {
		argvec a = {0};
		base_args(&a, ctx, names[i], st.bundle);
		arg(&a, kernel);
		for (size_t k = 0; cap_opts[k]; k++)
			arg_opt(&a, ctx, cap_opts[k]);
		if (i == 0)
			arg_opt(&a, ctx, "tag");
		jv *d = NULL;
		if (step(&st, names[i], i == 0 ? STEP_HARD : STEP_SOFT, &a, &d, NULL))
			rc = -1, stopped = names[i];
		if (d && i == 0)
			jv_set(jv_at(st.steps, jv_len(st.steps) - 1), "summary",
			       jv_copy(jv_get(jv_get(d, "capture"), "kernel")));
		if (d && i == 1)
			jv_set(jv_at(st.steps, jv_len(st.steps) - 1), "summary",
			       jv_copy(jv_get(jv_get(d, "bound"), "why")));
		jv_free(d);
		argvec_release(&a);
	}
	const char *an[] = {"bubbles", "map", "report", NULL};
	jv *report = NULL;
	for (size_t i = 0; rc == 0 && an[i]; i++) {
		argvec a = {0};
		base_args(&a, ctx, an[i], st.bundle);
		arg(&a, "--tag");
		arg(&a, atag);
		jv *d = NULL;
		if (step(&st, an[i], strcmp(an[i], "map") == 0 ? STEP_SOFT : STEP_HARD, &a, &d,
			 NULL))
			rc = -1, stopped = an[i];
		if (d && strcmp(an[i], "report") == 0)
			report = d, d = NULL;
		jv_free(d);
		argvec_release(&a);
	}
	if (rc == 0) {
		/* beside the bundle, not in it: `bundle` exports only outside its source */
		strbuf ex = STRBUF_INIT;
		sb_addf(&ex, "%s.example", st.bundle);
		char *example = sb_detach(&ex);
		argvec a = {0};
		arg(&a, "flyprof");
		arg(&a, "bundle");
		arg(&a, "--bundle");
		arg(&a, st.bundle);
		arg(&a, "--out");
		arg(&a, example);
		arg(&a, "--tag");
		arg(&a, atag);
		arg(&a, "--name");
		arg(&a, kernel);
		jv *d = NULL;
		if (step(&st, "bundle", STEP_SOFT, &a, &d, NULL))
			rc = -1, stopped = "bundle";
		else if (d) {
			char *abs = path_abs(example);
			jv_set_str(outputs, "example", abs ? abs : example);
			free(abs);
		}
		jv_free(d);
		argvec_release(&a);
		free(example);
	}
	if (rc == 0) {
		char *md = path_join(st.bundle, "REPORT.md");
		char *abs = path_abs(md);
		if (abs)
			jv_set_str(outputs, "report_md", abs);
		free(abs);
		free(md);
		jv_set(ctx->data, "bound", jv_copy(jv_get(report, "bound")));
		jv_set(ctx->data, "headline", jv_copy(jv_get(report, "headline")));
	}
	int wrc = write_run_json(&st, kernel, stopped, outputs);
	jv_set_str(ctx->data, "kernel", kernel);
	jv_set(ctx->data, "stopped_in", stopped ? jv_str(stopped) : jv_null());
	jv_set(ctx->data, "steps", st.steps);
	jv_set(ctx->data, "outputs", outputs);
	if (rc && stopped)
		fp_err_extra(&ctx->err, "run_json",
			     st.bundle && file_is_dir(st.bundle) ? jv_strf("%s/run.json", st.bundle)
								 : jv_null());
	jv_free(report);
	free(dflt);
	return rc || wrc ? -1 : 0;
}

int cmd_run(cmd_ctx *ctx)
{
	const char *be = opts_str(&ctx->opts, "backend");
	const char *rp = getenv("FLYPROF_ROCPROFV3");
	if (!be)
		be = machine_has(rp && *rp ? rp : "rocprofv3") ||
			     !machine_has(opts_str(&ctx->opts, "ncu") ? opts_str(&ctx->opts, "ncu")
								      : "ncu")
			 ? "rocprofv3"
			 : "ncu";
	if (strcmp(be, "ncu") == 0)
		return cmd_run_ncu(ctx);
	return run_rocprofv3(ctx, be);
}
