/* Launch geometry: whether the grid can fill the GPU (docs/diagnosis.md).
 *
 * From the kernel resources (grid and workgroup size in work-items, as the kernel-trace CSV and
 * the code object give them), the SoC (CUs, SIMDs per CU), the theoretical occupancy (workgroups
 * per CU the resources allow) and the observed occupancy (CUs that ever held a wave):
 *   workgroups            ceil(grid / workgroup size)
 *   cu_fill_pct           100 x min(workgroups, CUs) / CUs: the share of CUs the grid can reach
 *   slot_fill_pct         100 x workgroups / (CUs x workgroups per CU allowed)
 *   grid_waves_per_simd   the most waves one SIMD can hold from this grid:
 *                         min(theoretical, ceil(workgroups / CUs) x waves per WG / SIMDs per CU)
 *   grid_caps_occupancy   the grid has fewer workgroups than the GPU has slots for them: then the
 *                         grid, not registers or LDS, caps the resident waves, and occupancy
 *                         advice cannot help
 *   gain_pct              when workgroups < CUs: 100 x (1 - workgroups / CUs), the most wall time
 *                         spreading the same work over every CU could save (an estimate that
 *                         assumes the work divides evenly)
 *   rounds, tail_idle_pct workgroups / slots, and the share of slot time the last partial round
 *                         leaves idle (equal-length workgroups assumed)
 * Returns NULL when the grid or workgroup size is unknown. Ownership: the caller's. */
#ifndef FLYPROF_CORE_ANALYSIS_LAUNCH_GEOMETRY_H
#define FLYPROF_CORE_ANALYSIS_LAUNCH_GEOMETRY_H

#include "base/json/jv.h"
#include "core/hw/soc.h"
#include "model/trace.h"

/* s may be NULL (then CU-based fields are null); theoretical and observed are the report's
 * occupancy objects (may be NULL). */
jv *launch_geometry_build(const soc_spec *s, const trace_resources *r, const jv *theoretical,
			  const jv *observed);

#endif
