/* Exposed stall and idle waves (src/core/analysis/exposed_stall.c, wave_facts.c) on wave files
 * written here, whose issue, stall and empty cycles are known by construction. */
#include "t.h"

#include "base/fileio.h"
#include "base/xalloc.h"
#include "core/analysis/exposed_int.h"
#include "core/analysis/exposed_stall.h"
#include "core/analysis/wave_facts.h"
#include "base/json/json_write.h"
#include "base/strbuf.h"
#include "core/amd/wave_agg.h"
#include "read/amd/att_code.h"

#include <stdio.h>
#include <stdlib.h>

static void add(trace_dispatch *d, int64_t line, const char *isa, int klass)
{
	d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
	trace_inst *t = &d->insts[d->n_insts++];
	memset(t, 0, sizeof *t);
	t->code_line = line;
	t->isa = xstrdup(isa);
	t->source = xstrdup("k.py:1");
	t->klass = (int16_t)klass;
	t->hits = 1;
}

/* A wave file of SE 0, SIMD 0, slot 0: its document's duration, the wave's CU, begin and end,
 * one EXEC timeline row of `exec` cycles and the instruction rows insts. */
static void wave_file_span(const char *dir, const char *name, long long duration, int cu,
			   long long begin, long long end, long long exec, const char *insts)
{
	char *p = path_join(dir, name);
	FILE *f = fopen(p, "w");
	fprintf(
	    f,
	    "{\"name\":\"SE0\",\"duration\":%lld,\"wave\":{\"cu\":%d,\"id\":0,\"simd\":0,"
	    "\"slot\":0,\"begin\":%lld,\"end\":%lld,\"instructions\":[%s],\"timeline\":[[2,%lld]],"
	    "\"waitcnt\":[]}}",
	    duration, cu, begin, end, insts, exec);
	fclose(f);
	free(p);
}

static void wave_file(const char *dir, const char *name, int cu, const char *insts)
{
	wave_file_span(dir, name, 100, cu, 0, 100, 100, insts);
}

static const jv *cls(const jv *o, const char *name)
{
	const jv *arr = jv_get(o, "classes");
	for (size_t i = 0; i < jv_len(arr); i++)
		if (strcmp(jv_string(jv_get(jv_at(arr, i), "class")), name) == 0)
			return jv_at(arr, i);
	return NULL;
}

/* One SIMD, window 0..100. Wave A stalls 0..40 on a vmcnt wait, issues 40..44, then a VALU op
 * issues 44..48. Wave B issues 0..4 (VALU), then stalls 4..64 on a barrier.
 *   issue:   [0,4) + [40,48)            = 12
 *   exposed: [4,40) both stalled        = 36 -> 18 vmem_wait + 18 barrier
 *            [48,64) only B stalled     = 16 -> barrier
 *   empty:   [64,100)                   = 36
 * Summed stall: vmem_wait 40, barrier 60. A second CU's wave in the same SE/SIMD file group is
 * its own SIMD (window 0..100, one 100-cycle issue-free stall on vmem_wait). */
TEST(exposed_stall_known_by_construction)
{
	const char *dir = t_tmpdir();
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	add(&d, 4, "s_barrier", TAX_BARRIER);
	add(&d, 5, "buffer_store_dword v1, v2, s[0:3], 0 offen", TAX_VMEM_ISSUE);
	wave_file(dir, "se0_sm0_sl0_wv0.json", 1, "[0,9,40,44,2],[44,6,0,4,3],[48,3,0,4,5]");
	wave_file(dir, "se0_sm0_sl1_wv0.json", 1, "[0,6,0,4,3],[4,9,60,60,4]");
	wave_file(dir, "se0_sm0_sl2_wv0.json", 2, "[0,9,100,100,2]");
	jv *wf = NULL, *ex = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(dir, &d, 1, &wf, &ex, NULL, &e), 0);
	CHECK_INT(jv_i64(jv_get(ex, "simds")), 2);
	CHECK_INT(jv_i64(jv_get(ex, "window_cycles")), 200);
	/* wave A's store issues 48..52 on the first SIMD */
	CHECK_INT(jv_i64(jv_get(ex, "issue_cycles")), 16);
	CHECK_NEAR(jv_num(jv_get(ex, "exposed_cycles")), 36 + 12 + 100, 1e-9);
	CHECK_INT(jv_i64(jv_get(ex, "empty_cycles")), 36);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "exposed")), 18 + 100, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "stall")), 140, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "barrier"), "exposed")), 18 + 12, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "barrier"), "stall")), 60, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "barrier"), "exposed_pct_of_stall")), 50, 1e-9);
	/* idle waves: the busiest ran 3 instructions; B (2, no store) and C (1) are under 25%?
	 * no: 2 >= 0.75 and 1 >= 0.75, so all three worked */
	CHECK_INT(jv_i64(jv_get(wf, "traced_waves")), 3);
	CHECK_INT(jv_i64(jv_get(wf, "idle_waves")), 0);
	jv_free(wf);
	jv_free(ex);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
}

/* The same SIMD with every time and length times 2^24: 1.7e9 cycles and five records, which the
 * block sweep would walk cycle by cycle (about a second); the group takes the event merge
 * (exposed_group_sparse_window_takes_the_merge); every figure scales. */
TEST(exposed_stall_long_sparse_window_scales)
{
	char *dir = path_join(t_tmpdir(), "longwin");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	add(&d, 4, "s_barrier", TAX_BARRIER);
	const long long m = 1ll << 24;
	char a[256], b[256];
	snprintf(a, sizeof a, "[0,9,%lld,%lld,2],[%lld,6,0,%lld,3]", 40 * m, 44 * m, 44 * m, 4 * m);
	snprintf(b, sizeof b, "[0,6,0,%lld,3],[%lld,9,%lld,%lld,4]", 4 * m, 4 * m, 60 * m, 60 * m);
	static const char *const names[] = {"se0_sm0_sl0_wv0.json", "se0_sm0_sl1_wv0.json"};
	const char *insts[] = {a, b};
	for (int i = 0; i < 2; i++)
		wave_file_span(dir, names[i], 100 * m, 1, 0, 100 * m, 100 * m, insts[i]);
	jv *ex = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(dir, &d, 1, NULL, &ex, NULL, &e), 0);
	CHECK_INT(jv_i64(jv_get(ex, "window_cycles")), 100 * m);
	CHECK_INT(jv_i64(jv_get(ex, "issue_cycles")), 12 * m);
	CHECK_NEAR(jv_num(jv_get(ex, "exposed_cycles")), (36 + 16) * (double)m, 1e-9);
	CHECK_INT(jv_i64(jv_get(ex, "empty_cycles")), 36 * m);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "exposed")), 18 * (double)m, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "barrier"), "exposed")), (18 + 16) * (double)m, 1e-9);
	jv_free(ex);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
	free(dir);
}

/* A record that starts before its wave's begin (outside the SIMD's window): the events leave
 * the per-cycle counting for the radix sort, and the window clips the record. */
TEST(exposed_stall_event_outside_window)
{
	char *dir = path_join(t_tmpdir(), "outside");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	wave_file_span(dir, "se0_sm0_sl0_wv0.json", 100, 1, 10, 100, 90, "[0,6,0,20,3]");
	jv *ex = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(dir, &d, 1, NULL, &ex, NULL, &e), 0);
	CHECK_INT(jv_i64(jv_get(ex, "window_cycles")), 90);
	CHECK_INT(jv_i64(jv_get(ex, "issue_cycles")), 10);
	CHECK_INT(jv_i64(jv_get(ex, "empty_cycles")), 80);
	CHECK_NEAR(jv_num(jv_get(ex, "exposed_cycles")), 0, 1e-9);
	jv_free(ex);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
	free(dir);
}

/* A SIMD whose window is empty (its one wave ends where it begins: a malformed file) adds
 * nothing, not even its records' stall, although the pass sums a wave's stall before its group
 * is complete (exposed_wave, then exposed_group_facts takes it back); the SIMD beside it, of two
 * CUs in one file group, is added. */
TEST(exposed_stall_empty_window_adds_no_stall)
{
	char *dir = path_join(t_tmpdir(), "emptywin");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, 4, "s_barrier", TAX_BARRIER);
	static const char *const names[] = {"se0_sm0_sl0_wv0.json", "se0_sm0_sl1_wv0.json",
					    "se0_sm1_sl0_wv0.json"};
	static const int cu[] = {1, 2, 1}, begin[] = {0, 0, 50}, end[] = {100, 100, 50};
	static const char *const insts[] = {"[0,9,40,40,2]", "[0,9,30,30,7]", "[0,9,60,60,4]"};
	for (int i = 0; i < 3; i++)
		wave_file_span(dir, names[i], 100, cu[i], begin[i], end[i], 10, insts[i]);
	for (int threads = 1; threads <= 2; threads++) {
		jv *ex = NULL, *wf = NULL;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(wave_facts_and_exposed(dir, &d, threads, &wf, &ex, NULL, &e), 0);
		CHECK_INT(jv_i64(jv_get(ex, "simds")), 2);
		CHECK_INT(jv_i64(jv_get(ex, "window_cycles")), 200);
		CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "stall")), 40, 1e-9);
		CHECK_NEAR(jv_num(jv_get(cls(ex, "other"), "stall")), 30, 1e-9); /* line 7: none */
		CHECK(cls(ex, "barrier") == NULL);
		/* the wave facts, which share exposed stall's sums, count every wave's stall: the
		 * window-less SIMD's barrier too, and no record on an unknown line */
		CHECK_INT(jv_i64(jv_get(wf, "traced_waves")), 3);
		CHECK_NEAR(jv_num(jv_get(cls(wf, "vmem_wait"), "stall")), 40, 1e-9);
		CHECK_NEAR(jv_num(jv_get(cls(wf, "barrier"), "stall")), 60, 1e-9);
		CHECK(cls(wf, "other") == NULL);
		CHECK_INT(jv_i64(jv_get(jv_get(wf, "instructions"), "busiest_wave")), 1);
		jv_free(wf);
		jv_free(ex);
		fp_err_clear(&e);
	}
	trace_dispatch_release(&d);
	free(dir);
}

/* The pass keeps a group's records in 16 bytes (exposed_wave): a wave with a value past 32 bits
 * (a stall of 2^32 cycles) is kept as it is and gives the exact figures, beside a compact wave
 * of the same SIMD far from time 0. Window 2^40 .. 2^40 + 2^33: wave A stalls 2^32 on vmcnt,
 * then issues 10 cycles; wave B (compact) issues 0..4 and stalls 4..24 on a barrier. */
TEST(exposed_stall_values_past_32_bits)
{
	char *dir = path_join(t_tmpdir(), "wide");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	add(&d, 4, "s_barrier", TAX_BARRIER);
	const long long b = 1ll << 40, g = 1ll << 32;
	char a_in[128], b_in[128];
	snprintf(a_in, sizeof a_in, "[%lld,9,%lld,%lld,2]", b, g, g + 10);
	snprintf(b_in, sizeof b_in, "[%lld,6,0,4,3],[%lld,9,20,20,4]", b, b + 4);
	static const char *const names[] = {"se0_sm0_sl0_wv0.json", "se0_sm0_sl1_wv0.json"};
	const char *insts[] = {a_in, b_in};
	const long long end[] = {b + 2 * g, b + 100};
	for (int i = 0; i < 2; i++)
		wave_file_span(dir, names[i], 100, 1, b, end[i], 10, insts[i]);
	jv *ex = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(dir, &d, 1, NULL, &ex, NULL, &e), 0);
	/* issue: B 0..4, A 2^32..2^32+10; exposed: A alone 0..4 and 24..2^32, both 4..24 */
	CHECK_INT(jv_i64(jv_get(ex, "window_cycles")), 2 * g);
	CHECK_INT(jv_i64(jv_get(ex, "issue_cycles")), 14);
	CHECK_NEAR(jv_num(jv_get(ex, "exposed_cycles")), (double)(g - 4), 1e-9);
	CHECK_INT(jv_i64(jv_get(ex, "empty_cycles")), g - 10);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "stall")), (double)g, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_wait"), "exposed")), (double)(g - 4 - 10), 1e-6);
	CHECK_NEAR(jv_num(jv_get(cls(ex, "barrier"), "exposed")), 10, 1e-9);
	jv_free(ex);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
	free(dir);
}

TEST(wave_facts_idle_waves)
{
	const char *dir = t_tmpdir();
	char sub[512];
	snprintf(sub, sizeof sub, "%s/idle", dir);
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(sub, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt lgkmcnt(0)", TAX_SMEM_WAIT);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	add(&d, 5, "buffer_store_dword v1, v2, s[0:3], 0 offen", TAX_VMEM_ISSUE);
	/* one working wave (10 VALU + a store), three that wait on the kernel arguments and exit */
	wave_file(sub, "se0_sm0_sl0_wv0.json", 1,
		  "[0,6,0,4,3],[4,6,0,4,3],[8,6,0,4,3],[12,6,0,4,3],[16,6,0,4,3],[20,6,0,4,3],"
		  "[24,6,0,4,3],[28,6,0,4,3],[32,6,0,4,3],[36,6,0,4,3],[40,3,0,4,5]");
	wave_file(sub, "se0_sm0_sl1_wv0.json", 1, "[0,9,30,30,2],[30,6,0,4,3]");
	wave_file(sub, "se0_sm1_sl0_wv0.json", 1, "[0,9,30,30,2]");
	wave_file(sub, "se1_sm0_sl0_wv0.json", 1, "[0,9,30,30,2]");
	jv *wf = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(sub, &d, 1, &wf, NULL, NULL, &e), 0);
	CHECK_INT(jv_i64(jv_get(wf, "idle_waves")), 3);
	CHECK_NEAR(jv_num(jv_get(wf, "idle_pct")), 75, 1e-9);
	CHECK_NEAR(jv_num(jv_get(cls(wf, "smem_wait"), "idle_wave_share_pct")), 100, 1e-9);
	CHECK(jv_string(jv_get(wf, "note")) != NULL);
	jv_free(wf);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
}

/* A record on a line past the code table (2^40: a hostile code.json's index) is still looked
 * up (exposed_wave's code_of falls back to the line index): its store makes its wave a working
 * one, its stall is summed under its class, and a line past the table with no instruction is
 * on no known line. */
TEST(wave_facts_line_past_the_table)
{
	char *dir = path_join(t_tmpdir(), "pasttable");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	const int64_t far = (int64_t)1 << 40;
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, far, "buffer_store_dword v1, v2, s[0:3], 0 offen", TAX_VMEM_ISSUE);
	char insts[256];
	/* wave 0: one record, a store far out stalled 7; wave 1: 8 records on the wait (the
	 * first stalled 20), then one on a far line without an instruction stalled 5 */
	snprintf(insts, sizeof insts, "[0,3,7,11,%lld]", (long long)far);
	wave_file(dir, "se0_sm0_sl0_wv0.json", 1, insts);
	snprintf(insts, sizeof insts,
		 "[0,9,20,24,2],[24,9,0,4,2],[28,9,0,4,2],[32,9,0,4,2],[36,9,0,4,2],"
		 "[40,9,0,4,2],[44,9,0,4,2],[48,9,0,4,2],[52,9,5,9,%lld]",
		 (long long)far + 1);
	wave_file(dir, "se0_sm0_sl1_wv0.json", 1, insts);
	for (int threads = 1; threads <= 2; threads++) {
		jv *wf = NULL, *ex = NULL;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(wave_facts_and_exposed(dir, &d, threads, &wf, &ex, NULL, &e), 0);
		CHECK_INT(jv_i64(jv_get(wf, "traced_waves")), 2);
		CHECK_INT(jv_i64(jv_get(jv_get(wf, "instructions"), "busiest_wave")), 8);
		/* wave 0 ran 1 instruction (fewer than 25% of 8) but stored: it worked */
		CHECK_INT(jv_i64(jv_get(wf, "idle_waves")), 0);
		CHECK_NEAR(jv_num(jv_get(cls(wf, "vmem_issue"), "stall")), 7, 1e-9);
		CHECK_NEAR(jv_num(jv_get(cls(wf, "vmem_wait"), "stall")), 20, 1e-9);
		CHECK_NEAR(jv_num(jv_get(cls(ex, "vmem_issue"), "stall")), 7, 1e-9);
		CHECK_NEAR(jv_num(jv_get(cls(ex, "other"), "stall")), 5, 1e-9);
		jv_free(wf);
		jv_free(ex);
		fp_err_clear(&e);
	}
	trace_dispatch_release(&d);
	free(dir);
}

/* The line table of the wave passes answers every line as trace_find_line does: labels that
 * share a line with the next instruction, lines without a row, lines past the table. */
TEST(line_index_answers_as_trace_find_line)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 1, "s_load_dword s0", TAX_SMEM_WAIT);
	add(&d, 2, "label:", -1);
	d.insts[d.n_insts - 1].is_label = 1;
	add(&d, 2, "v_add_f32 v0, v1, v2", TAX_VALU);
	add(&d, 4, "end:", -1);
	d.insts[d.n_insts - 1].is_label = 1; /* a label alone on its line */
	add(&d, 7, "s_endpgm", TAX_OTHER);
	line_index li;
	line_index_init(&li, &d);
	for (int64_t l = -2; l < 12; l++)
		CHECK_INT(line_index_find(&li, l), trace_find_line(&d, l));
	CHECK_INT(line_index_find(&li, INT64_MAX), -1);
	line_index_release(&li);
	trace_dispatch_release(&d);
}

/* The same timeline whichever way it is built. */
static void check_same_timeline(const wave_timeline *a, const wave_timeline *b)
{
	CHECK_INT(a->n_tracks, b->n_tracks);
	CHECK_INT(a->n_waves, b->n_waves);
	CHECK_INT(a->n_packed, b->n_packed);
	CHECK_INT(a->realtime, b->realtime);
	CHECK_NEAR(a->origin, b->origin, 0);
	for (size_t i = 0; i < a->n_tracks && i < b->n_tracks; i++)
		CHECK(!memcmp(&a->tracks[i], &b->tracks[i], sizeof a->tracks[i]));
	for (size_t i = 0; i < a->n_waves && i < b->n_waves; i++) {
		const tl_wave *x = &a->waves[i], *y = &b->waves[i];
		CHECK_INT(x->track, y->track);
		CHECK_INT(x->id, y->id);
		CHECK_INT(x->begin, y->begin);
		CHECK_INT(x->end, y->end);
		CHECK_INT(x->rank, y->rank);
		CHECK_INT(x->n_states, y->n_states);
		CHECK_INT(x->states_end, y->states_end);
		tl_state_iter ia, ib;
		tl_state p, q;
		tl_states_first(a, x, &ia);
		tl_states_first(b, y, &ib);
		while (tl_states_next(&ia, &p) && tl_states_next(&ib, &q))
			CHECK(p.begin == q.begin && p.cycles == q.cycles && p.state == q.state);
	}
}

static void same_timeline_both_ways(const char *dir, trace_dispatch *d, int threads)
{
	wave_timeline own;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_timeline_build(dir, 0, &own, &e), 0);
	wave_pass_timeline tl;
	memset(&tl, 0, sizeof tl);
	jv *wf = NULL, *ex = NULL;
	CHECK_INT(wave_facts_and_exposed(dir, d, threads, &wf, &ex, &tl, &e), 0);
	CHECK_INT(tl.built, 1);
	if (tl.built)
		check_same_timeline(&own, &tl.t);
	wave_pass_timeline_release(&tl);
	wave_timeline_release(&own);
	jv_free(wf);
	jv_free(ex);
	fp_err_clear(&e);
}

/* REPORT.html's timeline, built in the bubbles pass (SIMD-group order: se2 before se10, sm2
 * before sm10; with several workers, groups in any order), equals the one read in name order
 * (se10 before se2). */
TEST(wave_pass_timeline_equals_name_order_build)
{
	char *dir = path_join(t_tmpdir(), "tlpass");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	char *code = path_join(dir, "code.json");
	FILE *f = fopen(code, "w");
	fprintf(f, "{\"code\":null,\"header\":\"\",\"version\":\"3.0.0\"}");
	fclose(f);
	free(code);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 2, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	static const char *const names[] = {"se10_sm0_sl0_wv0.json", "se2_sm10_sl0_wv0.json",
					    "se2_sm2_sl1_wv3.json",  "se2_sm2_sl0_wv1.json",
					    "se0_sm1_sl0_wv0.json",  "se10_sm0_sl1_wv0.json"};
	for (int i = 0; i < 6; i++)
		wave_file(dir, names[i], i % 2 + 1, i % 2 ? "[0,9,40,44,2]" : "[0,6,0,4,3]");
	for (int threads = 1; threads <= 3; threads++)
		same_timeline_both_ways(dir, &d, threads);
	/* no wave file: both fail alike (NO_ARTIFACT), the facts still come */
	char *empty = path_join(dir, "none");
	CHECK_INT(file_mkdirs(empty, &me), 0);
	char *code2 = path_join(empty, "code.json");
	f = fopen(code2, "w");
	fprintf(f, "{\"code\":null,\"header\":\"\",\"version\":\"3.0.0\"}");
	fclose(f);
	wave_pass_timeline tl;
	memset(&tl, 0, sizeof tl);
	jv *wf = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(empty, &d, 1, &wf, NULL, &tl, &e), 0);
	CHECK_INT(tl.built, 0);
	CHECK_INT(tl.err.code, ERR_NO_ARTIFACT);
	wave_pass_timeline_release(&tl);
	jv_free(wf);
	fp_err_clear(&e);
	free(code2);
	free(empty);
	trace_dispatch_release(&d);
	free(dir);
}

/* The corpus softmax dispatch (2,056 waves) read into d: its directory (owned), or NULL when
 * FLYPROF_CORPUS is not set (the test is then skipped). */
static char *corpus_softmax(trace_dispatch *d)
{
	const char *c = t_corpus();
	if (!c) {
		t_skip("FLYPROF_CORPUS not set");
		return NULL;
	}
	char *dir = path_join(c, "softmax/att/big/ui_output_agent_47920_dispatch_13");
	trace_dispatch_init(d);
	fp_err e = FP_ERR_INIT;
	CHECK_INT(att_code_read(dir, d, &e), 0);
	fp_err_clear(&e);
	return dir;
}

/* The corpus softmax's timeline, both ways, by one worker and by two. */
TEST(wave_pass_timeline_equals_build_corpus)
{
	trace_dispatch d;
	char *dir = corpus_softmax(&d);
	if (!dir)
		return;
	same_timeline_both_ways(dir, &d, 1);
	same_timeline_both_ways(dir, &d, 2);
	trace_dispatch_release(&d);
	free(dir);
}

static char *facts_text(const char *dir, trace_dispatch *d, int threads)
{
	jv *wf = NULL, *ex = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(wave_facts_and_exposed(dir, d, threads, &wf, &ex, NULL, &e), 0);
	strbuf sb = STRBUF_INIT;
	json_write(&sb, wf, 0);
	json_write(&sb, ex, 0);
	jv_free(wf);
	jv_free(ex);
	fp_err_clear(&e);
	return sb_detach(&sb);
}

/* The facts do not depend on how many workers read the waves, nor on which worker read which
 * SIMD group. */
TEST(wave_facts_same_for_any_threads_corpus)
{
	trace_dispatch d;
	char *dir = corpus_softmax(&d);
	if (!dir)
		return;
	char *want = facts_text(dir, &d, 1);
	for (int threads = 2; threads <= 5; threads += 3) {
		char *got = facts_text(dir, &d, threads);
		CHECK_STR(got, want);
		free(got);
	}
	free(want);
	trace_dispatch_release(&d);
	free(dir);
}

/* Synthetic SIMD groups in memory for the accumulator tests: 2 to 7 waves, records on lines
 * 1..6 (line 6 unknown), stalls and issues of random length and gaps, some overlapping, so
 * cycles split 2..7 ways (thirds, fifths, sevenths: no float sum of those is exact). */
#define SYN_GROUPS 24
typedef struct syn {
	att_wave waves[SYN_GROUPS][7];
	wave_group g[SYN_GROUPS];
} syn;

static uint64_t syn_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static void syn_build(syn *s, trace_dispatch *d)
{
	trace_dispatch_init(d);
	add(d, 1, "s_waitcnt vmcnt(0)", TAX_VMEM_WAIT);
	add(d, 2, "s_waitcnt lgkmcnt(0)", TAX_SMEM_WAIT);
	add(d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	add(d, 4, "s_barrier", TAX_BARRIER);
	add(d, 5, "buffer_store_dword v1, v2, s[0:3], 0 offen", TAX_VMEM_ISSUE);
	uint64_t r = 12345;
	for (int k = 0; k < SYN_GROUPS; k++) {
		size_t nw = 2 + syn_rand(&r) % 6;
		for (size_t w = 0; w < nw; w++) {
			att_wave *a = &s->waves[k][w];
			att_wave_init(a);
			a->begin = (int64_t)(syn_rand(&r) % 50);
			size_t n = 5 + syn_rand(&r) % 40;
			a->insts = xcalloc(n, sizeof *a->insts);
			a->n_insts = a->cap_insts = n;
			int64_t t = a->begin + (int64_t)(syn_rand(&r) % 5);
			for (size_t i = 0; i < n; i++) {
				att_wave_inst *in = &a->insts[i];
				in->time = t;
				in->stall = syn_rand(&r) % 3 ? (int64_t)(syn_rand(&r) % 97) : 0;
				in->duration = in->stall + (int64_t)(syn_rand(&r) % 9);
				in->line = 1 + (int64_t)(syn_rand(&r) % 6);
				/* mostly in order, now and then a record that overlaps the previous
				 */
				t += syn_rand(&r) % 10 ? in->duration + (int64_t)(syn_rand(&r) % 4)
						       : 1;
			}
			a->end = t + (int64_t)(syn_rand(&r) % 20);
		}
		s->g[k] = (wave_group){0, k, 0, s->waves[k], nw, NULL};
	}
}

static void syn_release(syn *s, trace_dispatch *d)
{
	for (int k = 0; k < SYN_GROUPS; k++)
		for (size_t w = 0; w < s->g[k].n; w++)
			att_wave_release(&s->waves[k][w]);
	trace_dispatch_release(d);
}

static void check_same_acc(const exposed_acc *x, const exposed_acc *y)
{
	CHECK_INT(x->simds, y->simds);
	CHECK_INT(x->window, y->window);
	CHECK_INT(x->issue, y->issue);
	CHECK_INT(x->empty, y->empty);
	CHECK_INT(x->exposed, y->exposed);
	CHECK(x->unknown_exposed == y->unknown_exposed);
	CHECK(x->unknown_stall == y->unknown_stall);
	size_t n = x->d->n_insts;
	CHECK(!memcmp(x->line_exposed, y->line_exposed, n * sizeof *x->line_exposed));
	CHECK(!memcmp(x->line_stall, y->line_stall, n * sizeof *x->line_stall));
	jv *a = exposed_to_json(x, 10), *b = exposed_to_json(y, 10);
	strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	json_write(&sa, a, 0);
	json_write(&sb, b, 0);
	CHECK_STR(sa.buf, sb.buf);
	sb_release(&sa);
	sb_release(&sb);
	jv_free(a);
	jv_free(b);
}

/* Exact accumulation: the groups added in reverse order, or split between two accumulators
 * (odd and even groups, as worker threads would take them) and merged, give the very sums of
 * adding them in order to one; every exposed cycle is split into whole units, so the class
 * shares add up to exposed_cycles exactly. */
TEST(exposed_merge_and_order_are_exact)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	exposed_acc all, rev, half[2];
	exposed_init(&all, &d);
	exposed_init(&rev, &d);
	exposed_init(&half[0], &d);
	exposed_init(&half[1], &d);
	for (int k = 0; k < SYN_GROUPS; k++) {
		exposed_group(&all, &s.g[k]);
		exposed_group(&rev, &s.g[SYN_GROUPS - 1 - k]);
		exposed_group(&half[k % 2], &s.g[k]);
	}
	exposed_merge(&half[1], &half[0]);
	CHECK_INT(all.simds, SYN_GROUPS);
	CHECK(all.exposed > 0 && all.issue > 0);
	check_same_acc(&all, &rev);
	check_same_acc(&all, &half[1]);
	exposed_fx sum = 0, cls_ex[TAX__COUNT], cls_st[TAX__COUNT];
	exposed_class_sums(&all, cls_ex, cls_st);
	for (int c = 0; c < TAX__COUNT; c++)
		sum += cls_ex[c];
	CHECK(sum == (exposed_fx)all.exposed * EXPOSED_UNIT);
	CHECK_INT(all.window, all.issue + all.empty + all.exposed);
	exposed_release(&all);
	exposed_release(&rev);
	exposed_release(&half[0]);
	exposed_release(&half[1]);
	syn_release(&s, &d);
}

/* With the facts in the pass its workers take whole SIMD groups (se2 before se10), yet a
 * malformed file is reported as before: the first in name order (se10_... before se2_...),
 * whatever the number of workers. */
TEST(wave_pass_groups_report_first_bad_file_in_name_order)
{
	char *dir = path_join(t_tmpdir(), "badgroups");
	fp_err me = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &me), 0);
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 3, "v_add_f32_e32 v1, v2, v3", TAX_VALU);
	wave_file(dir, "se0_sm0_sl0_wv0.json", 1, "[0,6,0,4,3]");
	wave_file(dir, "se2_sm0_sl0_wv0.json", 1, "[0,6,0,4,3]");
	wave_file(dir, "se2_sm0_sl1_wv0.json", 1, "[0,6,0,4,3],[oops]");
	wave_file(dir, "se10_sm0_sl0_wv0.json", 1, "[0,6,0,4,3]");
	wave_file(dir, "se10_sm0_sl1_wv0.json", 1, "[1,2,x]");
	for (int threads = 1; threads <= 3; threads++) {
		jv *wf = NULL, *ex = NULL;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(wave_facts_and_exposed(dir, &d, threads, &wf, &ex, NULL, &e), -1);
		CHECK_INT(e.code, ERR_BAD_INPUT);
		CHECK(e.message && strstr(e.message, "se10_sm0_sl1_wv0.json") != NULL);
		CHECK(wf == NULL && ex == NULL);
		fp_err_clear(&e);
	}
	trace_dispatch_release(&d);
	free(dir);
}

/* Groups whose waves' records do not overlap within a wave but are listed out of time order
 * in some waves (the sorted-copy path), with wave begin and end cutting records off (the
 * window clamp), against the definition evaluated cycle by cycle. */
static void syn_build_shuffled(syn *s, trace_dispatch *d)
{
	syn_build(s, d);
	uint64_t r = 777;
	for (int k = 0; k < SYN_GROUPS; k++)
		for (size_t w = 0; w < s->g[k].n; w++) {
			att_wave *a = &s->waves[k][w];
			int64_t t = a->begin;
			for (size_t i = 0; i < a->n_insts; i++) {
				a->insts[i].time = t;
				t += a->insts[i].duration > a->insts[i].stall ? a->insts[i].duration
									      : a->insts[i].stall;
				t += (int64_t)(syn_rand(&r) % 3);
			}
			a->end = t;
			if (syn_rand(&r) % 4 == 0) { /* swap two records */
				size_t i = syn_rand(&r) % a->n_insts, j = syn_rand(&r) % a->n_insts;
				att_wave_inst tmp = a->insts[i];
				a->insts[i] = a->insts[j];
				a->insts[j] = tmp;
			}
			if (syn_rand(&r) % 5 == 0) /* records outside the wave's own span */
				a->begin += 7, a->end -= 5;
		}
}

/* Moves every wave of s, its records with it, by `by` cycles. */
static void syn_shift(syn *s, int64_t by)
{
	for (int k = 0; k < SYN_GROUPS; k++)
		for (size_t w = 0; w < s->g[k].n; w++) {
			att_wave *a = &s->waves[k][w];
			a->begin += by, a->end += by;
			for (size_t i = 0; i < a->n_insts; i++)
				a->insts[i].time += by;
		}
}

/* Times near the int64 limits (past 2^61 from 0) take the sweep's wrapping sums instead of its
 * plain differences (group_blocks' tame): the same figures as the same groups near 0. */
TEST(exposed_group_far_times_same_as_near)
{
	static syn s;
	trace_dispatch d;
	const int64_t far = (int64_t)3 << 61;
	for (int shuffled = 0; shuffled < 2; shuffled++) {
		/* shuffled: waves in order (the sweep), but for some swapped records (the merge) */
		if (shuffled)
			syn_build_shuffled(&s, &d);
		else
			syn_build(&s, &d);
		exposed_acc near, up, down;
		exposed_init(&near, &d);
		exposed_init(&up, &d);
		exposed_init(&down, &d);
		for (int k = 0; k < SYN_GROUPS; k++)
			exposed_group(&near, &s.g[k]);
		syn_shift(&s, far);
		for (int k = 0; k < SYN_GROUPS; k++)
			exposed_group(&up, &s.g[k]);
		syn_shift(&s, -far);
		syn_shift(&s, -far);
		for (int k = 0; k < SYN_GROUPS; k++)
			exposed_group(&down, &s.g[k]);
		syn_shift(&s, far);
		CHECK(near.exposed > 0 && near.issue > 0);
		check_same_acc(&near, &up);
		check_same_acc(&near, &down);
		exposed_release(&near);
		exposed_release(&up);
		exposed_release(&down);
		syn_release(&s, &d);
	}
}

/* The definition evaluated cycle by cycle over the groups of s, times the windows and
 * records are multiplied by `scale` (so that they span many of the sweep's blocks), against
 * exposed_group. */
static void check_definition(syn *s, trace_dispatch *d, int64_t scale)
{
	for (int k = 0; k < SYN_GROUPS; k++)
		for (size_t w = 0; w < s->g[k].n; w++) {
			att_wave *a = &s->waves[k][w];
			a->begin *= scale, a->end *= scale;
			for (size_t i = 0; i < a->n_insts; i++) {
				a->insts[i].time *= scale;
				a->insts[i].stall *= scale;
				a->insts[i].duration *= scale;
			}
		}
	line_index li;
	line_index_init(&li, d);
	exposed_acc got;
	exposed_init(&got, d);
	int64_t window = 0, issue = 0, empty = 0, exposed = 0;
	exposed_fx cls_ex[TAX__COUNT] = {0}, line_ex[8] = {0}, cls_st[TAX__COUNT] = {0};
	exposed_fx line_st[8] = {0};
	for (int k = 0; k < SYN_GROUPS; k++) {
		const wave_group *g = &s->g[k];
		exposed_group(&got, g);
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t w = 0; w < g->n; w++) {
			lo = g->waves[w].begin < lo ? g->waves[w].begin : lo;
			hi = g->waves[w].end > hi ? g->waves[w].end : hi;
		}
		window += hi - lo;
		/* per cycle of the window: issuing records, stalled records per line 1..6
		 */
		size_t n = (size_t)(hi - lo);
		int *iss = xcalloc(n, sizeof *iss), (*cnt)[8] = xcalloc(n, sizeof *cnt);
		for (size_t w = 0; w < g->n; w++)
			for (size_t i = 0; i < g->waves[w].n_insts; i++) {
				const att_wave_inst *in = &g->waves[w].insts[i];
				int64_t st = in->stall > 0 ? in->stall : 0;
				long li_i = line_index_find(&li, in->line);
				cls_st[li_i >= 0 ? d->insts[li_i].klass : TAX_OTHER] +=
				    (uint64_t)st;
				if (li_i >= 0)
					line_st[li_i] += (uint64_t)st;
				for (int64_t c = in->time; c < in->time + in->duration; c++)
					if (c >= lo && c < hi && c >= in->time + st)
						iss[c - lo]++;
				for (int64_t c = in->time; c < in->time + st; c++)
					if (c >= lo && c < hi)
						cnt[c - lo][in->line]++;
			}
		for (size_t c = 0; c < n; c++) {
			int total = 0;
			for (int l = 1; l <= 6; l++)
				total += cnt[c][l];
			if (iss[c])
				issue++;
			else if (!total)
				empty++;
			else {
				exposed++;
				for (int l = 1; l <= 6; l++) {
					if (!cnt[c][l])
						continue;
					long i = line_index_find(&li, l);
					exposed_fx u = (exposed_fx)cnt[c][l] * EXPOSED_UNIT / total;
					cls_ex[i >= 0 ? d->insts[i].klass : TAX_OTHER] += u;
					if (i >= 0)
						line_ex[i] += u;
				}
			}
		}
		free(iss);
		free(cnt);
	}
	CHECK_INT(got.window, window);
	CHECK_INT(got.issue, issue);
	CHECK_INT(got.empty, empty);
	CHECK_INT(got.exposed, exposed);
	CHECK(exposed > 0 && empty > 0);
	exposed_fx got_ex[TAX__COUNT], got_st[TAX__COUNT];
	exposed_class_sums(&got, got_ex, got_st);
	CHECK(!memcmp(got_ex, cls_ex, sizeof cls_ex));
	CHECK(!memcmp(got.line_exposed, line_ex, d->n_insts * sizeof *line_ex));
	/* every record's stall, also of records past the window's end */
	CHECK(!memcmp(got_st, cls_st, sizeof cls_st));
	CHECK(!memcmp(got.line_stall, line_st, d->n_insts * sizeof *line_st));
	exposed_release(&got);
	line_index_release(&li);
}

/* Groups of waves in order take the block sweep, the others (a record listed out of order)
 * the event merge; both give the definition's figures, windows of a few hundred cycles or
 * of a few hundred thousand (many blocks, intervals cut at block ends). */
TEST(exposed_group_matches_cycle_by_cycle_definition)
{
	static syn s;
	static const int64_t scales[] = {1, 97};
	for (int i = 0; i < 2; i++) {
		trace_dispatch d;
		syn_build_shuffled(&s, &d);
		check_definition(&s, &d, scales[i]);
		syn_release(&s, &d);
	}
}

/* 20 waves stalled at once (more than a SIMD holds: a malformed group) take the event
 * merge: each stalls 0..40 on line 1 (odd waves) or 4 (even), then issues 40..41, in a
 * window 0..100. Split 20 ways between two lines, 10 records each, every share is still
 * whole. */
TEST(exposed_group_more_waves_than_a_simd)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	att_wave many[20];
	for (int w = 0; w < 20; w++) {
		att_wave_init(&many[w]);
		many[w].begin = 0;
		many[w].end = 100;
		many[w].insts = xcalloc(1, sizeof *many[w].insts);
		many[w].n_insts = many[w].cap_insts = 1;
		many[w].insts[0] = (att_wave_inst){0, 9, 40, 41, w % 2 ? 1 : 4};
	}
	wave_group g = {0, 0, 0, many, 20, NULL};
	exposed_acc a;
	exposed_init(&a, &d);
	exposed_group(&a, &g);
	CHECK_INT(a.window, 100);
	CHECK_INT(a.exposed, 40);
	CHECK_INT(a.issue, 1);
	CHECK_INT(a.empty, 59);
	CHECK(a.line_exposed[0] == (exposed_fx)20 * EXPOSED_UNIT); /* line 1 */
	CHECK(a.line_exposed[3] == (exposed_fx)20 * EXPOSED_UNIT); /* line 4 */
	exposed_fx cls_ex[TAX__COUNT], cls_st[TAX__COUNT];
	exposed_class_sums(&a, cls_ex, cls_st);
	CHECK(cls_ex[TAX_VMEM_WAIT] == (exposed_fx)20 * EXPOSED_UNIT);
	CHECK(cls_st[TAX_BARRIER] == 400 && a.line_stall[0] == 400);
	/* the sums by class follow the classes as they are when asked (the pass runs before
	 * report sets them): line 1 (vmem_wait) moves to valu */
	int16_t was = d.insts[0].klass;
	d.insts[0].klass = TAX_VALU;
	exposed_class_sums(&a, cls_ex, cls_st);
	CHECK(cls_st[TAX_VMEM_WAIT] == 0 && cls_st[TAX_VALU] == 400);
	CHECK(cls_ex[TAX_VALU] == (exposed_fx)20 * EXPOSED_UNIT);
	d.insts[0].klass = was;
	exposed_release(&a);
	for (int w = 0; w < 20; w++)
		att_wave_release(&many[w]);
	syn_release(&s, &d);
}

/* State segments are packed (variable-length state and length, begins implied): a run of one
 * state is one segment, rows without a positive duration are skipped, and large, negative or
 * odd values come back as they went in. */
TEST(wave_timeline_states_pack_and_unpack)
{
	wave_timeline t;
	memset(&t, 0, sizeof t);
	att_wave w;
	att_wave_init(&w);
	w.begin = -5;
	w.end = 100;
	w.cu = 1;
	static const att_wave_state rows[] = {{2, 5},	      {2, 3},  {3, 0}, {3, -4},
					      {4, 1ll << 40}, {-7, 2}, {1, 1}, {300, 200}};
	w.timeline = xcalloc(8, sizeof *w.timeline);
	memcpy(w.timeline, rows, sizeof rows);
	w.n_timeline = w.cap_timeline = 8;
	CHECK_INT(wave_timeline_add(&t, "se0_sm0_sl0_wv0.json", 0, &w), 1);
	CHECK_INT(wave_timeline_add(&t, "se0_sm0_sl0_wv1.json", 1, &w), 1);
	static const tl_state want[] = {{-5, 8, 2},
					{3, 1ll << 40, 4},
					{3 + (1ll << 40), 2, -7},
					{5 + (1ll << 40), 1, 1},
					{6 + (1ll << 40), 200, 300}};
	for (size_t k = 0; k < 2; k++) {
		const tl_wave *tw = &t.waves[k];
		CHECK_INT(tw->n_states, 5);
		CHECK_INT(tw->states_end, 206 + (1ll << 40));
		tl_state_iter it;
		tl_state s;
		size_t n = 0;
		tl_states_first(&t, tw, &it);
		while (tl_states_next(&it, &s) && n < 5) {
			CHECK_INT(s.begin, want[n].begin);
			CHECK_INT(s.cycles, want[n].cycles);
			CHECK_INT(s.state, want[n].state);
			n++;
		}
		CHECK_INT(n, 5);
	}
	CHECK(t.n_packed < 2 * 5 * sizeof(tl_state) / 3); /* far smaller than unpacked */
	att_wave_release(&w);
	wave_timeline_release(&t);
}

/* A record that starts after the SIMD's window (the last wave end) adds no cycle, but its stall
 * is still summed: the sweep stops at the window's end and sums the records it did not reach. */
TEST(exposed_group_sums_stall_past_the_window)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	att_wave two[2];
	static const att_wave_inst recs[2][2] = {{{0, 9, 10, 14, 1}, {60, 9, 5, 6, 4}},
						 {{0, 9, 20, 24, 4}, {24, 6, 0, 4, 3}}};
	for (int w = 0; w < 2; w++) {
		att_wave_init(&two[w]);
		two[w].begin = 0;
		two[w].end = w ? 40 : 50;
		two[w].insts = xcalloc(2, sizeof *two[w].insts);
		two[w].n_insts = two[w].cap_insts = 2;
		memcpy(two[w].insts, recs[w], sizeof recs[w]);
	}
	wave_group g = {0, 0, 0, two, 2, NULL};
	exposed_acc a;
	exposed_init(&a, &d);
	exposed_group(&a, &g);
	/* 0..10 both stalled, 10..14 wave 0 issues, 14..20 wave 1 stalled, 20..28 issue */
	CHECK_INT(a.window, 50);
	CHECK_INT(a.issue, 12);
	CHECK_INT(a.exposed, 16);
	CHECK_INT(a.empty, 22);
	CHECK(a.line_stall[0] == 10 && a.line_stall[3] == 25); /* line 4: 20 + 5 past the window */
	CHECK(a.line_exposed[0] == (exposed_fx)5 * EXPOSED_UNIT);
	CHECK(a.line_exposed[3] == (exposed_fx)11 * EXPOSED_UNIT);
	exposed_release(&a);
	for (int w = 0; w < 2; w++)
		att_wave_release(&two[w]);
	syn_release(&s, &d);
}

/* The per-cycle pass of the block sweep gives the same phi and counts in its AVX2 form as in its
 * scalar one, on blocks of every length mod 8 with up to 16 waves' intervals (random, short or
 * long, each wave's issue and stall intervals disjoint as in a wave in order), and leaves the
 * changes zeroed. */
TEST(exposed_cycles_avx2_equals_scalar)
{
	static uint32_t d[2][EXPOSED_BLOCK + 1], phi[2][EXPOSED_BLOCK + 1];
	uint64_t r = 99;
	for (int round = 0; round < 200; round++) {
		int64_t len = round < 17 ? round + 1 : 1 + (int64_t)(syn_rand(&r) % EXPOSED_BLOCK);
		int waves = 1 + (int)(syn_rand(&r) % 16);
		for (int w = 0; w < waves; w++)
			for (int64_t t = (int64_t)(syn_rand(&r) % 8); t < len;) {
				/* short intervals, or long ones (steps of 8 cycles without change)
				 */
				int64_t n = 1 + (int64_t)(syn_rand(&r) % (round % 3 ? 40 : 900));
				int64_t e = t + n < len ? t + n : len;
				uint32_t one = syn_rand(&r) % 2 ? 1 : EXPOSED_STALL_ONE;
				for (int c = 0; c < 2; c++)
					d[c][t] += one, d[c][e] -= one;
				t = e + (int64_t)(syn_rand(&r) % 6);
			}
		uint64_t s0 = exposed_cycles(d[0], phi[0], len, 0);
		uint64_t s1 = exposed_cycles(d[1], phi[1], len, 1);
		CHECK(s0 == s1);
		CHECK(!memcmp(phi[0], phi[1], (size_t)(len + 1) * sizeof phi[0][0]));
		for (int c = 0; c < 2; c++)
			for (int64_t k = 0; k <= len; k++)
				CHECK(d[c][k] == 0);
	}
}

/* A wave without records does not keep a group from the block sweep (its order flag was once
 * left from the group before); a wave out of order sends its group to the event merge. */
TEST(exposed_group_wave_without_records_is_in_order)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	att_wave two[2];
	static const att_wave_inst recs[3] = {{10, 6, 0, 4, 3}, {0, 6, 0, 4, 3}, {20, 9, 5, 6, 1}};
	for (int w = 0; w < 2; w++) {
		att_wave_init(&two[w]);
		two[w].begin = 0;
		two[w].end = 40;
		two[w].insts = xcalloc(3, sizeof *two[w].insts);
		two[w].cap_insts = 3;
	}
	memcpy(two[0].insts, recs, 2 * sizeof recs[0]); /* out of order */
	two[0].n_insts = 2;
	two[1].insts[0] = recs[2];
	two[1].n_insts = 1;
	wave_group g = {0, 0, 0, two, 2, NULL};
	exposed_acc a;
	exposed_init(&a, &d);
	exposed_group(&a, &g);
	CHECK_INT(a.scratch->ev != NULL, 1);
	CHECK_INT(a.scratch->in_order[0], 0);
	exposed_release(&a);
	exposed_init(&a, &d);
	two[0].n_insts = 0;
	exposed_group(&a, &g);
	CHECK_INT(a.scratch->ev != NULL, 0);
	CHECK_INT(a.window, 40);
	CHECK_INT(a.exposed, 5);
	CHECK_INT(a.issue, 1);
	exposed_release(&a);
	for (int w = 0; w < 2; w++)
		att_wave_release(&two[w]);
	syn_release(&s, &d);
}

/* A group with many cycles a record (a 10^9-cycle stall) takes the event merge, whose cost does
 * not grow with the cycles; the same group 10^8 times shorter takes the block sweep. Both give
 * the figures of the definition. */
TEST(exposed_group_sparse_window_takes_the_merge)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	static const int64_t scale[2] = {1000000000, 10};
	for (int i = 0; i < 2; i++) {
		att_wave one;
		att_wave_init(&one);
		one.begin = 0;
		one.end = 2 * scale[i];
		one.insts = xcalloc(2, sizeof *one.insts);
		one.n_insts = one.cap_insts = 2;
		one.insts[0] = (att_wave_inst){0, 9, scale[i], scale[i] + 4, 1};
		one.insts[1] = (att_wave_inst){scale[i] + 4, 6, 0, 4, 3};
		wave_group g = {0, 0, 0, &one, 1, NULL};
		exposed_acc a;
		exposed_init(&a, &d);
		exposed_group(&a, &g);
		CHECK_INT(a.scratch->ev != NULL, i == 0);
		CHECK_INT(a.exposed, scale[i]);
		CHECK_INT(a.issue, 8);
		CHECK_INT(a.empty, scale[i] - 8);
		CHECK(a.line_exposed[0] == (exposed_fx)scale[i] * EXPOSED_UNIT);
		exposed_release(&a);
		att_wave_release(&one);
	}
	syn_release(&s, &d);
}

/* A record out of order that the sweep meets only after the window (its wave's previous record
 * starts past the window's end): the sweep has added the whole window by then, adds nothing of
 * it, and the event merge gives the figures. */
TEST(exposed_group_out_of_order_after_the_window)
{
	static syn s;
	trace_dispatch d;
	syn_build(&s, &d);
	att_wave two[2];
	static const att_wave_inst recs[2][3] = {
	    {{0, 9, 10, 14, 1}, {60, 9, 5, 6, 4}, {20, 9, 5, 6, 4}},
	    {{0, 9, 20, 24, 4}, {24, 6, 0, 4, 3}, {0, 0, 0, 0, 0}}};
	for (int w = 0; w < 2; w++) {
		att_wave_init(&two[w]);
		two[w].begin = 0;
		two[w].end = w ? 40 : 50;
		two[w].insts = xcalloc(3, sizeof *two[w].insts);
		two[w].n_insts = two[w].cap_insts = w ? 2 : 3;
		memcpy(two[w].insts, recs[w], sizeof recs[w]);
	}
	wave_group g = {0, 0, 0, two, 2, NULL};
	exposed_acc a;
	exposed_init(&a, &d);
	exposed_group(&a, &g);
	CHECK_INT(a.scratch->ev != NULL, 1);
	/* 0..10 both stalled, 10..14 issue, 14..20 wave 1 stalled, 20..28 issue (wave 0's stall
	 * 20..25 hidden) */
	CHECK_INT(a.window, 50);
	CHECK_INT(a.issue, 12);
	CHECK_INT(a.exposed, 16);
	CHECK_INT(a.empty, 22);
	CHECK(a.line_stall[0] == 10 && a.line_stall[3] == 30);
	exposed_fx cls_ex[TAX__COUNT], cls_st[TAX__COUNT];
	exposed_class_sums(&a, cls_ex, cls_st);
	CHECK(cls_st[TAX_VMEM_WAIT] == 10 && cls_st[TAX_BARRIER] == 30);
	CHECK(a.line_exposed[0] == (exposed_fx)5 * EXPOSED_UNIT);
	CHECK(a.line_exposed[3] == (exposed_fx)11 * EXPOSED_UNIT);
	CHECK(cls_ex[TAX_BARRIER] == (exposed_fx)11 * EXPOSED_UNIT);
	exposed_release(&a);
	for (int w = 0; w < 2; w++)
		att_wave_release(&two[w]);
	syn_release(&s, &d);
}
