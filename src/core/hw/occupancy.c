/* Theoretical occupancy: min over per-resource workgroup limits (see occupancy.h for the
 * formulas and docs/facts-hardware.md#occupancy and docs/facts-nvidia.md#sm90-occupancy for their
 * sources). */
#include "core/hw/occupancy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int64_t round_up(int64_t x, int64_t g)
{
	return g > 0 ? (x + g - 1) / g * g : x;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

int occ_vgpr_alloc(const soc_spec *s, int arch_vgpr, int agpr)
{
	int g = s->vgpr_granule > 0 ? s->vgpr_granule : 1;
	int64_t v = arch_vgpr < 0 ? 0 : arch_vgpr;
	/* AGPRs start at accum_offset, a multiple of agpr_align, inside the same per-lane file
	 * (LLVM getTotalNumVGPRs; docs/facts-hardware.md#vgprs). */
	if (agpr > 0)
		v = round_up(v, s->agpr_align > 0 ? s->agpr_align : 1) + agpr;
	v = round_up(v, g);
	return v < g ? g : (int)v;
}

int64_t occ_lds_alloc(const soc_spec *s, int64_t bytes)
{
	if (bytes <= 0 && s->lds_reserved_per_wg == 0)
		return 0;
	return round_up((bytes > 0 ? bytes : 0) + s->lds_reserved_per_wg, s->lds_granule);
}

static void add_limit(occ_result *o, const char *name, int wgs, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_limit(occ_result *o, const char *name, int wgs, const char *fmt, ...)
{
	if (o->n_limits >= OCC_MAX_LIMITS)
		return;
	occ_limit *l = &o->limits[o->n_limits++];
	l->name = name;
	l->wgs_per_cu = wgs < 0 ? 0 : wgs;
	l->subgroups_per_cu = l->wgs_per_cu * o->subgroups_per_wg;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->detail, sizeof l->detail, fmt, ap);
	va_end(ap);
}

static void note_unknown(occ_result *o, const char *what)
{
	if (o->n_unknown < 4)
		o->unknown[o->n_unknown++] = what;
}

/* Hardware caps shared by both vendors: WG size, wave slots, WG slots. */
static void hw_limits(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	int w = o->subgroups_per_wg;
	/* Only a WG over the maximum is a limit; otherwise the wave slots say the same thing. */
	if (r->wg_size > s->max_wg_size)
		add_limit(o, "wg_size", 0, "workgroup of %d work-items, hardware max %d",
			  r->wg_size, s->max_wg_size);
	add_limit(o, "wave_slots", s->max_waves_per_cu / w,
		  "%d wave slots per CU / %d waves per WG", s->max_waves_per_cu, w);
	/* On AMD single-wave WGs do not use a barrier slot, so only wave slots limit them. */
	if (s->vendor == SOC_NVIDIA || w > 1)
		add_limit(o, "wg_slots", s->max_wgs_per_cu, "at most %d workgroups per CU",
			  s->max_wgs_per_cu);
}

static void amd_vgpr_limit(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	if (r->vgpr < 0) {
		note_unknown(o, "vgpr");
		return;
	}
	if (r->agpr < 0)
		note_unknown(o, "agpr");
	int agpr = r->agpr > 0 ? r->agpr : 0;
	int v = occ_vgpr_alloc(s, r->vgpr, agpr);
	o->vgpr_alloc = v;
	int per_simd = imin(s->max_waves_per_simd, s->vgprs_per_lane / v);
	if (r->vgpr > s->max_arch_vgprs || agpr > s->max_agprs)
		per_simd = 0;
	o->subgroups_per_simd_by_regs = per_simd;
	add_limit(o, "vgpr", s->simds_per_cu * per_simd / o->subgroups_per_wg,
		  "%d arch + %d acc VGPRs -> %d allocated of %d per lane: %d waves/SIMD", r->vgpr,
		  agpr, v, s->vgprs_per_lane, per_simd);
}

static void amd_sgpr_limit(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	if (r->sgpr < 0) {
		note_unknown(o, "sgpr");
		return;
	}
	int per_simd = 0;
	for (int i = 0; i < s->n_sgpr_limits; i++)
		if (r->sgpr <= s->sgpr_limit[i][0]) {
			per_simd = s->sgpr_limit[i][1];
			break;
		}
	per_simd = imin(per_simd, s->max_waves_per_simd);
	add_limit(o, "sgpr", s->simds_per_cu * per_simd / o->subgroups_per_wg,
		  "%d SGPRs: %d waves/SIMD (GFX9 rule)", r->sgpr, per_simd);
}

static void nv_reg_limit(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	if (r->vgpr < 0) {
		note_unknown(o, "vgpr");
		return;
	}
	int64_t per_warp =
	    round_up((int64_t)(r->vgpr > 0 ? r->vgpr : 1) * s->wave_size, s->reg_alloc_unit);
	o->vgpr_alloc = (int)(per_warp / s->wave_size);
	int warps = (int)(s->regs_per_cu / per_warp);
	if (r->vgpr > s->max_regs_per_thread)
		warps = 0;
	o->subgroups_per_simd_by_regs = warps / s->simds_per_cu;
	add_limit(o, "registers", warps / o->subgroups_per_wg,
		  "%d regs/thread -> %lld per warp of %d per SM: %d warps", r->vgpr,
		  (long long)per_warp, s->regs_per_cu, warps);
}

static void lds_limit(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	if (r->lds_bytes < 0) {
		note_unknown(o, "lds");
		return;
	}
	int64_t alloc = occ_lds_alloc(s, r->lds_bytes);
	o->lds_alloc = alloc;
	if (alloc == 0)
		return; /* no LDS: no limit */
	int64_t wgs = r->lds_bytes > s->lds_max_per_wg ? 0 : s->lds_per_cu / alloc;
	if (wgs > 1 << 20)
		wgs = 1 << 20;
	add_limit(o, "lds", (int)wgs, "%lld B -> %lld allocated (granule %lld) of %lld per CU",
		  (long long)r->lds_bytes, (long long)alloc, (long long)s->lds_granule,
		  (long long)s->lds_per_cu);
}

int occ_theoretical(const soc_spec *s, const trace_resources *r, occ_result *o)
{
	memset(o, 0, sizeof *o);
	if (!s || !r || r->wg_size <= 0) {
		o->why = "the workgroup size is unknown";
		return -1;
	}
	int ws = r->wave_size > 0 ? r->wave_size : s->wave_size;
	o->subgroups_per_wg = (r->wg_size + ws - 1) / ws;
	o->max_subgroups_per_cu = s->max_waves_per_cu;
	hw_limits(s, r, o);
	if (s->vendor == SOC_AMD) {
		amd_vgpr_limit(s, r, o);
		amd_sgpr_limit(s, r, o);
	} else {
		nv_reg_limit(s, r, o);
	}
	lds_limit(s, r, o);
	int best = 0;
	for (int i = 1; i < o->n_limits; i++)
		if (o->limits[i].wgs_per_cu < o->limits[best].wgs_per_cu)
			best = i;
	o->limiter = o->limits[best].name;
	o->wgs_per_cu = o->limits[best].wgs_per_cu;
	for (int i = 0; i < o->n_limits; i++)
		o->n_tied += o->limits[i].wgs_per_cu == o->wgs_per_cu;
	o->subgroups_per_cu = o->wgs_per_cu * o->subgroups_per_wg;
	o->subgroups_per_simd = imin(s->max_waves_per_simd,
				     (o->subgroups_per_cu + s->simds_per_cu - 1) / s->simds_per_cu);
	o->pct_of_max_subgroups = 100.0 * o->subgroups_per_cu / s->max_waves_per_cu;
	return 0;
}

jv *occ_to_json(const occ_result *o)
{
	jv *j = jv_object();
	jv_set_int(j, "waves_per_wg", o->subgroups_per_wg);
	jv_set_int(j, "wgs_per_cu", o->wgs_per_cu);
	jv_set_int(j, "waves_per_cu", o->subgroups_per_cu);
	jv_set_int(j, "waves_per_simd", o->subgroups_per_simd);
	jv_set_round(j, "pct_of_max_waves", o->pct_of_max_subgroups, 1);
	jv_set_int(j, "max_waves_per_cu", o->max_subgroups_per_cu);
	jv_set_str(j, "limiter", o->limiter ? o->limiter : "");
	jv *tied = jv_set(j, "tied_with", jv_array());
	for (int i = 0; i < o->n_limits; i++)
		if (o->limits[i].wgs_per_cu == o->wgs_per_cu && o->limits[i].name != o->limiter)
			jv_push(tied, jv_str(o->limits[i].name));
	if (o->vgpr_alloc)
		jv_set_int(j, "vgpr_alloc", o->vgpr_alloc);
	if (o->vgpr_alloc)
		jv_set_int(j, "waves_per_simd_by_vgpr", o->subgroups_per_simd_by_regs);
	jv_set_int(j, "lds_alloc_bytes", o->lds_alloc);
	jv *lims = jv_set(j, "limits", jv_array());
	for (int i = 0; i < o->n_limits; i++) {
		jv *l = jv_push(lims, jv_object());
		jv_set_str(l, "name", o->limits[i].name);
		jv_set_int(l, "wgs_per_cu", o->limits[i].wgs_per_cu);
		jv_set_int(l, "waves_per_cu", o->limits[i].subgroups_per_cu);
		jv_set_str(l, "detail", o->limits[i].detail);
	}
	jv_set_bool(j, "upper_bound", o->n_unknown > 0);
	jv *unk = jv_set(j, "unknown", jv_array());
	for (int i = 0; i < o->n_unknown; i++)
		jv_push(unk, jv_str(o->unknown[i]));
	return j;
}
