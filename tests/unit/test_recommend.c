/* The typed recommendations (recommend.h): ranked structs with their gain and the rules that did
 * not fire, and the JSON they become at the edge says the same. Hand-made fixture: vmem_wait
 * holds 3000 of 6000 stall cycles and 10000 latency cycles. */
#include "t.h"

#include "core/diagnose/recommend.h"
#include "core/diagnose/rule_signals.h"
#include "report_fixture.h"

static const char *const status_name[] = {[NOT_FIRED_NO_SIGNAL] = "no_signal",
					  [NOT_FIRED_GATED] = "gated",
					  [NOT_FIRED_CONTRADICTED] = "contradicted",
					  [NOT_FIRED_NOT_APPLICABLE] = "not_applicable"};

TEST(recommend_typed_result_and_its_json)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	jv *b = fixture_bubbles();
	stall_profile p;
	fixture_profile(b, &p);
	/* the read-back profile holds the listed lines and the waits' producers */
	CHECK_INT(p.n_lines, 1);
	CHECK_INT(p.lines[0].stall, 2400);
	CHECK_STR(p.lines[0].source, FIX_SRC ":42");
	CHECK_INT(p.n_wait_order, 2);
	CHECK_INT(p.waits[0].n_producers, 1);
	CHECK_INT(p.waits[0].producers[0].code_line, 5);
	CHECK_INT(p.waits[0].producers[0].type, PROD_VMEM);
	CHECK_STR(profile_producer_source(&p, &p.waits[0].producers[0]), FIX_SRC ":40");
	CHECK_INT(p.n_hot, 1); /* and the listed hotspots */
	CHECK_INT(p.trace->insts[p.hot[0]].stall, 2400);
	CHECK_INT(p.trace->insts[p.hot[0]].vaddr, 4096);
	CHECK_STR(class_name(p.vendor, p.trace->insts[p.hot[0]].klass), "vmem_wait");
	kernel_traits t;
	kernel_traits_from_profile(&p, &t);
	kernel_traits_add_platform(&t, &p);
	/* the mix: mfma executed (100), no lds_issue */
	CHECK_INT(t.has_matrix_ops, TRI_YES);
	CHECK_INT(t.has_shared_mem_traffic, TRI_NO);
	CHECK_NEAR(t.evidence.mix_matrix, 100, 1e-9);
	CHECK_STR(kernel_trait_get(&t, "language").s, "flydsl");
	signal_inputs in;
	signal_inputs_fill(&in, &p, NULL, NULL, NULL);
	CHECK_STR(in.largest_class, "vmem_wait");
	CHECK_NEAR(in.largest_stall, 3000, 1e-9);
	CHECK_NEAR(signal_inputs_class_stall(&in, "vmem_wait"), 3000, 1e-9);
	CHECK_NEAR(signal_inputs_class_stall(&in, "long_scoreboard"), 0, 1e-9);
	bound_verdict bv;
	bound_decide_inputs(&in, &t, &bv);
	CHECK_STR(bv.bound, "memory"); /* vmem_wait + vmem_issue = 50% of stall */
	signal_map sig;
	rule_signals_from_inputs(&sig, &in);
	recommend_result rr;
	recommend_run(&r, &in, &p, &sig, NULL, NULL, &bv, &t, NULL, &rr);
	CHECK(rr.n_recs >= 2);
	for (size_t i = 0; i < rr.n_recs; i++) {
		CHECK_INT(rr.recs[i].rank, i + 1);
		if (i)
			CHECK(rr.recs[i - 1].gain.key >= rr.recs[i].gain.key);
	}
	const recommendation *r1 = &rr.recs[0];
	CHECK_STR(r1->rule->klass, "vmem_wait");
	CHECK_STR(r1->gain.kind, "upper_bound");
	CHECK_NEAR(sig_number(&r1->gain.upper_bound), 30.0, 1e-9); /* 3000 / 10000 */
	CHECK(r1->conds[0].present && r1->conds[0].cond == &r1->rule->conds[0]);
	CHECK(strstr(rr.why_rank1, "addresses the largest bubble class vmem_wait") != NULL);
	/* the JSON says what the structs hold */
	jv *recs = recommend_recs_to_jv(&rr), *nf = recommend_not_fired_to_jv(&rr);
	CHECK_INT(jv_len(recs), rr.n_recs);
	CHECK_INT(jv_len(nf), rr.n_not_fired);
	for (size_t i = 0; i < rr.n_recs; i++) {
		const jv *o = jv_at(recs, i);
		CHECK_INT(jv_i64(jv_get(o, "rank")), i + 1);
		CHECK_STR(jv_string(jv_get(o, "rule")), rr.recs[i].rule->id);
		CHECK_STR(jv_string(jv_get(o, "confidence")), rr.recs[i].confidence);
		CHECK_NEAR(jv_num(jv_get(jv_get(o, "gain"), "upper_bound_pct")),
			   sig_number(&rr.recs[i].gain.upper_bound), 1e-12);
		CHECK_STR(jv_string(jv_get(jv_get(o, "evidence"), "signal")),
			  rr.recs[i].rule->conds[0].field);
		CHECK((jv_get(o, "why_rank_1") != NULL) == (i == 0));
	}
	CHECK_STR(jv_string(jv_get(jv_at(recs, 0), "why_rank_1")), rr.why_rank1);
	for (size_t i = 0; i < rr.n_not_fired; i++) {
		const jv *o = jv_at(nf, i);
		CHECK_STR(jv_string(jv_get(o, "rule")), rr.not_fired[i].rule->id);
		CHECK_STR(jv_string(jv_get(o, "status")), status_name[rr.not_fired[i].status]);
		if (rr.not_fired[i].status == NOT_FIRED_GATED)
			CHECK_STR(jv_string(jv_get(o, "bound")), "memory");
		if (rr.not_fired[i].status == NOT_FIRED_NO_SIGNAL)
			CHECK_STR(jv_string(jv_get(o, "missing")), rr.not_fired[i].missing);
	}
	CHECK(rr.n_not_fired > 0); /* e.g. the counter rules: no counters */
	jv_free(recs);
	jv_free(nf);
	recommend_release(&rr);
	CHECK(rr.recs == NULL && rr.n_recs == 0);
	signal_map_release(&sig);
	signal_inputs_release(&in);
	profile_release(&p);
	jv_free(b);
	rules_release(&r);
	fp_err_clear(&e);
}
