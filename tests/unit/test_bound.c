/* The one bound verdict: counters first (calibration honoured), else the trace; basis and
 * confidence stated. */
#include "t.h"

#include "core/diagnose/bound.h"
#include "report_fixture.h"

static jv *parse(const char *s)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(s, strlen(s), "t", &e);
	fp_err_clear(&e);
	return v;
}

TEST(bound_from_trace_memory)
{
	jv *b = fixture_bubbles();
	bound_verdict v;
	fixture_bound(b, NULL, &v);
	/* vmem 3000 of 6000 stall = 50% >= 40; mfma latency 1500/10000 = 15% < 40 */
	CHECK_STR(v.bound, "memory");
	CHECK_STR(v.basis, "trace");
	CHECK_STR(v.confidence, "medium");
	CHECK_INT(v.calibrated, -1);
	CHECK_NEAR(v.share, 50.0, 1e-9);
	CHECK(strstr(v.why, "50.0%") != NULL);
	jv_free(b);
}

TEST(bound_from_trace_compute_and_latency)
{
	jv *b = fixture_bubbles();
	/* mfma latency 4500 of 13000 ... make mfma hold 70% of latency */
	jv *cls = jv_get(b, "classes");
	jv_set_int(jv_at(cls, 4), "latency", 7000);
	bound_verdict v;
	fixture_bound(b, NULL, &v);
	CHECK_STR(v.bound, "compute");
	CHECK_STR(v.confidence, "high");
	jv_set_int(jv_at(cls, 4), "latency", 1500);
	fixture_set_stall(b, "vmem_wait", 1000); /* 1000 of 4000 = 25% < 40 */
	fixture_bound(b, NULL, &v);
	CHECK_STR(v.bound, "latency");
	CHECK_STR(v.confidence, "low");
	jv_free(b);
}

TEST(bound_from_counters_honours_calibration)
{
	jv *b = fixture_bubbles();
	jv *c = parse("{\"memory\":{\"calibrated\":false,\"pct_of_hbm_roof\":95,"
		      "\"l2_hit_rate\":80},\"compute\":{\"mfma_inst_frac\":0.1}}");
	bound_verdict v;
	fixture_bound(b, c, &v);
	/* uncalibrated roof ignored, L2 fine, MFMA low: falls back to the trace */
	CHECK_STR(v.basis, "trace");
	CHECK_STR(v.bound, "memory");
	CHECK_INT(v.calibrated, 0);
	CHECK(strstr(v.why, "counters inconclusive") != NULL);
	jv_set_bool(jv_get(c, "memory"), "calibrated", 1);
	fixture_bound(b, c, &v);
	CHECK_STR(v.basis, "counters");
	CHECK_STR(v.bound, "memory");
	CHECK_STR(v.confidence, "high");
	jv_set_double(jv_get(c, "compute"), "mfma_inst_frac", 0.6);
	fixture_bound(b, c, &v);
	CHECK_STR(v.bound, "compute");
	CHECK_STR(v.basis, "counters");
	jv_free(c);
	jv_free(b);
}

TEST(bound_unknown_without_latency)
{
	jv *b = parse("{\"totals\":{\"latency\":0,\"stall\":0},\"classes\":[]}");
	bound_verdict v;
	fixture_bound(b, NULL, &v);
	CHECK_STR(v.bound, "unknown");
	CHECK(!bound_gates(&v));
	jv *j = bound_to_jv(&v);
	CHECK(t_is_null(jv_get(j, "calibrated")));
	jv_free(j);
	jv_free(b);
}
