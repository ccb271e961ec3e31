/* The fact signals and pseudo classes (fact_signals.h): one table each. */
#include "core/diagnose/fact_signals.h"

#include <stdio.h>
#include <string.h>

const fact_signal fact_signal_table[] = {
    {"grid.cu_fill_pct", "launch_geometry.cu_fill_pct",
     "% of the SoC's CUs the grid can give a workgroup"},
    {"grid.slot_fill_pct", "launch_geometry.slot_fill_pct",
     "workgroups as % of CUs x workgroups per CU the resources allow"},
    {"grid.gain_pct", "launch_geometry.gain_pct",
     "100 x (1 - workgroups / CUs) when the grid has fewer workgroups than CUs, else 0"},
    {"grid.caps_occupancy", "launch_geometry.grid_caps_occupancy",
     "1 when the grid has fewer workgroups than the GPU has slots for: the grid, not the "
     "resources, caps resident waves"},
    {"grid.tail_idle_pct", "launch_geometry.tail_idle_pct",
     "share of slot time the last partial round of workgroups leaves idle"},
    {"occupancy.limit_reached", NULL,
     "1 when the observed peak waves per SIMD reaches the theoretical figure: only then is "
     "the theoretical limiter binding"},
    {"isa.vgpr", "isa_facts.registers.vgpr", "highest VGPR index named by the ISA + 1"},
    {"isa.max_loads_in_flight", "isa_facts.loads_in_flight.max",
     "the most VMEM loads outstanding before any executed s_waitcnt vmcnt"},
    {"isa.load_window_pct", "isa_facts.loads_in_flight.window_pct_of_wave_loads",
     "the widest window of loads issued between vmcnt(0) drains, as % of the loads a wave "
     "executes: 100 means every load of the wave is already in flight together"},
    {"isa.max_bytes_in_flight", "isa_facts.loads_in_flight.max_bytes_per_lane",
     "bytes per lane of those loads"},
    {"isa.lds_dma_per_wave", "isa_facts.vmem.lds_dma_loads_per_wave",
     "executed global->LDS loads (buffer_load ... lds) per wave: the kernel already uses LDS "
     "DMA"},
    {"loop.iterations_per_wave", "isa_facts.loop.iterations_per_wave",
     "the busiest backward branch's hits / the entry's hits"},
    {"loop.multi_buffered", "isa_facts.loop.multi_buffered",
     "1 when the busiest loop executes an s_waitcnt vmcnt(N > 0): loads stay in flight"},
    {"valu.transcendental_top_pct", "isa_facts.valu.transcendental_top_pct",
     "% of the valu class's listed hot stall on transcendental / division ops"},
    {"waits.crosslane_pct", "isa_facts.waits.crosslane_pct",
     "% of the listed lgkmcnt waits' stall whose producers are ds_bpermute / ds_swizzle "
     "cross-lane shuffles"},
    {"waits.store_pct", "isa_facts.waits.store_pct",
     "% of the listed vmcnt waits' stall whose producers include a VMEM store"},
    {"waits.kernarg_pct", "isa_facts.waits.kernarg_pct",
     "% of the listed waits' stall on s_load kernel-argument loads of the prologue"},
    {"waves.idle_pct", "wave_facts.idle_pct", "% of traced waves that did no work"},
    {"waves.idle_latency_pct", "wave_facts.idle_latency_pct",
     "% of totals.latency spent in waves that did no work"},
    {"roofline.pct_of_hbm", "roofline.pct_of_hbm_peak",
     "estimated bytes moved / kernel duration as % of the SoC's HBM peak"},
    {"roofline.headroom_pct", "roofline.headroom_pct",
     "100 - roofline.pct_of_hbm (0 at or above the roof): the most a memory-bound kernel can "
     "still gain"},
    {"roofline.cap_pct", "roofline.cap_pct",
     "near the HBM roof only: the headroom that caps every other gain estimate"},
    {"isa.inflight_pct_of_needed", "roofline.littles_law.pct_of_needed",
     "bytes in flight per CU as % of what the HBM peak needs at the assumed load latency "
     "(Little's law)"},
    {"exposed.pct_of_simd_time", "exposed_stall.exposed_pct_of_simd_time",
     "% of the traced SIMDs' time in which no wave issued while one was stalled"},
    {NULL, NULL, NULL}};

/* Per-class fact signals "<native AMD class>.<suffix>", from the class lists of wave_facts
 * and exposed_stall. */
static const struct {
	const char *suffix, *facts, *key, *meaning;
} per_class[] = {
    {"idle_wave_share", "wave_facts", "idle_wave_share_pct",
     "% of the class's stall spent in waves that did no work"},
    {"exposed_pct_of_stall", "exposed_stall", "exposed_pct_of_stall",
     "% of the class's summed stall that no other wave hid (exposed)"},
    {"exposed_pct_of_simd_time", "exposed_stall", "exposed_pct_of_simd_time",
     "the class's exposed stall as % of the traced SIMDs' time: the wall-time share removing "
     "it could save"},
    {NULL, NULL, NULL, NULL}};

int fact_class_suffix_known(const char *suffix)
{
	for (size_t i = 0; per_class[i].suffix; i++)
		if (strcmp(per_class[i].suffix, suffix) == 0)
			return 1;
	return 0;
}

static void per_class_signals(jv *signals, const jv *facts)
{
	char key[96];
	for (size_t i = 0; per_class[i].suffix; i++) {
		const jv *arr = jv_get(jv_get(facts, per_class[i].facts), "classes");
		for (size_t k = 0; k < jv_len(arr); k++) {
			const char *c = jv_string(jv_get(jv_at(arr, k), "class"));
			const jv *v = jv_get(jv_at(arr, k), per_class[i].key);
			if (!c || !jv_is_num(v))
				continue;
			snprintf(key, sizeof key, "%s.%s", c, per_class[i].suffix);
			jv_set(signals, key, jv_copy(v));
		}
	}
}

static const fact_pseudo pseudo[] = {
    {"occupancy", NULL,
     "occupancy is a property of the whole kernel (registers, LDS, workgroup size), not of one "
     "instruction; see the occupancy section",
     "launch_geometry"},
    {"roofline", "roofline.headroom_pct",
     "a roofline finding is about the whole kernel's traffic, not one instruction", "roofline"},
    {"grid", "grid.gain_pct",
     "the launch grid is a property of the whole kernel launch, not of one instruction",
     "launch_geometry"},
    {"waves", "waves.idle_latency_pct",
     "idle waves are whole waves that ran only the prologue, not one instruction", "wave_facts"},
    {NULL, NULL, NULL, NULL}};

int fact_signal_known(const char *name)
{
	for (size_t i = 0; fact_signal_table[i].name; i++)
		if (strcmp(fact_signal_table[i].name, name) == 0)
			return 1;
	return 0;
}

const fact_pseudo *fact_pseudo_class(const char *klass)
{
	for (size_t i = 0; klass && pseudo[i].klass; i++)
		if (strcmp(pseudo[i].klass, klass) == 0)
			return &pseudo[i];
	return NULL;
}

/* A value at a dotted path ("launch_geometry.cu_fill_pct"). */
static const jv *at_path(const jv *root, const char *path)
{
	const jv *v = root;
	char key[64];
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = jv_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

void fact_signals_add(jv *signals, const jv *facts, const jv *occupancy)
{
	for (size_t i = 0; fact_signal_table[i].name; i++) {
		const fact_signal *f = &fact_signal_table[i];
		const jv *v = f->path ? at_path(facts, f->path) : NULL;
		if (jv_type_of(v) == JV_BOOL)
			jv_set_int(signals, f->name, jv_is_true(v));
		else if (jv_is_num(v))
			jv_set(signals, f->name, jv_copy(v));
	}
	per_class_signals(signals, facts);
	const jv *th = jv_get(jv_get(occupancy, "theoretical"), "waves_per_simd");
	const jv *pk = jv_get(jv_get(jv_get(occupancy, "observed"), "per_simd"), "peak");
	if (jv_is_num(th) && jv_is_num(pk))
		jv_set_int(signals, "occupancy.limit_reached", jv_num(pk) + 1e-9 >= jv_num(th));
}
