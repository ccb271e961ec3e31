/* THE bound verdict (docs/architecture.md#decision-bound): one function, used by the report
 * headline and by rule gating alike. It says which evidence it used and how sure it is.
 *
 * Basis "counters" (counters.json present and conclusive), in order:
 *   compute  if compute.mfma_inst_frac >= 0.5                                 (medium)
 *   memory   if memory.calibrated is true and memory.pct_of_hbm_roof >= 70     (high)
 *   memory   if memory.l2_hit_rate < 50                                        (medium)
 * Absolute HBM bandwidth is used only when calibrated (docs/architecture.md#decision-calibrated).
 * Otherwise basis "trace", from the stall profile's taxonomy (shares of totals.stall /
 * totals.latency), the same on both backends in terms of the normalised classes:
 *   compute  if matrix instructions hold >= 40% of totals.latency: AMD the mfma class's
 *            latency cycles; NVIDIA the samples on tensor-core SASS (HMMA/HGMMA/IMMA/...;
 *            kernel_traits evidence.matrix_latency) — unknown, never compute, without SASS
 *   memory   if the global-memory classes hold >= 40% of totals.stall: the normalised
 *            memory_dependency without scalar/constant loads, plus the global-memory issue
 *            throttle. AMD vmem_wait + vmem_issue (smem_wait = kernel-argument loads is not
 *            the data stream); NVIDIA long_scoreboard + lg_throttle + tex_throttle (imc_miss
 *            is the constant cache). The trace cannot tell bandwidth from latency.
 *   latency  otherwise (the residual: neither dominates)
 *   unknown  when the trace has no latency cycles
 * Confidence: high when the deciding share is >= 60%, medium when >= 40% (counters: as above),
 * low for the residual verdict. */
#ifndef FLYPROF_CORE_BOUND_H
#define FLYPROF_CORE_BOUND_H

#include "base/json/jv.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/rule_signals.h"

typedef struct bound_verdict {
	const char *bound;	/* "memory", "compute", "latency" or "unknown" (static) */
	const char *basis;	/* "counters", "trace" or "none" (static) */
	const char *confidence; /* "high", "medium", "low" (static) */
	int calibrated;		/* counters' memory.calibrated: 1, 0, or -1 without counters */
	double share;		/* the deciding share in % (or fraction for counters), -1 if none */
	char why[384];		/* one sentence with the numbers */
} bound_verdict;

/* Decides from the typed inputs (rule_signals.h: the stall profile's figures and the counters,
 * filled once) and the kernel traits (may be NULL), which carry the NVIDIA tensor-core share
 * (evidence.matrix_latency, -1 when not measured). Never fails. */
void bound_decide_inputs(const signal_inputs *in, const kernel_traits *traits, bound_verdict *v);
/* The same from a stall profile (may be NULL: no trace figures, as for `flyprof counters`)
 * and counters.json (may be NULL), without kernel traits. The backend is the profile's vendor;
 * the NVIDIA unit is warp-state samples and the reason says so. */
void bound_decide(const stall_profile *p, const jv *counters, bound_verdict *v);
/* {"bound","basis","confidence","calibrated","why"}; owned by the caller. */
jv *bound_to_jv(const bound_verdict *v);
/* 1 when rule gating should apply (the verdict is not unknown). */
int bound_gates(const bound_verdict *v);

#endif
