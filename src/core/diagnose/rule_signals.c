/* The signal table and the signal map built from it (rule_signals.h). */
#include "core/diagnose/rule_signals.h"

#include <stdio.h>
#include <string.h>

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static signal_get got(sig_value v)
{
	signal_get g = {v, 0};
	return g;
}

static signal_get absent(void)
{
	signal_get g = {{SIG_NULL, 0, NULL}, 1};
	return g;
}

/* ---- getters ---- */

static signal_get class_pct_of_stall(const signal_inputs *in, const signal_def *row, vendor_id v,
				     int id)
{
	return got(sig_round(pct(in->class_stall[v][id], in->stall), 2));
}

static signal_get class_pct_of_latency(const signal_inputs *in, const signal_def *row, vendor_id v,
				       int id)
{
	return got(sig_round(pct(in->class_stall[v][id], in->latency), 2));
}

static signal_get class_pct_of_hits(const signal_inputs *in, const signal_def *row, vendor_id v,
				    int id)
{
	return got(sig_round(pct(in->class_hits[v][id], in->hits), 2));
}

static signal_get norm_pct_of_stall(const signal_inputs *in, const signal_def *row, vendor_id v,
				    int id)
{
	return got(sig_round(pct(in->norm_stall[id], in->stall), 2));
}

static signal_get norm_pct_of_latency(const signal_inputs *in, const signal_def *row, vendor_id v,
				      int id)
{
	return got(sig_round(pct(in->norm_stall[id], in->latency), 2));
}

static signal_get stall_pct_of_latency(const signal_inputs *in, const signal_def *row, vendor_id v,
				       int id)
{
	return got(sig_round(pct(in->stall, in->latency), 2));
}

static signal_get idle_pct_of_latency(const signal_inputs *in, const signal_def *row, vendor_id v,
				      int id)
{
	return got(sig_round(pct(in->idle, in->latency), 2));
}

/* Share of the listed waits' stall in split group row->arg; absent without attributed waits. */
static signal_get wait_split_pct(const signal_inputs *in, const signal_def *row, vendor_id v,
				 int id)
{
	double all = 0;
	for (size_t i = 0; i < PROF_SPLIT__COUNT; i++)
		all += in->wait_split[i];
	return all > 0 ? got(sig_round(pct(in->wait_split[row->arg], all), 2)) : absent();
}

static signal_get narrow_top_pct(const signal_inputs *in, const signal_def *row, vendor_id v,
				 int id)
{
	return in->vmem_top > 0 ? got(sig_round(pct(in->vmem_top_narrow, in->vmem_top), 2))
				: absent();
}

static signal_get occupancy_figure(const signal_inputs *in, const signal_def *row, vendor_id v,
				   int id)
{
	const sig_value *o = &in->occ[row->arg];
	if (!sig_is_num(o))
		return absent();
	/* the observed figures are rounded to 3 decimals, the theoretical one is copied */
	return got(row->arg == SIGO_THEORETICAL ? *o : sig_round(o->num, 3));
}

static signal_get occupancy_limiter(const signal_inputs *in, const signal_def *row, vendor_id v,
				    int id)
{
	return in->limiter ? got(sig_str(in->limiter)) : absent();
}

static signal_get counter(const signal_inputs *in, const signal_def *row, vendor_id v, int id)
{
	return sig_is_num(&in->counter[row->arg]) ? got(in->counter[row->arg]) : absent();
}

/* Never decide on uncalibrated bandwidth (docs/architecture.md#decision-calibrated). */
static signal_get counter_calibrated(const signal_inputs *in, const signal_def *row, vendor_id v,
				     int id)
{
	return in->calibrated ? counter(in, row, v, id) : absent();
}

static signal_get fact(const signal_inputs *in, const signal_def *row, vendor_id v, int id)
{
	size_t i = (size_t)(row - signal_table);
	return in->fact_set[i] ? got(in->fact[i]) : absent();
}

static signal_get fact_class(const signal_inputs *in, const signal_def *row, vendor_id v, int id)
{
	return got(sig_num(in->fact_classes[row->arg].v[id].value));
}

/* The theoretical limiter binds only when the observed peak reaches it. */
static signal_get limit_reached(const signal_inputs *in, const signal_def *row, vendor_id v, int id)
{
	const sig_value *th = &in->occ[SIGO_THEORETICAL], *pk = &in->occ[SIGO_OBSERVED_PEAK];
	if (!sig_is_num(th) || !sig_is_num(pk))
		return absent();
	return got(sig_num(pk->num + 1e-9 >= th->num));
}

/* ---- the table ---- */

#define ROW(name, get, meaning)                                                                    \
	{                                                                                          \
		name, SIG_SCOPE_KERNEL, get, 0, NULL, NULL, meaning                                \
	}
#define ARG(name, get, arg, meaning)                                                               \
	{                                                                                          \
		name, SIG_SCOPE_KERNEL, get, arg, NULL, NULL, meaning                              \
	}
#define FACT(name, path, meaning)                                                                  \
	{                                                                                          \
		name, SIG_SCOPE_KERNEL, fact, 0, path, NULL, meaning                               \
	}

/* In the order of the signal map (report.json "signals"). */
const signal_def signal_table[] = {
    {"pct_of_stall", SIG_SCOPE_NATIVE, class_pct_of_stall, 0, NULL, NULL,
     "the class's share of totals.stall, in %"},
    {"stall_pct_of_latency", SIG_SCOPE_NATIVE, class_pct_of_latency, 0, NULL, NULL,
     "the class's stall as % of totals.latency"},
    {"pct_of_hits", SIG_SCOPE_NATIVE, class_pct_of_hits, 0, NULL, NULL,
     "the class's executed instructions (mix.dynamic) as % of all"},
    {"pct_of_stall", SIG_SCOPE_NORMALIZED, norm_pct_of_stall, 0, NULL, NULL,
     "the normalised class's share of totals.stall, in %"},
    {"stall_pct_of_latency", SIG_SCOPE_NORMALIZED, norm_pct_of_latency, 0, NULL, NULL,
     "the normalised class's stall as % of totals.latency"},
    ROW("totals.stall_pct_of_latency", stall_pct_of_latency, "totals.stall as % of totals.latency"),
    ROW("totals.idle_pct_of_latency", idle_pct_of_latency, "totals.idle as % of totals.latency"),
    ARG("waits.memory_pct", wait_split_pct, PROF_SPLIT_MEMORY,
	"share of the listed waits' stall that the wait attribution credits to VMEM producers"),
    ARG("waits.lds_pct", wait_split_pct, PROF_SPLIT_LDS,
	"share of the listed waits' stall credited to LDS producers"),
    ARG("waits.smem_pct", wait_split_pct, PROF_SPLIT_SMEM,
	"share of the listed waits' stall credited to SMEM producers"),
    ROW("vmem_issue.narrow_top_pct", narrow_top_pct,
	"% of the vmem_issue class's top instructions' stall on VMEM opcodes narrower than 128 "
	"bits (no dwordx4 / b128): tells \"widen the loads\" from \"the queue is full of wide "
	"loads\""),
    ARG("occupancy.theoretical_waves_per_simd", occupancy_figure, SIGO_THEORETICAL,
	"theoretical waves per SIMD (occupancy.theoretical)"),
    ROW("occupancy.limiter", occupancy_limiter,
	"the resource that limits the theoretical occupancy (a string)"),
    ARG("occupancy.observed_mean_per_simd", occupancy_figure, SIGO_OBSERVED_MEAN,
	"observed mean waves per SIMD"),
    ARG("occupancy.observed_peak_per_simd", occupancy_figure, SIGO_OBSERVED_PEAK,
	"observed peak waves per SIMD"),
    ARG("counters.l2_hit_rate", counter, SIGC_L2_HIT_RATE, "counters memory.l2_hit_rate"),
    ARG("counters.partial_32b_frac", counter, SIGC_PARTIAL_32B, "counters memory.partial_32b_frac"),
    ARG("counters.lds_bank_conflict_pct", counter, SIGC_LDS_BANK_CONFLICT,
	"counters lds.bank_conflict_pct"),
    ARG("counters.mfma_inst_frac", counter, SIGC_MFMA_FRAC, "counters compute.mfma_inst_frac"),
    ARG("counters.pct_of_hbm_roof", counter_calibrated, SIGC_HBM_ROOF,
	"counters memory.pct_of_hbm_roof, only when memory.calibrated is true"),
    FACT("grid.cu_fill_pct", "launch_geometry.cu_fill_pct",
	 "% of the SoC's CUs the grid can give a workgroup"),
    FACT("grid.slot_fill_pct", "launch_geometry.slot_fill_pct",
	 "workgroups as % of CUs x workgroups per CU the resources allow"),
    FACT("grid.gain_pct", "launch_geometry.gain_pct",
	 "100 x (1 - workgroups / CUs) when the grid has fewer workgroups than CUs, else 0"),
    FACT("grid.caps_occupancy", "launch_geometry.grid_caps_occupancy",
	 "1 when the grid has fewer workgroups than the GPU has slots for: the grid, not the "
	 "resources, caps resident waves"),
    FACT("grid.tail_idle_pct", "launch_geometry.tail_idle_pct",
	 "share of slot time the last partial round of workgroups leaves idle"),
    FACT("isa.vgpr", "isa_facts.registers.vgpr", "highest VGPR index named by the ISA + 1"),
    FACT("isa.max_loads_in_flight", "isa_facts.loads_in_flight.max",
	 "the most VMEM loads outstanding before any executed s_waitcnt vmcnt"),
    FACT("isa.load_window_pct", "isa_facts.loads_in_flight.window_pct_of_wave_loads",
	 "the widest window of loads issued between vmcnt(0) drains, as % of the loads a wave "
	 "executes: 100 means every load of the wave is already in flight together"),
    FACT("isa.max_bytes_in_flight", "isa_facts.loads_in_flight.max_bytes_per_lane",
	 "bytes per lane of those loads"),
    FACT("isa.lds_dma_per_wave", "isa_facts.vmem.lds_dma_loads_per_wave",
	 "executed global->LDS loads (buffer_load ... lds) per wave: the kernel already uses LDS "
	 "DMA"),
    FACT("loop.iterations_per_wave", "isa_facts.loop.iterations_per_wave",
	 "the busiest backward branch's hits / the entry's hits"),
    FACT("loop.multi_buffered", "isa_facts.loop.multi_buffered",
	 "1 when the busiest loop executes an s_waitcnt vmcnt(N > 0): loads stay in flight"),
    FACT("valu.transcendental_top_pct", "isa_facts.valu.transcendental_top_pct",
	 "% of the valu class's listed hot stall on transcendental / division ops"),
    FACT("waits.crosslane_pct", "isa_facts.waits.crosslane_pct",
	 "% of the listed lgkmcnt waits' stall whose producers are ds_bpermute / ds_swizzle "
	 "cross-lane shuffles"),
    FACT("waits.store_pct", "isa_facts.waits.store_pct",
	 "% of the listed vmcnt waits' stall whose producers include a VMEM store"),
    FACT("waits.kernarg_pct", "isa_facts.waits.kernarg_pct",
	 "% of the listed waits' stall on s_load kernel-argument loads of the prologue"),
    FACT("waves.idle_pct", "wave_facts.idle_pct", "% of traced waves that did no work"),
    FACT("waves.idle_latency_pct", "wave_facts.idle_latency_pct",
	 "% of totals.latency spent in waves that did no work"),
    FACT("roofline.pct_of_hbm", "roofline.pct_of_hbm_peak",
	 "estimated bytes moved / kernel duration as % of the SoC's HBM peak"),
    FACT("roofline.headroom_pct", "roofline.headroom_pct",
	 "100 - roofline.pct_of_hbm (0 at or above the roof): the most a memory-bound kernel can "
	 "still gain"),
    FACT("roofline.cap_pct", "roofline.cap_pct",
	 "near the HBM roof only: the headroom that caps every other gain estimate"),
    FACT("isa.inflight_pct_of_needed", "roofline.littles_law.pct_of_needed",
	 "bytes in flight per CU as % of what the HBM peak needs at the assumed load latency "
	 "(Little's law)"),
    FACT("exposed.pct_of_simd_time", "exposed_stall.exposed_pct_of_simd_time",
	 "% of the traced SIMDs' time in which no wave issued while one was stalled"),
    {"idle_wave_share", SIG_SCOPE_FACT_CLASS, fact_class, SIGF_IDLE_WAVE_SHARE, "wave_facts",
     "idle_wave_share_pct", "% of the class's stall spent in waves that did no work"},
    {"exposed_pct_of_stall", SIG_SCOPE_FACT_CLASS, fact_class, SIGF_EXPOSED_OF_STALL,
     "exposed_stall", "exposed_pct_of_stall",
     "% of the class's summed stall that no other wave hid (exposed)"},
    {"exposed_pct_of_simd_time", SIG_SCOPE_FACT_CLASS, fact_class, SIGF_EXPOSED_OF_SIMD,
     "exposed_stall", "exposed_pct_of_simd_time",
     "the class's exposed stall as % of the traced SIMDs' time: the wall-time share removing "
     "it could save"},
    ROW("occupancy.limit_reached", limit_reached,
	"1 when the observed peak waves per SIMD reaches the theoretical figure: only then is "
	"the theoretical limiter binding"),
    {NULL, 0, NULL, 0, NULL, NULL, NULL}};

/* ---- building the map ---- */

/* The native classes a signal is named after: every class of both vendors' tables except
 * NVIDIA's "unknown" (a stall column flyprof does not know, never a rule's class). */
static int native_named(vendor_id v, int id)
{
	return !(v == VENDOR_NVIDIA && id == NCU_UNKNOWN);
}

static void set(signal_map *m, const char *klass, const signal_def *row, signal_get g)
{
	if (g.absent)
		return;
	char key[128];
	if (klass)
		snprintf(key, sizeof key, "%s.%s", klass, row->name);
	signal_map_set(m, klass ? key : row->name, g.v);
}

/* A run of per-class rows of one scope, class by class ("barrier" is a class of both vendors:
 * set twice with the same value, it keeps its first place). Returns the rows consumed. */
static size_t class_rows(signal_map *m, const signal_inputs *in, const signal_def *first)
{
	size_t n = 0;
	while (first[n].name && first[n].scope == first->scope)
		n++;
	if (first->scope == SIG_SCOPE_NORMALIZED) {
		for (int id = 0; id < NORM__COUNT; id++)
			for (size_t r = 0; r < n; r++)
				set(m, norm_name((tax_norm)id), &first[r],
				    first[r].get(in, &first[r], VENDOR_AMD, id));
		return n;
	}
	for (int v = 0; v < VENDOR__COUNT; v++)
		for (int id = 0; id < class_count((vendor_id)v); id++)
			for (size_t r = 0; native_named((vendor_id)v, id) && r < n; r++)
				set(m, class_name((vendor_id)v, id), &first[r],
				    first[r].get(in, &first[r], (vendor_id)v, id));
	return n;
}

void rule_signals_from_inputs(signal_map *m, const signal_inputs *in)
{
	signal_map_init(m);
	for (size_t i = 0; signal_table[i].name;) {
		const signal_def *row = &signal_table[i];
		if (row->scope == SIG_SCOPE_NATIVE || row->scope == SIG_SCOPE_NORMALIZED) {
			i += class_rows(m, in, row);
			continue;
		}
		if (row->scope == SIG_SCOPE_FACT_CLASS) {
			const struct sig_fact_classes *l = &in->fact_classes[row->arg];
			for (size_t k = 0; k < l->n; k++)
				set(m, l->v[k].klass, row, row->get(in, row, VENDOR_AMD, (int)k));
		} else
			set(m, NULL, row, row->get(in, row, VENDOR_AMD, 0));
		i++;
	}
}

/* ---- validating names ---- */

static int scope_has_class(signal_scope s, const char *name, size_t n)
{
	char c[64];
	if (n >= sizeof c)
		return 0;
	memcpy(c, name, n);
	c[n] = '\0';
	if (s == SIG_SCOPE_NORMALIZED)
		return norm_lookup(c) >= 0;
	int amd = class_lookup(VENDOR_AMD, c) >= 0;
	if (s == SIG_SCOPE_FACT_CLASS)
		return amd;
	int nv = class_lookup(VENDOR_NVIDIA, c);
	return amd || (nv >= 0 && native_named(VENDOR_NVIDIA, nv));
}

const signal_def *rule_signal_find(const char *name)
{
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; signal_table[i].name; i++) {
		const signal_def *row = &signal_table[i];
		if (row->scope == SIG_SCOPE_KERNEL) {
			if (strcmp(row->name, name) == 0)
				return row;
		} else if (dot && strcmp(dot + 1, row->name) == 0 &&
			   scope_has_class(row->scope, name, (size_t)(dot - name)))
			return row;
	}
	return NULL;
}
