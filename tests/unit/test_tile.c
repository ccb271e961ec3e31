/* The tile advisor (src/core/hw/tile.c) on hand-computed cases and shape parsing. */
#include "t.h"

#include "core/hw/dtype.h"
#include "core/hw/tile.h"

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

static tile_problem problem(long long m, long long n, long long k, const char *dtype)
{
	tile_problem p = {m, n, k, dtype, tile_default_out_dtype(dtype), 256, 2};
	return p;
}

TEST(tile_dtype_names)
{
	CHECK_STR(dtype_canon("f16"), "fp16");
	CHECK_STR(dtype_canon("BF16"), "bf16");
	CHECK_STR(dtype_canon("e4m3"), "fp8");
	CHECK_STR(dtype_canon("e4m3fnuz"), "fp8");
	CHECK_STR(dtype_canon("e2m1"), "fp4");
	CHECK_STR(dtype_canon("i8"), "int8");
	CHECK(dtype_canon("fp12") == NULL);
	CHECK_NEAR(dtype_bytes("fp4"), 0.5, 0);
	CHECK_NEAR(dtype_bytes("fp6"), 0.75, 0);
	CHECK_STR(tile_default_out_dtype("fp8"), "bf16");
	CHECK_STR(tile_default_out_dtype("fp32"), "fp32");
}

TEST(tile_parse_shapes)
{
	tile_problem p;
	const char *dt;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(tile_parse_shape("4096,4096,512", &p, &dt, &e), 0);
	CHECK_INT(p.m, 4096);
	CHECK_INT(p.k, 512);
	CHECK(dt == NULL);
	CHECK_INT(tile_parse_shape("128x256x64,e4m3", &p, &dt, &e), 0);
	CHECK_INT(p.n, 256);
	CHECK_STR(dt, "fp8");
	CHECK_INT(tile_parse_shape("1024,2048,mxfp4", &p, &dt, &e), 0);
	CHECK_INT(p.k, 0);
	CHECK_STR(dt, "fp4");
	const char *bad[] = {"",
			     "4096",
			     "4096,0,1",
			     "4096,-5",
			     "1,2,3,4",
			     "4096,4k",
			     "4096,4096,bf16,7",
			     "4096,,",
			     "99999999999999,1"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (tile_parse_shape(bad[i], &p, &dt, &e) != -1 || e.code != ERR_BAD_ARGS)
			t_fail(__FILE__, __LINE__, "'%s' should be BAD_ARGS", bad[i]);
		fp_err_clear(&e);
	}
}

/* gfx950, 4096^3 bf16, 128x128x64, 2 buffers, 256 threads (hand-computed):
 *   LDS (128*64 + 64*128) * 2 B * 2 = 65536 B -> 52 granules of 1280 = 66560 -> 2 WGs/CU
 *   VGPRs: acc 128*128/256 = 64 AGPRs; operands 16384*2/4/256 = 32, +16 = 48 arch
 *          -> 48 + 64 = 112 -> 4 waves/SIMD -> 4 WGs; LDS binds: 2 WGs = 8 waves, 25 %
 *   tile_ai = 2*128*128*4096 / (256*4096*2 + 128*128*2) = 134217728 / 2129920 = 63.02
 *   problem_ai = 2*4096^3 / (3 * 4096^2 * 2) = 1365.33; ridge 288.36 -> cache-dependent
 *   grid: 32*32 = 1024 tiles on 256 CUs = 4 rounds, balance 1 -> balanced */
TEST(tile_eval_gfx950_128x128x64)
{
	tile_problem p = problem(4096, 4096, 4096, "bf16");
	tile_eval t;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 128, 128, 64, &t, &e), 0);
	CHECK_INT(t.lds_bytes, 65536);
	CHECK_INT(t.lds_alloc, 66560);
	CHECK_INT(t.vgpr_acc, 64);
	CHECK_INT(t.vgpr_operand, 32);
	CHECK_INT(t.occ.vgpr_alloc, 112);
	CHECK_INT(t.occ.subgroups_per_simd_by_regs, 4);
	CHECK_INT(t.occ.wgs_per_cu, 2);
	CHECK_INT(t.occ.subgroups_per_cu, 8);
	CHECK_STR(t.occ.limiter, "lds");
	CHECK_NEAR(t.tile_ai, 63.02, 0.005);
	CHECK_NEAR(t.problem_ai, 1365.33, 0.005);
	CHECK_NEAR(t.ridge, 288.36, 0.005);
	CHECK_STR(t.regime, "cache-dependent");
	CHECK_INT(t.tiles, 1024);
	CHECK_INT(t.rounds, 4);
	CHECK_STR(t.grid_verdict, "balanced");
	/* score = 100 * (0.4 * 1 + 0.35 * 63.02/288.36 + 0.25 * 1) = 72.65 */
	CHECK_NEAR(t.score, 72.65, 0.01);
	CHECK(t.rejected == NULL);
	/* The same tile on gfx942: 65536 B is exactly 128 granules of 512 but fills the 64 KiB
	 * CU: 1 WG, 4 waves per CU. */
	CHECK_INT(tile_evaluate(spec("gfx942"), &p, 128, 128, 64, &t, &e), 0);
	CHECK_INT(t.lds_alloc, 65536);
	CHECK_INT(t.occ.wgs_per_cu, 1);
	CHECK_NEAR(t.ridge, 246.68, 0.01);
}

TEST(tile_rejections_and_grid_tail)
{
	fp_err e = FP_ERR_INIT;
	tile_eval t;
	tile_problem p = problem(4096, 4096, 4096, "fp32");
	/* (256*256 + 256*256) * 4 B * 2 = 1 MiB: over any per-WG LDS maximum */
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 256, 256, 256, &t, &e), 0);
	CHECK(!t.lds_ok);
	CHECK(t.rejected != NULL);
	/* gfx950 bf16 peaks only with K >= 32 MFMA shapes */
	p = problem(4096, 4096, 4096, "bf16");
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 128, 128, 16, &t, &e), 0);
	CHECK_STR(t.rejected, "BK below the K of the peak-rate matrix instruction");
	CHECK_INT(tile_evaluate(spec("gfx942"), &p, 128, 128, 16, &t, &e), 0);
	CHECK(t.rejected == NULL);
	/* 1000x1000 with 128x128: 8*8 = 64 tiles < 256 CUs -> underfilled, split-K 4 */
	p = problem(1000, 1000, 8192, "bf16");
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 128, 128, 64, &t, &e), 0);
	CHECK_STR(t.grid_verdict, "underfilled");
	CHECK_INT(t.split_k_hint, 4);
	/* 4608x4096 with 128x128: 36*32 = 1152 tiles = 4.5 rounds of 256 -> 5 rounds,
	 * balance 1152/1280 = 0.9 -> tail of 128 tiles */
	p = problem(4608, 4096, 4096, "bf16");
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 128, 128, 64, &t, &e), 0);
	CHECK_STR(t.grid_verdict, "tail");
	CHECK_INT(t.tail_tiles, 128);
	CHECK_NEAR(t.balance, 0.9, 1e-9);
	/* No TF32 unit on gfx950 (docs/facts-hardware.md#prior-tool-errors). */
	p = problem(4096, 4096, 4096, "tf32");
	CHECK_INT(tile_evaluate(spec("gfx950"), &p, 128, 128, 64, &t, &e), -1);
	CHECK_INT(e.code, ERR_BAD_ARGS);
	fp_err_clear(&e);
}

TEST(tile_recommendation_is_sorted_and_fits)
{
	tile_problem p = problem(4096, 4096, 4096, "bf16");
	tile_eval out[80];
	int considered = 0;
	fp_err e = FP_ERR_INIT;
	int n = tile_recommend(spec("gfx950"), &p, out, 80, &considered, &e);
	CHECK_INT(considered, 80);
	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		CHECK(out[i].rejected == NULL);
		CHECK(out[i].lds_ok && out[i].occ.wgs_per_cu >= 1 && out[i].bk >= 32);
		if (i)
			CHECK(out[i - 1].score >= out[i].score);
	}
	/* Best: 128x256x32 (LDS 49152 -> 49920 B, 168 VGPRs: 3 WGs, 12 waves, VGPR and LDS
	 * tied): 100 * (0.4 + 0.35 * 83.59/288.36 + 0.25) = 75.15 */
	CHECK_INT(out[0].bm, 128);
	CHECK_INT(out[0].bn, 256);
	CHECK_INT(out[0].bk, 32);
	CHECK_INT(out[0].occ.subgroups_per_cu, 12);
	CHECK_NEAR(out[0].score, 75.15, 0.01);
}

TEST(tile_nvidia_registers)
{
	/* H200, 128x128x64 bf16, 256 threads = 8 warps: regs/thread 64 + 32 + 16 = 112 ->
	 * 3584 per warp -> 18 warps -> 2 blocks; smem 65536 + 1024 -> 66560 -> 3 blocks. */
	tile_problem p = problem(4096, 4096, 4096, "bf16");
	tile_eval t;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(tile_evaluate(spec("h200"), &p, 128, 128, 64, &t, &e), 0);
	CHECK_INT(t.vgpr_total, 112);
	CHECK_INT(t.occ.wgs_per_cu, 2);
	CHECK_STR(t.occ.limiter, "registers");
	CHECK_INT(t.occ.subgroups_per_cu, 16);
	CHECK_NEAR(t.ridge, 206.13, 0.01);
}
