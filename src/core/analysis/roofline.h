/* A roofline from the trace and the kernel trace, without counters (docs/diagnosis.md).
 *
 *   bytes      (load + store bytes per wave, isa_facts.vmem) x waves in the grid
 *              (launch_geometry.waves): VMEM traffic, every lane active assumed; cache hits
 *              are counted as traffic, so for kernels with reuse it exceeds the HBM bytes
 *   duration   the median End - Start of the capture's kernel-trace rows of this kernel with
 *              the traced launch shape (the ATT run itself is slowed by tracing)
 *   achieved   bytes / duration, against the SoC's HBM peak: pct_of_hbm_peak
 *   verdict    "near_hbm_roof" at >= ROOFLINE_NEAR_PCT, "above_hbm_roof" over
 *              ROOFLINE_ABOVE_PCT (the VMEM bytes cannot all be HBM bytes: caches serve reuse;
 *              no cap), else "below_hbm_roof"
 *   cap_pct    near the roof only: 100 - pct_of_hbm_peak, the most any change that keeps the
 *              bytes moved can gain; report caps every other gain estimate with it
 *   flops, arithmetic_intensity, peak_flops, attainable_flops   matrix FLOPs (isa_facts.mfma)
 *              per byte, the SoC's dense peak for that dtype and min(peak, AI x HBM)
 *   littles_law  bytes in flight per CU (the widest load window per lane x 64 lanes x observed
 *              mean waves per CU) against what the HBM peak needs at an assumed
 *              ROOFLINE_HBM_LATENCY_CYCLES latency (bandwidth per CU x latency)
 * Every input is stated in the object ("inputs"). Returns NULL when the traffic, the waves or
 * the duration is unknown. Ownership: the caller's. */
#ifndef FLYPROF_CORE_ANALYSIS_ROOFLINE_H
#define FLYPROF_CORE_ANALYSIS_ROOFLINE_H

#include "base/json/jv.h"
#include "core/hw/soc.h"

#define ROOFLINE_NEAR_PCT	    70.0
#define ROOFLINE_ABOVE_PCT	    110.0
#define ROOFLINE_HBM_LATENCY_CYCLES 600.0 /* middle of 500-800 cycles for an L2-missing load */

typedef struct roofline_inputs {
	const soc_spec *soc;	   /* required */
	const jv *isa_facts;	   /* isa_facts.h */
	const jv *launch;	   /* launch_geometry.h */
	const jv *observed;	   /* report occupancy.observed, or NULL */
	double duration_ns;	   /* median, <= 0 unknown */
	size_t duration_rows;	   /* rows the median is over */
	const char *duration_from; /* the CSV path(s) in words */
} roofline_inputs;

jv *roofline_build(const roofline_inputs *in);

#endif
