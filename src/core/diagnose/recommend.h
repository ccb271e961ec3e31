/* Recommendations: every rule (rules.h) evaluated against the signals, the fired ones turned
 * into recommendation objects with evidence and a labelled gain upper bound, then ranked.
 *
 * Ranking (documented in docs/report.md):
 *   key 1  the estimated gain upper bound, in % of totals.latency:
 *            class rules      the class's stall cycles / totals.latency (removing every stall
 *                             cycle of the class cannot save more)
 *            occupancy rules  dependency stall (vmem_wait + lds_wait + smem_wait + barrier)
 *                             / totals.latency x (1 - theoretical / max waves per SIMD)
 *            roofline rules   100 - pct_of_hbm_roof (counters), else roofline.headroom_pct
 *            grid / waves     their gain signal (pseudo_class.h)
 *          every gain but a roofline finding's is capped at roofline.headroom_pct when the trace
 *          roofline is known (gain.capped_by says so);
 *          multiplied by the rule's priority only for the pseudo classes (occupancy, roofline),
 *          so class rules of the largest class always come before those of smaller classes;
 *   key 2  the rule's priority; key 3  the order of the rules file.
 * The rank-1 recommendation carries "why_rank_1" saying whether it addresses the largest
 * bubble class and, if not, what outranked it or why that class has no fired rule.
 *
 * Platform: a rule for another backend or language (rule_for_platform) is skipped and only
 * counted (other_platform). Applicability: a rule whose "applies_to" does not match the kernel
 * traits (kernel_traits.h) is not evaluated into a recommendation; it is listed in not_fired with
 * status "not_applicable", the reason, and whether its signal held.
 *
 * The result is typed (recommendation, rec_not_fired below) and becomes JSON only at the edge,
 * recommend_recs_to_jv: {rank, rule, class, knob: {id, kind, api, effect, language}, change,
 * expected, verify, confidence, evidence: {signal, value, op, threshold, holds, stops_when,
 * conditions, unless, hotspot (with source_kind), actionable_source, actionable,
 * secondary_source, waits_on, none_reason}, rule_confidence, confidence_basis, gain: {kind,
 * basis, exposed_pct, ..., upper_bound_pct, denominator}, gate}; the location fields follow
 * evidence_loc.h (kernel-entry buckets). */
#ifndef FLYPROF_CORE_RECOMMEND_H
#define FLYPROF_CORE_RECOMMEND_H

#include "base/json/jv.h"
#include "core/diagnose/bound.h"
#include "core/diagnose/evidence_loc.h"
#include "core/diagnose/pseudo_class.h"
#include "core/diagnose/rules.h"

/* A condition of a rule with its signal's value at evaluation time (present 0: absent). */
typedef struct rec_cond {
	const rule_cond *cond; /* borrowed from the rules */
	sig_value value;       /* its string, if any, borrowed from the signal map */
	int present;
} rec_cond;

/* The gain estimate. Numbers are kept as written (rounded to 2 decimals; null when not
 * finite): ranking and why_rank_1 read the same figures report.json shows. Strings are static
 * or held here. */
typedef struct rec_gain {
	const char *kind;	    /* "upper_bound" | "upper_bound_estimate" */
	char basis[320];	    /* how the bound was computed */
	sig_value upper_bound;	    /* upper_bound_pct */
	int exposed;		    /* the class's exposed stall is known (class rules) */
	sig_value exposed_pct;	    /* its share of the traced SIMDs' time */
	sig_value exposed_of_stall; /* exposed_pct_of_stall (null when unknown) */
	int capped;		    /* capped at the roofline's headroom */
	sig_value uncapped;	    /* uncapped_pct */
	char capped_by[400];
	const char *denominator; /* report_words totals */
	double key;		 /* the ranking key */
} rec_gain;

/* The evidence's location part: what the inputs say about where the class stalls. Pointers are
 * borrowed from the stall profile and the documents (occupancy, facts, the bucket object), which
 * must outlive the result. */
typedef struct rec_where {
	const pseudo_class *pseudo; /* a whole-kernel class: no hot instruction */
	const jv *theoretical;	    /* occupancy rules: occupancy.theoretical, or NULL */
	const jv *facts;	    /* the facts object the pseudo class rests on, or NULL */
	const stall_profile *profile;
	const prof_class *class_entry; /* the class when the profile lists it, or NULL */
	const prof_top *top;	       /* its hottest instruction, or NULL */
	sig_value hot_pct;	       /* top's share of the class's stall (2 decimals) */
	int no_source;		       /* top has no source line */
	evloc_where loc;	       /* where top points (evidence_loc.h) */
} rec_where;

/* One fired rule. */
typedef struct recommendation {
	const rule *rule; /* borrowed from the rules */
	size_t rank;	  /* 1-based */
	rec_cond conds[RULES_MAX_CONDS], unless[RULES_MAX_CONDS];
	rec_where where;
	const char *confidence;	    /* "low" | "medium" | "high" after set_confidence */
	char confidence_basis[200]; /* why */
	rec_gain gain;
} recommendation;

typedef enum {
	NOT_FIRED_NO_SIGNAL,
	NOT_FIRED_GATED,
	NOT_FIRED_CONTRADICTED,
	NOT_FIRED_NOT_APPLICABLE
} not_fired_status;

/* A rule that held no recommendation although it was a candidate. */
typedef struct rec_not_fired {
	const rule *rule;
	not_fired_status status;
	const char *missing; /* no_signal: the absent signal (borrowed from the rule) */
	const char *bound;   /* gated: the verdict (static) */
	rec_cond fact;	     /* contradicted: the unless condition that held */
	char reason[160];    /* not_applicable: which trait differs */
	int signal_held;     /* not_applicable: its signal and conditions held */
} rec_not_fired;

typedef struct recommend_result {
	recommendation *recs; /* ranked (owned) */
	size_t n_recs;
	rec_not_fired *not_fired; /* in rules-file order (owned) */
	size_t n_not_fired;
	char *why_rank1;       /* owned */
	size_t other_platform; /* rules skipped because they are for another backend/language */
} recommend_result;

/* Evaluates all rules. The figures come from the typed inputs (rule_signals.h) and the signal
 * map (rule_signals_from_inputs); the stall profile p (the one the inputs were filled from) is
 * required for the evidence's location part (the hot instruction of the class's ranked list,
 * its wait and the wait's producers, evidence_loc.h) and the unit of the gain; facts (report.json's
 * isa_facts, launch_geometry, wave_facts, roofline, exposed_stall: what a pseudo class's evidence
 * quotes, pseudo_class.h), occupancy, traits (kernel_traits.h) and buckets (entry-bucket lines,
 * evidence_loc.h) may be NULL. The result borrows the rules and the signal map's strings: turn it
 * into JSON while both live. Never fails. */
void recommend_run(const rules *r, const signal_inputs *in, const stall_profile *p,
		   const signal_map *signals, const jv *occupancy, const jv *facts,
		   const bound_verdict *bv, const kernel_traits *traits,
		   const evloc_buckets *buckets, recommend_result *out);
void recommend_release(recommend_result *res);

/* report.json's "recommendations" array (the rank-1 object carries why_rank_1) and "not_fired"
 * array; owned by the caller. */
jv *recommend_recs_to_jv(const recommend_result *res);
jv *recommend_not_fired_to_jv(const recommend_result *res);

#endif
