/* The signals the rules are evaluated against (rules.h): one flat JSON object of named values
 * built from the `bubbles` object, counters.json (optional) and the occupancy object.
 *
 *   <native>.pct_of_stall          the class's share of totals.stall, in % (every AMD and NVIDIA
 *                                  native class; on NVIDIA totals are warp-state samples)
 *   <native>.stall_pct_of_latency  the class's stall cycles as % of totals.latency
 *   <native>.pct_of_hits           the class's executed instructions (mix.dynamic) as % of all
 *   <normalized>.pct_of_stall / .stall_pct_of_latency   the same per normalised class
 *   totals.stall_pct_of_latency, totals.idle_pct_of_latency
 *   vmem_issue.narrow_top_pct      % of the vmem_issue class's top instructions' stall that is on
 *                                  VMEM opcodes narrower than 128 bits (no dwordx4 / b128)
 *   waits.memory_pct / lds_pct / smem_pct   share of the listed waits' stall cycles that the
 *                                  wait attribution credits to VMEM / LDS / SMEM producers, in %
 *   occupancy.theoretical_waves_per_simd, occupancy.limiter (string), occupancy.observed_*
 *   counters.l2_hit_rate, lds_bank_conflict_pct, mfma_inst_frac, partial_32b_frac,
 *   counters.pct_of_hbm_roof        only when the counters say calibrated: true
 *                                   (docs/architecture.md#decision-calibrated)
 * A class absent from bubbles.classes has 0 stall. A signal whose source is absent (no counters,
 * no theoretical occupancy) is absent, and rules reading it report "no signal". */
#ifndef FLYPROF_CORE_RULE_SIGNALS_H
#define FLYPROF_CORE_RULE_SIGNALS_H

#include "base/json/jv.h"

/* Returns an owned object. counters and occupancy may be NULL. The occupancy object is the one
 * report.json carries: {"theoretical": {"waves_per_simd", "limiter", ...} | null,
 * "observed": {"per_simd": {"peak", "mean"}, ...} | null}. */
jv *rule_signals_build(const jv *bubbles, const jv *counters, const jv *occupancy);

/* Stall cycles of a native class in bubbles.classes (0 if absent). */
double rule_signals_class_stall(const jv *bubbles, const char *klass);

#endif
