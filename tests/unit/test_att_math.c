/* The analysis math on hand-built inputs with hand-computed answers: classification, the wait
 * split, observed occupancy, and a tiny dispatch directory run end to end through bubbles
 * (idle/stall semantics of docs/facts-rocprofv3.md#metric-semantics, wait attribution, wave states,
 * --detail). */
#include "t.h"

#include "base/fileio.h"
#include "core/amd/bubbles.h"
#include "core/amd/occupancy_observed.h"
#include "model/taxonomy.h"
#include "core/amd/waits.h"
#include "core/amd/wave_agg.h"
#include "read/amd/att_code.h"

#include <stdlib.h>
#include <string.h>

TEST(att_taxonomy_table)
{
	struct {
		const char *isa;
		int cat;
		const char *want;
	} rows[] = {
	    {"s_waitcnt vmcnt(0)", 9, "vmem_wait"},
	    {"s_waitcnt lgkmcnt(0)", 9, "lds_wait"},
	    {"s_waitcnt vmcnt(0) lgkmcnt(0)", 9, "vmem_wait"},
	    {"s_barrier", 9, "barrier"},
	    {"v_mfma_f32_16x16x32_bf16 a[0:3], v[0:1], v[2:3], 0", 6, "mfma"},
	    {"v_smfmac_f32_16x16x64_f16 v[0:3], v[4:5], v[6:9], v10", 255, "mfma"},
	    {"v_add_f32_e32 v1, v2, v3", 6, "valu"},
	    {"v_add_f32_e32 v1, v2, v3", 255, "valu"},
	    {"buffer_load_dwordx4 v[0:3], v4, s[0:3], 0 offen", 3, "vmem_issue"},
	    {"global_load_dword v1, v[2:3], off", 4, "vmem_issue"},
	    {"ds_read_b128 v[0:3], v4", 5, "lds_issue"},
	    {"ds_write_b32 v1, v2", 255, "lds_issue"},
	    {"s_load_dwordx2 s[0:1], s[4:5], 0x0", 1, "smem_issue"},
	    {"s_buffer_load_dword s0, s[4:7], 0x0", 255, "smem_issue"},
	    {"s_cbranch_execz 12", 7, "branch"},
	    {"s_cbranch_execz 12", 255, "branch"},
	    {"s_nop 3", 9, "nop"},
	    {"s_mov_b32 s0, 1", 2, "salu"},
	    {"s_endpgm", 11, "message"},
	    {"s_endpgm", 255, "other"},
	    {"s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", 255, "message"},
	    {"exp pos0 v0, v0, v0, v0 done", 255, "other"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK_STR(tax_class_name(tax_classify(rows[i].isa, rows[i].cat)), rows[i].want);
	CHECK_STR(tax_norm_name(tax_normalize(TAX_SMEM_WAIT)), "memory_dependency");
	CHECK_STR(tax_norm_name(tax_normalize(TAX_LDS_WAIT)), "lds_dependency");
	CHECK_STR(tax_norm_name(tax_normalize(TAX_NOP)), "fixed_latency");
	CHECK_STR(tax_norm_name(tax_normalize(TAX_BRANCH)), "front_end");
	CHECK_STR(tax_norm_name(tax_normalize(TAX_MESSAGE)), "other");
	CHECK_INT(tax_wait_counters("s_waitcnt vmcnt(0) lgkmcnt(0)"), WAIT_VM | WAIT_LGKM);
	CHECK_INT(tax_wait_counters("s_waitcnt 0"), WAIT_VM | WAIT_LGKM | WAIT_EXP);
	CHECK_INT(tax_producer_type("flat_load_dword v0, v[0:1]", 255), PROD_FLAT);
	CHECK_INT(tax_producer_type("s_mov_b32 s0, 0", 2), PROD_OTHER);
}

TEST(att_wait_split_math)
{
	int64_t w[4] = {3, 1, 0, 0}, out[4];
	waits_split(100, w, 0, out); /* 75 / 25 */
	CHECK_INT(out[0], 75);
	CHECK_INT(out[1], 25);
	int64_t w2[4] = {1, 1, 1, 0};
	waits_split(100, w2, 0, out); /* 33 each, remainder 1 to the first largest */
	CHECK_INT(out[0], 34);
	CHECK_INT(out[1], 33);
	CHECK_INT(out[2], 33);
	int64_t z[4] = {0, 0, 0, 0};
	waits_split(50, z, 2, out);
	CHECK_INT(out[2], 50);
	CHECK_INT(out[0] + out[1] + out[3], 0);
}

TEST(att_occupancy_observed_math)
{
	/* CU (0,1): SIMD0 wave 0..100, SIMD1 wave 20..60 (end and start at 60 on SIMD0: ends
	 * first), SIMD0 again 60..100. Window 0..100.
	 * n(t): 0-20: 1, 20-60: 2, 60-100: 2 (end then start at 60) -> integral 20+80+80 = 180,
	 * mean 1.8, peak 2; per SIMD peak 2 (SIMD0 60..100 holds 2), mean 1.8 / 4 SIMDs = 0.45.
	 * CU (0,2) is not traced: only in all_cus. */
	att_occ_event ev[] = {
	    {0, 1, 0, 1, 0, 1},	 {20, 1, 1, 1, 0, 1},  {60, 1, 1, 1, 0, 0},
	    {60, 1, 0, 1, 0, 1}, {100, 1, 0, 1, 0, 0}, {100, 1, 0, 1, 0, 0},
	    {10, 2, 3, 1, 0, 1}, {30, 2, 3, 1, 0, 0},  {40, 2, 3, 1, 0, 0},
	};
	att_occupancy o;
	memset(&o, 0, sizeof o);
	o.n = sizeof ev / sizeof ev[0];
	o.v = malloc(sizeof ev);
	memcpy(o.v, ev, sizeof ev);
	wave_cu cu = {0, 1};
	jv *r = occupancy_observed(&o, &cu, 1, NULL);
	CHECK_INT(jv_i64(jv_get(jv_get(r, "per_cu"), "peak")), 2);
	CHECK_NEAR(jv_num(jv_get(jv_get(r, "per_cu"), "mean")), 1.8, 1e-9);
	CHECK_INT(jv_i64(jv_get(jv_get(r, "per_simd"), "peak")), 2);
	CHECK_NEAR(jv_num(jv_get(jv_get(r, "per_simd"), "mean")), 0.45, 1e-9);
	CHECK_INT(jv_i64(jv_get(r, "simds_per_cu")), 4);
	CHECK_INT(jv_i64(jv_get(r, "unmatched_ends")), 0);
	CHECK_INT(jv_i64(jv_get(jv_get(r, "all_cus"), "cus")), 2);
	CHECK(t_is_null(jv_get(r, "kernel_filter")));
	jv_free(r);
	free(o.v);

	/* The same plus a wave of another kernel (index 2) on SIMD 2 from 30 to 50: filtered out
	 * by name, the figures are unchanged; unfiltered, the peak becomes 3. */
	att_occ_event other[] = {{30, 1, 2, 2, 0, 1}, {50, 1, 2, 2, 0, 0}};
	int64_t idx[] = {1, 2};
	char *names[] = {"k", "other_kernel"};
	for (int filtered = 0; filtered < 2; filtered++) {
		memset(&o, 0, sizeof o);
		o.n = sizeof ev / sizeof ev[0] + 2;
		o.v = malloc(o.n * sizeof *o.v);
		memcpy(o.v, ev, sizeof ev);
		memcpy(o.v + sizeof ev / sizeof ev[0], other, sizeof other);
		o.kernel_idx = idx;
		o.kernel_name = names;
		o.n_kernels = 2;
		r = occupancy_observed(&o, &cu, 1, filtered ? "k" : NULL);
		CHECK_INT(jv_i64(jv_get(jv_get(r, "per_cu"), "peak")), filtered ? 2 : 3);
		CHECK_INT(jv_i64(jv_get(r, "other_kernel_events")), filtered ? 2 : 0);
		jv_free(r);
		free(o.v);
	}
}

/* The linear sort (rows in time order per SE: counting sort by CU, then insertion sort) and the
 * comparison sort (rows far from order) give the same figures. Waves of 4 CUs on 2 SEs interleave
 * in time, ends and starts share times, and each SIMD's waves follow each other, so a CU's events
 * are only contiguous once sorted: an unsorted walk would count many more CUs and other peaks. */
TEST(att_occupancy_observed_sort_paths)
{
	enum { SES = 2, CUS = 4, WAVES = 50 };
	size_t n = (size_t)SES * CUS * WAVES * 2;
	att_occ_event *ordered = malloc(n * sizeof *ordered);
	size_t k = 0;
	for (int se = 0; se < SES; se++)
		for (int64_t t = 0; t <= 10 * WAVES + 10; t += 10)
			for (int s2 = 0; s2 < 2; s2++)
				for (int cu = CUS - 1; cu >= 0; cu--) {
					/* SE 1 writes starts before the ends of the same time, as
					 * the decoder sometimes does: the insertion sort moves them
					 */
					int start = se ? 1 - s2 : s2;
					int64_t w = t / 10 - (start ? 0 : 1 + cu % 2);
					if (w < 0 || w >= WAVES || (!start && t % 10))
						continue;
					ordered[k++] = (att_occ_event){t, cu, w % 4, -1, se, start};
				}
	n = k;
	att_occ_event *shuffled = malloc(n * sizeof *shuffled);
	for (size_t i = 0; i < n; i++) /* a fixed permutation (n is not a multiple of 7) */
		shuffled[i] = ordered[(i * 7) % n];
	jv *r[2];
	att_occ_event *inputs[2] = {ordered, shuffled};
	for (int p = 0; p < 2; p++) {
		att_occupancy o;
		memset(&o, 0, sizeof o);
		o.v = inputs[p];
		o.n = n;
		r[p] = occupancy_observed(&o, NULL, 0, NULL);
	}
	CHECK(n % 7 != 0);
	CHECK_INT(jv_i64(jv_get(jv_get(r[0], "all_cus"), "cus")), SES * CUS);
	CHECK_INT(jv_i64(jv_get(r[0], "unmatched_ends")), 0);
	CHECK(jv_equal(r[0], r[1]));
	jv_free(r[0]);
	jv_free(r[1]);
	free(ordered);
	free(shuffled);
}

/* The walk goes through a sorted index, the events staying in place: the counting-sort path
 * (CUs below 1024), the path without it (a CU number beyond) and the comparison sort (events in
 * reverse, too far from order for the insertion sort) give the same figures, and the events are
 * left in their order (filtered only). */
TEST(att_occupancy_observed_index_paths)
{
	/* CU 1: a wave on SIMD 0 from 0 to 40, one on SIMD 1 from 10 to 40 (both end at 40), a
	 * third on SIMD 0 from 40 to 50 (its start at 40 after the ends): integral 10 + 60 + 10 =
	 * 80 over 50 cycles, peak 2. CU 2 (SE 1): one wave 5..25. */
	att_occ_event base[] = {
	    {0, 1, 0, -1, 0, 1},  {10, 1, 1, -1, 0, 1}, {40, 1, 0, -1, 0, 1}, {40, 1, 1, -1, 0, 0},
	    {40, 1, 0, -1, 0, 0}, {50, 1, 0, -1, 0, 0}, {5, 2, 0, -1, 1, 1},  {25, 2, 0, -1, 1, 0},
	};
	enum { N = sizeof base / sizeof base[0] };
	jv *r[4];
	for (int p = 0; p < 4; p++) {
		att_occ_event ev[N];
		for (size_t i = 0; i < N; i++) {
			ev[i] = base[p >= 2 ? N - 1 - i : i];
			if (p == 1 || p == 3)
				ev[i].cu += 2000; /* beyond the counting sort's buckets */
		}
		att_occ_event before[N];
		memcpy(before, ev, sizeof ev);
		att_occupancy o;
		memset(&o, 0, sizeof o);
		o.v = ev;
		o.n = N;
		r[p] = occupancy_observed(&o, NULL, 0, NULL);
		CHECK(memcmp(before, ev, sizeof ev) == 0);
		CHECK_INT(jv_i64(jv_get(jv_get(r[p], "per_cu"), "peak")), 2);
		CHECK_INT(jv_i64(jv_get(r[p], "window_cycles")), 70);
		CHECK_INT(jv_i64(jv_get(r[p], "unmatched_ends")), 0);
		CHECK_INT(jv_i64(jv_get(jv_get(r[p], "all_cus"), "cus")), 2);
		/* (80 + 20) / (50 + 20) */
		CHECK_NEAR(jv_num(jv_get(jv_get(r[p], "per_cu"), "mean")), 100.0 / 70.0, 1e-3);
	}
	for (int p = 1; p < 4; p++)
		CHECK(jv_equal(r[0], r[p]));
	for (int p = 0; p < 4; p++)
		jv_free(r[p]);
}

/* Two waves over a 5-line kernel. Lines: 1 s_load (SMEM), 2 ds_read (LDS), 3 buffer_load
 * (VMEM), 4 s_waitcnt vmcnt(0) lgkmcnt(0), 5 v_add.
 * Wave A (begin 100): [100,1,0,4,1] [104,5,0,4,2] [110,3,2,6,3] [116,9,40,40,4] [0 line]
 *   [160,6,0,4,5]; idle: 0, 0, 110-108=2, 0, 160-156=4 -> line 3 idle 2, line 5 idle 4.
 * Wave B (begin 200): [204,1,0,4,1] [208,3,0,4,3] [212,9,20,20,4] [240,6,4,8,5];
 *   idle: line 1: 4, line 5: 240-232 = 8.
 * waitcnt: A names {1,2,3} for line 4, B names {3}: waves per producer 1:1, 2:1, 3:2;
 *   weights memory 2, lds 1, smem 1 -> stall 60 split 30/15/15. */
static const char *code_json =
    "{\"code\":[[\"; k\",0,0,\"k\",1,0,0,0,0,0],"
    "[\"s_load_dword s0, s[0:1], 0x0\",0,1,\"k.py:1\",1,0,2,8,0,4],"
    "[\"ds_read_b32 v0, v1\",0,2,\"k.py:2\",1,8,1,4,0,0],"
    "[\"buffer_load_dword v2, v3, s[4:7], 0 offen\",0,3,\"k.py:2\",1,16,2,10,2,2],"
    "[\"s_waitcnt vmcnt(0) lgkmcnt(0)\",0,4,\"k.py:3\",1,24,2,60,60,0],"
    "[\"v_add_f32_e32 v0, v0, v2\",0,5,\"\",1,28,2,12,4,12]],\"version\":\"3.0.0\"}";

static void make_tiny(const char *dir)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	t_put(dir, "code.json", code_json);
	t_put(dir, "se0_sm0_sl0_wv0.json",
	      "{\"wave\":{\"begin\":100,\"end\":164,\"cu\":1,\"simd\":0,\"slot\":0,\"id\":0,"
	      "\"instructions\":[[100,1,0,4,1],[104,5,0,4,2],[110,3,2,6,3],[116,9,40,40,4],"
	      "[150,0,0,4,0],[160,6,0,4,5]],\"timeline\":[[2,16],[3,40],[1,4],[2,4]],"
	      "\"waitcnt\":[[4,[[1,0],[2,0]]],[4,[[3,0]]]]}}");
	t_put(dir, "se0_sm1_sl0_wv0.json",
	      "{\"wave\":{\"begin\":200,\"end\":248,\"cu\":1,\"simd\":1,\"slot\":0,\"id\":0,"
	      "\"instructions\":[[204,1,0,4,1],[208,3,0,4,3],[212,9,20,20,4],[240,6,4,8,5]],"
	      "\"timeline\":[[1,4],[2,8],[3,20],[4,16]],\"waitcnt\":[[4,[[3,0]]]]}}");
	t_put(dir, "occupancy.json",
	      "{\"0\":[[100,1,0,0,1,1],[200,1,1,0,1,1],[164,1,0,0,0,1],[248,1,1,0,0,1]]}");
}

static const jv *find_class(const jv *classes, const char *name)
{
	for (size_t i = 0; i < jv_len(classes); i++)
		if (strcmp(jv_string(jv_get(jv_at(classes, i), "class")), name) == 0)
			return jv_at(classes, i);
	return NULL;
}

TEST(att_tiny_dispatch_end_to_end)
{
	char *dir = path_join(t_tmpdir(), "ui_output_agent_1_dispatch_1");
	make_tiny(dir);
	trace_dispatch d;
	trace_dispatch_init(&d);
	fp_err e = FP_ERR_INIT;
	CHECK_INT(att_code_read(dir, &d, &e), 0);
	jv *w = jv_array(), *r = NULL;
	bubbles_params o = {10, 5, 1, NULL};
	CHECK_INT(bubbles_compute(&d, NULL, &o, &r, NULL, w, &e), 0);
	if (!r) {
		t_fail(__FILE__, __LINE__, "%s", e.message);
		return;
	}
	const jv *wc = jv_get(r, "wave_check");
	CHECK(jv_is_true(jv_get(wc, "idle_match")) && jv_is_true(jv_get(wc, "stall_match")));
	CHECK(jv_is_true(jv_get(wc, "hits_match")) && jv_is_true(jv_get(wc, "latency_match")));
	CHECK_INT(jv_i64(jv_get(wc, "unmapped_records")), 1);
	const jv *wait = jv_at(jv_get(r, "waits"), 0);
	CHECK_INT(jv_i64(jv_get(wait, "code_line")), 4);
	CHECK_INT(jv_i64(jv_get(wait, "waves")), 2);
	CHECK_INT(jv_i64(jv_get(jv_get(wait, "split"), "memory")), 30);
	CHECK_INT(jv_i64(jv_get(jv_get(wait, "split"), "lds")), 15);
	CHECK_INT(jv_i64(jv_get(jv_get(wait, "split"), "smem")), 15);
	CHECK_STR(jv_string(jv_get(wait, "class")), "vmem_wait");
	const jv *p3 = jv_at(jv_get(wait, "producers"), 2);
	CHECK_INT(jv_i64(jv_get(p3, "waves")), 2);
	CHECK_STR(jv_string(jv_get(p3, "type")), "VMEM");
	const jv *cl = jv_get(r, "classes");
	CHECK_INT(jv_i64(jv_get(find_class(cl, "vmem_wait"), "stall")), 30);
	CHECK_INT(jv_i64(jv_get(find_class(cl, "lds_wait"), "stall")), 15);
	CHECK_INT(jv_i64(jv_get(find_class(cl, "smem_wait"), "stall")), 15);
	const jv *ws = jv_get(r, "wave_states");
	CHECK_INT(jv_i64(jv_get(ws, "timeline_cycles")), 112);
	CHECK_NEAR(jv_num(jv_get(ws, "exec_pct")), 100.0 * 28 / 112, 0.01);
	const jv *det = jv_get(r, "detail");
	CHECK_INT(jv_len(jv_get(det, "per_wave")), 2);
	CHECK_INT(jv_i64(jv_get(jv_at(jv_get(det, "per_wave"), 1), "idle")), 8);
	CHECK_INT(jv_i64(jv_get(jv_get(r, "unmapped"), "instructions")), 1);
	const jv *occ = jv_get(jv_get(r, "occupancy"), "observed");
	CHECK_INT(jv_i64(jv_get(jv_get(occ, "per_cu"), "peak")), 1);
	jv_free(r);
	jv_free(w);

	/* code.json that disagrees with its waves (line 1 idle 5 instead of 4): a warning and
	 * wave_check says which line, never silence. */
	char *mod = strdup(code_json);
	char *at = strstr(mod, ",1,0,2,8,0,4]");
	at[11] = '5';
	t_put(dir, "code.json", mod);
	free(mod);
	trace_dispatch d2;
	trace_dispatch_init(&d2);
	CHECK_INT(att_code_read(dir, &d2, &e), 0);
	w = jv_array();
	bubbles_params plain = {10, -1, 2, NULL};
	CHECK_INT(bubbles_compute(&d2, NULL, &plain, &r, NULL, w, &e), 0);
	const jv *wc2 = jv_get(r, "wave_check");
	CHECK(t_truth(jv_get(wc2, "idle_match")) == 0 && jv_is_true(jv_get(wc2, "stall_match")));
	CHECK_INT(jv_i64(jv_get(jv_get(wc2, "first_mismatch"), "code_line")), 1);
	int warned = 0;
	for (size_t i = 0; i < jv_len(w); i++)
		warned |= strstr(jv_string(jv_at(w, i)), "disagree") != NULL;
	CHECK(warned);
	jv_free(r);
	jv_free(w);
	trace_dispatch_release(&d2);

	bubbles_params bad = {10, 99, 1, NULL};
	w = jv_array();
	CHECK_INT(bubbles_compute(&d, NULL, &bad, &r, NULL, w, &e), -1);
	CHECK_INT(e.code, ERR_NO_MATCH);
	CHECK_INT(jv_len(jv_get(e.extra, "available")), 5);
	fp_err_clear(&e);
	jv_free(w);
	trace_dispatch_release(&d);
	free(dir);
}

/* The fold's rare records: line 0 (unmapped: prev_end untouched), a line past code.json's and a
 * negative one (unknown: prev_end moves on), each between mapped records whose idle shows it;
 * with and without a --detail line. */
TEST(att_fold_unmapped_and_unknown_lines)
{
	char *dir = path_join(t_tmpdir(), "ui_output_agent_1_dispatch_77");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	t_put(dir, "code.json",
	      "{\"code\":[[\"; k\",0,0,\"k\",1,0,0,0,0,0],"
	      "[\"s_nop 0\",0,1,\"k.py:1\",1,0,2,6,0,10],"
	      "[\"v_add_f32_e32 v0, v0, v2\",0,2,\"k.py:2\",1,4,1,6,2,10]],\"version\":\"3.0.0\"}");
	/* begin 100: line 1 at 104 (idle 4, ends 108); line 5 (unknown) ends 120; line 0 at 125
	 * (ends 129, ignored); line 2 at 130 (idle 130 - 120 = 10); line -3 (unknown) ends 144;
	 * line 1 at 150 (idle 6) */
	t_put(dir, "se0_sm0_sl0_wv0.json",
	      "{\"wave\":{\"begin\":100,\"end\":160,\"cu\":1,\"simd\":0,\"slot\":0,\"id\":0,"
	      "\"instructions\":[[104,1,0,4,1],[110,6,0,10,5],[125,0,0,4,0],[130,6,2,6,2],"
	      "[140,1,0,4,-3],[150,1,0,2,1]],\"timeline\":[[2,60]],\"waitcnt\":[]}}");
	trace_dispatch d;
	trace_dispatch_init(&d);
	CHECK_INT(att_code_read(dir, &d, &e), 0);
	for (int detail = 0; detail < 2; detail++) {
		wave_agg a;
		CHECK_INT(wave_agg_run(dir, &d, 1, detail ? 1 : -1, NULL, &a, &e), 0);
		CHECK_INT(a.records, 6);
		CHECK_INT(a.unmapped_records, 1);
		CHECK_INT(a.unknown_line_records, 2);
		CHECK_INT(a.lines[1].hits, 2);
		CHECK_INT(a.lines[1].idle, 10);
		CHECK_INT(a.lines[1].latency, 6);
		CHECK_INT(a.lines[2].hits, 1);
		CHECK_INT(a.lines[2].idle, 10);
		CHECK_INT(a.lines[2].stall, 2);
		CHECK_INT(a.n_detail, detail ? 1 : 0);
		if (detail && a.n_detail == 1) {
			CHECK_INT(a.detail[0].hits, 2);
			CHECK_INT(a.detail[0].idle, 10);
			CHECK_INT(a.detail[0].latency, 6);
		}
		wave_agg_release(&a);
	}
	trace_dispatch_release(&d);
	free(dir);
}
