/* Evaluating the rules into ranked recommendations (recommend.h). */
#include "core/diagnose/recommend.h"

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/diagnose/evidence_loc.h"
#include "core/diagnose/pseudo_class.h"
#include "core/diagnose/report.h"
#include "core/diagnose/rule_signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CDNA3/CDNA4 wave slots per SIMD: docs/facts-hardware.md#cu-limits */
#define MAX_WAVES_PER_SIMD_DEFAULT 8
#define MAX_WARPS_PER_SMSP_DEFAULT 16 /* H100/H200: 64 warps per SM / 4 schedulers */

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* ---- evidence ---- */

/* The first three producers of the hot wait, as bubbles lists them. */
static jv *waits_on(const stall_profile *p, const prof_wait *wait)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < wait->n_producers && i < 3; i++)
		jv_push(arr, profile_producer_json(p, &wait->producers[i]));
	return arr;
}

static void where_class(rec_where *w, const stall_profile *p, const char *klass,
			const evloc_buckets *buckets)
{
	int id = profile_class_listed(p, klass);
	if (id < 0)
		return;
	w->class_entry = &p->classes[id];
	if (!w->class_entry->n_top)
		return;
	w->top = &w->class_entry->top[0];
	w->hot_pct = sig_round(pct((double)w->top->stall, (double)w->class_entry->stall), 2);
	const char *src = p->trace->insts[w->top->inst].source;
	w->no_source = !src || !*src;
	evloc_locate(p, id, buckets, &w->loc);
}

/* The location part of the evidence. */
static void where_of(rec_where *w, const rule *ru, const stall_profile *p, const jv *occupancy,
		     const jv *facts, const evloc_buckets *buckets)
{
	memset(w, 0, sizeof *w);
	w->profile = p;
	w->pseudo = pseudo_class_find(ru->klass);
	if (!w->pseudo) {
		where_class(w, p, ru->klass, buckets);
		return;
	}
	if (strcmp(ru->klass, "occupancy") == 0)
		w->theoretical = jv_get(occupancy, "theoretical");
	if (w->pseudo->facts)
		w->facts = jv_get(facts, w->pseudo->facts);
}

static void where_jv(jv *ev, const rec_where *w)
{
	if (w->pseudo) {
		jv_set(ev, "hotspot", jv_null());
		jv_set_str(ev, "none_reason", w->pseudo->none_reason);
		if (w->theoretical)
			jv_set(ev, "theoretical", jv_copy(w->theoretical));
		if (w->facts)
			jv_set(ev, "facts", jv_copy(w->facts));
		return;
	}
	if (!w->top) {
		jv_set(ev, "hotspot", jv_null());
		jv_set_str(ev, "none_reason",
			   w->class_entry ? "the trace lists no instruction for this class"
					  : "this class has no stall cycles in the trace");
		return;
	}
	/* the hot instruction as bubbles.classes[].top lists it */
	jv *h = jv_set(ev, "hotspot", jv_object());
	profile_inst_fields(h, w->profile, w->top->inst);
	jv_set_int(h, "stall", w->top->stall);
	jv_set(h, "pct_of_class_stall", sig_value_to_jv(&w->hot_pct));
	if (w->no_source)
		jv_set_str(
		    ev, "none_reason",
		    "the hot instruction has no source line in code.json (compiler-generated "
		    "or no debug info); the ISA is the evidence");
	evloc_write(&w->loc, ev, h);
	if (w->loc.wait) {
		jv_set(ev, "waits_on", waits_on(w->profile, w->loc.wait));
		jv_set(ev, "wait_split_cycles", profile_wait_split_json(w->loc.wait));
	}
}

/* ---- conditions ---- */

static rec_cond cond_at(const rule_cond *c, const signal_map *signals)
{
	const sig_value *v = signal_map_get(signals, c->field);
	rec_cond rc = {c, v ? *v : sig_null(), v != NULL};
	return rc;
}

static jv *cond_jv(const rec_cond *rc)
{
	const rule_cond *c = rc->cond;
	jv *o = jv_object();
	jv_set_str(o, "signal", c->field);
	jv_set(o, "value", rc->present ? sig_value_to_jv(&rc->value) : jv_null());
	jv_set_str(o, "op", rule_op_name(c->op));
	jv_set(o, "threshold", c->is_str ? jv_str(c->str) : jv_double(c->num));
	return o;
}

/* What a condition says in words: "grid.cu_fill_pct = 32.8 < 100" and its negation. */
static void cond_words(jv *o, const rec_cond *rc)
{
	static const char *const neg[] = {"<=", "<", ">=", ">", "!=", "=="};
	const rule_cond *c = rc->cond;
	char val[64], thr[64];
	if (sig_string(&rc->value))
		snprintf(val, sizeof val, "%s", rc->value.str);
	else
		snprintf(val, sizeof val, "%g", sig_number(&rc->value));
	if (c->is_str)
		snprintf(thr, sizeof thr, "%s", c->str);
	else
		snprintf(thr, sizeof thr, "%g", c->num);
	jv_set(o, "holds",
	       jv_strf("%s = %s %s %s", c->field, rc->present ? val : "null", rule_op_name(c->op),
		       thr));
	jv_set(o, "stops_when", jv_strf("%s %s %s", c->field, neg[c->op], thr));
}

static jv *evidence_jv(const recommendation *rec)
{
	const rule *ru = rec->rule;
	jv *ev = cond_jv(&rec->conds[0]);
	cond_words(ev, &rec->conds[0]);
	if (ru->n_conds > 1) {
		jv *all = jv_set(ev, "conditions", jv_array());
		for (size_t i = 1; i < ru->n_conds; i++)
			cond_words(jv_push(all, cond_jv(&rec->conds[i])), &rec->conds[i]);
	}
	if (ru->n_unless) {
		/* the facts that would have stopped the advice, with their values now */
		jv *un = jv_set(ev, "unless", jv_array());
		for (size_t i = 0; i < ru->n_unless; i++)
			jv_push(un, cond_jv(&rec->unless[i]));
	}
	where_jv(ev, &rec->where);
	return ev;
}

/* ---- gain upper bound ---- */

/* The stalls more resident waves can hide: AMD vmem_wait + lds_wait + smem_wait + barrier;
 * NVIDIA the same situations as stall reasons (long/short scoreboard, imc_miss, barrier). */
static double dependency_stall(const signal_inputs *in)
{
	static const int dep[] = {TAX_VMEM_WAIT, TAX_LDS_WAIT, TAX_SMEM_WAIT, TAX_BARRIER, -1};
	static const int dep_nv[] = {NCU_LONG_SCOREBOARD, NCU_SHORT_SCOREBOARD, NCU_IMC_MISS,
				     NCU_BARRIER, -1};
	const int *list = in->vendor == VENDOR_NVIDIA ? dep_nv : dep;
	double s = 0;
	for (size_t i = 0; list[i] >= 0; i++)
		s += in->class_stall[in->vendor][list[i]];
	return s;
}

/* Beside the summed bound: the class's exposed stall (cycles no other wave hid) as a share of
 * the traced SIMDs' time, the wall-time estimate (docs/diagnosis.md). */
static int exposed_gain(rec_gain *g, const char *klass, const signal_map *signals)
{
	char k1[96], k2[96];
	snprintf(k1, sizeof k1, "%s.exposed_pct_of_simd_time", klass);
	snprintf(k2, sizeof k2, "%s.exposed_pct_of_stall", klass);
	const sig_value *ex = signal_map_get(signals, k1);
	if (!sig_is_num(ex))
		return 0;
	const sig_value *of_stall = signal_map_get(signals, k2);
	g->exposed = 1;
	g->exposed_pct = sig_round(ex->num, 2);
	g->exposed_of_stall = sig_is_num(of_stall) ? *of_stall : sig_null();
	return 1;
}

/* Exposed vmem_wait + lds_wait + smem_wait + barrier as % of the traced SIMDs' time, or -1
 * without exposed stall. */
static double exposed_dependency(const signal_map *signals)
{
	static const char *const dep[] = {"vmem_wait", "lds_wait", "smem_wait", "barrier"};
	double s = 0;
	int any = 0;
	char k[96];
	for (size_t i = 0; i < 4; i++) {
		snprintf(k, sizeof k, "%s.exposed_pct_of_simd_time", dep[i]);
		const sig_value *v = signal_map_get(signals, k);
		any |= sig_is_num(v);
		s += sig_number(v);
	}
	if (!any && sig_is_num(signal_map_get(signals, "exposed.pct_of_simd_time")))
		return 0; /* waves merged, no dependency class stalled */
	return any ? s : -1;
}

static void basis(rec_gain *g, const char *text)
{
	snprintf(g->basis, sizeof g->basis, "%s", text);
}

/* Fills the gain and its ranking key. */
static void gain(const rule *ru, const signal_inputs *in, const stall_profile *p,
		 const signal_map *signals, rec_gain *g)
{
	double lat = in->latency;
	double up = 0, key;
	report_words w;
	report_words_for(p->unit, &w);
	memset(g, 0, sizeof *g);
	g->kind = "upper_bound";
	if (strcmp(ru->klass, "occupancy") == 0) {
		double wv = sig_number(&in->occ[SIGO_THEORETICAL]);
		double mx = sig_is_num(&in->max_waves_per_simd) ? in->max_waves_per_simd.num
			    : w.samples				? MAX_WARPS_PER_SMSP_DEFAULT
								: MAX_WAVES_PER_SIMD_DEFAULT;
		double free_frac = mx > 0 && wv < mx ? 1.0 - wv / mx : 0.0;
		double exposed = exposed_dependency(signals);
		g->kind = "upper_bound_estimate";
		if (exposed >= 0) {
			up = exposed * free_frac;
			basis(g, "exposed dependency stall (vmem_wait+lds_wait+smem_wait+barrier "
				 "cycles no other wave hid) as % of the traced SIMDs' time x (1 - "
				 "theoretical/max waves per SIMD): more resident waves can at most "
				 "hide the stall that is not hidden yet");
		} else {
			up = pct(dependency_stall(in), lat) * free_frac;
			basis(g,
			      "dependency stall (AMD vmem_wait+lds_wait+smem_wait+barrier; NVIDIA "
			      "long_scoreboard+short_scoreboard+imc_miss+barrier) share of "
			      "totals.latency x (1 - theoretical/max waves per SIMD): more "
			      "resident waves can at most hide the dependency stalls");
		}
		key = up * ru->priority;
	} else if (strcmp(ru->klass, "roofline") == 0 &&
		   sig_is_num(signal_map_get(signals, "counters.pct_of_hbm_roof"))) {
		up = 100.0 - sig_number(signal_map_get(signals, "counters.pct_of_hbm_roof"));
		if (up < 0)
			up = 0;
		basis(g, "headroom to the calibrated HBM roof (100 - pct_of_hbm_roof)");
		key = up * ru->priority;
	} else if (pseudo_class_find(ru->klass) && pseudo_class_find(ru->klass)->gain) {
		const char *gs = pseudo_class_find(ru->klass)->gain;
		up = sig_number(signal_map_get(signals, gs));
		g->kind = "upper_bound_estimate";
		snprintf(
		    g->basis, sizeof g->basis,
		    "the %s finding's own estimate (signal %s; its facts are in evidence.facts)",
		    ru->klass, gs);
		key = up * ru->priority;
	} else {
		up = pct(signal_inputs_class_stall(in, ru->klass), lat);
		basis(g, w.samples ? "this class's stall samples / totals.latency (all warp-state "
				     "samples): removing every stall sample of the class cannot "
				     "save more; the wall-time gain is usually smaller"
				   : "this class's stall cycles / totals.latency: removing every "
				     "stall cycle of the class cannot save more; the wall-time "
				     "gain is usually smaller");
		key = up;
		/* rank by the wall-time estimate when the waves were merged: stall other waves
		 * hid costs no time */
		if (exposed_gain(g, ru->klass, signals))
			key = sig_number(&g->exposed_pct);
	}
	/* No change that keeps the bytes moved can beat the memory roof: cap every other gain
	 * at the roofline's headroom (an estimate, labelled as such). */
	const sig_value *head = signal_map_get(signals, "roofline.cap_pct");
	if (sig_is_num(head) && strcmp(ru->klass, "roofline") != 0 && up > head->num) {
		g->capped = 1;
		g->uncapped = sig_round(up, 2);
		snprintf(
		    g->capped_by, sizeof g->capped_by,
		    "roofline: the kernel already moves its estimated bytes at %.1f%% of the "
		    "HBM peak, so keeping the same bytes it can gain at most %.1f%% (report.json "
		    "roofline)",
		    sig_number(signal_map_get(signals, "roofline.pct_of_hbm")), head->num);
		key = key < head->num ? key : head->num;
		up = head->num;
	}
	if (sig_is_num(head) && g->exposed && sig_number(&g->exposed_pct) > head->num)
		g->exposed_pct = sig_round(head->num, 2);
	g->upper_bound = sig_round(up, 2);
	g->denominator = w.totals;
	g->key = key;
}

static jv *gain_jv(const rec_gain *g)
{
	jv *o = jv_object();
	jv_set_str(o, "kind", g->kind);
	jv_set_str(o, "basis", g->basis);
	if (g->exposed) {
		jv_set(o, "exposed_pct", sig_value_to_jv(&g->exposed_pct));
		jv_set(o, "exposed_pct_of_stall", sig_value_to_jv(&g->exposed_of_stall));
		jv_set_str(
		    o, "exposed_basis",
		    "the class's exposed stall (cycles in which no wave of the SIMD issued "
		    "while this class stalled) / the traced SIMDs' time: the wall-time share "
		    "removing it could save (report.json exposed_stall); recommendations are "
		    "ranked by it");
	}
	if (g->capped) {
		jv_set(o, "uncapped_pct", sig_value_to_jv(&g->uncapped));
		jv_set_str(o, "capped_by", g->capped_by);
	}
	jv_set(o, "upper_bound_pct", sig_value_to_jv(&g->upper_bound));
	jv_set_str(o, "denominator", g->denominator);
	return o;
}

/* ---- ranking ---- */

static int rec_cmp(const void *pa, const void *pb)
{
	const recommendation *a = pa, *b = pb;
	if (a->gain.key != b->gain.key)
		return a->gain.key > b->gain.key ? -1 : 1;
	if (a->rule->priority != b->rule->priority)
		return a->rule->priority > b->rule->priority ? -1 : 1;
	return a->rule < b->rule ? -1 : a->rule > b->rule; /* rules-file order */
}

static jv *knob_jv(const rule *ru)
{
	jv *k = jv_object();
	jv_set_str(k, "id", ru->knob);
	jv_set(k, "kind", jv_copy(jv_get(ru->knob_v, "kind")));
	jv_set(k, "api", jv_copy(jv_get(ru->knob_v, "api")));
	jv_set(k, "effect", jv_copy(jv_get(ru->knob_v, "effect")));
	jv_set(k, "language",
	       jv_get(ru->knob_v, "language") ? jv_copy(jv_get(ru->knob_v, "language"))
					      : jv_str("flydsl"));
	return k;
}

/* The rule's confidence, lowered one level when the evidence is weak: a class rule whose hot
 * instruction has no .py line, or holds under 10% of the class's stall (the class is spread
 * thin, so no single change addresses much of it). */
static void set_confidence(recommendation *rec)
{
	static const char *const levels[] = {"low", "medium", "high"};
	const rule *ru = rec->rule;
	const rec_where *w = &rec->where;
	int lv = strcmp(ru->confidence, "high") == 0 ? 2 : strcmp(ru->confidence, "medium") == 0;
	const char *why = NULL;
	/* the hot line is the entry bucket or a library frame: not a line to edit */
	const char *what =
	    w->top && (w->loc.kind == EVLOC_ENTRY_BUCKET || w->loc.kind == EVLOC_LIBRARY_FRAME)
		? evloc_kind_text(evloc_kind_name(w->loc.kind))
		: NULL;
	sig_value act_pct = sig_round(w->loc.pct_of_class_stall, 2);
	char buf[200];
	if (what && !evloc_actionable_source(&w->loc)) {
		snprintf(buf, sizeof buf,
			 "lowered: the class's stall sits on %s and no other .py line is "
			 "attributable",
			 what);
		why = buf;
	} else if (what && w->loc.has_actionable && w->loc.pct_of_class_stall >= 0 &&
		   sig_number(&act_pct) < 10) {
		snprintf(buf, sizeof buf,
			 "lowered: the actionable line holds under 10%% of the class's stall (the "
			 "rest sits on %s)",
			 what);
		why = buf;
	} else if (w->top && sig_number(&w->hot_pct) < 10)
		why = "lowered: the hot instruction holds under 10% of the class's stall";
	else if (w->top && (w->no_source || w->loc.unattributable))
		why = "lowered: the hot instruction has no .py line";
	if (why && lv > 0)
		lv--;
	rec->confidence = levels[lv];
	if (!why && what)
		snprintf(buf, sizeof buf,
			 "the rule's confidence; the hot instruction sits on %s, the actionable "
			 "line comes from evidence.actionable",
			 what);
	snprintf(rec->confidence_basis, sizeof rec->confidence_basis, "%s",
		 why	? why
		 : what ? buf
			: "the rule's confidence; the evidence is concentrated on a mapped "
			  "instruction");
}

static void rec_fill(recommendation *rec, const rule *ru, const signal_inputs *in,
		     const stall_profile *p, const signal_map *signals, const jv *occ,
		     const jv *facts, const evloc_buckets *buckets)
{
	memset(rec, 0, sizeof *rec);
	rec->rule = ru;
	for (size_t i = 0; i < ru->n_conds; i++)
		rec->conds[i] = cond_at(&ru->conds[i], signals);
	for (size_t i = 0; i < ru->n_unless; i++)
		rec->unless[i] = cond_at(&ru->unless[i], signals);
	where_of(&rec->where, ru, p, occ, facts, buckets);
	set_confidence(rec);
	gain(ru, in, p, signals, &rec->gain);
}

static jv *rec_jv(const recommendation *rec)
{
	const rule *ru = rec->rule;
	jv *r = jv_object();
	jv_set_int(r, "rank", (int64_t)rec->rank);
	jv_set_str(r, "rule", ru->id);
	jv_set_str(r, "class", ru->klass);
	jv_set(r, "knob", knob_jv(ru));
	jv_set_str(r, "change", ru->change);
	jv_set_str(r, "expected", ru->expected);
	jv_set_str(r, "verify", ru->verify);
	jv_set_str(r, "confidence", rec->confidence);
	jv_set(r, "evidence", evidence_jv(rec));
	jv_set_str(r, "rule_confidence", ru->confidence);
	jv_set_str(r, "confidence_basis", rec->confidence_basis);
	jv_set(r, "gain", gain_jv(&rec->gain));
	jv_set_str(r, "gate", rule_gate_text(ru->gate));
	return r;
}

/* ---- rules that did not give a recommendation ---- */

static rec_not_fired *note(recommend_result *out, const rule *ru, not_fired_status st)
{
	rec_not_fired *n = &out->not_fired[out->n_not_fired++];
	memset(n, 0, sizeof *n);
	n->rule = ru;
	n->status = st;
	return n;
}

/* A rule for another kernel family: listed with the reason, and whether its signal held (so a
 * reader sees what would have fired). */
static void note_not_applicable(recommend_result *out, const rule *ru, const rule_outcome *o,
				const char *why)
{
	rec_not_fired *n = note(out, ru, NOT_FIRED_NOT_APPLICABLE);
	snprintf(n->reason, sizeof n->reason, "%s", why);
	n->signal_held = o->status == RULE_FIRED || o->status == RULE_GATED;
}

static void note_not_fired(recommend_result *out, const rule *ru, const rule_outcome *o,
			   const char *bound, const signal_map *signals)
{
	if (o->status == RULE_NO_SIGNAL)
		note(out, ru, NOT_FIRED_NO_SIGNAL)->missing = o->missing;
	else if (o->status == RULE_CONTRADICTED)
		note(out, ru, NOT_FIRED_CONTRADICTED)->fact = cond_at(o->contradicted_by, signals);
	else
		note(out, ru, NOT_FIRED_GATED)->bound = bound;
}

static jv *not_fired_jv(const rec_not_fired *n)
{
	const rule *ru = n->rule;
	jv *o = jv_object();
	jv_set_str(o, "rule", ru->id);
	jv_set_str(o, "class", ru->klass);
	switch (n->status) {
	case NOT_FIRED_NOT_APPLICABLE:
		jv_set_str(o, "status", "not_applicable");
		jv_set_str(o, "knob", ru->knob);
		jv_set_str(o, "reason", n->reason);
		jv_set_bool(o, "signal_held", n->signal_held);
		break;
	case NOT_FIRED_NO_SIGNAL:
		jv_set_str(o, "status", "no_signal");
		jv_set_str(o, "missing", n->missing);
		break;
	case NOT_FIRED_CONTRADICTED:
		/* the advice the facts contradict: named with the fact, never given */
		jv_set_str(o, "status", "contradicted");
		jv_set_str(o, "knob", ru->knob);
		cond_words(jv_set(o, "fact", cond_jv(&n->fact)), &n->fact);
		break;
	case NOT_FIRED_GATED:
		jv_set_str(o, "status", "gated");
		jv_set_str(o, "bound", n->bound);
		jv_set_str(o, "gate", rule_gate_text(ru->gate));
		break;
	}
	return o;
}

/* Why the largest bubble class has no fired rule (for why_rank_1). */
static const char *largest_missing_reason(const recommend_result *out, const char *largest)
{
	for (size_t i = 0; i < out->n_not_fired; i++) {
		const rec_not_fired *n = &out->not_fired[i];
		if (strcmp(n->rule->klass, largest) != 0)
			continue;
		if (n->status == NOT_FIRED_NOT_APPLICABLE) {
			if (!n->signal_held)
				continue;
			return "its rules that fired belong to another kernel family (see "
			       "not_fired: not_applicable)";
		}
		if (n->status == NOT_FIRED_CONTRADICTED)
			return "the facts contradict its rules' advice (see not_fired: "
			       "contradicted)";
		return n->status == NOT_FIRED_GATED
			   ? "its rules are gated out by the bound verdict"
			   : "its rules need a signal that is absent (see not_fired)";
	}
	return "no rule for it reached its threshold, or no rule covers it";
}

static char *why_rank1(const recommend_result *out, const signal_inputs *in)
{
	const char *largest = in->largest_class;
	const recommendation *r1 = out->n_recs ? &out->recs[0] : NULL;
	if (!r1)
		return xstrfmt("no rule fired%s%s", largest ? "; the largest bubble class is " : "",
			       largest ? largest : "");
	const char *c1 = r1->rule->klass;
	double tot = in->stall, lat = in->latency;
	double ls = largest ? in->largest_stall : 0;
	if (largest && strcmp(c1, largest) == 0)
		return xstrfmt("addresses the largest bubble class %s (%.1f%% of totals.stall)",
			       largest, pct(ls, tot));
	const rec_gain *lg = NULL; /* the largest class's best recommendation's gain */
	for (size_t i = 0; largest && i < out->n_recs && !lg; i++)
		if (strcmp(out->recs[i].rule->klass, largest) == 0)
			lg = &out->recs[i].gain;
	double g1 = sig_number(&r1->gain.upper_bound);
	if (!largest)
		return xstrfmt("the trace has no stall cycles; ranked by the %s finding", c1);
	if (lg && lg->capped)
		return xstrfmt(
		    "the %s finding (estimated upper bound %.1f%% of totals.latency, "
		    "weighted by its priority) outranks the largest bubble class %s "
		    "(%.1f%% of totals.latency, its gain capped at %.1f%% by the roofline)",
		    c1, g1, largest, pct(ls, lat), sig_number(&lg->upper_bound));
	if (lg)
		return xstrfmt("the %s finding (estimated upper bound %.1f%% of totals.latency, "
			       "weighted by its priority) outranks the largest bubble class %s "
			       "(%.1f%% of totals.latency)",
			       c1, g1, largest, pct(ls, lat));
	return xstrfmt("the largest bubble class %s (%.1f%% of totals.stall) has no "
		       "recommendation: %s; rank 1 goes to %s",
		       largest, pct(ls, tot), largest_missing_reason(out, largest), c1);
}

void recommend_run(const rules *r, const signal_inputs *in, const stall_profile *p,
		   const signal_map *signals, const jv *occupancy, const jv *facts,
		   const bound_verdict *bv, const kernel_traits *traits,
		   const evloc_buckets *buckets, recommend_result *out)
{
	memset(out, 0, sizeof *out);
	out->recs = xcalloc(r->n ? r->n : 1, sizeof *out->recs);
	out->not_fired = xcalloc(r->n ? r->n : 1, sizeof *out->not_fired);
	for (size_t i = 0; i < r->n; i++) {
		if (!rule_for_platform(&r->v[i], traits)) {
			out->other_platform++;
			continue;
		}
		rule_outcome o;
		rule_eval(&r->v[i], signals, bv->bound, bound_gates(bv), &o);
		char why[160];
		if (!rule_applies(&r->v[i], traits, why, sizeof why)) {
			note_not_applicable(out, &r->v[i], &o, why);
			continue;
		}
		if (o.status == RULE_NO_SIGNAL || o.status == RULE_GATED ||
		    o.status == RULE_CONTRADICTED)
			note_not_fired(out, &r->v[i], &o, bv->bound, signals);
		if (o.status != RULE_FIRED)
			continue;
		rec_fill(&out->recs[out->n_recs++], &r->v[i], in, p, signals, occupancy, facts,
			 buckets);
	}
	qsort(out->recs, out->n_recs, sizeof *out->recs, rec_cmp);
	for (size_t i = 0; i < out->n_recs; i++)
		out->recs[i].rank = i + 1;
	out->why_rank1 = why_rank1(out, in);
}

jv *recommend_recs_to_jv(const recommend_result *res)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < res->n_recs; i++) {
		jv *r = jv_push(arr, rec_jv(&res->recs[i]));
		if (i == 0 && res->why_rank1)
			jv_set_str(r, "why_rank_1", res->why_rank1);
	}
	return arr;
}

jv *recommend_not_fired_to_jv(const recommend_result *res)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < res->n_not_fired; i++)
		jv_push(arr, not_fired_jv(&res->not_fired[i]));
	return arr;
}

void recommend_release(recommend_result *res)
{
	free(res->recs);
	free(res->not_fired);
	free(res->why_rank1);
	memset(res, 0, sizeof *res);
}
