/* Derived metrics of an AMD counter capture (counters.json), a pure function of the counters
 * (mean per dispatch), the agent's topology and the SoC table, so that it is unit-tested
 * without a profiler. Formulas and their denominators: docs/capture.md. */
#ifndef FLYPROF_CORE_BACKEND_CAPTURE_METRICS_H
#define FLYPROF_CORE_BACKEND_CAPTURE_METRICS_H

#include "base/json/jv.h"
#include "core/hw/soc.h"

typedef struct amd_agent {
	int known;
	double num_xcc, cus, simds, clk_mhz;
} amd_agent;

/* raw: {counter: mean value per dispatch}; spec may be NULL (no roofline); duration_ns: the
 * mean dispatch duration of the counter passes (0 if unknown). Returns the counters.json
 * object (without kernel/arch/passes, which the caller adds). */
jv *amd_counter_metrics(const jv *raw, const amd_agent *a, const soc_spec *spec, const char *dtype,
			double duration_ns);
/* Splits counters into passes: each pass starts with per_pass and takes counters while every
 * block stays within limits ({"SQ": 8, ...}; a block not named takes 1 per pass). */
jv *amd_pmc_passes(const jv *counters, const jv *limits, const jv *per_pass);

#endif
