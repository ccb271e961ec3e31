/* Names, JSON form and lifetime of ledger rounds. */
#include "model/ledger.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *const decision_names[] = {"accepted", "rejected"};
static const char *const correctness_names[] = {"not_run", "pass", "fail"};
const char *const ledger_diff_outcomes[] = {"improved", "regressed", "unchanged", "within_noise",
					    "vanished", "no_bubble", NULL};

const char *ledger_decision_name(ledger_decision d)
{
	return d < LEDGER_DECISION__COUNT ? decision_names[d] : "?";
}

const char *ledger_correctness_name(ledger_correctness c)
{
	return c < LEDGER_CORRECT__COUNT ? correctness_names[c] : "?";
}

static int name_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

int ledger_decision_parse(const char *s)
{
	return name_index(decision_names, LEDGER_DECISION__COUNT, s);
}

int ledger_correctness_parse(const char *s)
{
	return name_index(correctness_names, LEDGER_CORRECT__COUNT, s);
}

int ledger_diff_outcome_known(const char *s)
{
	for (const char *const *o = ledger_diff_outcomes; *o; o++)
		if (s && strcmp(*o, s) == 0)
			return 1;
	return 0;
}

static void set_opt(jv *o, const char *key, const char *s)
{
	if (s)
		jv_set_str(o, key, s);
}

jv *ledger_round_to_json(const ledger_round *r)
{
	jv *o = jv_object();
	jv_set_int(o, "round", r->round);
	set_opt(o, "time", r->time);
	set_opt(o, "task", r->task);
	jv_set_str(o, "hypothesis", r->hypothesis ? r->hypothesis : "");
	set_opt(o, "rule", r->rule);
	set_opt(o, "knob", r->knob);
	set_opt(o, "bundle_before", r->bundle_before);
	set_opt(o, "bundle_after", r->bundle_after);
	if (r->diff_outcome) {
		jv *d = jv_set(o, "diff", jv_object());
		jv_set_str(d, "outcome", r->diff_outcome);
		set_opt(d, "class", r->diff_class);
	}
	jv *c = jv_set(o, "correctness", jv_object());
	jv_set_str(c, "result", ledger_correctness_name(r->correctness));
	set_opt(c, "detail", r->correctness_detail);
	if (r->benchmark || r->has_speedup) {
		jv *b = jv_set(o, "benchmark", jv_object());
		set_opt(b, "result", r->benchmark);
		if (r->has_speedup)
			jv_set_round(b, "speedup", r->speedup, 4);
	}
	jv_set_str(o, "decision", ledger_decision_name(r->decision));
	jv_set_str(o, "why", r->why ? r->why : "");
	return o;
}

void ledger_round_release(ledger_round *r)
{
	char **strs[] = {&r->time,	   &r->task,
			 &r->hypothesis,   &r->rule,
			 &r->knob,	   &r->bundle_before,
			 &r->bundle_after, &r->diff_outcome,
			 &r->diff_class,   &r->correctness_detail,
			 &r->benchmark,	   &r->why};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
	memset(r, 0, sizeof *r);
}

void ledger_rounds_take(ledger_rounds *rs, ledger_round *r)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 16;
		rs->v = xrealloc(rs->v, rs->cap * sizeof *rs->v);
	}
	rs->v[rs->n++] = *r;
	memset(r, 0, sizeof *r);
}

void ledger_rounds_release(ledger_rounds *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		ledger_round_release(&rs->v[i]);
	free(rs->v);
	memset(rs, 0, sizeof *rs);
}
