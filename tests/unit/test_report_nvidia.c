/* The report on NVIDIA bubbles (Nsight Compute warp-state samples): the cross-vendor bound
 * verdict, backend/language gating of the rules (no FlyDSL knob for a CUDA or Triton kernel),
 * the NVIDIA rules keyed on stall reasons, the wording in samples, and the validation of the
 * new traits and vocabularies. Hand-made fixtures with round numbers:
 *   totals.latency 1000 samples, totals.stall 900; long_scoreboard 600 (66.7% of stall),
 *   barrier 150 (16.7%), wait 100 (11.1%), short_scoreboard 50 (5.6%); selected = 100
 *   issued samples. The source lines are .cu (CUDA) or .py (Triton), set per test. */
#include "t.h"
#include "report_fixture.h"

#include "core/diagnose/bound.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/report.h"
#include "base/json/json_parse.h"

#include <stdio.h>
#include <stdlib.h>

/* %s = the hot source file (k.cu or tsm.py) */
static const char nv_tmpl[] =
    "{\"backend\":\"nvidia\",\"unit\":\"samples\","
    "\"totals\":{\"latency\":1000,\"stall\":900,\"idle\":0,\"hits\":500},"
    "\"classes\":["
    "{\"class\":\"long_scoreboard\",\"normalized\":\"memory_dependency\",\"latency\":600,"
    "\"stall\":600,\"top\":[{\"code_line\":24,\"isa\":\"FMNMX R0, R5, R0, !PT\","
    "\"source\":\"/src/%s:9\",\"stall\":400}]},"
    "{\"class\":\"barrier\",\"normalized\":\"synchronization\",\"latency\":150,\"stall\":150,"
    "\"top\":[{\"code_line\":80,\"isa\":\"BAR.SYNC.DEFER_BLOCKING 0x0\","
    "\"source\":\"/src/%s:22\",\"stall\":150}]},"
    "{\"class\":\"wait\",\"normalized\":\"fixed_latency\",\"latency\":100,\"stall\":100,"
    "\"top\":[{\"code_line\":30,\"isa\":\"FADD R8, -R4, R7\",\"source\":\"/src/%s:19\","
    "\"stall\":100}]},"
    "{\"class\":\"short_scoreboard\",\"normalized\":\"lds_dependency\",\"latency\":50,"
    "\"stall\":50,\"top\":[{\"code_line\":40,\"isa\":\"LDS R3, [R2]\","
    "\"source\":\"/src/%s:12\",\"stall\":50}]},"
    "{\"class\":\"selected\",\"normalized\":\"issued\",\"latency\":100,\"stall\":0}],"
    "\"normalized\":[{\"class\":\"memory_dependency\",\"stall\":600},{\"class\":"
    "\"synchronization\",\"stall\":150},{\"class\":\"fixed_latency\",\"stall\":100},"
    "{\"class\":\"lds_dependency\",\"stall\":50}],"
    "\"lines\":[{\"source\":\"/src/%s:9\",\"stall\":400},{\"source\":\"/src/%s:22\","
    "\"stall\":150}]}";

static jv *nv_bubbles(const char *file)
{
	char buf[4096];
	snprintf(buf, sizeof buf, nv_tmpl, file, file, file, file, file, file);
	return fixture_parse(buf);
}

static jv *build(const jv *b)
{
	report_inputs in = {0};
	in.bubbles = b;
	in.kernel = "row_softmax";
	return fixture_report(&in);
}

TEST(nvidia_bound_is_memory_on_long_scoreboard)
{
	jv *b = nv_bubbles("k.cu");
	bound_verdict v;
	fixture_bound(b, NULL, &v);
	/* long_scoreboard 600 of 900 stall samples = 66.7% >= 60: memory, high */
	CHECK_STR(v.bound, "memory");
	CHECK_STR(v.confidence, "high");
	CHECK_NEAR(v.share, 600.0 / 9.0, 1e-9);
	CHECK(strstr(v.why, "66.7% of stall samples") != NULL);
	CHECK(strstr(v.why, "cycles") == NULL);
	/* lg_throttle counts as global-memory issue pressure: 300 + 100 = 400 of 900 = 44.4% */
	jv_set_int(jv_at(jv_get(b, "classes"), 0), "stall", 300);
	jv_set_str(jv_at(jv_get(b, "classes"), 3), "class", "lg_throttle");
	jv_set_int(jv_at(jv_get(b, "classes"), 3), "stall", 100);
	fixture_bound(b, NULL, &v);
	CHECK_STR(v.bound, "memory");
	CHECK_STR(v.confidence, "medium");
	CHECK_NEAR(v.share, 400.0 / 9.0, 1e-9);
	/* imc_miss (constant cache) is not the data stream: 300 + 0 of 900 = 33.3% -> latency */
	jv_set_str(jv_at(jv_get(b, "classes"), 3), "class", "imc_miss");
	fixture_bound(b, NULL, &v);
	CHECK_STR(v.bound, "latency");
	CHECK(strstr(v.why, "matrix share unknown") != NULL);
	jv_free(b);
}

TEST(nvidia_bound_matrix_from_tensor_instructions)
{
	jv *b = nv_bubbles("k.cu");
	kernel_traits t;
	kernel_traits_init(&t);
	t.basis = TRAITS_FROM_SASS;
	t.evidence.matrix_latency = 450;
	bound_verdict v;
	/* 450 of 1000 samples on HMMA/HGMMA = 45% >= 40: compute before memory */
	stall_profile p;
	fixture_profile(b, &p);
	signal_inputs in;
	signal_inputs_fill(&in, &p, NULL, NULL, NULL);
	bound_decide_inputs(&in, &t, &v);
	signal_inputs_release(&in);
	profile_release(&p);
	CHECK_STR(v.bound, "compute");
	CHECK_STR(v.confidence, "medium");
	CHECK(strstr(v.why, "45.0% of all warp-state samples") != NULL);
	jv_free(b);
}

/* The platform traits of the profile a bubbles object reads back into. */
static void platform_of(const jv *b, kernel_traits *t)
{
	stall_profile p;
	fixture_profile(b, &p);
	kernel_traits_add_platform(t, &p);
	profile_release(&p);
}

TEST(nvidia_traits_platform_and_language)
{
	kernel_traits t;
	kernel_traits_init(&t);
	jv *b = nv_bubbles("k.cu");
	platform_of(b, &t);
	CHECK_INT(t.vendor, VENDOR_NVIDIA);
	CHECK_INT(t.language, LANG_CUDA);
	jv *o = kernel_traits_to_jv(&t);
	CHECK_STR(jv_string(jv_get(o, "backend")), "nvidia");
	CHECK_STR(jv_string(jv_get(o, "language")), "cuda");
	jv_free(o);
	jv_free(b);
	b = nv_bubbles("tsm.py");
	platform_of(b, &t);
	CHECK_STR(kernel_trait_get(&t, "language").s, "triton");
	jv_free(b);
	b = nv_bubbles("k.txt"); /* neither: unknown, so rules of both languages apply */
	platform_of(b, &t);
	CHECK_INT(kernel_trait_get(&t, "language").kind, TRAIT_UNKNOWN);
	o = kernel_traits_to_jv(&t);
	CHECK(jv_get(o, "language") && jv_type_of(jv_get(o, "language")) == JV_NULL);
	jv_free(o);
	jv_free(b);
	b = fixture_parse("{\"totals\":{}}"); /* no backend key: AMD, FlyDSL */
	platform_of(b, &t);
	CHECK_STR(kernel_trait_get(&t, "backend").s, "amd");
	CHECK_STR(kernel_trait_get(&t, "language").s, "flydsl");
	jv_free(b);
}

static int count_language(const jv *rep, const char *lang)
{
	const jv *recs = jv_get(rep, "recommendations");
	int n = 0;
	for (size_t i = 0; i < jv_len(recs); i++) {
		const jv *k = jv_get(jv_at(recs, i), "knob");
		rules r;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(rules_load(&r, &e), 0);
		const jv *kv = rules_knob(&r, jv_string(jv_get(k, "id")));
		n += kv && strcmp(jv_string(jv_get(kv, "language")), lang) == 0;
		rules_release(&r);
	}
	return n;
}

TEST(nvidia_cuda_report_rank1_and_no_flydsl_knob)
{
	jv *b = nv_bubbles("k.cu");
	jv *rep = build(b);
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	CHECK_STR(jv_string(jv_get(r1, "class")), "long_scoreboard");
	CHECK_STR(jv_string(jv_get(r1, "rule")), "cuda_long_sb_ilp");
	CHECK_STR(jv_string(jv_get(jv_get(r1, "knob"), "id")), "cuda_ilp_unroll");
	CHECK_STR(jv_string(jv_get(jv_get(jv_get(r1, "evidence"), "hotspot"), "source")),
		  "/src/k.cu:9");
	/* gain: 600 of 1000 samples */
	CHECK_NEAR(jv_num(jv_get(jv_get(r1, "gain"), "upper_bound_pct")), 60.0, 1e-9);
	CHECK(strstr(jv_string(jv_get(jv_get(r1, "gain"), "denominator")), "warp-state samples"));
	CHECK_INT(count_language(rep, "flydsl"), 0);
	CHECK_INT(count_language(rep, "triton"), 0);
	CHECK(count_language(rep, "cuda") >= 3);
	/* barrier 150 > 5%: the warp-shuffle rule, not FlyDSL's barrier_reduction */
	int shuffle = 0;
	const jv *recs = jv_get(rep, "recommendations");
	for (size_t i = 0; i < jv_len(recs); i++)
		shuffle |=
		    strcmp(jv_string(jv_get(jv_at(recs, i), "rule")), "cuda_barrier_shuffle") == 0;
	CHECK(shuffle);
	CHECK(jv_i64(jv_get(rep, "rules_other_platform")) > 0);
	CHECK_STR(jv_string(jv_get(rep, "unit")), "samples");
	CHECK_STR(jv_string(jv_get(rep, "backend")), "nvidia");
	const char *h = jv_string(jv_get(rep, "headline"));
	CHECK(strstr(h, "memory-bound") != NULL);
	CHECK(strstr(h, "stall is 90.0% of warp-state samples") != NULL);
	CHECK(strstr(h, "upper bound 60.0% of all warp-state samples") != NULL);
	CHECK(strstr(h, "cycles") == NULL);
	CHECK(strstr(jv_string(jv_get(rep, "why_rank_1")),
		     "addresses the largest bubble class long_scoreboard") != NULL);
	jv_free(rep);
	jv_free(b);
}

TEST(nvidia_triton_report_rank1)
{
	jv *b = nv_bubbles("tsm.py");
	jv *rep = build(b);
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	CHECK_STR(jv_string(jv_get(r1, "rule")), "triton_long_sb_warps");
	CHECK_STR(jv_string(jv_get(jv_get(r1, "knob"), "id")), "triton_num_warps");
	CHECK_INT(count_language(rep, "flydsl"), 0);
	CHECK_INT(count_language(rep, "cuda"), 0);
	jv_free(rep);
	jv_free(b);
}

TEST(nvidia_rules_never_fire_on_amd)
{
	/* an AMD object that also carries an NVIDIA-named class must not get NVIDIA knobs */
	jv *b = nv_bubbles("k.cu");
	jv_set_str(b, "backend", "amd");
	jv_set_str(b, "unit", "cycles");
	jv *rep = build(b);
	CHECK_INT(count_language(rep, "cuda"), 0);
	CHECK_INT(count_language(rep, "triton"), 0);
	jv_free(rep);
	jv_free(b);
}

static const char knobs2[] =
    "{\"vocabulary\":\"triton\",\"kinds\":{\"k\":\"d\"},\"knobs\":[{\"id\":\"nw\",\"kind\":"
    "\"k\",\"api\":\"num_warps=N\",\"effect\":\"e\"}]}";
static const char knobs1[] =
    "{\"kinds\":{\"p\":\"d\"},\"knobs\":[{\"id\":\"fk\",\"kind\":\"p\",\"api\":\"a\","
    "\"effect\":\"e\"}]}";
static const char rule_tmpl[] =
    "{\"rules\": [\n {\"id\": \"a\", \"class\": \"%s\",\n  \"signal\": {\"field\": "
    "\"long_scoreboard.pct_of_stall\", \"op\": \">\", \"threshold\": 10},\n  \"applies_to\": "
    "%s,\n  \"knob\": \"%s\", \"change\": \"c\", \"expected\": \"x\", \"verify\": \"v\", "
    "\"confidence\": \"high\", \"priority\": 1}]}";

static int parse2(const char *klass, const char *applies, const char *knob, fp_err *e)
{
	char text[1024];
	snprintf(text, sizeof text, rule_tmpl, klass, applies, knob);
	rules_vocab v[2] = {{knobs1, strlen(knobs1), "k1.json"},
			    {knobs2, strlen(knobs2), "k2.json"}};
	rules r;
	int rc = rules_parse_vocabs(&r, text, strlen(text), "rules.json", v, 2, e);
	if (rc == 0)
		rules_release(&r);
	return rc;
}

TEST(nvidia_rules_validation)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse2("long_scoreboard", "{\"backend\": \"nvidia\", \"language\": \"triton\"}",
			 "nw", &e),
		  0);
	/* a Triton knob without language = triton */
	CHECK_INT(parse2("long_scoreboard", "{\"backend\": \"nvidia\"}", "nw", &e), -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/knob");
	CHECK_INT(jv_i64(jv_get(e.extra, "line")), 5); /* the "knob" line of rule_tmpl */
	fp_err_clear(&e);
	/* a FlyDSL knob on an NVIDIA rule */
	CHECK_INT(parse2("long_scoreboard", "{\"backend\": \"nvidia\"}", "fk", &e), -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/knob");
	fp_err_clear(&e);
	/* an unknown backend value */
	CHECK_INT(parse2("long_scoreboard", "{\"backend\": \"intel\"}", "fk", &e), -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/applies_to/backend");
	CHECK_STR(jv_string(jv_get(e.extra, "expected")), "amd or nvidia");
	fp_err_clear(&e);
	/* a misspelt NVIDIA class */
	CHECK_INT(parse2("long_scorebord", "{\"backend\": \"amd\"}", "fk", &e), -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/class");
	fp_err_clear(&e);
	/* the same knob id in two vocabularies: reported in the second file */
	rules r;
	rules_vocab v[2] = {{knobs2, strlen(knobs2), "k1.json"},
			    {knobs2, strlen(knobs2), "k2.json"}};
	char text[1024];
	snprintf(text, sizeof text, rule_tmpl, "long_scoreboard", "{\"language\": \"triton\"}",
		 "nw");
	CHECK_INT(rules_parse_vocabs(&r, text, strlen(text), "rules.json", v, 2, &e), -1);
	CHECK_STR(jv_string(jv_get(e.extra, "file")), "k2.json");
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/knobs/0/id");
	fp_err_clear(&e);
}

TEST(nvidia_shipped_flydsl_rules_are_amd_only)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	int nv = 0;
	for (size_t i = 0; i < r.n; i++) {
		const char *lang = jv_string(jv_get(r.v[i].knob_v, "language"));
		kernel_traits amd, cu;
		kernel_traits_init(&amd);
		kernel_traits_init(&cu);
		amd.platform_known = cu.platform_known = 1;
		amd.vendor = VENDOR_AMD, amd.language = LANG_FLYDSL;
		cu.vendor = VENDOR_NVIDIA, cu.language = LANG_CUDA;
		if (strcmp(lang, "flydsl") == 0) {
			CHECK(rule_for_platform(&r.v[i], &amd));
			CHECK(!rule_for_platform(&r.v[i], &cu));
		} else {
			CHECK(!rule_for_platform(&r.v[i], &amd));
			nv++;
		}
	}
	CHECK(nv >= 20);
	rules_release(&r);
}
