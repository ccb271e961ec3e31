/* Theoretical occupancy (docs/architecture.md#decision-occupancy): the number of resident waves
 * per CU (SM) is the minimum over every limit, each expressed as whole workgroups per CU:
 *
 * Names hold on both vendors in OpenCL's words: a subgroup is an AMD wave or an NVIDIA warp, a
 * workgroup (wg) an AMD workgroup or an NVIDIA thread block, a CU an AMD compute unit or an
 * NVIDIA SM, a SIMD an AMD SIMD or an SM's warp scheduler. The JSON keys keep their published
 * names (waves_per_cu, ...). The SoC table's fields (soc.h) mirror data/soc.json's keys.
 *
 *   AMD (gfx942/gfx950, docs/facts-hardware.md#occupancy):
 *     wave_slots  floor(max_waves_per_cu / waves_per_wg)
 *     wg_slots    max_wgs_per_cu (16) for multi-wave WGs; single-wave WGs only by wave slots
 *     vgpr        V = roundup(align(arch, 4) + agpr, 8) (roundup(arch, 8) without AGPRs);
 *                 waves/SIMD = min(8, floor(512 / V)); WGs = floor(4 x waves/SIMD / waves_per_wg)
 *                 (assumes a WG's waves spread evenly over the 4 SIMDs: approximate)
 *     sgpr        GFX9 rule (<=80: 10, <=88: 9, <=100: 8, else 7 waves/SIMD), same WG mapping
 *     lds         floor(lds_per_cu / roundup(lds_bytes, granule)); 0 if over the per-WG max
 *     wg_size     0 WGs if the WG is larger than max_wg_size
 *   NVIDIA (sm_90, docs/facts-nvidia.md#sm90-occupancy): registers
 *     floor(floor(65536 / roundup(R x 32, 256)) / warps_per_block), shared memory
 *     floor(228 KB / roundup(S + 1 KB, 128)), 32 blocks, 64 warps.
 *
 * Limits whose input is unknown (-1 in trace_resources) are skipped and listed in `unknown`,
 * which makes the result an upper bound; the JSON says so. */
#ifndef FLYPROF_CORE_OCCUPANCY_H
#define FLYPROF_CORE_OCCUPANCY_H

#include "base/json/jv.h"
#include "core/hw/soc.h"
#include "model/trace.h"

#define OCC_MAX_LIMITS 8

typedef struct occ_limit {
	const char *name;     /* "wg_size", "wave_slots", "wg_slots", "vgpr" (NVIDIA: "registers"),
				 "sgpr", "lds" */
	int wgs_per_cu;	      /* workgroups per CU this limit alone allows */
	int subgroups_per_cu; /* wgs_per_cu x subgroups_per_wg */
	char detail[112];     /* how the limit was computed, with its numbers */
} occ_limit;

typedef struct occ_result {
	int subgroups_per_wg;
	int wgs_per_cu;		/* the minimum over the limits */
	int subgroups_per_cu;	/* wgs_per_cu x subgroups_per_wg */
	int subgroups_per_simd; /* ceil(subgroups_per_cu / simds_per_cu): the busiest SIMD's
				   residents */
	int max_subgroups_per_cu;
	double pct_of_max_subgroups; /* 100 x subgroups_per_cu / max_subgroups_per_cu */
	/* Name of the binding limit. On ties the hardware caps (wg_size, wave_slots, wg_slots) win
	 * over resources, so a kernel at the hardware maximum is not blamed on its VGPRs. */
	const char *limiter;
	int n_tied;	/* how many limits share the minimum */
	int vgpr_alloc; /* AMD: V after AGPR alignment and granule; NVIDIA: regs/thread rounded */
	int subgroups_per_simd_by_regs; /* what the register limit alone allows per SIMD */
	int64_t lds_alloc;		/* per-WG LDS after reservation and granule rounding */
	occ_limit limits[OCC_MAX_LIMITS];
	int n_limits;
	const char *unknown[4]; /* inputs that were unknown: "vgpr", "agpr", "sgpr", "lds" */
	int n_unknown;
	const char *why; /* when occ_theoretical fails: a static message */
} occ_result;

/* Computes theoretical occupancy of a kernel with resources r on SoC s. Returns 0, or -1 (with
 * out->why set) when it cannot be computed: the workgroup size is unknown or not positive. A
 * kernel that cannot launch (too much LDS, too many registers) is not a failure: the result
 * has wgs_per_cu 0 and names the limit. */
int occ_theoretical(const soc_spec *s, const trace_resources *r, occ_result *out);
/* VGPRs allocated per wave on AMD: roundup(align(arch, agpr_align) + agpr, granule), or
 * roundup(arch, granule) with no AGPRs; at least one granule. */
int occ_vgpr_alloc(const soc_spec *s, int arch_vgpr, int agpr);
/* Per-WG LDS allocation: roundup(bytes + reserved, granule); 0 bytes stays 0 on AMD. */
int64_t occ_lds_alloc(const soc_spec *s, int64_t bytes);
/* The result as an envelope object: waves per CU/SIMD, pct_of_max_waves with its denominator,
 * the limiter, every limit, and "upper_bound": true with the unknown inputs when any. */
jv *occ_to_json(const occ_result *o);

#endif
