/* Comparing two analyses (diff.h): two stall profiles, each the one profile_from_json reads
 * from a report.json (stall_taxonomy.classes) or a bubbles.json (classes), plus what only a
 * report holds (the rank-1 recommendation, the variation, the bound). */
#include "core/diagnose/diff.h"

#include "base/xalloc.h"
#include "core/diagnose/bound.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* A class of the profile's vendor by name, -1 for another name (a pseudo class). */
static int class_id(const stall_profile *p, const char *klass)
{
	return p->classes && klass ? class_lookup(p->vendor, klass) : -1;
}

static double stall_of(const stall_profile *p, const char *klass)
{
	int id = class_id(p, klass);
	return id >= 0 ? (double)p->classes[id].stall : 0;
}

static double share_of(const stall_profile *p, const char *klass)
{
	return pct(stall_of(p, klass), (double)p->totals.stall);
}

static double total_share(const stall_profile *p)
{
	return pct((double)p->totals.stall, (double)p->totals.latency);
}

static double round2(double x)
{
	return round(x * 100.0) / 100.0;
}

static const char *outcome(double d, double floor_pp)
{
	if (d == 0)
		return "unchanged";
	if (d < -floor_pp && d < 0)
		return "improved";
	if (d > floor_pp && d > 0)
		return "regressed";
	return "within_noise";
}

static void add_class(jv *arr, const char *klass, const stall_profile *b, const stall_profile *a)
{
	for (size_t i = 0; i < jv_len(arr); i++)
		if (strcmp(jv_string(jv_get(jv_at(arr, i), "class")), klass) == 0)
			return;
	jv *o = jv_push(arr, jv_object());
	jv_set_str(o, "class", klass);
	jv *bo = jv_set(o, "before", jv_object()), *ao = jv_set(o, "after", jv_object());
	jv_set_int(bo, "stall", (int64_t)stall_of(b, klass));
	jv_set_round(bo, "pct_of_stall", share_of(b, klass), 2);
	jv_set_int(ao, "stall", (int64_t)stall_of(a, klass));
	jv_set_round(ao, "pct_of_stall", share_of(a, klass), 2);
	jv_set_int(o, "delta_stall_cycles", (int64_t)(stall_of(a, klass) - stall_of(b, klass)));
	jv_set_round(o, "delta_pp", round2(share_of(a, klass)) - round2(share_of(b, klass)), 2);
}

/* Every class either side lists, the before side's order first. */
static jv *classes(const stall_profile *b, const stall_profile *a)
{
	jv *arr = jv_array();
	const stall_profile *sides[2] = {b, a};
	for (int s = 0; s < 2; s++)
		for (size_t k = 0; k < sides[s]->n_class_order; k++)
			add_class(arr, class_name(sides[s]->vendor, sides[s]->class_order[k]), b,
				  a);
	return arr;
}

static jv *pair(const jv *bv, const jv *av)
{
	jv *o = jv_object();
	jv_set(o, "before", bv ? jv_copy(bv) : jv_null());
	jv_set(o, "after", av ? jv_copy(av) : jv_null());
	if (jv_is_num(bv) && jv_is_num(av))
		jv_set_round(o, "delta", jv_num(av) - jv_num(bv), 3);
	else
		jv_set(o, "delta", jv_null());
	return o;
}

/* A totals figure as the document wrote it (waves: null when unknown). */
static jv *total_of(const stall_profile *p, size_t i)
{
	const prof_totals *t = &p->totals;
	const int64_t v[] = {t->stall, t->latency, t->idle, t->hits, t->waves};
	return i == 4 && t->waves < 0 ? jv_null() : jv_int(v[i]);
}

static jv *total_pair(const stall_profile *b, const stall_profile *a, size_t i)
{
	jv *bv = total_of(b, i), *av = total_of(a, i);
	jv *o = pair(bv, av);
	jv_free(bv);
	jv_free(av);
	return o;
}

static const jv *occ_th(const stall_profile *p)
{
	return jv_get(jv_get(p->occupancy, "theoretical"), "waves_per_simd");
}

static const jv *occ_obs(const stall_profile *p)
{
	return jv_get(jv_get(jv_get(p->occupancy, "observed"), "per_simd"), "mean");
}

/* The report's bound, else the one the profile decides (bound.h, without counters). */
static const char *bound_of(const diff_side *s, bound_verdict *tmp)
{
	if (s->bound)
		return s->bound;
	signal_inputs in;
	signal_inputs_fill(&in, s->p, NULL, NULL, NULL);
	bound_decide_inputs(&in, NULL, tmp);
	signal_inputs_release(&in);
	return tmp->bound;
}

static const char *targeted(const diff_side *b, const char **by)
{
	const char *c = b->rank1_class;
	if (c && strcmp(c, "occupancy") != 0 && strcmp(c, "roofline") != 0) {
		*by = "the before side's rank-1 recommendation";
		return c;
	}
	*by = "the before side's largest stall class";
	int id = profile_largest_class(b->p);
	return id >= 0 ? class_name(b->p->vendor, id) : NULL;
}

static jv *noise(const diff_side *b, const diff_side *a, double *floor_pp)
{
	double sb = b->spread_pp, sa = a->spread_pp;
	jv *o = jv_object();
	*floor_pp = sb > sa ? sb : sa;
	if (*floor_pp < 0) {
		*floor_pp = 0;
		jv_set_round(o, "floor_pp", 0, 2);
		jv_set_str(o, "basis",
			   "none: neither side has several dispatches of one capture, so "
			   "run-to-run noise is unknown and any change counts");
	} else {
		jv_set_round(o, "floor_pp", *floor_pp, 2);
		jv_set_str(o, "basis",
			   "largest spread of class shares (pp of totals.stall) between "
			   "dispatches of one capture, over both sides");
	}
	jv_set(o, "before_pp", sb >= 0 ? jv_round(sb, 2) : jv_null());
	jv_set(o, "after_pp", sa >= 0 ? jv_round(sa, 2) : jv_null());
	return o;
}

static jv *verdict(const diff_side *bs, const stall_profile *a, double floor_pp)
{
	const char *by = NULL;
	const char *c = targeted(bs, &by);
	const stall_profile *b = bs->p;
	jv *v = jv_object();
	if (!c) {
		jv_set(v, "class", jv_null());
		jv_set_str(v, "outcome", "no_bubble");
		return v;
	}
	double bp = round2(share_of(b, c)), ap = round2(share_of(a, c));
	jv_set_str(v, "class", c);
	jv_set_str(v, "targeted_by", by);
	jv_set_round(v, "before_pct_of_stall", bp, 2);
	jv_set_round(v, "after_pct_of_stall", ap, 2);
	jv_set_round(v, "delta_pp", ap - bp, 2);
	jv_set_int(v, "delta_stall_cycles", (int64_t)(stall_of(a, c) - stall_of(b, c)));
	jv_set_str(v, "outcome",
		   profile_class_listed(a, c) >= 0 || stall_of(b, c) == 0
		       ? outcome(ap - bp, floor_pp)
		       : "vanished");
	return v;
}

static void headline(jv *d)
{
	const jv *v = jv_get(d, "verdict");
	const jv *t = jv_get(jv_get(d, "totals"), "stall_pct_of_latency");
	const jv *bd = jv_get(d, "bound");
	jv_set(d, "headline",
	       jv_strf("%s: %.2f%% -> %.2f%% of stall (%+.2f pp, %s); total stall %.2f%% -> %.2f%% "
		       "of latency (%+.2f pp, %s); bound %s -> %s; noise floor %.2f pp",
		       jv_string(jv_get(v, "class")) ? jv_string(jv_get(v, "class")) : "no bubble",
		       jv_num(jv_get(v, "before_pct_of_stall")),
		       jv_num(jv_get(v, "after_pct_of_stall")), jv_num(jv_get(v, "delta_pp")),
		       jv_string(jv_get(v, "outcome")), jv_num(jv_get(t, "before")),
		       jv_num(jv_get(t, "after")), jv_num(jv_get(t, "delta_pp")),
		       jv_string(jv_get(t, "outcome")), jv_string(jv_get(bd, "before")),
		       jv_string(jv_get(bd, "after")),
		       jv_num(jv_get(jv_get(d, "noise"), "floor_pp"))));
}

jv *diff_build_sides(const diff_side *bs, const diff_side *as)
{
	const stall_profile *b = bs->p, *a = as->p;
	jv *d = jv_object();
	double floor_pp = 0;
	jv_set_str(d, "headline", ""); /* filled last; first in the output */
	jv_set_str(d, "denominator",
		   "class deltas: percentage points (pp) of each side's "
		   "totals.stall; total stall: pp of each side's totals.latency");
	jv_set(d, "noise", noise(bs, as, &floor_pp));
	jv_set(d, "verdict", verdict(bs, a, floor_pp));
	jv *tot = jv_set(d, "totals", jv_object());
	jv *ts = jv_set(tot, "stall_pct_of_latency", jv_object());
	double tb = round2(total_share(b)), ta = round2(total_share(a));
	jv_set_round(ts, "before", tb, 2);
	jv_set_round(ts, "after", ta, 2);
	jv_set_round(ts, "delta_pp", ta - tb, 2);
	jv_set_str(ts, "outcome", outcome(ta - tb, floor_pp));
	static const char *const keys[] = {"stall", "latency", "idle", "hits", "waves"};
	for (size_t i = 0; i < 5; i++)
		jv_set(tot, keys[i], total_pair(b, a, i));
	jv_set(d, "classes", classes(b, a));
	jv *occ = jv_set(d, "occupancy", jv_object());
	jv_set(occ, "theoretical_waves_per_simd", pair(occ_th(b), occ_th(a)));
	jv_set(occ, "observed_mean_waves_per_simd", pair(occ_obs(b), occ_obs(a)));
	bound_verdict t1, t2;
	const char *bb = bound_of(bs, &t1), *ba = bound_of(as, &t2);
	jv *bd = jv_set(d, "bound", jv_object());
	jv_set_str(bd, "before", bb);
	jv_set_str(bd, "after", ba);
	jv_set_bool(bd, "changed", strcmp(bb, ba) != 0);
	headline(d);
	jv_set(d, "gate", jv_null());
	return d;
}

void diff_side_of(diff_side *s, const jv *doc, const stall_profile *p)
{
	const jv *v = jv_get(jv_get(doc, "variation"), "max_spread_pp");
	s->p = p;
	s->rank1_class = jv_string(jv_get(jv_at(jv_get(doc, "recommendations"), 0), "class"));
	s->spread_pp = jv_is_num(v) ? jv_num(v) : -1;
	s->bound = jv_string(jv_get(jv_get(doc, "bound"), "bound"));
}

int diff_gate(jv *d, double pct_gate, jv **reasons)
{
	double floor_pp = jv_num(jv_get(jv_get(d, "noise"), "floor_pp"));
	double thr = pct_gate > floor_pp ? pct_gate : floor_pp;
	jv *rs = jv_array();
	const jv *v = jv_get(d, "verdict");
	double dv = jv_num(jv_get(v, "delta_pp"));
	double dt = jv_num(jv_get(jv_get(jv_get(d, "totals"), "stall_pct_of_latency"), "delta_pp"));
	if (jv_string(jv_get(v, "class")) && dv > thr)
		jv_push(rs, jv_strf("targeted bubble %s grew by %.2f pp of total stall (> %.2f)",
				    jv_string(jv_get(v, "class")), dv, thr));
	if (dt > thr)
		jv_push(rs,
			jv_strf("total stall grew by %.2f pp of total latency (> %.2f)", dt, thr));
	jv *g = jv_set(d, "gate", jv_object());
	jv_set_round(g, "pct", pct_gate, 3);
	jv_set_round(g, "threshold_pp", thr, 3);
	jv_set_str(g, "threshold_rule", "max(--gate, noise floor)");
	int failed = jv_len(rs) > 0;
	jv_set_bool(g, "failed", failed);
	jv_set(g, "reasons", jv_copy(rs));
	*reasons = rs;
	return failed;
}

jv *diff_variation_profiles(const stall_profile *const *ps, const char *const *ids, size_t n)
{
	if (n < 2)
		return NULL;
	jv *v = jv_object();
	jv_set_int(v, "dispatches", (int64_t)n);
	jv *idl = jv_set(v, "ids", jv_array());
	for (size_t i = 0; i < n; i++)
		jv_push(idl, jv_str(ids[i] ? ids[i] : "?"));
	jv *sp = jv_set(v, "spread_pp", jv_object());
	double mx = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ps[i]->n_class_order; k++) {
			const char *c = class_name(ps[i]->vendor, ps[i]->class_order[k]);
			if (jv_get(sp, c))
				continue;
			double lo = 1e300, hi = -1e300;
			for (size_t j = 0; j < n; j++) {
				double s = share_of(ps[j], c);
				lo = s < lo ? s : lo;
				hi = s > hi ? s : hi;
			}
			jv_set_round(sp, c, hi - lo, 2);
			mx = hi - lo > mx ? hi - lo : mx;
		}
	jv_set_round(v, "max_spread_pp", mx, 2);
	jv_set_str(v, "denominator", "pp of each dispatch's totals.stall");
	return v;
}
