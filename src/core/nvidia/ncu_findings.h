/* Findings from an Nsight Compute capture: the defects the hardware counters of the source
 * page and the details page show (uncoalesced global accesses, shared bank conflicts, local
 * memory, divergence, occupancy limiters, a grid smaller than the GPU, missing software
 * pipelining), each tied to the SASS instruction and the .cu/.py line that carries it, with
 * the metric facts that made it fire, the CUDA or Triton knob (data/ncu_findings.json) and a
 * gain: ncu's own estimated speedup where one of its rules covers the defect, else flyprof's
 * estimate from the warp-state samples at the instructions concerned. docs/nvidia.md lists the
 * conditions.
 *
 * The result is {"language", "bound" (from the speed-of-light section: memory or compute when
 * the busier roof reaches sol_bound_pct of its peak, else latency; null without a details
 * export), "findings": [recommendation-shaped objects (recommend.h keys:
 * rule, class, knob, change, evidence {hotspot, actionable_source, facts}, gain, confidence,
 * ncu_rule, finding)], "ncu_rules": [every ncu rule result with an estimated speedup of at
 * least report_ncu_rules_min_speedup_pct, with the finding that covers it or status "reported
 * by ncu, no knob known"]}. Ownership: the caller owns the returned tree. */
#ifndef FLYPROF_CORE_NCU_FINDINGS_H
#define FLYPROF_CORE_NCU_FINDINGS_H

#include "base/err.h"
#include "base/json/jv.h"
#include "read/nvidia/ncu_exports.h"
#include "read/nvidia/ncu_details.h"
#include "read/nvidia/ncu_memtab.h"
#include "read/nvidia/ncu_source.h"

typedef struct ncu_findings_in {
	const ncu_source *src;	/* instructions with samples (and lines when correlated) */
	const ncu_memtab *mem;	/* the same export's memory columns */
	const ncu_details *det; /* NULL when there is no details export */
	const char *language;	/* "cuda" | "triton" */
} ncu_findings_in;

/* Evaluates the findings of cfg (the parsed data/ncu_findings.json). Never fails. */
jv *ncu_findings_build(const ncu_findings_in *in, const jv *cfg);
/* Loads the exports (source, correlated lines, details) and data/ncu_findings.json and builds
 * the findings. warnings (an array, may be NULL) gets strings for what was left out. Returns
 * the tree, or NULL with e set (BAD_INPUT in an export or the data file, NO_ARTIFACT). */
jv *ncu_findings_from_exports(const ncu_exports *x, jv *warnings, fp_err *e);

#endif
