/* The trace roofline (roofline.h). */
#include "core/analysis/roofline.h"

#include <string.h>

static jv *littles_law(const roofline_inputs *in, double hbm)
{
	const soc_spec *s = in->soc;
	const jv *lf = jv_get(in->isa_facts, "loads_in_flight");
	const jv *mean = jv_get(jv_get(in->observed, "per_cu"), "mean");
	if (!jv_is_num(mean) || !jv_is_num(jv_get(lf, "window_bytes_per_lane")) || s->cus <= 0 ||
	    s->clock_mhz <= 0)
		return jv_null();
	double lane_b = jv_num(jv_get(lf, "window_bytes_per_lane"));
	double have = lane_b * (s->wave_size > 0 ? s->wave_size : 64) * jv_num(mean);
	double need = hbm / s->cus * ROOFLINE_HBM_LATENCY_CYCLES / (s->clock_mhz * 1e6);
	jv *o = jv_object();
	jv_set_round(o, "bytes_in_flight_per_cu", have, 0);
	jv_set_round(o, "bytes_needed_per_cu", need, 0);
	jv_set_round(o, "pct_of_needed", need > 0 ? 100.0 * have / need : 0, 1);
	jv_set(o, "basis",
	       jv_strf("in flight: %.0f B per lane (the widest load window between vmcnt(0) "
		       "drains) x %d lanes x %.2f observed mean waves per CU; needed: HBM peak / "
		       "%d CUs x %.0f cycles (assumed load latency) / %.0f MHz",
		       lane_b, s->wave_size > 0 ? s->wave_size : 64, jv_num(mean), s->cus,
		       ROOFLINE_HBM_LATENCY_CYCLES, s->clock_mhz));
	return o;
}

static void compute_roof(jv *o, const roofline_inputs *in, double bytes, double flops, double dur)
{
	const char *dt = jv_string(jv_get(jv_get(in->isa_facts, "mfma"), "dtype"));
	const soc_rate *r = dt ? soc_matrix_rate(in->soc, dt) : NULL;
	double hbm = soc_hbm_bytes_per_s(in->soc);
	jv_set_round(o, "flops", flops, 0);
	jv_set_round(o, "arithmetic_intensity", bytes > 0 ? flops / bytes : 0, 3);
	jv_set(o, "dtype", dt ? jv_str(dt) : jv_null());
	if (!r || flops <= 0) {
		jv_set(o, "peak_flops", jv_null());
		jv_set(o, "attainable_flops", jv_null());
		return;
	}
	double peak = soc_peak_flops(in->soc, r), ai = bytes > 0 ? flops / bytes : 0;
	double att = ai * hbm < peak ? ai * hbm : peak;
	jv_set_round(o, "peak_flops", peak, 0);
	jv_set_round(o, "attainable_flops", att, 0);
	jv_set_round(o, "achieved_flops", flops / dur, 0);
	jv_set_round(o, "pct_of_attainable_flops", att > 0 ? 100.0 * flops / dur / att : 0, 1);
}

jv *roofline_build(const roofline_inputs *in)
{
	const jv *vm = jv_get(in->isa_facts, "vmem");
	const jv *waves = jv_get(in->launch, "waves");
	double hbm = in->soc ? soc_hbm_bytes_per_s(in->soc) : 0;
	if (!in->soc || !vm || !jv_is_num(waves) || in->duration_ns <= 0 || hbm <= 0)
		return NULL;
	double w = jv_num(waves);
	double lb = jv_num(jv_get(vm, "load_bytes_per_wave")) * w;
	double sb = jv_num(jv_get(vm, "store_bytes_per_wave")) * w;
	double bytes = lb + sb, dur = in->duration_ns * 1e-9;
	double flops = jv_num(jv_get(jv_get(in->isa_facts, "mfma"), "flops_per_wave")) * w;
	double pct = 100.0 * bytes / dur / hbm;
	jv *o = jv_object();
	jv_set_str(o, "kind", "estimate");
	jv *inp = jv_set(o, "inputs", jv_object());
	jv_set_round(inp, "load_bytes", lb, 0);
	jv_set_round(inp, "store_bytes", sb, 0);
	jv_set_round(inp, "waves", w, 0);
	jv_set_round(inp, "duration_ns", in->duration_ns, 1);
	jv_set(
	    inp, "duration_basis",
	    jv_strf("median of %zu kernel-trace rows of this kernel with the traced launch shape "
		    "(%s)",
		    in->duration_rows, in->duration_from ? in->duration_from : "kernel trace"));
	jv_set_str(inp, "bytes_basis",
		   "isa_facts.vmem bytes per wave x launch_geometry.waves: VMEM traffic with every "
		   "lane active; cache hits count as traffic");
	jv_set(inp, "soc",
	       jv_strf("%s %s: HBM %.1f TB/s", in->soc->arch, in->soc->product, in->soc->hbm_tbps));
	jv_set_round(o, "bytes", bytes, 0);
	jv_set_round(o, "achieved_tbps", bytes / dur / 1e12, 3);
	jv_set_round(o, "hbm_peak_tbps", hbm / 1e12, 3);
	jv_set(o, "l2_peak_tbps", jv_null()); /* no L2 bandwidth figure in data/soc.json */
	jv_set_round(o, "pct_of_hbm_peak", pct, 1);
	const char *v = pct > ROOFLINE_ABOVE_PCT   ? "above_hbm_roof"
			: pct >= ROOFLINE_NEAR_PCT ? "near_hbm_roof"
						   : "below_hbm_roof";
	jv_set_str(o, "verdict", v);
	jv_set_round(o, "headroom_pct", pct < 100 ? 100 - pct : 0, 1);
	if (strcmp(v, "near_hbm_roof") == 0)
		jv_set_round(o, "cap_pct", pct < 100 ? 100 - pct : 0, 1);
	else
		jv_set(o, "cap_pct", jv_null());
	jv_set(o, "note",
	       jv_strf(strcmp(v, "above_hbm_roof") == 0
			   ? "the estimated VMEM traffic runs at %.0f%% of the HBM peak: more than "
			     "HBM can deliver, so caches serve part of it; no HBM verdict"
		       : strcmp(v, "near_hbm_roof") == 0
			   ? "the kernel moves its estimated bytes at %.0f%% of the HBM peak: near "
			     "the roof; keeping the same bytes it can gain little, every gain "
			     "estimate is capped"
			   : "the kernel moves its estimated bytes at %.0f%% of the HBM peak",
		       pct));
	compute_roof(o, in, bytes, flops, dur);
	jv_set(o, "littles_law", littles_law(in, hbm));
	return o;
}
