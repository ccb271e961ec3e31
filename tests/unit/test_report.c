/* Ranking, evidence, gain upper bound and the rank-1 explanation on the hand-made fixture. */
#include "t.h"

#include "core/diagnose/report.h"
#include "report_fixture.h"

static jv *build(const jv *b, const jv *counters, const jv *occ)
{
	report_inputs in = {0};
	in.bubbles = b;
	in.counters = counters;
	in.occupancy = occ;
	in.kernel = "softmax_kernel_0";
	return fixture_report(&in);
}

static const char *rec_rule(const jv *rep, size_t i)
{
	return jv_string(jv_get(jv_at(jv_get(rep, "recommendations"), i), "rule"));
}

TEST(report_ranks_largest_class_first)
{
	jv *b = fixture_bubbles();
	jv *rep = build(b, NULL, NULL);
	const jv *recs = jv_get(rep, "recommendations");
	/* fired: vmem_wait_pipeline (30% of latency, p1.0), vmem_wait_lds_dma (30, p0.9),
	 * lds_wait_preload (12), barrier_relax (9); valu at exactly 10% does not fire */
	CHECK_INT(jv_len(recs), 4);
	CHECK_STR(rec_rule(rep, 0), "vmem_wait_pipeline");
	CHECK_STR(rec_rule(rep, 1), "vmem_wait_lds_dma");
	CHECK_STR(rec_rule(rep, 2), "lds_wait_preload");
	CHECK_STR(rec_rule(rep, 3), "barrier_relax");
	const jv *r1 = jv_at(recs, 0);
	CHECK_INT(jv_i64(jv_get(r1, "rank")), 1);
	const jv *g = jv_get(r1, "gain");
	CHECK_NEAR(jv_num(jv_get(g, "upper_bound_pct")), 30.0, 1e-9);
	CHECK_STR(jv_string(jv_get(g, "kind")), "upper_bound");
	CHECK_STR(jv_string(jv_get(r1, "confidence")), "high"); /* 80% of the class on one line */
	CHECK(strstr(jv_string(jv_get(g, "denominator")), "totals.latency") != NULL);
	const jv *ev = jv_get(r1, "evidence");
	CHECK_STR(jv_string(jv_get(ev, "signal")), "vmem_wait.pct_of_stall");
	CHECK_NEAR(jv_num(jv_get(ev, "value")), 50.0, 1e-9);
	const jv *hs = jv_get(ev, "hotspot");
	CHECK_STR(jv_string(jv_get(hs, "source")), FIX_SRC ":42");
	CHECK_STR(jv_string(jv_get(hs, "isa")), "s_waitcnt vmcnt(0)");
	CHECK_NEAR(jv_num(jv_get(hs, "pct_of_class_stall")), 80.0, 1e-9); /* 2400 / 3000 */
	const jv *w = jv_at(jv_get(ev, "waits_on"), 0);
	CHECK_STR(jv_string(jv_get(w, "type")), "VMEM");
	CHECK_STR(jv_string(jv_get(w, "source")), FIX_SRC ":40");
	CHECK(strstr(jv_string(jv_get(rep, "why_rank_1")), "addresses the largest bubble class "
							   "vmem_wait (50.0%") != NULL);
	CHECK_STR(jv_string(jv_get(jv_get(r1, "knob"), "api")),
		  "lds_stage=2 (preshuffle builder; stages / kStages in a16w16 / mxfp_moe)");
	/* the stall taxonomy states its denominators and flags bubbles at >= 5% of stall */
	const jv *cls = jv_get(jv_get(rep, "stall_taxonomy"), "classes");
	CHECK_NEAR(jv_num(jv_get(jv_at(cls, 1), "pct_of_stall")), 20.0, 1e-9);
	CHECK(t_truth(jv_get(jv_at(cls, 4), "is_bubble")) == 1); /* mfma exactly 5% */
	CHECK_STR(jv_string(jv_get(jv_get(rep, "bound"), "bound")), "memory");
	CHECK(strstr(jv_string(jv_get(rep, "headline")), "memory-bound (trace, medium") != NULL);
	/* not fired for lack of a signal: bank conflicts, 3 occupancy rules, roofline; not
	 * applicable to a kernel with MFMA (the fixture's mix has v_mfma): the 7 streaming rules;
	 * no launch geometry, roofline, wave files or wait facts without a trace: the 3 grid
	 * rules, the trace roofline rule, waves_idle, lds_wait_crosslane, vmem_wait_store */
	CHECK_INT(jv_len(jv_get(rep, "not_fired")), 19);
	jv_free(rep);
	jv_free(b);
}

TEST(report_occupancy_finding_can_outrank)
{
	jv *b = fixture_bubbles();
	jv *occ = fixture_parse(
	    "{\"theoretical\":{\"waves_per_simd\":2,\"max_waves_per_simd\":8,"
	    "\"limiter\":\"vgpr\"},\"observed\":{\"per_simd\":{\"peak\":2,\"mean\":1.5}}}");
	jv *rep = build(b, NULL, occ);
	/* dependency stall 3000+1200+900 = 5100 of 10000 = 51% x (1 - 2/8) = 38.25% > 30% */
	CHECK_STR(rec_rule(rep, 0), "occupancy_vgpr");
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	CHECK_NEAR(jv_num(jv_get(jv_get(r1, "gain"), "upper_bound_pct")), 38.25, 1e-9);
	CHECK_STR(jv_string(jv_get(jv_get(r1, "gain"), "kind")), "upper_bound_estimate");
	CHECK(t_is_null(jv_get(jv_get(r1, "evidence"), "hotspot")));
	CHECK(jv_string(jv_get(jv_get(r1, "evidence"), "none_reason")) != NULL);
	CHECK(strstr(jv_string(jv_get(rep, "why_rank_1")), "outranks the largest bubble class "
							   "vmem_wait") != NULL);
	CHECK_STR(rec_rule(rep, 1), "vmem_wait_pipeline");
	CHECK(t_truth(jv_get(jv_get(rep, "occupancy"), "disagreement")) == 0);
	jv_free(rep);
	jv_free(occ);
	jv_free(b);
}

TEST(report_gated_largest_class_is_explained)
{
	jv *b = fixture_bubbles();
	jv *c = fixture_parse("{\"compute\":{\"mfma_inst_frac\":0.7}}");
	jv *rep = build(b, c, NULL);
	/* counters say compute: the vmem rules (gate memory|latency) are gated out */
	CHECK_STR(jv_string(jv_get(jv_get(rep, "bound"), "basis")), "counters");
	CHECK_STR(rec_rule(rep, 0), "lds_wait_preload");
	CHECK(strstr(jv_string(jv_get(rep, "why_rank_1")), "gated out") != NULL);
	jv *h = report_headlines(rep);
	CHECK_STR(jv_string(jv_get(h, "bound")), "compute");
	CHECK_STR(jv_string(jv_get(jv_get(h, "rank1"), "knob")), "preload");
	CHECK_NEAR(jv_num(jv_get(jv_get(h, "rank1"), "class_pct_of_stall")), 20.0, 1e-9);
	jv *s = report_summary(rep, 1);
	CHECK_INT(jv_len(jv_get(s, "recommendations")), 1);
	CHECK_INT(jv_i64(jv_get(s, "recommendations_total")), 2);
	jv_free(s);
	jv_free(h);
	jv_free(rep);
	jv_free(c);
	jv_free(b);
}

TEST(report_no_source_says_why)
{
	jv *b = fixture_bubbles();
	fixture_set_stall(b, "valu", 3000); /* valu: 3000 of 8400 stall */
	jv *rep = build(b, NULL, NULL);
	const jv *recs = jv_get(rep, "recommendations");
	int seen = 0;
	for (size_t i = 0; i < jv_len(recs); i++) {
		const jv *r = jv_at(recs, i);
		if (strcmp(jv_string(jv_get(r, "rule")), "valu_fastmath") != 0)
			continue;
		seen = 1;
		const jv *ev = jv_get(r, "evidence");
		CHECK_STR(jv_string(jv_get(jv_get(ev, "hotspot"), "isa")), "v_exp_f32_e32 v1, v2");
		CHECK(strstr(jv_string(jv_get(ev, "none_reason")), "no source line") != NULL);
		/* weak evidence lowers the rule's medium confidence to low */
		CHECK_STR(jv_string(jv_get(r, "rule_confidence")), "medium");
		CHECK_STR(jv_string(jv_get(r, "confidence")), "low");
	}
	CHECK(seen);
	jv_free(rep);
	jv_free(b);
}
