/* Theoretical occupancy (src/core/hw/occupancy.c) on hand-computed cases from
 * docs/facts-hardware.md#occupancy. */
#include "t.h"

#include "core/hw/occupancy.h"
#include "core/hw/soc.h"

static soc_table *tbl;

static const soc_spec *spec(const char *name)
{
	if (!tbl) {
		fp_err e = FP_ERR_INIT;
		tbl = soc_table_load(&e);
		fp_err_clear(&e);
	}
	return soc_lookup(tbl, name);
}

__attribute__((destructor)) static void free_tbl(void)
{
	soc_table_free(tbl);
}

static trace_resources res(int vgpr, int agpr, int sgpr, long long lds, int wg)
{
	trace_resources r = {vgpr, agpr, sgpr, lds, 0, wg, 64, 0, "test"};
	return r;
}

TEST(occ_vgpr_alloc_granules)
{
	const soc_spec *s = spec("gfx942");
	CHECK_INT(occ_vgpr_alloc(s, 102, 0), 104);
	CHECK_INT(occ_vgpr_alloc(s, 65, 0), 72);
	CHECK_INT(occ_vgpr_alloc(s, 0, 0), 8);
	CHECK_INT(occ_vgpr_alloc(s, 128, 128), 256);
	/* align4(130) = 132, + 10 AGPRs = 142, granule 8 -> 144 */
	CHECK_INT(occ_vgpr_alloc(s, 130, 10), 144);
	CHECK_INT(occ_lds_alloc(spec("gfx950"), 65536), 66560); /* 52 x 1280 */
	CHECK_INT(occ_lds_alloc(spec("gfx942"), 65536), 65536);
	CHECK_INT(occ_lds_alloc(spec("gfx942"), 1), 512);
	CHECK_INT(occ_lds_alloc(spec("gfx942"), 0), 0);
	CHECK_INT(occ_lds_alloc(spec("h100"), 0), 1024); /* the 1 KB per-block reservation */
}

/* docs/facts-hardware.md#occupancy worked example: gfx950, 256 threads, 128 VGPRs, 64 KiB LDS
 * -> LDS-bound, 2 WGs, 2 waves per SIMD; the same kernel on gfx942 fits one WG. */
TEST(occ_worked_example_lds_bound)
{
	trace_resources r = res(128, 0, 40, 65536, 256);
	occ_result o;
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_STR(o.limiter, "lds");
	CHECK_INT(o.wgs_per_cu, 2);
	CHECK_INT(o.subgroups_per_cu, 8);
	CHECK_INT(o.subgroups_per_simd, 2);
	CHECK_INT(o.subgroups_per_simd_by_regs, 4);
	CHECK_INT(o.lds_alloc, 66560);
	CHECK_NEAR(o.pct_of_max_subgroups, 25.0, 1e-9);
	CHECK_INT(occ_theoretical(spec("gfx942"), &r, &o), 0);
	CHECK_STR(o.limiter, "lds");
	CHECK_INT(o.wgs_per_cu, 1);
	CHECK_INT(o.subgroups_per_simd, 1);
}

/* docs/facts-hardware.md#occupancy: gfx942, 256 threads, arch 128 + acc 128 = 256 ->
 * 2 waves/SIMD, 2 WGs. */
TEST(occ_agpr_shares_the_file)
{
	trace_resources r = res(128, 128, 40, 0, 256);
	occ_result o;
	CHECK_INT(occ_theoretical(spec("gfx942"), &r, &o), 0);
	CHECK_STR(o.limiter, "vgpr");
	CHECK_INT(o.vgpr_alloc, 256);
	CHECK_INT(o.wgs_per_cu, 2);
	CHECK_INT(o.subgroups_per_simd, 2);
	CHECK_INT(o.n_unknown, 0);
}

TEST(occ_table_of_vgpr_steps)
{
	/* V -> waves/SIMD from docs/facts-hardware.md#occupancy, single-wave WGs so only VGPRs
	 * bind. */
	int cases[][2] = {{64, 8},  {72, 7},  {80, 6},	{96, 5}, {102, 4},
			  {128, 4}, {168, 3}, {256, 2}, {512, 1}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		trace_resources r = res(cases[i][0] > 256 ? 256 : cases[i][0],
					cases[i][0] > 256 ? cases[i][0] - 256 : 0, 20, 0, 64);
		occ_result o;
		CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
		CHECK_INT(o.subgroups_per_simd_by_regs, cases[i][1]);
		CHECK_INT(o.subgroups_per_simd, cases[i][1]);
	}
}

TEST(occ_hardware_cap_wins_ties)
{
	/* 64 VGPRs allow 8 waves/SIMD = the hardware max: the limiter is the wave slots. */
	trace_resources r = res(64, 0, 20, 0, 64);
	occ_result o;
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_STR(o.limiter, "wave_slots");
	CHECK_INT(o.subgroups_per_cu, 32);
	CHECK_INT(o.n_tied, 3); /* wave slots, VGPRs, SGPRs (20 allow 8) */
	CHECK_NEAR(o.pct_of_max_subgroups, 100.0, 1e-9);
	/* Single-wave WGs have no barrier-slot (wg_slots) limit; 2-wave WGs do. */
	int has_wg_slots = 0;
	for (int i = 0; i < o.n_limits; i++)
		has_wg_slots |= strcmp(o.limits[i].name, "wg_slots") == 0;
	CHECK_INT(has_wg_slots, 0);
	r.wg_size = 128;
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_INT(o.wgs_per_cu, 16);
	CHECK_INT(o.subgroups_per_cu, 32);
}

TEST(occ_sgpr_and_impossible_launches)
{
	occ_result o;
	trace_resources r = res(16, 0, 104, 0, 64); /* > 100 SGPRs: 7 waves/SIMD */
	CHECK_INT(occ_theoretical(spec("gfx942"), &r, &o), 0);
	CHECK_STR(o.limiter, "sgpr");
	CHECK_INT(o.subgroups_per_cu, 28);
	CHECK_INT(o.subgroups_per_simd, 7);
	r = res(256, 0, 40, 0, 1024); /* 16 waves need 4/SIMD, 256 VGPRs allow 2 */
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_STR(o.limiter, "vgpr");
	CHECK_INT(o.subgroups_per_cu, 0);
	r = res(32, 0, 40, 163841, 256); /* over the 160 KiB per-WG max */
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_STR(o.limiter, "lds");
	CHECK_INT(o.wgs_per_cu, 0);
	r = res(32, 0, 40, 0, 2048);
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_STR(o.limiter, "wg_size");
	CHECK_INT(o.subgroups_per_cu, 0);
}

TEST(occ_unknowns_make_an_upper_bound)
{
	occ_result o;
	trace_resources r = res(-1, -1, -1, -1, 256);
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), 0);
	CHECK_INT(o.n_unknown, 3); /* vgpr (agpr skipped with it), sgpr, lds */
	CHECK_STR(o.limiter, "wave_slots");
	jv *j = occ_to_json(&o);
	CHECK(t_truth(jv_get(j, "upper_bound")) == 1);
	CHECK_STR(jv_string(jv_at(jv_get(j, "unknown"), 0)), "vgpr");
	CHECK_INT(jv_i64(jv_get(j, "max_waves_per_cu")), 32);
	jv_free(j);
	r.wg_size = -1;
	CHECK_INT(occ_theoretical(spec("gfx950"), &r, &o), -1);
	CHECK(o.why != NULL);
}

/* NVIDIA rule (docs/facts-nvidia.md#sm90-occupancy): 256 threads (8 warps), 128 regs ->
 * 4096 regs/warp -> 16 warps -> 2 blocks; 48 KiB smem -> 50176 B/block -> 4 blocks; registers
 * bind at 16 warps = 25%. */
TEST(occ_nvidia_h100)
{
	trace_resources r = {128, -1, -1, 49152, 0, 256, 32, 0, "test"};
	occ_result o;
	CHECK_INT(occ_theoretical(spec("h100"), &r, &o), 0);
	CHECK_STR(o.limiter, "registers");
	CHECK_INT(o.subgroups_per_wg, 8);
	CHECK_INT(o.wgs_per_cu, 2);
	CHECK_INT(o.subgroups_per_cu, 16);
	CHECK_INT(o.lds_alloc, 50176);
	CHECK_NEAR(o.pct_of_max_subgroups, 25.0, 1e-9);
	for (int i = 0; i < o.n_limits; i++)
		if (strcmp(o.limits[i].name, "lds") == 0)
			CHECK_INT(o.limits[i].wgs_per_cu, 4);
}
