/* The rules as data: the shipped files load and validate; malformed or misspelt rules are
 * BAD_RULES with the file and the JSON position of the offending value; evaluation follows
 * the thresholds, the gate and absent signals. */
#include "t.h"

#include "base/data.h"
#include "core/diagnose/rule_signals.h"
#include "core/diagnose/rules.h"
#include "report_fixture.h"

#include <stdlib.h>

static const char knobs_min[] =
    "{\"kinds\":{\"primitive\":\"p\"},\"knobs\":[{\"id\":\"lds_stage\",\"kind\":\"primitive\","
    "\"api\":\"lds_stage=2\",\"effect\":\"e\"}]}";

static int parse_rules_text(const char *text, rules *r, fp_err *e)
{
	return rules_parse(r, text, strlen(text), "rules.json", knobs_min, strlen(knobs_min),
			   "knobs.json", e);
}

static const char *rule_tmpl =
    "{\"rules\": [\n {\"id\": \"a\", \"class\": \"%s\",\n  \"signal\": {\"field\": \"%s\", "
    "\"op\": \">\", \"threshold\": 10},\n  \"knob\": \"%s\", \"change\": \"c\", \"expected\": "
    "\"x\", \"verify\": \"v\", \"confidence\": \"high\", \"priority\": 1}]}";

TEST(rules_shipped_files_load)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	if (e.set)
		printf("# %s\n", e.message);
	CHECK(r.n >= 15);
	/* every class of the rules is known, every knob resolves to an API string */
	for (size_t i = 0; i < r.n; i++) {
		CHECK(rules_class_known(r.v[i].klass));
		CHECK(jv_string(jv_get(r.v[i].knob_v, "api")) != NULL);
	}
	CHECK(rules_knob(&r, "waves_per_eu") != NULL);
	CHECK(rules_knob(&r, "no_such_knob") == NULL);
	rules_release(&r);
	fp_err_clear(&e);
}

static void expect_bad(const char *cls, const char *field, const char *knob, const char *ptr,
		       const char *needle, int line)
{
	char text[1024];
	snprintf(text, sizeof text, rule_tmpl, cls, field, knob);
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse_rules_text(text, &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK_STR(jv_string(jv_get(e.extra, "file")), "rules.json");
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), ptr);
	/* the offset points at the offending value in the text */
	const char *at = strstr(text, needle);
	CHECK(at != NULL);
	if (at)
		CHECK_INT(jv_i64(jv_get(e.extra, "offset")), at - text);
	CHECK_INT(jv_i64(jv_get(e.extra, "line")), line);
	rules_release(&r);
	fp_err_clear(&e);
}

TEST(rules_unknown_names_are_typed_errors_with_position)
{
	expect_bad("vmem_wiat", "vmem_wait.pct_of_stall", "lds_stage", "/rules/0/class",
		   "\"vmem_wiat\"", 2);
	expect_bad("vmem_wait", "vmem_wait.pct_of_stal", "lds_stage", "/rules/0/signal/field",
		   "\"vmem_wait.pct_of_stal\"", 3);
	expect_bad("vmem_wait", "vmem_wait.pct_of_stall", "lds_stages", "/rules/0/knob",
		   "\"lds_stages\"", 4);
}

TEST(rules_syntax_error_is_bad_rules)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse_rules_text("{\"rules\": [ {\"id\": }", &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK(jv_get(e.extra, "offset") != NULL);
	rules_release(&r);
	fp_err_clear(&e);
	CHECK_INT(parse_rules_text("{\"rules\": []}", &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	rules_release(&r);
	fp_err_clear(&e);
}

TEST(rules_signal_names)
{
	CHECK(rules_signal_known("vmem_wait.pct_of_stall"));
	CHECK(rules_signal_known("memory_dependency.stall_pct_of_latency"));
	CHECK(rules_signal_known("occupancy.limiter"));
	CHECK(!rules_signal_known("memory_dependency.pct_of_hits"));
	CHECK(!rules_signal_known("vmem.pct_of_stall"));
	CHECK(!rules_signal_known("pct_of_stall"));
}

TEST(rules_eval_threshold_gate_and_missing_signal)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	jv *b = fixture_bubbles();
	jv *sig = rule_signals_build(b, NULL, NULL);
	/* hand-computed: vmem_wait 3000 of 6000 stall = 50%, of 10000 latency = 30% */
	CHECK_NEAR(jv_num(jv_get(sig, "vmem_wait.pct_of_stall")), 50.0, 1e-9);
	CHECK_NEAR(jv_num(jv_get(sig, "vmem_wait.stall_pct_of_latency")), 30.0, 1e-9);
	CHECK_NEAR(jv_num(jv_get(sig, "valu.pct_of_hits")), 60.0, 1e-9);
	CHECK_NEAR(jv_num(jv_get(sig, "waits.memory_pct")), 66.67, 1e-9);
	CHECK_NEAR(jv_num(jv_get(sig, "smem_wait.pct_of_stall")), 0.0, 1e-9);
	CHECK(jv_get(sig, "counters.l2_hit_rate") == NULL);
	const rule *pipe = NULL, *valu = NULL, *bank = NULL;
	for (size_t i = 0; i < r.n; i++) {
		if (strcmp(r.v[i].id, "vmem_wait_pipeline") == 0)
			pipe = &r.v[i];
		if (strcmp(r.v[i].id, "valu_fastmath") == 0)
			valu = &r.v[i];
		if (strcmp(r.v[i].id, "lds_bank_conflicts") == 0)
			bank = &r.v[i];
	}
	CHECK(pipe && valu && bank);
	rule_outcome o;
	rule_eval(pipe, sig, "memory", 1, &o);
	CHECK_INT(o.status, RULE_FIRED);
	CHECK_NEAR(jv_num(o.value), 50.0, 1e-9);
	rule_eval(pipe, sig, "compute", 1, &o);
	CHECK_INT(o.status, RULE_GATED);
	rule_eval(pipe, sig, "compute", 0, &o); /* gating off (unknown bound) */
	CHECK_INT(o.status, RULE_FIRED);
	rule_eval(valu, sig, "memory", 1, &o); /* 10% is not > 10 */
	CHECK_INT(o.status, RULE_NOT_FIRED);
	rule_eval(bank, sig, "memory", 1, &o);
	CHECK_INT(o.status, RULE_NO_SIGNAL);
	CHECK_STR(o.missing, "counters.lds_bank_conflict_pct");
	jv_free(sig);
	jv_free(b);
	rules_release(&r);
	fp_err_clear(&e);
}

TEST(rules_uncalibrated_roof_is_not_a_signal)
{
	jv *b = fixture_bubbles();
	fp_err e = FP_ERR_INIT;
	const char *ctext = "{\"memory\":{\"calibrated\":false,\"pct_of_hbm_roof\":95,"
			    "\"l2_hit_rate\":80}}";
	jv *c = json_parse(ctext, strlen(ctext), "c", &e);
	jv *sig = rule_signals_build(b, c, NULL);
	CHECK(jv_get(sig, "counters.pct_of_hbm_roof") == NULL);
	CHECK_NEAR(jv_num(jv_get(sig, "counters.l2_hit_rate")), 80, 1e-9);
	jv_free(sig);
	jv_set_bool(jv_get(c, "memory"), "calibrated", 1);
	sig = rule_signals_build(b, c, NULL);
	CHECK_NEAR(jv_num(jv_get(sig, "counters.pct_of_hbm_roof")), 95, 1e-9);
	jv_free(sig);
	jv_free(c);
	jv_free(b);
}
