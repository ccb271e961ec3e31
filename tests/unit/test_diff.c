/* diff: a document against itself has zero deltas and passes any gate; a constructed
 * regression of the targeted bubble fails the gate; the noise floor widens the threshold. */
#include "t.h"

#include "core/diagnose/diff.h"
#include "core/diagnose/report.h"
#include "report_fixture.h"

static jv *report_of(const jv *b)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	report_inputs in = {0};
	in.bubbles = b;
	jv *rep = report_build(&in, &r);
	rules_release(&r);
	return rep;
}

/* The diff of two documents as `flyprof diff` builds it: each read back into a stall profile
 * (which must read) and its report-only parts (diff_side_of). */
static jv *diff_build(const jv *before, const jv *after)
{
	stall_profile pb, pa;
	fixture_profile(before, &pb);
	fixture_profile(after, &pa);
	diff_side b, a;
	diff_side_of(&b, before, &pb);
	diff_side_of(&a, after, &pa);
	jv *d = diff_build_sides(&b, &a);
	profile_release(&pb);
	profile_release(&pa);
	return d;
}

/* The variation object of the dispatches' bubbles objects, each read back into a profile. */
static jv *variation_of(const jv *const *bs, const char *const *ids, size_t n)
{
	stall_profile ps[2] = {{0}};
	const stall_profile *pp[2] = {NULL, NULL};
	for (size_t i = 0; i < n; i++)
		fixture_profile(bs[i], &ps[i]), pp[i] = &ps[i];
	jv *v = diff_variation_profiles(pp, ids, n);
	for (size_t i = 0; i < n; i++)
		profile_release(&ps[i]);
	return v;
}

TEST(diff_self_is_zero_and_passes)
{
	jv *b = fixture_bubbles();
	jv *rep = report_of(b);
	jv *d = diff_build(rep, rep);
	const jv *cls = jv_get(d, "classes");
	CHECK_INT(jv_len(cls), 5);
	for (size_t i = 0; i < jv_len(cls); i++) {
		CHECK_NEAR(jv_num(jv_get(jv_at(cls, i), "delta_pp")), 0, 1e-12);
		CHECK_INT(jv_i64(jv_get(jv_at(cls, i), "delta_stall_cycles")), 0);
	}
	const jv *v = jv_get(d, "verdict");
	CHECK_STR(jv_string(jv_get(v, "class")), "vmem_wait");
	CHECK_STR(jv_string(jv_get(v, "outcome")), "unchanged");
	CHECK(t_truth(jv_get(jv_get(d, "bound"), "changed")) == 0);
	jv *reasons = NULL;
	CHECK_INT(diff_gate(d, 0.0, &reasons), 0);
	CHECK_INT(jv_len(reasons), 0);
	jv_free(reasons);
	jv_free(d);
	/* bubbles.json against report.json of the same trace: also zero */
	d = diff_build(b, rep);
	CHECK_NEAR(jv_num(jv_get(jv_get(d, "verdict"), "delta_pp")), 0, 1e-12);
	jv_free(d);
	jv_free(rep);
	jv_free(b);
}

TEST(diff_regression_fails_gate)
{
	jv *b = fixture_bubbles();
	jv *a = fixture_bubbles();
	/* after: vmem_wait 3000 -> 4500; stall 7500 of latency 10000 (75%): vmem 60% of stall */
	fixture_set_stall(a, "vmem_wait", 4500);
	jv *d = diff_build(b, a);
	const jv *v = jv_get(d, "verdict");
	CHECK_NEAR(jv_num(jv_get(v, "before_pct_of_stall")), 50.0, 1e-9);
	CHECK_NEAR(jv_num(jv_get(v, "after_pct_of_stall")), 60.0, 1e-9);
	CHECK_NEAR(jv_num(jv_get(v, "delta_pp")), 10.0, 1e-9);
	CHECK_INT(jv_i64(jv_get(v, "delta_stall_cycles")), 1500);
	CHECK_STR(jv_string(jv_get(v, "outcome")), "regressed");
	const jv *ts = jv_get(jv_get(d, "totals"), "stall_pct_of_latency");
	CHECK_NEAR(jv_num(jv_get(ts, "delta_pp")), 15.0, 1e-9);
	jv *reasons = NULL;
	CHECK_INT(diff_gate(d, 5.0, &reasons), 1);
	CHECK_INT(jv_len(reasons), 2);
	jv_free(reasons);
	CHECK_INT(diff_gate(d, 20.0, &reasons), 0); /* 10 and 15 points are within 20 */
	jv_free(reasons);
	/* the other way round it improved */
	jv *d2 = diff_build(a, b);
	CHECK_STR(jv_string(jv_get(jv_get(d2, "verdict"), "outcome")), "improved");
	jv_free(d2);
	jv_free(d);
	jv_free(a);
	jv_free(b);
}

TEST(diff_noise_floor_from_variation)
{
	jv *b1 = fixture_bubbles();
	jv *b2 = fixture_bubbles();
	fixture_set_stall(b2, "vmem_wait", 4000); /* 4000 of 7000 = 57.14% vs 50%: 7.14 pp */
	const jv *bs[2] = {b1, b2};
	const char *ids[2] = {"1", "2"};
	jv *var = variation_of(bs, ids, 2);
	CHECK_NEAR(jv_num(jv_get(var, "max_spread_pp")), 7.14, 1e-9);
	CHECK_NEAR(jv_num(jv_get(jv_get(var, "spread_pp"), "vmem_wait")), 7.14, 1e-9);
	CHECK_INT(jv_i64(jv_get(var, "dispatches")), 2);
	CHECK(variation_of(bs, ids, 1) == NULL);
	jv *before = fixture_bubbles();
	jv_set(before, "variation", var);
	jv *after = fixture_bubbles();
	fixture_set_stall(after, "vmem_wait", 3500); /* 3500 of 6500 = 53.85%: +3.85 pp */
	jv *d = diff_build(before, after);
	CHECK_NEAR(jv_num(jv_get(jv_get(d, "noise"), "floor_pp")), 7.14, 1e-9);
	CHECK_STR(jv_string(jv_get(jv_get(d, "verdict"), "outcome")), "within_noise");
	jv *reasons = NULL;
	CHECK_INT(diff_gate(d, 1.0, &reasons), 0); /* threshold max(1, 7.14) */
	CHECK_NEAR(jv_num(jv_get(jv_get(d, "gate"), "threshold_pp")), 7.14, 1e-9);
	jv_free(reasons);
	jv_free(d);
	jv_free(after);
	jv_free(before);
	jv_free(b2);
	jv_free(b1);
}
