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
 *            grid / waves     their gain signal (fact_signals.h)
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
 * Recommendation object: {rank, rule, class, knob: {id, kind, api, effect}, change, expected,
 * verify, confidence, evidence: {signal, value, op, threshold, conditions, hotspot (with
 * source_kind), actionable_source, actionable, secondary_source, waits_on, none_reason}, gain:
 * {upper_bound_pct, kind, denominator, basis}, gate}; the location fields follow
 * evidence_loc.h (kernel-entry buckets). */
#ifndef FLYPROF_CORE_RECOMMEND_H
#define FLYPROF_CORE_RECOMMEND_H

#include "base/json/jv.h"
#include "core/diagnose/bound.h"
#include "core/diagnose/rules.h"

typedef struct recommend_result {
	jv *recs;	       /* ranked recommendation objects (owned) */
	jv *not_fired;	       /* [{rule, class, status: "no_signal"|"gated"|"not_applicable",
				  missing|bound|reason}] (owned) */
	jv *why_rank1;	       /* string or null (owned) */
	size_t other_platform; /* rules skipped because they are for another backend/language */
} recommend_result;

/* Evaluates all rules. bubbles is required; signals from rule_signals_build; facts (report.json's
 * isa_facts, launch_geometry, wave_facts, roofline, exposed_stall; fact_signals.h) may be NULL;
 * occupancy, traits (kernel_traits.h) and buckets (entry-bucket lines, evidence_loc.h) may be NULL.
 * Never fails. */
void recommend_run(const rules *r, const jv *bubbles, const signal_map *signals,
		   const jv *occupancy, const jv *facts, const bound_verdict *bv,
		   const kernel_traits *traits, const jv *buckets, recommend_result *out);
void recommend_release(recommend_result *res);

/* The native class with the most stall cycles in bubbles.classes, or NULL. */
const char *recommend_largest_class(const jv *bubbles);

#endif
