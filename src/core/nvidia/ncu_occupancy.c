/* Occupancy of an NVIDIA capture from the details export (ncu_bubbles_int.h). */
#include "core/nvidia/ncu_bubbles_int.h"

#include "base/xalloc.h"
#include "core/hw/occupancy.h"
#include "core/hw/soc.h"

#include <stdlib.h>
#include <string.h>

/* Hopper (and Volta through Ada) SMs have 4 sub-partitions, each with one warp scheduler
 * (docs/facts-nvidia.md#sm90-limits): the NVIDIA counterpart of a SIMD for "per_simd". */
#define NCU_SCHEDULERS_PER_SM 4

static jv *num_or_null(const ncu_model *m, const char *section, const char *name, int digits)
{
	double v;
	if (ncu_details_num(&m->det, section, name, &v))
		return jv_round(v, digits);
	return jv_null();
}

static jv *observed(const ncu_model *m)
{
	jv *o = jv_object();
	jv *ps = jv_set(o, "per_simd", jv_object());
	jv_set(ps, "peak", jv_null());
	jv_set(ps, "mean", num_or_null(m, "Scheduler Statistics", "Active Warps Per Scheduler", 3));
	jv *pc = jv_set(o, "per_cu", jv_object());
	jv_set(pc, "peak", jv_null());
	jv_set(pc, "mean", num_or_null(m, "Occupancy", "Achieved Active Warps Per SM", 3));
	jv_set(o, "achieved_pct_of_max_warps",
	       num_or_null(m, "Occupancy", "Achieved Occupancy", 2));
	jv_set_str(o, "unit",
		   "warps (per_simd = per warp scheduler / SM sub-partition, per_cu = "
		   "per SM)");
	jv_set_str(o, "source",
		   "ncu details: Scheduler Statistics / Active Warps Per Scheduler, "
		   "Occupancy / Achieved Active Warps Per SM (means over the kernel; "
		   "ncu reports no peak)");
	return o;
}

/* The block limit that binds (fewest blocks); on ties hardware caps (warps, SM blocks,
 * barriers) win over resources, as in occupancy.h. The limits take occupancy.h's names so
 * both vendors read alike: warps -> wave_slots, blocks per SM -> wg_slots, shared memory ->
 * lds. */
static jv *theoretical(const ncu_model *m)
{
	static const struct {
		const char *metric, *name;
	} lim[] = {{"Block Limit Warps", "wave_slots"},
		   {"Block Limit SM", "wg_slots"},
		   {"Block Limit Barriers", "barriers"},
		   {"Block Limit Registers", "registers"},
		   {"Block Limit Shared Mem", "lds"}};
	double warps;
	if (!ncu_details_num(&m->det, "Occupancy", "Theoretical Active Warps per SM", &warps))
		return jv_null();
	jv *o = jv_object();
	jv_set_round(o, "waves_per_simd", warps / NCU_SCHEDULERS_PER_SM, 2);
	jv_set_round(o, "waves_per_cu", warps, 2);
	jv_set(o, "pct_of_max_waves", num_or_null(m, "Occupancy", "Theoretical Occupancy", 2));
	jv_set_int(o, "schedulers_per_sm", NCU_SCHEDULERS_PER_SM);
	jv *bl = jv_set(o, "block_limits", jv_object());
	const char *limiter = NULL;
	double best = 0;
	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		double v;
		if (!ncu_details_num(&m->det, "Occupancy", lim[i].metric, &v)) {
			jv_set(bl, lim[i].name, jv_null());
			continue;
		}
		jv_set_round(bl, lim[i].name, v, 2);
		if (!limiter || v < best) {
			limiter = lim[i].name;
			best = v;
		}
	}
	jv_set(o, "limiter", limiter ? jv_str(limiter) : jv_null());
	jv_set(o, "registers_per_thread",
	       num_or_null(m, "Launch Statistics", "Registers Per Thread", 0));
	jv_set_str(o, "source",
		   "ncu details: Occupancy section (Theoretical Active Warps per SM, "
		   "Block Limit *)");
	return o;
}

/* flyprof's own occupancy model (occupancy.h, soc.json sm_90) from the same resources, as a
 * cross-check of ncu's figure; NULL when the arch or resources are unknown. */
static jv *model(const ncu_model *m, const jv *th, jv *warnings)
{
	fp_err e = FP_ERR_INIT;
	soc_table *t = m->det.arch ? soc_table_load(&e) : NULL;
	const soc_spec *s = t ? soc_lookup(t, m->det.arch) : NULL;
	trace_resources r;
	occ_result o;
	jv *out = NULL;
	ncu_details_resources(&m->det, &r);
	if (s && occ_theoretical(s, &r, &o) == 0) {
		out = occ_to_json(&o);
		int agrees = jv_num(jv_get(th, "waves_per_cu")) == (double)o.subgroups_per_cu;
		jv_set_bool(out, "agrees_with_ncu", agrees);
		if (!agrees && warnings)
			jv_push(warnings, jv_strf("occupancy: ncu says %g warps per SM, flyprof's "
						  "model %d (limited by %s)",
						  jv_num(jv_get(th, "waves_per_cu")),
						  o.subgroups_per_cu, o.limiter));
	}
	soc_table_free(t);
	fp_err_clear(&e);
	return out;
}

jv *ncu_occupancy(const ncu_model *m, jv *warnings)
{
	jv *o = jv_object();
	if (!m->has_details) {
		jv_set_bool(o, "available", 0);
		jv_set(o, "observed", jv_null());
		jv_set(o, "theoretical", jv_null());
		return o;
	}
	jv_set_bool(o, "available", 1);
	jv_set(o, "observed", observed(m));
	jv *th = jv_set(o, "theoretical", theoretical(m));
	if (jv_type_of(th) == JV_OBJECT) {
		jv *md = model(m, th, warnings);
		jv_set(th, "model", md ? md : jv_null());
	}
	return o;
}
