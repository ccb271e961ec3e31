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

/* The signal map of a bubbles object as report builds it: the object read back into a stall
 * profile (which must read), the typed inputs filled from it and the documents. */
static void signals_of(signal_map *m, const jv *b, const jv *counters, const jv *occupancy,
		       const jv *facts)
{
	stall_profile p;
	fixture_profile(b, &p);
	signal_inputs in;
	signal_inputs_fill(&in, &p, counters, occupancy, facts);
	rule_signals_from_inputs(m, &in);
	signal_inputs_release(&in);
	profile_release(&p);
}

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
	CHECK(rules_signal_known("long_scoreboard.pct_of_hits"));
	CHECK(rules_signal_known("barrier.stall_pct_of_latency")); /* a class of both vendors */
	CHECK(rules_signal_known("memory_dependency.stall_pct_of_latency"));
	CHECK(rules_signal_known("occupancy.limiter"));
	CHECK(rules_signal_known("occupancy.limit_reached"));
	CHECK(rules_signal_known("grid.cu_fill_pct"));
	CHECK(rules_signal_known("smem_wait.idle_wave_share"));
	CHECK(rules_signal_known("vmem_wait.exposed_pct_of_simd_time"));
	CHECK(!rules_signal_known("memory_dependency.pct_of_hits"));
	CHECK(!rules_signal_known("vmem.pct_of_stall"));
	CHECK(!rules_signal_known("pct_of_stall"));
	CHECK(!rules_signal_known("unknown.pct_of_stall"));	       /* NVIDIA's unknown column */
	CHECK(!rules_signal_known("long_scoreboard.idle_wave_share")); /* AMD facts only */
	CHECK(!rules_signal_known("grid.cu_fill"));
	CHECK(!rules_signal_known("vmem_wait.pct_of_stall.x"));
	CHECK(!rules_signal_known(""));
	/* the fact rows' values are indexed by row: the table fits */
	size_t n = 0;
	while (signal_table[n].name)
		n++;
	CHECK(n < SIGNAL_TABLE_MAX);
}

/* Every field a condition of the shipped rules.json names ("signal", "also", "unless") is a
 * row of the signal table. */
TEST(rules_shipped_signals_are_all_in_the_table)
{
	size_t len = 0;
	fp_err e = FP_ERR_INIT;
	char *text = data_load("rules.json", &len, NULL, &e);
	CHECK(text != NULL);
	jv *doc = text ? json_parse(text, len, "rules.json", &e) : NULL;
	const jv *rs = jv_get(doc, "rules");
	size_t fields = 0;
	for (size_t i = 0; i < jv_len(rs); i++) {
		const jv *ru = jv_at(rs, i);
		const char *f = jv_string(jv_get(jv_get(ru, "signal"), "field"));
		CHECK(f && rules_signal_known(f));
		fields++;
		static const char *const lists[] = {"also", "unless"};
		for (size_t l = 0; l < 2; l++)
			for (size_t k = 0; k < jv_len(jv_get(ru, lists[l])); k++) {
				f = jv_string(jv_get(jv_at(jv_get(ru, lists[l]), k), "field"));
				if (!f || !rules_signal_known(f))
					printf("# unknown signal %s\n", f ? f : "(none)");
				CHECK(f && rules_signal_known(f));
				fields++;
			}
	}
	CHECK(fields >= 30);
	jv_free(doc);
	free(text);
	fp_err_clear(&e);
}

/* A misspelt signal is BAD_RULES wherever a condition names it. */
TEST(rules_unknown_signal_in_also_and_unless)
{
	static const char tmpl[] =
	    "{\"rules\": [\n {\"id\": \"a\", \"class\": \"valu\",\n  \"signal\": {\"field\": "
	    "\"valu.pct_of_stall\", \"op\": \">\", \"threshold\": 10},\n  \"%s\": [{\"field\": "
	    "\"%s\", \"op\": \"<\", \"threshold\": 1}],\n  \"knob\": \"lds_stage\", \"change\": "
	    "\"c\", \"expected\": \"x\", \"verify\": \"v\", \"confidence\": \"high\", "
	    "\"priority\": 1}]}";
	static const struct {
		const char *list, *field;
		int ok;
	} cases[] = {{"also", "grid.cu_fill_pct", 1},
		     {"also", "grid.cu_fil_pct", 0},
		     {"unless", "loop.multi_buffered", 1},
		     {"unless", "loop.multibuffered", 0},
		     {"unless", "long_scoreboard.exposed_pct_of_stall", 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024], ptr[64];
		snprintf(text, sizeof text, tmpl, cases[i].list, cases[i].field);
		rules r;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(parse_rules_text(text, &r, &e), cases[i].ok ? 0 : -1);
		if (!cases[i].ok) {
			CHECK_INT(e.code, ERR_BAD_RULES);
			snprintf(ptr, sizeof ptr, "/rules/0/%s/0/field", cases[i].list);
			CHECK_STR(jv_string(jv_get(e.extra, "pointer")), ptr);
			CHECK_INT(jv_i64(jv_get(e.extra, "line")), 4);
		}
		rules_release(&r);
		fp_err_clear(&e);
	}
}

/* Every name the table builds from full inputs is one rules may use, and the map keeps the
 * table's order: per-class rows class by class, then the whole-kernel rows. */
TEST(rules_signal_map_names_are_known)
{
	jv *b = fixture_bubbles();
	fp_err e = FP_ERR_INIT;
	const char *occ = "{\"theoretical\":{\"waves_per_simd\":4,\"limiter\":\"vgpr\"},"
			  "\"observed\":{\"per_simd\":{\"mean\":2.12345,\"peak\":4}}}";
	const char *facts =
	    "{\"launch_geometry\":{\"cu_fill_pct\":50,\"grid_caps_occupancy\":true},"
	    "\"exposed_stall\":{\"classes\":[{\"class\":\"vmem_wait\","
	    "\"exposed_pct_of_stall\":40,\"exposed_pct_of_simd_time\":12.5}]}}";
	jv *o = json_parse(occ, strlen(occ), "occ", &e);
	jv *f = json_parse(facts, strlen(facts), "facts", &e);
	signal_map sig;
	signals_of(&sig, b, NULL, o, f);
	for (size_t i = 0; i < sig.n; i++) {
		if (!rules_signal_known(sig.v[i].name))
			printf("# not a known signal: %s\n", sig.v[i].name);
		CHECK(rules_signal_known(sig.v[i].name));
	}
	CHECK_STR(sig.v[0].name, "vmem_wait.pct_of_stall");
	CHECK_STR(sig.v[1].name, "vmem_wait.stall_pct_of_latency");
	CHECK_STR(sig.v[2].name, "vmem_wait.pct_of_hits");
	CHECK_STR(sig.v[sig.n - 1].name, "occupancy.limit_reached");
	CHECK_NEAR(sig_number(signal_map_get(&sig, "occupancy.limit_reached")), 1, 1e-9);
	CHECK_STR(sig_string(signal_map_get(&sig, "occupancy.limiter")), "vgpr");
	CHECK_NEAR(sig_number(signal_map_get(&sig, "occupancy.observed_mean_per_simd")), 2.123,
		   1e-9);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "grid.caps_occupancy")), 1, 1e-9);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "vmem_wait.exposed_pct_of_simd_time")), 12.5,
		   1e-9);
	CHECK(signal_map_get(&sig, "lds_wait.exposed_pct_of_stall") == NULL);
	CHECK(signal_map_get(&sig, "grid.slot_fill_pct") == NULL);
	/* barrier is a class of AMD and NVIDIA: one entry */
	size_t barrier = 0;
	for (size_t i = 0; i < sig.n; i++)
		barrier += strcmp(sig.v[i].name, "barrier.pct_of_stall") == 0;
	CHECK_INT(barrier, 1);
	/* the map as report.json writes it */
	jv *j = signal_map_to_jv(&sig);
	CHECK_INT(jv_len(j), sig.n);
	CHECK_STR(jv_string(jv_get(j, "occupancy.limiter")), "vgpr");
	jv_free(j);
	signal_map_release(&sig);
	jv_free(o);
	jv_free(f);
	jv_free(b);
	fp_err_clear(&e);
}

TEST(rules_eval_threshold_gate_and_missing_signal)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	jv *b = fixture_bubbles();
	signal_map sig;
	signals_of(&sig, b, NULL, NULL, NULL);
	/* hand-computed: vmem_wait 3000 of 6000 stall = 50%, of 10000 latency = 30% */
	CHECK_NEAR(sig_number(signal_map_get(&sig, "vmem_wait.pct_of_stall")), 50.0, 1e-9);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "vmem_wait.stall_pct_of_latency")), 30.0, 1e-9);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "valu.pct_of_hits")), 60.0, 1e-9);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "waits.memory_pct")), 66.67, 1e-9);
	CHECK(sig_is_num(signal_map_get(&sig, "smem_wait.pct_of_stall")));
	CHECK_NEAR(sig_number(signal_map_get(&sig, "smem_wait.pct_of_stall")), 0.0, 1e-9);
	/* NVIDIA classes are 0 on an AMD trace, present all the same */
	CHECK(sig_is_num(signal_map_get(&sig, "long_scoreboard.pct_of_stall")));
	CHECK(signal_map_get(&sig, "counters.l2_hit_rate") == NULL);
	CHECK(signal_map_get(&sig, "occupancy.limiter") == NULL);
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
	rule_eval(pipe, &sig, "memory", 1, &o);
	CHECK_INT(o.status, RULE_FIRED);
	CHECK_NEAR(sig_number(o.value), 50.0, 1e-9);
	rule_eval(pipe, &sig, "compute", 1, &o);
	CHECK_INT(o.status, RULE_GATED);
	rule_eval(pipe, &sig, "compute", 0, &o); /* gating off (unknown bound) */
	CHECK_INT(o.status, RULE_FIRED);
	rule_eval(valu, &sig, "memory", 1, &o); /* 10% is not > 10 */
	CHECK_INT(o.status, RULE_NOT_FIRED);
	rule_eval(bank, &sig, "memory", 1, &o);
	CHECK_INT(o.status, RULE_NO_SIGNAL);
	CHECK_STR(o.missing, "counters.lds_bank_conflict_pct");
	signal_map_release(&sig);
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
	signal_map sig;
	signals_of(&sig, b, c, NULL, NULL);
	CHECK(signal_map_get(&sig, "counters.pct_of_hbm_roof") == NULL);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "counters.l2_hit_rate")), 80, 1e-9);
	signal_map_release(&sig);
	jv_set_bool(jv_get(c, "memory"), "calibrated", 1);
	signals_of(&sig, b, c, NULL, NULL);
	CHECK_NEAR(sig_number(signal_map_get(&sig, "counters.pct_of_hbm_roof")), 95, 1e-9);
	signal_map_release(&sig);
	jv_free(c);
	jv_free(b);
}

/* Each check names the JSON pointer of what it refused (the pointer is built only then). */
static void expect_pointer(const char *from, const char *to, const char *ptr)
{
	static const char base[] =
	    "{\"rules\": [{\"id\": \"a\", \"class\": \"valu\", \"signal\": {\"field\": "
	    "\"valu.pct_of_stall\", \"op\": \">\", \"threshold\": 10}, \"knob\": \"lds_stage\", "
	    "\"change\": \"c\", \"expected\": \"x\", \"verify\": \"v\", \"confidence\": \"high\", "
	    "\"priority\": 1, \"gate\": [\"memory\"]}]}";
	char text[1024];
	const char *at = strstr(base, from);
	CHECK(at != NULL);
	if (!at)
		return;
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse_rules_text(text, &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), ptr);
	rules_release(&r);
	fp_err_clear(&e);
}

TEST(rules_each_check_names_its_pointer)
{
	expect_pointer("\"change\": \"c\"", "\"change\": \"\"", "/rules/0/change");
	expect_pointer("\"verify\": \"v\", ", "", "/rules/0");
	expect_pointer("\"op\": \">\"", "\"op\": \"=>\"", "/rules/0/signal/op");
	expect_pointer("\"threshold\": 10", "\"threshold\": \"x\"", "/rules/0/signal/threshold");
	expect_pointer("\"gate\": [\"memory\"]", "\"gate\": [\"memory\", \"speed\"]",
		       "/rules/0/gate/1");
	expect_pointer("\"gate\": [\"memory\"]", "\"gate\": {}", "/rules/0/gate");
	expect_pointer("\"gate\": [\"memory\"]", "\"also\": 1", "/rules/0/also");
	expect_pointer("\"gate\": [\"memory\"]", "\"bogus\": 1", "/rules/0/bogus");
	expect_pointer("\"gate\": [\"memory\"]", "\"applies_to\": {\"has_mfmaa\": true}",
		       "/rules/0/applies_to/has_mfmaa");
	expect_pointer("\"confidence\": \"high\"", "\"confidence\": \"sure\"",
		       "/rules/0/confidence");
	expect_pointer("\"priority\": 1", "\"priority\": 3", "/rules/0/priority");
	expect_pointer("\"priority\": 1, ", "", "/rules/0");
	expect_pointer("\"class\": \"valu\"", "\"class\": \"vlau\"", "/rules/0/class");
	expect_pointer("\"knob\": \"lds_stage\"", "\"knob\": \"lds\"", "/rules/0/knob");
	expect_pointer("\"id\": \"a\"", "\"id\": \"A\"", "/rules/0/id");
	/* the vocabulary's: a knob of an unknown kind, a knob two vocabularies define */
	static const char rules_ok[] =
	    "{\"rules\": [{\"id\": \"a\", \"class\": \"valu\", \"signal\": {\"field\": "
	    "\"valu.pct_of_stall\", \"op\": \">\", \"threshold\": 10}, \"knob\": \"lds_stage\", "
	    "\"change\": \"c\", \"expected\": \"x\", \"verify\": \"v\", \"confidence\": \"high\", "
	    "\"priority\": 1}]}";
	static const char bad_kind[] =
	    "{\"kinds\":{\"primitive\":\"p\"},\"knobs\":[{\"id\":\"lds_stage\",\"kind\":\"prim\","
	    "\"api\":\"a\",\"effect\":\"e\"}]}";
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_parse(&r, rules_ok, strlen(rules_ok), "rules.json", bad_kind,
			      strlen(bad_kind), "knobs.json", &e),
		  -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/knobs/0/kind");
	rules_release(&r);
	fp_err_clear(&e);
	rules_vocab two[2] = {{knobs_min, strlen(knobs_min), "a.json"},
			      {knobs_min, strlen(knobs_min), "b.json"}};
	CHECK_INT(rules_parse_vocabs(&r, rules_ok, strlen(rules_ok), "rules.json", two, 2, &e), -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/knobs/0/id");
	CHECK_STR(jv_string(jv_get(e.extra, "file")), "b.json");
	rules_release(&r);
	fp_err_clear(&e);
}
