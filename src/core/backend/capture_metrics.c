/* capture_metrics.h. Every value states its denominator; absolute bandwidth is never called
 * calibrated: the counters were never checked against a kernel of known traffic on
 * hardware. */
#include "core/backend/capture_metrics.h"

#include <math.h>
#include <string.h>

static double get(const jv *raw, const char *name, int *have)
{
	const jv *v = jv_get(raw, name);
	if (have)
		*have = jv_is_num(v);
	return jv_is_num(v) ? jv_num(v) : 0;
}

static int has(const jv *raw, const char *name)
{
	return jv_is_num(jv_get(raw, name));
}

static void set_ratio(jv *o, const char *key, double num, double den, double scale, int digits)
{
	if (den > 0)
		jv_set_round(o, key, scale * num / den, digits);
	else
		jv_set(o, key, jv_null());
}

/* HBM read bytes from the L2-to-memory read requests. gfx950 counts 32/64/128-byte requests
 * separately; gfx942 counts 128-byte ones as TCC_BUBBLE (which reads 0 on gfx950, so the
 * gfx942 formula under-reports there; docs/facts-rocprofv3.md). */
static double read_bytes(const jv *raw, const char **how)
{
	double r32 = get(raw, "TCC_EA0_RDREQ_32B_sum", NULL);
	if (has(raw, "TCC_EA0_RDREQ_64B_sum") || has(raw, "TCC_EA0_RDREQ_128B_sum")) {
		*how = "32*RDREQ_32B + 64*RDREQ_64B + 128*RDREQ_128B";
		return 32 * r32 + 64 * get(raw, "TCC_EA0_RDREQ_64B_sum", NULL) +
		       128 * get(raw, "TCC_EA0_RDREQ_128B_sum", NULL);
	}
	double all = get(raw, "TCC_EA0_RDREQ_sum", NULL), b = get(raw, "TCC_BUBBLE_sum", NULL);
	*how = "128*BUBBLE + 64*(RDREQ - BUBBLE - RDREQ_32B) + 32*RDREQ_32B";
	return 128 * b + 64 * (all - b - r32) + 32 * r32;
}

jv *amd_counter_metrics(const jv *raw, const amd_agent *a, const soc_spec *spec, const char *dtype,
			double duration_ns)
{
	jv *doc = jv_object();
	jv_set_str(doc, "dtype", dtype);
	jv_set_round(doc, "duration_ns", duration_ns, 1);
	jv_set_str(doc, "duration_note",
		   "mean dispatch duration of the counter passes: counter collection serialises "
		   "the kernel and brackets it, so it is slightly longer than an unprofiled run");
	jv_set(doc, "counters_raw", jv_copy(raw));

	/* per-XCD normalisation: GRBM_GUI_ACTIVE is summed over the XCD instances */
	double gui = get(raw, "GRBM_GUI_ACTIVE", NULL);
	int xcc_known = a && a->known && a->num_xcc > 0;
	double per_xcd = xcc_known ? gui / a->num_xcc : gui;
	jv *px = jv_set(doc, "per_xcd", jv_object());
	jv_set(px, "num_xcc", xcc_known ? jv_round(a->num_xcc, 0) : jv_null());
	jv_set_round(px, "gui_active_cycles", per_xcd, 1);
	jv_set_bool(px, "normalised", xcc_known);

	jv *mem = jv_set(doc, "memory", jv_object());
	const char *how = "";
	double rd = read_bytes(raw, &how);
	double wr =
	    32 * (get(raw, "TCC_EA0_WRREQ_sum", NULL) - get(raw, "TCC_EA0_WRREQ_64B_sum", NULL)) +
	    64 * get(raw, "TCC_EA0_WRREQ_64B_sum", NULL);
	jv_set_round(mem, "hbm_read_bytes", rd, 0);
	jv_set_str(mem, "hbm_read_formula", how);
	jv_set_round(mem, "hbm_write_bytes", wr, 0);
	double gbs = duration_ns > 0 ? (rd + wr) / duration_ns : 0;
	jv_set(mem, "achieved_hbm_gbs", duration_ns > 0 ? jv_round(gbs, 1) : jv_null());
	double peak = spec ? soc_hbm_bytes_per_s(spec) / 1e9 : 0;
	jv_set(mem, "peak_hbm_gbs", peak > 0 ? jv_round(peak, 0) : jv_null());
	set_ratio(mem, "pct_of_hbm_roof", gbs, duration_ns > 0 ? peak : 0, 100, 1);
	jv_set_bool(mem, "calibrated", 0);
	double hit = get(raw, "TCC_HIT_sum", NULL), miss = get(raw, "TCC_MISS_sum", NULL);
	set_ratio(mem, "l2_hit_rate", hit, hit + miss, 100, 1);
	set_ratio(mem, "partial_32b_frac", get(raw, "TCC_EA0_RDREQ_32B_sum", NULL),
		  get(raw, "TCC_EA0_RDREQ_sum", NULL), 1, 3);
	jv_set_str(mem, "note",
		   "bytes from L2-to-memory requests summed over every channel and XCD, divided "
		   "by the dispatch duration; not calibrated against a kernel of known traffic, "
		   "so never used for a verdict; l2_hit_rate = TCC_HIT / (TCC_HIT + TCC_MISS) in "
		   "%; partial_32b_frac = RDREQ_32B / RDREQ");

	jv *lds = jv_set(doc, "lds", jv_object());
	set_ratio(lds, "bank_conflict_pct", get(raw, "SQ_LDS_BANK_CONFLICT", NULL),
		  get(raw, "SQ_LDS_IDX_ACTIVE", NULL), 100, 2);
	jv_set_str(lds, "denominator",
		   "SQ_LDS_IDX_ACTIVE (cycles the LDS was busy with "
		   "indexed operations)");

	jv *cmp = jv_set(doc, "compute", jv_object());
	double valu = get(raw, "SQ_INSTS_VALU", NULL), mfma = get(raw, "SQ_INSTS_MFMA", NULL);
	set_ratio(cmp, "mfma_inst_frac", mfma, valu + mfma, 1, 3);
	jv_set_round(cmp, "valu_insts", valu, 0);
	jv_set_round(cmp, "mfma_insts", mfma, 0);
	double simds = a && a->known ? a->simds : 0, cus = a && a->known ? a->cus : 0;
	set_ratio(cmp, "mfma_util_pct", get(raw, "SQ_VALU_MFMA_BUSY_CYCLES", NULL), per_xcd * simds,
		  100, 1);
	set_ratio(cmp, "valu_busy_pct", get(raw, "SQ_ACTIVE_INST_VALU", NULL), per_xcd * cus, 100,
		  1);
	jv_set_str(cmp, "note",
		   "mfma_inst_frac = MFMA / (VALU + MFMA) instructions; mfma_util_pct = MFMA busy "
		   "cycles / (GUI-active cycles per XCD x SIMDs); valu_busy_pct is AMD's VALUBusy "
		   "(a quad-cycle counter over plain cycles: compare it between runs, not with "
		   "100)");

	jv *occ = jv_set(doc, "occupancy", jv_object());
	int hw = 0;
	double waves = get(raw, "SQ_WAVES", &hw);
	jv_set(occ, "waves", hw ? jv_round(waves, 0) : jv_null());

	jv *roof = jv_set(doc, "roofline", jv_object());
	const soc_rate *mr = spec ? soc_matrix_rate(spec, dtype) : NULL;
	jv_set(roof, "product", spec ? jv_str(spec->product) : jv_null());
	jv_set(roof, "peak_matrix_tflops",
	       mr ? jv_round(soc_peak_flops(spec, mr) / 1e12, 1) : jv_null());
	jv_set(roof, "peak_hbm_gbs", peak > 0 ? jv_round(peak, 0) : jv_null());
	jv_set(roof, "ridge_flop_per_byte", mr ? jv_round(soc_ridge(spec, mr), 1) : jv_null());
	double mops = 0;
	static const char *const mopsn[] = {
	    "SQ_INSTS_VALU_MFMA_MOPS_F16", "SQ_INSTS_VALU_MFMA_MOPS_BF16",
	    "SQ_INSTS_VALU_MFMA_MOPS_F8",  "SQ_INSTS_VALU_MFMA_MOPS_F32",
	    "SQ_INSTS_VALU_MFMA_MOPS_I8",  NULL};
	int any_mops = 0;
	for (size_t i = 0; mopsn[i]; i++) {
		int h = 0;
		mops += get(raw, mopsn[i], &h);
		any_mops |= h;
	}
	jv_set(roof, "matrix_flop", any_mops ? jv_round(mops * 512, 0) : jv_null());
	set_ratio(roof, "arithmetic_intensity", mops * 512, any_mops ? rd + wr : 0, 1, 2);
	return doc;
}
