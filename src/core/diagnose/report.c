/* Building report.json, headlines.json and the envelope summary (report.h). */
#include "core/diagnose/report.h"

#include "core/diagnose/bound.h"
#include "core/diagnose/evidence_loc.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/recommend.h"
#include "core/diagnose/rule_signals.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

void report_words_of(const jv *doc, report_words *w)
{
	const char *u = jv_string(jv_get(doc, "unit"));
	report_words_for(u && strcmp(u, "samples") == 0 ? UNIT_SAMPLES : UNIT_CYCLES, w);
}

void report_words_for(prof_unit u, report_words *w)
{
	w->samples = u == UNIT_SAMPLES;
	w->unit = w->samples ? "samples" : "cycles";
	w->stall = w->samples ? "stall samples" : "stall cycles";
	w->latency = w->samples ? "warp-state samples" : "wave latency";
	w->gain_of = w->samples ? "all warp-state samples" : "latency";
	w->totals = w->samples ? "all warp-state samples (totals.latency: every Nsight Compute "
				 "sample of every sampled warp, stalled or issuing)"
			       : "totals.latency (latency cycles summed over traced waves)";
}

static jv *copy_or_null(const jv *v)
{
	return v ? jv_copy(v) : jv_null();
}

/* The trace roofline's verdict beside the bound: near the HBM roof, a memory-bound verdict
 * means "at the roof", and every gain is capped (recommend.h). */
static void roofline_into_bound(jv *bound, const jv *rl)
{
	const char *v = jv_string(jv_get(rl, "verdict"));
	if (!v)
		return;
	jv *o = jv_set(bound, "roofline", jv_object());
	jv_set_str(o, "verdict", v);
	jv_set(o, "pct_of_hbm_peak", jv_copy(jv_get(rl, "pct_of_hbm_peak")));
	jv_set_str(o, "kind", "estimate (report.json roofline states its inputs)");
	if (strcmp(v, "near_hbm_roof") == 0) {
		const char *why = jv_string(jv_get(bound, "why"));
		jv_set(
		    bound, "why",
		    jv_strf("%s; the trace roofline estimates the kernel moves its bytes at "
			    "%.0f%% of the HBM peak: near the roof, so gains that keep the bytes "
			    "are capped at %.0f%%",
			    why ? why : "", jv_num(jv_get(rl, "pct_of_hbm_peak")),
			    jv_num(jv_get(rl, "cap_pct"))));
	}
}

/* The classes in the profile's rank order with their share of the stall, and the normalised
 * sums as bubbles lists them. */
static jv *taxonomy(const stall_profile *p)
{
	double stall = (double)p->totals.stall, lat = (double)p->totals.latency;
	jv *t = jv_object();
	jv_set_str(t, "denominator",
		   p->unit == UNIT_SAMPLES
		       ? "pct_of_stall: % of totals.stall (stall samples); "
			 "stall_pct_of_latency: % of totals.latency (all warp-state samples: "
			 "Nsight Compute samples, not cycles)"
		       : "pct_of_stall: % of totals.stall; stall_pct_of_latency: % of "
			 "totals.latency (cycles summed over traced waves)");
	jv_set_round(t, "bubble_threshold_pct_of_stall", REPORT_BUBBLE_PCT, 1);
	jv *arr = jv_set(t, "classes", jv_array());
	for (size_t i = 0; i < p->n_class_order; i++) {
		int id = p->class_order[i];
		const prof_class *c = &p->classes[id];
		double s = (double)c->stall;
		jv *o = jv_push(arr, jv_object());
		jv_set_int(o, "rank", (int64_t)i + 1);
		jv_set_str(o, "class", class_name(p->vendor, id));
		jv_set_str(o, "normalized", norm_name(class_norm(p->vendor, id)));
		jv_set_int(o, "hits", c->hits);
		jv_set_int(o, "stall", c->stall);
		jv_set_round(o, "pct_of_stall", pct(s, stall), 2);
		jv_set_round(o, "stall_pct_of_latency", pct(s, lat), 2);
		jv_set_bool(o, "is_bubble", s > 0 && pct(s, stall) >= REPORT_BUBBLE_PCT);
	}
	jv_set(t, "normalized", profile_normalized_json(p));
	return t;
}

/* NVIDIA: Nsight Compute's own figures (the details export's Occupancy section, which
 * ncu_bubbles puts in bubbles.occupancy.theoretical) are the theoretical warps per SM; the
 * achieved mean per SM is observed.per_cu.mean. Compared per SM, the unit ncu reports. */
static void occupancy_nvidia(jv *o, const stall_profile *p)
{
	const jv *nt = jv_get(p->occupancy, "theoretical");
	jv_set(o, "details_export", copy_or_null(nt));
	jv_set_str(o, "unit", "warps per SM (Nsight Compute details export)");
	const jv *th = jv_get(nt, "waves_per_cu");
	const jv *ach = jv_get(jv_get(jv_get(o, "observed"), "per_cu"), "mean");
	if (!jv_is_num(th) || !jv_is_num(ach)) {
		jv_set(o, "disagreement", jv_null());
		jv_set_str(o, "note",
			   !jv_is_num(th)
			       ? "theoretical warps per SM unknown (no Occupancy section "
				 "in the details export)"
			       : "achieved warps per SM unknown (no Occupancy section in "
				 "the details export)");
		return;
	}
	double t = jv_num(th), a = jv_num(ach);
	int dis = a > t + 1e-9;
	jv_set_bool(o, "disagreement", dis);
	if (dis)
		jv_set(o, "note",
		       jv_strf("achieved %.2f warps per SM exceeds the theoretical %.0f: the "
			       "details export's figures disagree",
			       a, t));
	else
		jv_set(o, "note",
		       jv_strf("achieved mean %.2f of theoretical %.0f warps per SM (%.0f%% of "
			       "theoretical); a low share means a small grid, a launch tail or "
			       "short-lived warps, not the block limits",
			       a, t, pct(a, t)));
}

static jv *occupancy_section(const jv *occ, const stall_profile *p)
{
	jv *o = jv_object();
	const jv *th = jv_get(occ, "theoretical"), *ob = jv_get(occ, "observed");
	jv_set(o, "theoretical", copy_or_null(th));
	jv_set(o, "observed", copy_or_null(ob));
	if (p->vendor == VENDOR_NVIDIA) {
		occupancy_nvidia(o, p);
		return o;
	}
	const jv *w = jv_get(th, "waves_per_simd");
	const jv *ps = jv_get(ob, "per_simd");
	if (!jv_is_num(w) || !jv_is_num(jv_get(ps, "peak"))) {
		jv_set(o, "disagreement", jv_null());
		jv_set_str(o, "note",
			   !jv_is_num(w) ? "theoretical occupancy unknown (no resources)"
					 : "observed occupancy unknown (no occupancy.json)");
		return o;
	}
	double peak = jv_num(jv_get(ps, "peak")), mean = jv_num(jv_get(ps, "mean"));
	int dis = peak > jv_num(w) + 1e-9;
	jv_set_bool(o, "disagreement", dis);
	/* a limiter binds only when the observed residency reaches it */
	jv_set_bool(o, "limiter_binding", peak + 1e-9 >= jv_num(w));
	if (dis)
		jv_set(o, "note",
		       jv_strf("observed peak %.2f waves/SIMD exceeds the theoretical "
			       "%.0f: the resource figures are wrong",
			       peak, jv_num(w)));
	else if (peak + 1e-9 >= jv_num(w))
		jv_set(o, "note",
		       jv_strf("observed peak %.0f reaches the theoretical %.0f waves/SIMD: the "
			       "limiter %s binds (mean %.2f, %.0f%%)",
			       peak, jv_num(w), jv_string(jv_get(th, "limiter")), mean,
			       pct(mean, jv_num(w))));
	else
		jv_set(
		    o, "note",
		    jv_strf("observed peak %.0f stays below the theoretical %.0f waves/SIMD: the "
			    "limiter %s does not bind; the grid, a launch tail or short waves keep "
			    "residency lower (mean %.2f, %.0f%%)",
			    peak, jv_num(w), jv_string(jv_get(th, "limiter")), mean,
			    pct(mean, jv_num(w))));
	return o;
}

/* " at X.py:L" for the largest class, or, when its hot line is the kernel-entry bucket or a
 * library frame, the actionable line with the hot line named as such (evidence_loc.h). */
static int headline_location(char *buf, size_t sz, const stall_profile *p,
			     const evloc_buckets *buckets)
{
	if (!p->n_class_order)
		return 0;
	int klass = p->class_order[0];
	const prof_class *c = &p->classes[klass];
	const char *src = c->n_top ? p->trace->insts[c->top[0].inst].source : NULL;
	if (!src || !*src)
		return 0;
	evloc_where loc;
	evloc_locate(p, klass, buckets, &loc);
	const char *act = evloc_actionable_source(&loc);
	const char *via = loc.has_actionable ? loc.via : NULL;
	const char *what = evloc_kind_text(evloc_kind_name(loc.kind));
	int n;
	if (loc.kind == EVLOC_LINE)
		n = snprintf(buf, sz, " at %s", src);
	else if (act)
		n = snprintf(buf, sz, " at %s (%s; the hot instruction sits on %s %s)", act,
			     via && strcmp(via, "wait_producer") == 0
				 ? "the load the hot wait waits on"
				 : "its hottest instruction on a line to edit",
			     what, src);
	else
		n = snprintf(buf, sz, " on %s %s (no attributable source line)", what, src);
	return n;
}

/* The headline from the profile's totals and hot line and the report's own bound, taxonomy and
 * rank-1 recommendation. */
static void add_headline(jv *rep, const stall_profile *p, const evloc_buckets *buckets,
			 const char *kernel)
{
	const jv *bound = jv_get(rep, "bound");
	const jv *c0 = jv_at(jv_get(jv_get(rep, "stall_taxonomy"), "classes"), 0);
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	report_words w;
	report_words_for(p->unit, &w);
	char buf[1024];
	const jv *rl = jv_get(bound, "roofline");
	const char *rv = jv_string(jv_get(rl, "verdict"));
	char roof[96] = "";
	if (rv && strcmp(rv, "near_hbm_roof") == 0)
		snprintf(roof, sizeof roof, "; near the HBM roof, ~%.0f%% of peak (estimate)",
			 jv_num(jv_get(rl, "pct_of_hbm_peak")));
	int n =
	    snprintf(buf, sizeof buf, "%s: %s-bound (%s, %s confidence%s); stall is %.1f%% of %s",
		     kernel ? kernel : "kernel", jv_string(jv_get(bound, "bound")),
		     jv_string(jv_get(bound, "basis")), jv_string(jv_get(bound, "confidence")),
		     roof, pct((double)p->totals.stall, (double)p->totals.latency), w.latency);
	if (c0 && n > 0 && (size_t)n < sizeof buf)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "; largest bubble %s = %.1f%% of %s",
			      jv_string(jv_get(c0, "class")), jv_num(jv_get(c0, "pct_of_stall")),
			      w.samples ? w.stall : "stall");
	/* the hot line of the largest class (bubbles.classes is sorted by stall) */
	if (n > 0 && (size_t)n < sizeof buf)
		n += headline_location(buf + n, sizeof buf - (size_t)n, p, buckets);
	const jv *g = jv_get(r1, "gain");
	const char *kind = jv_string(jv_get(g, "kind"));
	if (r1 && n > 0 && (size_t)n < sizeof buf)
		snprintf(buf + n, sizeof buf - (size_t)n, "; rank 1: %s (%s), %s %.1f%% of %s",
			 jv_string(jv_get(jv_get(r1, "knob"), "id")), jv_string(jv_get(r1, "rule")),
			 kind && strcmp(kind, "upper_bound") == 0 ? "upper bound"
			 : kind && strcmp(kind, "ncu_estimated_speedup") == 0
			     ? "Nsight Compute's estimated speedup"
			     : "estimated upper bound",
			 jv_num(jv_get(g, "upper_bound_pct")),
			 kind && strcmp(kind, "ncu_estimated_speedup") == 0
			     ? "the kernel's duration"
			     : w.gain_of);
	else if (!r1 && n > 0 && (size_t)n < sizeof buf)
		snprintf(buf + n, sizeof buf - (size_t)n, "; no rule fired");
	jv_set_str(rep, "headline", buf);
}

/* NVIDIA findings (ncu_findings.h) go before the stall-class rules: they rest on the counters
 * of the instructions that carry the defect, the class rules only on where warps waited.
 * Among themselves they rank by their gain (ncu's estimated speedup where it has one). */
static int by_gain(const void *a, const void *b)
{
	double ga = jv_num(jv_get(jv_get(*(jv *const *)a, "gain"), "upper_bound_pct"));
	double gb = jv_num(jv_get(jv_get(*(jv *const *)b, "gain"), "upper_bound_pct"));
	return ga < gb ? 1 : ga > gb ? -1 : 0;
}

static void merge_ncu_findings(jv *rep, const jv *nf)
{
	const jv *fs = jv_get(nf, "findings");
	jv *old = jv_take(rep, "recommendations");
	jv *recs = jv_set(rep, "recommendations", jv_array());
	size_t n = jv_len(fs);
	jv **sorted = xcalloc(n ? n : 1, sizeof *sorted);
	for (size_t i = 0; i < n; i++)
		sorted[i] = jv_copy(jv_at(fs, i));
	qsort(sorted, n, sizeof *sorted, by_gain);
	for (size_t i = 0; i < n; i++)
		jv_push(recs, sorted[i]);
	free(sorted);
	for (size_t i = 0; i < jv_len(old); i++)
		jv_push(recs, jv_copy(jv_at(old, i)));
	jv_free(old);
	for (size_t i = 0; i < jv_len(recs); i++)
		jv_set_int(jv_at(recs, i), "rank", (int64_t)i + 1);
	if (n) {
		const jv *r1 = jv_at(recs, 0);
		jv_set(rep, "why_rank_1",
		       jv_strf("Nsight Compute counters show %s (%s); counter-backed findings rank "
			       "before the stall-class rules",
			       jv_string(jv_get(r1, "finding")), jv_string(jv_get(r1, "title"))));
	}
	jv_set(rep, "ncu_rules", jv_copy(jv_get(nf, "ncu_rules")));
	/* the measured speed of light decides the bound; the trace's own verdict stays beside it */
	const jv *sol = jv_get(nf, "bound");
	if (jv_type_of(sol) == JV_OBJECT) {
		jv *trace_bound = jv_take(rep, "bound");
		jv *b = jv_set(rep, "bound", jv_copy(sol));
		jv_set(b, "trace_verdict", trace_bound);
	}
}

static const char *ranking_rule =
    "rank by the gain upper bound in % of totals.latency (class rules: the class's stall "
    "cycles, or warp-state samples on NVIDIA; occupancy/roofline findings: their estimate x "
    "priority), then by rule priority, "
    "then by rules-file order; so rank 1 addresses the largest bubble class unless an "
    "occupancy or roofline finding has a larger estimate, and why_rank_1 says which; on "
    "NVIDIA the Nsight Compute findings come first, ranked by their gain (ncu's estimated "
    "speedup where one of its rules covers the finding)";

/* A list entry as bubbles has it, flagged "entry_bucket" when its source line is a
 * kernel-entry bucket and "library_frame" when it is inside FlyDSL's or Triton's own package
 * (evidence_loc.h). */
static jv *flagged(jv *c, const char *source, const evloc_buckets *buckets)
{
	evloc_kind k = evloc_kind_in(buckets, source);
	jv_set_bool(c, "entry_bucket", k == EVLOC_ENTRY_BUCKET);
	jv_set_bool(c, "library_frame", k == EVLOC_LIBRARY_FRAME);
	return c;
}

/* report.json's hotspots, source lines and waits: the first REPORT_LIST_TOP of the profile's
 * ranked lists, written by the bubbles writer and flagged. */
#define REPORT_LIST_TOP 5

static jv *top_hotspots(const stall_profile *p, const evloc_buckets *buckets)
{
	jv *out = jv_array();
	for (size_t r = 0; r < p->n_hot && r < REPORT_LIST_TOP; r++)
		jv_push(out, flagged(profile_hotspot_json(p, r), p->trace->insts[p->hot[r]].source,
				     buckets));
	return out;
}

static jv *top_lines(const stall_profile *p, const evloc_buckets *buckets)
{
	jv *out = jv_array();
	for (size_t k = 0; k < p->n_lines && k < REPORT_LIST_TOP; k++)
		jv_push(out,
			flagged(profile_line_json(p, &p->lines[k]), p->lines[k].source, buckets));
	return out;
}

static jv *top_waits(const stall_profile *p, const evloc_buckets *buckets)
{
	jv *out = jv_array();
	for (size_t k = 0; k < p->n_wait_order && k < REPORT_LIST_TOP; k++) {
		const prof_wait *w = &p->waits[p->wait_order[k]];
		jv_push(out,
			flagged(profile_wait_json(p, w), p->trace->insts[w->inst].source, buckets));
	}
	return out;
}

jv *report_build(const report_inputs *in, const rules *r)
{
	const jv *b = in->bubbles;
	/* the typed profile everything below reads: the live one, else the one the bubbles object
	 * reads back into (what cannot be read counts as absent: every figure 0) */
	stall_profile read_back;
	const stall_profile *p = in->profile;
	if (!p) {
		fp_err e = FP_ERR_INIT;
		if (profile_from_json(b, "bubbles", &read_back, &e)) {
			profile_release(&read_back);
			profile_init(&read_back, VENDOR_AMD, UNIT_CYCLES, NULL);
		}
		fp_err_clear(&e);
		p = &read_back;
	}
	jv *rep = jv_object();
	jv_set_str(rep, "schema", "flyprof.report/1");
	jv_set(rep, "kernel", in->kernel ? jv_str(in->kernel) : jv_null());
	jv_set(rep, "arch", in->arch ? jv_str(in->arch) : jv_null());
	jv_set(rep, "bundle_kind", in->bundle_kind ? jv_str(in->bundle_kind) : jv_null());
	jv_set(rep, "dispatch", profile_dispatch_json(p));
	report_words w;
	report_words_for(p->unit, &w);
	jv_set_str(rep, "backend", vendor_name(p->vendor));
	jv_set_str(rep, "unit", w.unit);
	jv_set_str(rep, "headline", "");
	kernel_traits traits;
	if (in->traits)
		traits = *in->traits;
	else
		kernel_traits_from_profile(p, &traits);
	kernel_traits_add_platform(&traits, p);
	/* the figures the bound and the rule signals read, once */
	signal_inputs si;
	signal_inputs_fill(&si, p, in->counters, in->occupancy, in->facts);
	bound_verdict bv;
	bound_decide_inputs(&si, &traits, &bv);
	jv *bound = jv_set(rep, "bound", bound_to_jv(&bv));
	roofline_into_bound(bound, jv_get(in->facts, "roofline"));
	jv_set(rep, "totals", profile_totals_json(p));
	jv_set(rep, "stall_taxonomy", taxonomy(p));
	jv_set(rep, "occupancy", occupancy_section(in->occupancy, p));
	jv_set(rep, "wave_states", p->wave_states ? jv_copy(p->wave_states) : jv_null());
	jv_set(rep, "kernel_traits", kernel_traits_to_jv(&traits));
	const jv *eb = jv_set(rep, "entry_buckets",
			      in->entry_buckets ? jv_copy(in->entry_buckets) : jv_object());
	evloc_buckets buckets_read; /* the bucket lines as a table for the lookups below */
	evloc_buckets_read(eb, &buckets_read);
	const evloc_buckets *buckets = &buckets_read;
	static const char *const fact_keys[] = {"isa_facts", "launch_geometry", "wave_facts",
						"roofline", "exposed_stall"};
	for (size_t i = 0; i < sizeof fact_keys / sizeof fact_keys[0]; i++)
		jv_set(rep, fact_keys[i], copy_or_null(jv_get(in->facts, fact_keys[i])));
	signal_map sig;
	rule_signals_from_inputs(&sig, &si);
	recommend_result rr;
	recommend_run(r, &si, p, &sig, in->occupancy, in->facts, &bv, &traits, buckets, &rr);
	jv_set(rep, "recommendations", recommend_recs_to_jv(&rr));
	jv_set_str(rep, "why_rank_1", rr.why_rank1);
	if (in->ncu_findings)
		merge_ncu_findings(rep, in->ncu_findings);
	jv_set(rep, "not_fired", recommend_not_fired_to_jv(&rr));
	jv_set_int(rep, "rules_other_platform", (int64_t)rr.other_platform);
	recommend_release(&rr);
	signal_inputs_release(&si);
	jv_set_str(rep, "ranking_rule", ranking_rule);
	jv_set(rep, "signals", signal_map_to_jv(&sig));
	signal_map_release(&sig);
	jv_set(rep, "evidence_hotspots", top_hotspots(p, buckets));
	jv_set(rep, "lines", top_lines(p, buckets));
	jv_set(rep, "waits", top_waits(p, buckets));
	jv_set(rep, "variation", copy_or_null(in->variation));
	jv_set(rep, "counters", copy_or_null(in->counters));
	jv_set(rep, "tile", copy_or_null(in->tile));
	jv_set(rep, "sources", copy_or_null(in->sources));
	jv_set(rep, "missing", in->missing ? jv_copy(in->missing) : jv_array());
	jv_set(rep, "repro", in->repro ? jv_str(in->repro) : jv_null());
	add_headline(rep, p, buckets, in->kernel);
	evloc_buckets_release(&buckets_read);
	if (p == &read_back)
		profile_release(&read_back);
	return rep;
}

static double class_pct(const jv *rep, const char *klass)
{
	const jv *cls = jv_get(jv_get(rep, "stall_taxonomy"), "classes");
	for (size_t i = 0; klass && i < jv_len(cls); i++)
		if (strcmp(jv_string(jv_get(jv_at(cls, i), "class")), klass) == 0)
			return jv_num(jv_get(jv_at(cls, i), "pct_of_stall"));
	return 0;
}

static jv *short_rec(const jv *rep, const jv *r)
{
	jv *o = jv_object();
	const jv *ev = jv_get(r, "evidence");
	const jv *hs = jv_get(ev, "hotspot");
	jv_set(o, "rank", jv_copy(jv_get(r, "rank")));
	jv_set(o, "rule", jv_copy(jv_get(r, "rule")));
	jv_set(o, "class", jv_copy(jv_get(r, "class")));
	jv_set_round(o, "class_pct_of_stall", class_pct(rep, jv_string(jv_get(r, "class"))), 2);
	jv_set(o, "knob", jv_copy(jv_get(jv_get(r, "knob"), "id")));
	jv_set(o, "api", jv_copy(jv_get(jv_get(r, "knob"), "api")));
	/* the line to act on; the hot instruction's own line goes in entry_bucket_source or
	 * library_frame_source when it is not a line to edit */
	jv_set(o, "source", copy_or_null(jv_get(ev, "actionable_source")));
	const char *kind = jv_string(jv_get(hs, "source_kind"));
	const jv *via = jv_get(jv_get(ev, "actionable"), "via");
	int bucket = kind && strcmp(kind, "entry_bucket") == 0;
	if (bucket || (kind && strcmp(kind, "library_frame") == 0)) {
		jv_set(o, "source_basis", via ? jv_copy(via) : jv_null());
		jv_set(o, bucket ? "entry_bucket_source" : "library_frame_source",
		       jv_copy(jv_get(hs, "source")));
	} else if (kind)
		jv_set_str(o, "source_basis",
			   strcmp(kind, "line") == 0 ? "hot_instruction" : "none");
	jv_set(o, "isa", copy_or_null(jv_get(hs, "isa")));
	jv_set(o, "gain_upper_bound_pct_of_latency",
	       jv_copy(jv_get(jv_get(r, "gain"), "upper_bound_pct")));
	jv_set(o, "confidence", jv_copy(jv_get(r, "confidence")));
	return o;
}

jv *report_headlines(const jv *rep)
{
	jv *h = jv_object();
	const jv *bd = jv_get(rep, "bound");
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	const jv *c0 = jv_at(jv_get(jv_get(rep, "stall_taxonomy"), "classes"), 0);
	const jv *th = jv_get(jv_get(rep, "occupancy"), "theoretical");
	jv_set(h, "kernel", copy_or_null(jv_get(rep, "kernel")));
	jv_set(h, "headline", copy_or_null(jv_get(rep, "headline")));
	jv_set(h, "bound", copy_or_null(jv_get(bd, "bound")));
	jv_set(h, "bound_basis", copy_or_null(jv_get(bd, "basis")));
	jv_set(h, "bound_confidence", copy_or_null(jv_get(bd, "confidence")));
	jv_set(h, "kernel_kind", copy_or_null(jv_get(jv_get(rep, "kernel_traits"), "kind")));
	jv_set(h, "largest_class", c0 ? jv_copy(jv_get(c0, "class")) : jv_null());
	jv_set(h, "largest_class_pct_of_stall",
	       c0 ? jv_copy(jv_get(c0, "pct_of_stall")) : jv_null());
	jv_set(h, "rank1", r1 ? short_rec(rep, r1) : jv_null());
	jv *f = jv_set(h, "findings", jv_array());
	jv_push(f, jv_strf("bound: %s (%s, %s confidence)", jv_string(jv_get(bd, "bound")),
			   jv_string(jv_get(bd, "basis")), jv_string(jv_get(bd, "confidence"))));
	report_words w;
	report_words_of(rep, &w);
	if (c0)
		jv_push(f,
			jv_strf("largest bubble: %s, %.1f%% of %s", jv_string(jv_get(c0, "class")),
				jv_num(jv_get(c0, "pct_of_stall")), w.stall));
	if (r1)
		jv_push(f, jv_strf("rank 1: %s -> %s", jv_string(jv_get(r1, "rule")),
				   jv_string(jv_get(jv_get(r1, "knob"), "api"))));
	const jv *nt = jv_get(jv_get(rep, "occupancy"), "details_export");
	if (nt && jv_is_num(jv_get(nt, "waves_per_cu")))
		jv_push(f,
			jv_strf("occupancy: %g warps per SM theoretical (details export), "
				"limited by %s",
				jv_num(jv_get(nt, "waves_per_cu")),
				jv_string(jv_get(nt, "limiter")) ? jv_string(jv_get(nt, "limiter"))
								 : "?"));
	else if (!nt && jv_is_num(jv_get(th, "waves_per_simd")))
		jv_push(f,
			jv_strf("occupancy: %g waves/SIMD theoretical, limited by %s",
				jv_num(jv_get(th, "waves_per_simd")),
				jv_string(jv_get(th, "limiter")) ? jv_string(jv_get(th, "limiter"))
								 : "?"));
	return h;
}

jv *report_summary(const jv *rep, int top)
{
	jv *d = jv_object();
	jv_set(d, "kernel", copy_or_null(jv_get(rep, "kernel")));
	jv_set(d, "headline", copy_or_null(jv_get(rep, "headline")));
	jv_set(d, "bound", copy_or_null(jv_get(rep, "bound")));
	jv_set(d, "kernel_kind", copy_or_null(jv_get(jv_get(rep, "kernel_traits"), "kind")));
	const jv *recs = jv_get(rep, "recommendations");
	jv *arr = jv_set(d, "recommendations", jv_array());
	for (size_t i = 0; i < jv_len(recs) && (top <= 0 || i < (size_t)top); i++)
		jv_push(arr, short_rec(rep, jv_at(recs, i)));
	jv_set_int(d, "recommendations_total", (int64_t)jv_len(recs));
	jv_set(d, "why_rank_1", copy_or_null(jv_get(rep, "why_rank_1")));
	jv_set(d, "missing", copy_or_null(jv_get(rep, "missing")));
	return d;
}
