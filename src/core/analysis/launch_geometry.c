/* Launch geometry (launch_geometry.h). */
#include "core/analysis/launch_geometry.h"

#include <math.h>

jv *launch_geometry_build(const soc_spec *s, const trace_resources *r, const jv *theoretical,
			  const jv *observed)
{
	if (!r || r->grid_size <= 0 || r->wg_size <= 0)
		return NULL;
	int ws = r->wave_size > 0 ? r->wave_size : (s && s->wave_size > 0 ? s->wave_size : 64);
	int64_t wgs = (r->grid_size + r->wg_size - 1) / r->wg_size;
	int wpw = (r->wg_size + ws - 1) / ws;
	jv *o = jv_object();
	jv_set_int(o, "grid_work_items", r->grid_size);
	jv_set_int(o, "workgroup_size", r->wg_size);
	jv_set_int(o, "workgroups", wgs);
	jv_set_int(o, "waves_per_wg", wpw);
	jv_set_int(o, "waves", wgs * wpw);
	const jv *held = jv_get(jv_get(observed, "all_cus"), "cus");
	jv_set(o, "cus_held_in_traced_ses", jv_is_num(held) ? jv_copy(held) : jv_null());
	if (!s || s->cus <= 0) {
		jv_set(o, "cus", jv_null());
		jv_set_bool(o, "grid_caps_occupancy", 0);
		jv_set_str(o, "note", "the SoC is unknown: no CU count to compare the grid with");
		return o;
	}
	double cus = s->cus;
	jv_set_int(o, "cus", s->cus);
	jv_set_int(o, "simds_per_cu", s->simds_per_cu);
	double cu_fill = 100.0 * (wgs < s->cus ? (double)wgs : cus) / cus;
	jv_set_round(o, "cu_fill_pct", cu_fill, 1);
	double gain = wgs < s->cus ? 100.0 * (1.0 - (double)wgs / cus) : 0;
	jv_set_round(o, "gain_pct", gain, 1);
	const jv *wpc = jv_get(theoretical, "wgs_per_cu");
	const jv *th = jv_get(theoretical, "waves_per_simd");
	if (!jv_is_num(wpc) || jv_num(wpc) <= 0) {
		jv_set(o, "wgs_per_cu_allowed", jv_null());
		jv_set_bool(o, "grid_caps_occupancy", wgs < s->cus);
		jv_set_str(o, "note", "theoretical occupancy unknown: only the CU fill is judged");
		return o;
	}
	double slots = cus * jv_num(wpc);
	double rounds = (double)wgs / slots;
	jv_set_int(o, "wgs_per_cu_allowed", (int64_t)jv_num(wpc));
	jv_set_round(o, "slot_fill_pct", 100.0 * (double)wgs / slots, 1);
	jv_set_round(o, "rounds", rounds, 2);
	double full = ceil(rounds);
	jv_set_round(o, "tail_idle_pct", full > 1 ? 100.0 * (full - rounds) / full : 0, 1);
	double per_cu = ceil((double)wgs / cus);
	double gw = per_cu * wpw / (s->simds_per_cu > 0 ? s->simds_per_cu : 1);
	if (jv_is_num(th) && gw > jv_num(th))
		gw = jv_num(th);
	jv_set_round(o, "grid_waves_per_simd", ceil(gw), 0);
	int caps = (double)wgs < slots;
	jv_set_bool(o, "grid_caps_occupancy", caps);
	jv_set(o, "note",
	       jv_strf("%lld workgroups of %d waves on %d CUs x %g allowed per CU (%g slots): %s",
		       (long long)wgs, wpw, s->cus, jv_num(wpc), slots,
		       wgs < s->cus ? "the grid cannot give every CU a workgroup"
		       : caps	    ? "every CU gets work but the grid, not the resources, caps "
				      "the resident waves"
				    : "the grid fills every slot at least once"));
	return o;
}
