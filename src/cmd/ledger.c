/* `ledger append|list|summary`: a task's record of optimisation rounds (docs/ledger.md). An
 * agent appends one round per loop iteration — what it tried, the evidence, the decision and
 * why — and reads the history back before choosing the next hypothesis. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/xalloc.h"
#include "core/bundle/ledger_file.h"
#include "read/ledger_read.h"

#include <stdlib.h>
#include <string.h>

const opt_spec ledger_opts[] = {
    {"ledger", 0, OPT_STR, "FILE", NULL, NULL, 1,
     "the task's JSON-lines ledger (created by the first append)"},
    {"task", 0, OPT_STR, "SLUG", NULL, NULL, 1, "task the round belongs to"},
    {"hypothesis", 0, OPT_STR, "TEXT", NULL, NULL, 0, "append: what the round tried and why"},
    {"rule", 0, OPT_STR, "ID", NULL, NULL, 0, "append: report rule that motivated the round"},
    {"knob", 0, OPT_STR, "NAME", NULL, NULL, 0, "append: knob that was turned"},
    {"before", 0, OPT_STR, "BUNDLE", NULL, NULL, 0, "append: bundle of the base"},
    {"after", 0, OPT_STR, "BUNDLE", NULL, NULL, 0, "append: bundle of the candidate"},
    {"diff", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "append: a saved `flyprof diff` envelope; its verdict is recorded"},
    {"verdict", 0, OPT_STR, "OUTCOME", NULL,
     "improved|regressed|unchanged|within_noise|vanished|no_bubble", 0,
     "append: diff outcome, when no --diff file is given"},
    {"correctness", 0, OPT_STR, "RESULT", "not_run", "pass|fail|not_run", 0,
     "append: correctness gate result"},
    {"correctness-detail", 0, OPT_STR, "TEXT", NULL, NULL, 0,
     "append: e.g. max_err=0.011 min_cos=0.9993"},
    {"benchmark", 0, OPT_STR, "TEXT", NULL, NULL, 0, "append: benchmark result as printed"},
    {"speedup", 0, OPT_NUM, "X", NULL, NULL, 0, "append: candidate/base throughput (> 0)"},
    {"decision", 0, OPT_STR, "D", NULL, "accepted|rejected", 0, "append: the decision"},
    {"why", 0, OPT_STR, "TEXT", NULL, NULL, 0, "append: the reason for the decision"},
    {"last", 0, OPT_INT, "N", NULL, NULL, 0, "list: only the last N rounds"},
    OPT_END,
};

static const char *need(cmd_ctx *ctx, const char *name)
{
	const char *s = opts_str(&ctx->opts, name);
	if (!s || !*s)
		fp_fail(&ctx->err, ERR_USAGE, "ledger %s needs --%s", ctx->positional, name);
	return s && *s ? s : NULL;
}

static char *dup_opt(cmd_ctx *ctx, const char *name)
{
	const char *s = opts_str(&ctx->opts, name);
	return s ? xstrdup(s) : NULL;
}

/* Takes the verdict (outcome and class) out of a saved `flyprof diff` envelope. */
static int verdict_from_diff(const char *path, ledger_round *r, fp_err *e)
{
	jv *env = json_parse_file(path, e);
	if (!env)
		return -1;
	const jv *v = jv_get(jv_get(env, "data"), "verdict");
	const char *outcome = jv_string(jv_get(v, "outcome"));
	int rc = 0;
	if (!jv_get(env, "command") || strcmp(jv_string(jv_get(env, "command")) ?: "", "diff") ||
	    !ledger_diff_outcome_known(outcome))
		rc = fp_fail_input(e, path, 0, "a `flyprof diff` envelope with data.verdict",
				   "%s is not a `flyprof diff` envelope with a verdict", path);
	else {
		r->diff_outcome = xstrdup(outcome);
		const char *c = jv_string(jv_get(v, "class"));
		r->diff_class = c ? xstrdup(c) : NULL;
	}
	jv_free(env);
	return rc;
}

static int round_from_opts(cmd_ctx *ctx, ledger_round *r)
{
	const char *hyp = need(ctx, "hypothesis"), *dec = hyp ? need(ctx, "decision") : NULL,
		   *why = dec ? need(ctx, "why") : NULL;
	if (!why)
		return -1;
	r->hypothesis = xstrdup(hyp);
	r->why = xstrdup(why);
	r->decision = (ledger_decision)ledger_decision_parse(dec);
	r->correctness = (ledger_correctness)ledger_correctness_parse(
	    opts_str(&ctx->opts, "correctness") ?: "not_run");
	r->task = dup_opt(ctx, "task");
	r->rule = dup_opt(ctx, "rule");
	r->knob = dup_opt(ctx, "knob");
	r->bundle_before = dup_opt(ctx, "before");
	r->bundle_after = dup_opt(ctx, "after");
	r->correctness_detail = dup_opt(ctx, "correctness-detail");
	r->benchmark = dup_opt(ctx, "benchmark");
	if (opts_given(&ctx->opts, "speedup")) {
		r->speedup = opts_num(&ctx->opts, "speedup", 0);
		r->has_speedup = 1;
		if (!(r->speedup > 0))
			return fp_fail(&ctx->err, ERR_BAD_ARGS, "--speedup must be > 0");
	}
	const char *diff = opts_str(&ctx->opts, "diff");
	if (diff && opts_given(&ctx->opts, "verdict"))
		return fp_fail(&ctx->err, ERR_USAGE, "give --diff FILE or --verdict, not both");
	if (diff && verdict_from_diff(diff, r, &ctx->err) < 0)
		return -1;
	if (!diff)
		r->diff_outcome = dup_opt(ctx, "verdict");
	/* The loop's discipline: a candidate that fails its correctness gate is never kept. */
	if (r->decision == LEDGER_ACCEPTED && r->correctness == LEDGER_CORRECT_FAIL)
		return fp_fail(&ctx->err, ERR_BAD_ARGS,
			       "a round whose correctness gate failed cannot be accepted");
	return 0;
}

static int do_append(cmd_ctx *ctx, const char *path)
{
	ledger_round r = {0};
	int rc = round_from_opts(ctx, &r);
	if (rc == 0)
		rc = ledger_append(path, &r, &ctx->err);
	if (rc == 0) {
		jv_set(ctx->data, "headline",
		       jv_strf("round %lld %s: %s", (long long)r.round,
			       ledger_decision_name(r.decision), r.hypothesis));
		jv_set(ctx->data, "round", ledger_round_to_json(&r));
	}
	ledger_round_release(&r);
	return rc;
}

static int do_list(cmd_ctx *ctx, const ledger_rounds *rs)
{
	size_t from = 0;
	if (opts_given(&ctx->opts, "last")) {
		int64_t last = opts_int(&ctx->opts, "last", 0);
		if (last < 1)
			return fp_fail(&ctx->err, ERR_BAD_ARGS, "--last must be >= 1");
		if ((size_t)last < rs->n) {
			from = rs->n - (size_t)last;
			ctx_truncated(ctx, "rounds", (size_t)last, rs->n, "a larger --last");
		}
	}
	jv_set(ctx->data, "headline", jv_strf("%zu round(s)", rs->n));
	jv *a = jv_set(ctx->data, "rounds", jv_array());
	for (size_t i = from; i < rs->n; i++)
		jv_push(a, ledger_round_to_json(&rs->v[i]));
	return 0;
}

/* Per rule: how often it was tried and kept — the agent's memory of what does not work. */
static jv *rules_tried(const ledger_rounds *rs)
{
	jv *o = jv_object();
	for (size_t i = 0; i < rs->n; i++) {
		const char *k = rs->v[i].rule ? rs->v[i].rule : "(none)";
		jv *e = jv_get(o, k);
		if (!e) {
			e = jv_set(o, k, jv_object());
			jv_set_int(e, "tried", 0);
			jv_set_int(e, "accepted", 0);
		}
		jv_set_int(e, "tried", jv_i64(jv_get(e, "tried")) + 1);
		if (rs->v[i].decision == LEDGER_ACCEPTED)
			jv_set_int(e, "accepted", jv_i64(jv_get(e, "accepted")) + 1);
	}
	return o;
}

static int do_summary(cmd_ctx *ctx, const ledger_rounds *rs)
{
	size_t acc = 0, failed_gate = 0;
	const ledger_round *best = NULL, *last_acc = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const ledger_round *r = &rs->v[i];
		failed_gate += r->correctness == LEDGER_CORRECT_FAIL;
		if (r->decision != LEDGER_ACCEPTED)
			continue;
		acc++;
		last_acc = r;
		if (r->has_speedup && (!best || r->speedup > best->speedup))
			best = r;
	}
	jv *d = ctx->data;
	if (best)
		jv_set(d, "headline",
		       jv_strf("%zu round(s): %zu accepted, %zu rejected; best accepted speedup "
			       "%.3fx (round %lld)",
			       rs->n, acc, rs->n - acc, best->speedup, (long long)best->round));
	else
		jv_set(
		    d, "headline",
		    jv_strf("%zu round(s): %zu accepted, %zu rejected", rs->n, acc, rs->n - acc));
	jv_set_int(d, "rounds", (int64_t)rs->n);
	jv_set_int(d, "accepted", (int64_t)acc);
	jv_set_int(d, "rejected", (int64_t)(rs->n - acc));
	jv_set_int(d, "correctness_failures", (int64_t)failed_gate);
	jv_set(d, "best_accepted", best ? ledger_round_to_json(best) : jv_null());
	jv_set(d, "last_accepted", last_acc ? ledger_round_to_json(last_acc) : jv_null());
	jv_set(d, "rules", rules_tried(rs));
	return 0;
}

int cmd_ledger(cmd_ctx *ctx)
{
	const char *act = ctx->positional;
	if (!act || (strcmp(act, "append") && strcmp(act, "list") && strcmp(act, "summary"))) {
		fp_fail(&ctx->err, ERR_USAGE, "ledger needs an action: append, list or summary%s%s",
			act ? "; got " : "", act ? act : "");
		fp_err_extra(&ctx->err, "available", jv_array());
		for (const char *const *a =
			 (const char *const[]){"append", "list", "summary", NULL};
		     *a; a++)
			jv_push(jv_get(ctx->err.extra, "available"), jv_str(*a));
		return -1;
	}
	const char *path = need(ctx, "ledger");
	if (!path)
		return -1;
	jv_set_str(ctx->data, "headline", ""); /* set by the action; first in every view */
	jv_set_str(ctx->data, "ledger", path);
	if (strcmp(act, "append") == 0)
		return do_append(ctx, path);
	ledger_rounds rs = {0};
	int existed = 0;
	int rc = ledger_read_file(path, &rs, &existed, &ctx->err);
	if (rc == 0 && !existed)
		ctx_warn(ctx, "%s does not exist yet: no rounds recorded", path);
	if (rc == 0)
		rc = strcmp(act, "list") == 0 ? do_list(ctx, &rs) : do_summary(ctx, &rs);
	ledger_rounds_release(&rs);
	return rc;
}
