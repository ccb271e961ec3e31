/* ISA facts (src/core/analysis/isa_facts.c) and launch geometry on hand-made instruction tables
 * whose answers are known by construction. */
#include "t.h"

#include "base/xalloc.h"
#include "core/analysis/isa_facts.h"
#include "core/analysis/launch_geometry.h"
#include "core/analysis/roofline.h"
#include "read/amd/kernel_trace_csv.h"

#include <stdlib.h>

static void add(trace_dispatch *d, const char *isa, int64_t hits, int64_t vaddr)
{
	d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
	trace_inst *t = &d->insts[d->n_insts];
	memset(t, 0, sizeof *t);
	t->code_line = (int64_t)d->n_insts + 1;
	t->isa = xstrdup(isa);
	t->source = xstrdup("");
	t->hits = hits;
	t->vaddr = vaddr;
	t->klass = -1;
	d->n_insts++;
}

TEST(isa_regs_from_operands)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, "s_load_dwordx2 s[44:45], s[0:1], 0x128", 4, 0);
	add(&d, "s_waitcnt vmcnt(0) lgkmcnt(0)", 4, 4);
	add(&d, "v_mfma_f32_16x16x16_bf16 a[8:11], v[174:175], v[2:3], a[8:11]", 0, 8);
	add(&d, "v_cmp_ge_i32_e32 vcc, v20, v21", 4, 12);
	add(&d, "v_add_u32_e64 v3, s2, v1 sext(v9)", 4, 16);
	isa_regs r;
	isa_regs_scan(&d, &r);
	/* a never-executed instruction still allocates its registers */
	CHECK_INT(r.vgpr, 176);
	CHECK_INT(r.agpr, 12);
	CHECK_INT(r.sgpr, 46);
	trace_resources res = {96, 0, 112, 0, 0, 256, 64, 0, "kernel_trace"};
	jv *o = jv_object(), *w = jv_array();
	isa_resources_merge(&res, &r, o, w);
	CHECK_INT(res.vgpr, 176);
	CHECK_INT(res.agpr, 12);
	CHECK_INT(res.sgpr, 112); /* the CSV's figure is larger: kept, no warning */
	CHECK_INT(jv_len(w), 2);
	CHECK_INT(jv_i64(jv_get(jv_get(o, "vgpr"), "resources")), 96);
	jv_free(o);
	jv_free(w);
	trace_dispatch_release(&d);
}

TEST(isa_vmem_widths_and_ops)
{
	int st = -1;
	CHECK_INT(isa_vmem_bytes("buffer_load_dwordx4 v[0:3], v1, s[4:7], 0 offen", &st), 16);
	CHECK_INT(st, 0);
	CHECK_INT(isa_vmem_bytes("global_store_short v[2:3], v4, off", &st), 2);
	CHECK_INT(st, 1);
	CHECK_INT(isa_vmem_bytes("buffer_load_dword v1, v2, s[0:3], 0 offen lds", NULL), 4);
	CHECK_INT(isa_vmem_bytes("global_load_ubyte v1, v[2:3], off", NULL), 1);
	CHECK_INT(isa_vmem_bytes("s_buffer_load_dword s1, s[0:3], 0x0", NULL), 0);
	CHECK_INT(isa_vmem_bytes("buffer_wbl2 sc1", NULL), 0);
	CHECK_INT(isa_waitcnt_vmcnt("s_waitcnt vmcnt(2)"), 2);
	CHECK_INT(isa_waitcnt_vmcnt("s_waitcnt lgkmcnt(0)"), -1);
	CHECK(isa_is_transcendental("v_exp_f32_e32 v1, v2"));
	CHECK(!isa_is_transcendental("v_lshlrev_b32_e32 v1, 2, v2"));
	CHECK(!isa_is_transcendental("v_min_u32_e32 v1, v2, v3"));
	CHECK(isa_is_crosslane("ds_bpermute_b32 v1, v2, v3"));
	CHECK(!isa_is_crosslane("ds_read_b128 v[0:3], v4"));
}

/* Four loads before vmcnt(2), then vmcnt(1), vmcnt(0): four loads in flight at most; a loop
 * whose body keeps loads in flight across a wait is multi-buffered. */
TEST(isa_loads_in_flight_and_loop)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, "s_mov_b32 s0, 0", 2, 0);
	add(&d, "buffer_load_dwordx4 v[0:3], v10, s[4:7], 0 offen", 8, 4);
	add(&d, "buffer_load_dwordx4 v[4:7], v10, s[4:7], 0 offen", 8, 8);
	add(&d, "buffer_load_dwordx4 v[8:11], v10, s[4:7], 0 offen", 8, 12);
	add(&d, "buffer_load_dwordx4 v[12:15], v10, s[4:7], 0 offen", 8, 16);
	add(&d, "s_waitcnt vmcnt(2)", 8, 20);
	add(&d, "s_waitcnt vmcnt(1)", 8, 24);
	add(&d, "s_waitcnt vmcnt(0)", 8, 28);
	add(&d, "s_cbranch_scc1 65527", 8, 32); /* simm16 -9: back to vaddr 32 + 4 - 36 = 0 */
	jv *f = isa_facts_build(&d, 8, NULL);
	const jv *lf = jv_get(f, "loads_in_flight");
	CHECK_INT(jv_i64(jv_get(lf, "max")), 4);
	CHECK_INT(jv_i64(jv_get(lf, "max_bytes_per_lane")), 64);
	CHECK_INT(jv_i64(jv_get(jv_get(lf, "hot_wait"), "loads_before")), 1);
	const jv *lp = jv_get(f, "loop");
	CHECK_NEAR(jv_num(jv_get(lp, "iterations_per_wave")), 4.0, 1e-9);
	CHECK_INT(jv_i64(jv_get(lp, "body_first_vaddr")), 0);
	CHECK(jv_is_true(jv_get(lp, "multi_buffered")));
	CHECK_NEAR(jv_num(jv_get(jv_get(f, "vmem"), "load_bytes_per_wave")), 4 * 16 * 64 * 4, 1e-9);
	jv_free(f);
	trace_dispatch_release(&d);
}

TEST(launch_geometry_small_grid)
{
	soc_spec s;
	memset(&s, 0, sizeof s);
	s.cus = 256, s.simds_per_cu = 4, s.wave_size = 64;
	trace_resources r = {8, 0, 16, 0, 0, 256, 64, 84 * 256, "test"};
	jv *th = jv_object();
	jv_set_int(th, "wgs_per_cu", 1);
	jv_set_int(th, "waves_per_simd", 1);
	jv *g = launch_geometry_build(&s, &r, th, NULL);
	CHECK_INT(jv_i64(jv_get(g, "workgroups")), 84);
	CHECK_NEAR(jv_num(jv_get(g, "cu_fill_pct")), 32.8, 1e-9);
	CHECK_NEAR(jv_num(jv_get(g, "gain_pct")), 67.2, 1e-9);
	CHECK(jv_is_true(jv_get(g, "grid_caps_occupancy")));
	jv_free(g);
	/* 1024 workgroups, 2 allowed per CU: two full rounds, the grid does not cap */
	r.grid_size = 1024 * 256;
	jv_set_int(th, "wgs_per_cu", 2);
	g = launch_geometry_build(&s, &r, th, NULL);
	CHECK_NEAR(jv_num(jv_get(g, "rounds")), 2.0, 1e-9);
	CHECK(t_truth(jv_get(g, "grid_caps_occupancy")) == 0);
	CHECK_NEAR(jv_num(jv_get(g, "gain_pct")), 0, 1e-9);
	jv_free(g);
	r.grid_size = -1;
	CHECK(launch_geometry_build(&s, &r, th, NULL) == NULL);
	jv_free(th);
}

/* 1 GB moved in 200 us on an 8 TB/s part: 5 TB/s, 62.5% of the peak, below the roof; the
 * same bytes in 150 us: 83.3%, near the roof, gains capped at 16.7%. */
TEST(roofline_from_trace_bytes)
{
	soc_spec s;
	memset(&s, 0, sizeof s);
	s.arch = "gfx950", s.product = "test", s.cus = 256, s.wave_size = 64, s.hbm_tbps = 8.0;
	s.clock_mhz = 2000;
	jv *isa = jv_object(), *vm = jv_set(isa, "vmem", jv_object());
	jv_set_int(vm, "load_bytes_per_wave", 8192);
	jv_set_int(vm, "store_bytes_per_wave", 4096);
	jv *lg = jv_object();
	jv_set_round(lg, "waves", 1e9 / 12288.0, 6);
	roofline_inputs in = {&s, isa, lg, NULL, 200000, 3, "t.csv"};
	jv *r = roofline_build(&in);
	CHECK_NEAR(jv_num(jv_get(r, "pct_of_hbm_peak")), 62.5, 0.05);
	CHECK_STR(jv_string(jv_get(r, "verdict")), "below_hbm_roof");
	CHECK(t_is_null(jv_get(r, "cap_pct")));
	jv_free(r);
	in.duration_ns = 150000;
	r = roofline_build(&in);
	CHECK_STR(jv_string(jv_get(r, "verdict")), "near_hbm_roof");
	CHECK_NEAR(jv_num(jv_get(r, "cap_pct")), 16.7, 0.05);
	jv_free(r);
	in.duration_ns = 50000; /* 250% of HBM: caches serve it, no verdict on HBM, no cap */
	r = roofline_build(&in);
	CHECK_STR(jv_string(jv_get(r, "verdict")), "above_hbm_roof");
	jv_free(r);
	in.duration_ns = 0;
	CHECK(roofline_build(&in) == NULL);
	jv_free(isa);
	jv_free(lg);
}

TEST(kernel_trace_durations_of_the_traced_shape)
{
	const char *csv =
	    "\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\",\"Grid_Size_X\","
	    "\"Grid_Size_Y\",\"Grid_Size_Z\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
	    "\"Workgroup_Size_Z\"\n"
	    "\"k_0\",100,300,1024,1,1,256,1,1\n"
	    "\"k_0\",1000,1500,2048,1,1,256,1,1\n" /* another shape */
	    "\"other\",0,50,1024,1,1,256,1,1\n"
	    "\"k_0\",2000,2400,1024,1,1,256,1,1\n";
	int64_t ns[4];
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ktcsv_durations(csv, strlen(csv), "t.csv", "k_0", 1024, 256, ns, 4, &n, &e), 2);
	CHECK_INT(n, 2);
	CHECK_INT(ns[0], 200);
	CHECK_INT(ns[1], 400);
	n = 0;
	CHECK_INT(ktcsv_durations("\"a\",\"b\"\n1,2\n", 12, "t.csv", "k_0", 0, 0, ns, 4, &n, &e),
		  0);
	fp_err_clear(&e);
}
