/* The synthetic kernel and the file writers of gen_att. Included by bench/gen_att.c only: the
 * Makefile builds one program per bench/NAME.c, so the generator's second half lives in a header
 * of static functions rather than a second .c file. */
#ifndef FLYPROF_BENCH_GEN_ATT_KERNEL_H
#define FLYPROF_BENCH_GEN_ATT_KERNEL_H

#include "base/json/jv.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/json/json_write.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GK_KERNEL     "synth_gemm_kernel_0"
#define GK_LINES      36
#define GK_LOOP_FIRST 5
#define GK_LOOP_LAST  31
#define GK_BODY	      (GK_LOOP_LAST - GK_LOOP_FIRST + 1)
#define GK_FIXED      8	 /* prologue 4 + epilogue 4 */
#define GK_POSITIONS  32 /* 4 SEs x 4 SIMDs x 2 slots on the traced CU */
#define GK_SRC	      "/synthetic/kernels/synth_gemm.py"

enum gk_kind {
	GK_SMEM,
	GK_VALU,
	GK_WAIT_LGKM0,
	GK_WAIT_VM,
	GK_WAIT_LGKM,
	GK_WAIT_BOTH,
	GK_VMEM,
	GK_FLAT,
	GK_LDS,
	GK_BARRIER,
	GK_MFMA,
	GK_SALU,
	GK_BRANCH,
	GK_NOP,
	GK_END
};

typedef struct gk_inst {
	const char *isa;
	int cat;  /* decoder category (docs/facts-rocprofv3.md#categories) */
	int line; /* source line in GK_SRC, 0 = no source */
	int kind;
	int prod[3]; /* producer code lines of a wait, 0-terminated */
} gk_inst;

static const gk_inst gk_code[GK_LINES] = {
    {"; " GK_KERNEL, 0, 0, GK_NOP, {0}},
    {"s_load_dwordx4 s[0:3], s[4:5], 0x0", 1, 12, GK_SMEM, {0}},
    {"s_load_dwordx2 s[8:9], s[4:5], 0x10", 1, 12, GK_SMEM, {0}},
    {"v_mov_b32_e32 v1, 0", 6, 13, GK_VALU, {0}},
    {"s_waitcnt lgkmcnt(0)", 9, 12, GK_WAIT_LGKM0, {1, 2}},
    {"buffer_load_dwordx4 v[4:7], v1, s[0:3], 0 offen", 3, 20, GK_VMEM, {0}},
    {"buffer_load_dwordx4 v[8:11], v1, s[0:3], 0 offen offset:1024", 3, 20, GK_VMEM, {0}},
    {"v_add_u32_e32 v1, 0x800, v1", 6, 22, GK_VALU, {0}},
    {"s_waitcnt vmcnt(0)", 9, 20, GK_WAIT_VM, {5, 6}},
    {"ds_write_b128 v20, v[4:7]", 5, 24, GK_LDS, {0}},
    {"ds_write_b128 v20, v[8:11] offset:4096", 5, 24, GK_LDS, {0}},
    {"s_waitcnt lgkmcnt(0)", 9, 24, GK_WAIT_LGKM, {9, 10}},
    {"s_barrier", 9, 25, GK_BARRIER, {0}},
    {"global_load_dwordx4 v[12:15], v[2:3], off", 4, 21, GK_FLAT, {0}},
    {"ds_read_b128 v[24:27], v21", 5, 27, GK_LDS, {0}},
    {"ds_read_b128 v[28:31], v21 offset:512", 5, 27, GK_LDS, {0}},
    {"s_waitcnt vmcnt(0) lgkmcnt(0)", 9, 27, GK_WAIT_BOTH, {13, 14, 15}},
    {"v_mfma_f32_16x16x32_bf16 a[0:3], v[24:27], v[28:31], a[0:3]", 6, 30, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[4:7], v[24:27], v[30:33], a[4:7]", 6, 30, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[8:11], v[26:29], v[28:31], a[8:11]", 6, 30, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[12:15], v[26:29], v[30:33], a[12:15]", 6, 30, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[16:19], v[12:15], v[28:31], a[16:19]", 6, 31, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[20:23], v[12:15], v[30:33], a[20:23]", 6, 31, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[24:27], v[14:17], v[28:31], a[24:27]", 6, 31, GK_MFMA, {0}},
    {"v_mfma_f32_16x16x32_bf16 a[28:31], v[14:17], v[30:33], a[28:31]", 6, 31, GK_MFMA, {0}},
    {"v_fma_f32 v32, v33, v34, v32", 6, 32, GK_VALU, {0}},
    {"v_pk_mul_f32 v[36:37], v[38:39], v[40:41]", 6, 32, GK_VALU, {0}},
    {"v_cvt_pk_bf16_f32 v42, v43, v44", 6, 33, GK_VALU, {0}},
    {"v_add_f32_e32 v45, v46, v47", 6, 33, GK_VALU, {0}},
    {"s_add_u32 s10, s10, 1", 2, 18, GK_SALU, {0}},
    {"s_cmp_lt_u32 s10, s11", 2, 18, GK_SALU, {0}},
    {"s_cbranch_scc1 65510", 7, 18, GK_BRANCH, {0}},
    {"v_cvt_pk_bf16_f32 v0, v1, v2", 6, 35, GK_VALU, {0}},
    {"buffer_store_dwordx4 v[0:3], v1, s[0:3], 0 offen", 3, 36, GK_VMEM, {0}},
    {"s_nop 0", 9, 0, GK_NOP, {0}},
    {"s_endpgm", 11, 0, GK_END, {0}},
};

typedef struct line_stat {
	int64_t hits, latency, stall, idle;
} line_stat;

typedef struct seg_ev {
	int64_t time;
	int32_t state, delta;
} seg_ev;

typedef struct seg_list {
	int on;
	seg_ev *v;
	size_t n, cap;
} seg_list;

typedef struct wave_pos {
	int se, simd, slot, n;
	int64_t begin, end;
} wave_pos;

static uint64_t gk_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Uniform 0..n-1 (n > 0) times 4: the quad-cycle resolution of gfx9 timestamps. */
static int64_t gk_q(uint64_t *s, int n)
{
	return 4 * (int64_t)(gk_rng(s) % (uint64_t)n);
}

static wave_pos gk_layout(int w, int waves)
{
	(void)waves;
	int idx = w % GK_POSITIONS;
	wave_pos p = {idx / 8, (idx / 2) % 4, idx % 2, w / GK_POSITIONS, 0, 0};
	return p;
}

/* Fills positions; begins are set while generating (a slot's next wave starts after the
 * previous one on that slot ends). */
static void gk_schedule(wave_pos *p, int waves, int iters)
{
	(void)iters;
	for (int w = 0; w < waves; w++)
		p[w] = gk_layout(w, waves);
}

static void gk_int(strbuf *sb, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[n++] = '-';
	char out[24];
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	sb_add(sb, out, (size_t)n);
}

/* stall and issue cycles of one execution of line `l`. */
static void gk_timing(uint64_t *s, int l, int last_iter, int64_t *stall, int64_t *issue)
{
	*stall = 0;
	*issue = 4;
	switch (gk_code[l].kind) {
	case GK_WAIT_LGKM0:
		*stall = 400 + gk_q(s, 200);
		break;
	case GK_WAIT_VM:
		*stall = 200 + gk_q(s, 300);
		break;
	case GK_WAIT_LGKM:
		*stall = 20 + gk_q(s, 30);
		break;
	case GK_WAIT_BOTH:
		*stall = 80 + gk_q(s, 150);
		break;
	case GK_BARRIER:
		*stall = gk_q(s, 100);
		break;
	case GK_MFMA:
		*issue = 8;
		*stall = gk_q(s, 4);
		break;
	case GK_VMEM:
	case GK_FLAT:
		*stall = gk_rng(s) % 4 == 0 ? gk_q(s, 16) : 0;
		break;
	case GK_LDS:
		*stall = gk_rng(s) % 8 == 0 ? gk_q(s, 8) : 0;
		break;
	default:
		*stall = gk_rng(s) % 16 == 0 ? 4 : 0;
		break;
	}
	(void)last_iter;
	if (gk_code[l].kind >= GK_WAIT_LGKM0 && gk_code[l].kind <= GK_WAIT_BOTH) {
		if (*stall < 4)
			*stall = 4;
		*issue = 0; /* a wait's whole duration is stall (docs/facts-rocprofv3.md#metric-semantics) */
	}
}

typedef struct gk_tl {
	int state;
	int64_t dur;
} gk_tl;

typedef struct gk_wave_buf {
	strbuf insts, waits;
	gk_tl *tl;
	size_t ntl, cap;
} gk_wave_buf;

static void gk_seg(gk_wave_buf *b, seg_list *segs, int state, int64_t t, int64_t dur)
{
	if (dur <= 0)
		return;
	if (b->ntl && b->tl[b->ntl - 1].state == state) {
		b->tl[b->ntl - 1].dur += dur;
	} else {
		b->tl = xgrow(b->tl, &b->cap, b->ntl + 1, sizeof *b->tl);
		b->tl[b->ntl++] = (gk_tl){state, dur};
	}
	if (segs) {
		segs->v = xgrow(segs->v, &segs->cap, segs->n + 2, sizeof *segs->v);
		segs->v[segs->n++] = (seg_ev){t, state, 1};
		segs->v[segs->n++] = (seg_ev){t + dur, state, -1};
	}
}

/* One executed instruction: record, stats (docs/facts-rocprofv3.md#metric-semantics), timeline, waitcnt entry. */
static void gk_exec(gk_wave_buf *b, uint64_t *s, int l, int last, int64_t *prev, line_stat *st,
		    seg_list *segs)
{
	int64_t gap = gk_rng(s) % 10 == 0 ? gk_q(s, 8) : 0, stall, issue;
	gk_timing(s, l, last, &stall, &issue);
	int64_t t = *prev + gap, dur = stall + issue;
	int cat = gk_code[l].kind == GK_BRANCH && last ? 8 : gk_code[l].cat;
	strbuf *o = &b->insts;
	if (o->len)
		sb_addc(o, ',');
	sb_addc(o, '[');
	int64_t vals[5] = {t, cat, stall, dur, l};
	for (int k = 0; k < 5; k++) {
		if (k)
			sb_addc(o, ',');
		gk_int(o, vals[k]);
	}
	sb_addc(o, ']');
	st[l].hits++;
	st[l].latency += dur;
	st[l].stall += stall;
	st[l].idle += gap;
	int waiting = gk_code[l].kind >= GK_WAIT_LGKM0 && gk_code[l].kind <= GK_BARRIER;
	gk_seg(b, segs, 1, *prev, gap);
	gk_seg(b, segs, waiting ? 3 : 4, t, stall);
	gk_seg(b, segs, 2, t + stall, issue);
	*prev = t + dur;
	if (gk_code[l].prod[0]) {
		if (b->waits.len)
			sb_addc(&b->waits, ',');
		sb_addc(&b->waits, '[');
		gk_int(&b->waits, l);
		sb_adds(&b->waits, ",[");
		for (int k = 0; k < 3 && gk_code[l].prod[k]; k++) {
			if (k)
				sb_addc(&b->waits, ',');
			sb_addc(&b->waits, '[');
			gk_int(&b->waits, gk_code[l].prod[k]);
			sb_adds(&b->waits, ",0]");
		}
		sb_adds(&b->waits, "]]");
	}
}

/* Writes each text followed by its number. */
typedef struct gk_field {
	const char *text;
	int64_t v;
} gk_field;

static void gk_fields(strbuf *sb, const gk_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sb_adds(sb, f[i].text);
		gk_int(sb, f[i].v);
	}
}

static void gk_emit(strbuf *sb, const wave_pos *p, const gk_wave_buf *b, int64_t ninst)
{
	const gk_field head[] = {{"{\"duration\":", p->end - p->begin},
				 {",\"name\":\"SE", p->se},
				 {"\",\"num_insts\":", ninst},
				 {",\"num_stitched\":", ninst},
				 {",\"wave\":{\"begin\":", p->begin},
				 {",\"cu\":1,\"end\":", p->end},
				 {",\"id\":", p->n}};
	const gk_field mid[] = {{"],\"simd\":", p->simd}, {",\"slot\":", p->slot}};
	gk_fields(sb, head, sizeof head / sizeof *head);
	sb_adds(sb, ",\"instructions\":[");
	sb_add(sb, b->insts.buf, b->insts.len);
	gk_fields(sb, mid, sizeof mid / sizeof *mid);
	sb_adds(sb, ",\"timeline\":[");
	for (size_t i = 0; i < b->ntl; i++) {
		const gk_field row[] = {{i ? ",[" : "[", b->tl[i].state}, {",", b->tl[i].dur}};
		gk_fields(sb, row, 2);
		sb_addc(sb, ']');
	}
	sb_adds(sb, "],\"waitcnt\":[");
	sb_add(sb, b->waits.buf, b->waits.len);
	sb_adds(sb, "]}}");
}

/* Generates one wave into sb; p->begin must be set, p->end is set. Returns its records. */
static int64_t gk_wave(strbuf *sb, wave_pos *p, int iters, uint64_t seed, line_stat *st,
		       seg_list *segs)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ull +
		     (uint64_t)(p->se * 1000003 + p->simd * 1009 + p->slot * 101 + p->n * 7919) + 1;
	gk_wave_buf b;
	memset(&b, 0, sizeof b);
	int64_t prev = p->begin, n = 0;
	gk_seg(&b, segs, 1, prev, 28); /* launch: the first instruction comes 28 cycles in, */
	prev += 28;
	st[1].idle += 28; /* which docs/facts-rocprofv3.md#metric-semantics counts as idle (prev_end starts at wave.begin) */
	for (int l = 1; l < GK_LOOP_FIRST; l++, n++)
		gk_exec(&b, &s, l, 0, &prev, st, segs);
	for (int it = 0; it < iters; it++)
		for (int l = GK_LOOP_FIRST; l <= GK_LOOP_LAST; l++, n++)
			gk_exec(&b, &s, l, it == iters - 1, &prev, st, segs);
	for (int l = GK_LOOP_LAST + 1; l < GK_LINES; l++, n++)
		gk_exec(&b, &s, l, 0, &prev, st, segs);
	p->end = prev;
	gk_emit(sb, p, &b, n);
	sb_release(&b.insts);
	sb_release(&b.waits);
	free(b.tl);
	return n;
}

static void gk_code_json(strbuf *sb, const line_stat *st)
{
	jv *doc = jv_object();
	jv *code = jv_set(doc, "code", jv_array());
	for (int l = 0; l < GK_LINES; l++) {
		jv *r = jv_push(code, jv_array());
		jv_push(r, jv_str(gk_code[l].isa));
		jv_push(r, jv_int(0));
		jv_push(r, jv_int(l));
		if (l == 0 || !gk_code[l].line)
			jv_push(r, jv_str(""));
		else
			jv_push(r, jv_strf("%s:%d", GK_SRC, gk_code[l].line));
		jv_push(r, jv_int(1));
		jv_push(r, jv_int(6144 + 8 * (l ? l - 1 : 0)));
		jv_push(r, jv_int(st[l].hits));
		jv_push(r, jv_int(st[l].latency));
		jv_push(r, jv_int(st[l].stall));
		jv_push(r, jv_int(st[l].idle));
	}
	jv_set_str(doc, "header",
		   "ISA, _, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, "
		   "Idle");
	jv_set_str(doc, "version", "3.0.0");
	json_write(sb, doc, 0);
	jv_free(doc);
}

static jv *gk_child(jv *obj, int key)
{
	char k[16];
	snprintf(k, sizeof k, "%d", key);
	jv *c = jv_get(obj, k);
	return c ? c : jv_set(obj, k, jv_object());
}

static void gk_filenames_json(strbuf *sb, const wave_pos *p, int waves)
{
	jv *doc = jv_object();
	jv_set(doc, "counter_names", jv_array());
	jv_set_int(doc, "gfxip", 9);
	jv_set_str(doc, "gfxv", "vega");
	jv_set_int(doc, "global_begin_time", 0);
	jv_set_str(doc, "version", "3.0.0");
	jv *wf = jv_set(doc, "wave_filenames", jv_object());
	for (int w = 0; w < waves; w++) {
		jv *slot = gk_child(gk_child(gk_child(wf, p[w].se), p[w].simd), p[w].slot);
		char k[16];
		snprintf(k, sizeof k, "%d", p[w].n);
		jv *leaf = jv_set(slot, k, jv_array());
		jv_push(leaf,
			jv_strf("se%d_sm%d_sl%d_wv%d.json", p[w].se, p[w].simd, p[w].slot, p[w].n));
		jv_push(leaf, jv_int(p[w].begin));
		jv_push(leaf, jv_int(p[w].end));
	}
	json_write(sb, doc, 0);
	jv_free(doc);
}

typedef struct gk_occ {
	int64_t time;
	int cu, simd, slot, start;
} gk_occ;

static int gk_occ_cmp(const void *x, const void *y)
{
	const gk_occ *a = x, *b = y;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->start - b->start;
}

/* Wave start/end events of the traced CU 1, mirrored (shifted) onto CUs 0, 2, 3 of each SE. */
static void gk_occupancy_json(strbuf *sb, const wave_pos *p, int waves)
{
	sb_addc(sb, '{');
	for (int se = 0; se < 4; se++) {
		size_t n = 0;
		gk_occ *ev = xcalloc((size_t)waves * 8 + 1, sizeof *ev);
		for (int w = 0; w < waves; w++) {
			if (p[w].se != se)
				continue;
			for (int cu = 0; cu < 4; cu++) {
				int64_t sh = cu == 1 ? 0 : 8 * (cu + 1);
				ev[n++] = (gk_occ){p[w].begin + sh, cu, p[w].simd, p[w].slot, 1};
				ev[n++] = (gk_occ){p[w].end + sh, cu, p[w].simd, p[w].slot, 0};
			}
		}
		qsort(ev, n, sizeof *ev, gk_occ_cmp);
		sb_addf(sb, "%s\"%d\":[", se ? "," : "", se);
		for (size_t i = 0; i < n; i++) {
			sb_addf(sb, "%s[", i ? "," : "");
			gk_int(sb, ev[i].time);
			sb_addf(sb, ",%d,%d,%d,%d,1]", ev[i].cu, ev[i].simd, ev[i].slot,
				ev[i].start);
		}
		sb_addc(sb, ']');
		free(ev);
	}
	sb_adds(sb, ",\"dispatches\":{\"0\":\"0 / 0x0\",\"1\":\"" GK_KERNEL
		    "\"},\"version\":\"3.0.0\"}");
}

/* 2100 MHz shader clock against the 100 MHz realtime clock: 21 cycles per tick. */
static void gk_realtime_json(strbuf *sb, const wave_pos *p, int waves)
{
	int64_t lo = INT64_MAX, hi = 0;
	for (int w = 0; w < waves; w++) {
		lo = p[w].begin < lo ? p[w].begin : lo;
		hi = p[w].end > hi ? p[w].end : hi;
	}
	int64_t t0 = lo - 210, t1 = hi + 210, rt0 = 236563257764766LL;
	sb_addc(sb, '{');
	for (int se = 0; se < 4; se++)
		sb_addf(sb, "\"SE%d\":[[%lld,%lld],[%lld,%lld]],", se, (long long)(t0 - 750 * se),
			(long long)rt0, (long long)(t1 - 750 * se),
			(long long)(rt0 + (t1 - t0) / 21));
	sb_adds(sb, "\"metadata\":{\"descriptor\":\"[gfx_clock, realtime_clock]\","
		    "\"frequency\":100000000}}");
}

static int gk_seg_cmp(const void *x, const void *y)
{
	const seg_ev *a = x, *b = y;
	return a->time < b->time ? -1 : a->time > b->time;
}

/* wstates<k>.json: the number of traced waves in state k, at every time it changes. Returns 0
 * when state k never occurs (the file is then omitted, as the decoder does). */
static int gk_wstates_json(strbuf *sb, seg_list *segs, int k)
{
	static int sorted;
	if (!sorted) {
		qsort(segs->v, segs->n, sizeof *segs->v, gk_seg_cmp);
		sorted = 1;
	}
	strbuf t = STRBUF_INIT, c = STRBUF_INIT;
	int64_t count = 0, last = -1;
	size_t emitted = 0;
	for (size_t i = 0; i < segs->n;) {
		int64_t now = segs->v[i].time;
		for (; i < segs->n && segs->v[i].time == now; i++)
			if (segs->v[i].state == k)
				count += segs->v[i].delta;
		if (count == last)
			continue;
		sb_addf(&t, "%s%lld", emitted ? "," : "", (long long)now);
		sb_addf(&c, "%s%lld", emitted ? "," : "", (long long)count);
		last = count;
		emitted++;
	}
	if (emitted > 1)
		sb_addf(sb, "{\"name\":\"wstates%d.json\",\"state\":[%s],\"time\":[%s]}", k,
			sb_str(&c), sb_str(&t));
	sb_release(&t);
	sb_release(&c);
	return emitted > 1;
}

static void gk_segs_release(seg_list *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

#endif
