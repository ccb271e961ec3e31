/* ISA facts from the instruction table (isa_facts.h). */
#include "core/analysis/isa_facts.h"

#include "core/hw/dtype.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECENT_LOADS 64 /* widths of the last loads, for the bytes in flight at a wait */

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Highest register index of file `f` ('v', 'a', 's') at p ("v7", "v[4:7]"), or -1. */
static long reg_at(const char *op, const char *p)
{
	if (p > op && word_char(p[-1]))
		return -1;
	const char *q = p + 1;
	char *end = NULL;
	long hi;
	if (*q == '[') {
		long lo = strtol(q + 1, &end, 10);
		if (end == q + 1 || *end != ':')
			return -1;
		q = end + 1;
		hi = strtol(q, &end, 10);
		if (end == q || *end != ']' || hi < lo)
			return -1;
		return hi;
	}
	if (!isdigit((unsigned char)*q))
		return -1;
	hi = strtol(q, &end, 10);
	return word_char(*end) ? -1 : hi;
}

void isa_regs_scan(const trace_dispatch *d, isa_regs *out)
{
	long mx[3] = {-1, -1, -1};
	static const char files[3] = {'v', 'a', 's'};
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa)
			continue;
		const char *op = t->isa + strcspn(t->isa, " ");
		for (const char *p = op; *p; p++)
			for (int f = 0; f < 3; f++) {
				if (*p != files[f])
					continue;
				long r = reg_at(op, p);
				if (r > mx[f] && r < 4096)
					mx[f] = r;
			}
	}
	out->vgpr = (int)(mx[0] + 1);
	out->agpr = (int)(mx[1] + 1);
	out->sgpr = (int)(mx[2] + 1);
}

int isa_vmem_bytes(const char *isa, int *is_store)
{
	if (is_store)
		*is_store = 0;
	if (!isa || !(starts(isa, "buffer_") || starts(isa, "global_") || starts(isa, "flat_")))
		return 0;
	size_t n = strcspn(isa, " ");
	char m[64];
	if (n >= sizeof m)
		n = sizeof m - 1;
	memcpy(m, isa, n);
	m[n] = '\0';
	int store = strstr(m, "_store") || strstr(m, "_atomic");
	if (!store && !strstr(m, "_load"))
		return 0; /* buffer_wbl2, buffer_inv, ...: no data */
	if (is_store)
		*is_store = store;
	static const struct {
		const char *s;
		int bytes;
	} w[] = {{"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"b128", 16}, {"b96", 12},
		 {"b64", 8},	  {"x2", 8},	   {"dword", 4},   {"b32", 4},	 {"short", 2},
		 {"b16", 2},	  {"16", 2},	   {"byte", 1},	   {"8", 1}};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (strstr(m, w[i].s))
			return w[i].bytes;
	return 4; /* atomics and plain 32-bit forms without a width suffix */
}

int isa_waitcnt_vmcnt(const char *isa)
{
	if (!isa || !starts(isa, "s_waitcnt"))
		return -1;
	const char *p = strstr(isa, "vmcnt(");
	if (!p)
		return -1;
	return (int)strtol(p + 6, NULL, 10);
}

int isa_is_transcendental(const char *isa)
{
	static const char *const pre[] = {"v_exp_",  "v_log_", "v_rcp_", "v_rsq_",
					  "v_sqrt_", "v_sin_", "v_cos_", "v_div_"};
	for (size_t i = 0; isa && i < sizeof pre / sizeof pre[0]; i++)
		if (starts(isa, pre[i]))
			return 1;
	return 0;
}

int isa_is_lds_dma(const char *isa)
{
	if (!isa || (!starts(isa, "buffer_load") && !starts(isa, "global_load")))
		return 0;
	for (const char *p = strstr(isa, " lds"); p; p = strstr(p + 1, " lds"))
		if (p[4] == '\0' || p[4] == ' ' || p[4] == ',')
			return 1;
	return 0;
}

int isa_is_crosslane(const char *isa)
{
	return isa && (starts(isa, "ds_bpermute") || starts(isa, "ds_permute") ||
		       starts(isa, "ds_swizzle"));
}

/* ---- resources ---- */

static void merge_one(const char *what, int *have, int isa, const char *src, jv *out, jv *warn)
{
	jv *o = jv_set(out, what, jv_object());
	jv_set_int(o, "resources", *have);
	jv_set_int(o, "isa", isa);
	int used = *have > isa ? *have : isa;
	if (*have >= 0 && isa > *have && warn)
		jv_push(warn, jv_strf("%s: the ISA names %d but the %s says %d; the larger (%d) is "
				      "used",
				      what, isa, src, *have, used));
	*have = used;
	jv_set_int(o, "used", used);
}

void isa_resources_merge(trace_resources *r, const isa_regs *isa, jv *out, jv *warnings)
{
	const char *src = r->source ? r->source : "trace";
	merge_one("vgpr", &r->vgpr, isa->vgpr, src, out, warnings);
	merge_one("agpr", &r->agpr, isa->agpr, src, out, warnings);
	merge_one("sgpr", &r->sgpr, isa->sgpr, src, out, warnings);
	jv_set_str(out, "resources_source", src);
	jv_set_str(out, "basis",
		   "highest register index named by any instruction + 1 (isa) against the "
		   "kernel resources (resources_source); the larger is used (on gfx950 the "
		   "kernel-trace CSV's "
		   "VGPR_Count is about half of what the ISA uses)");
}

/* ---- loads in flight ---- */

typedef struct inflight {
	int max_loads, max_bytes; /* the most loads outstanding before any vmcnt wait */
	int64_t max_line;
	int hot_loads, hot_bytes, hot_n; /* at the hot wait */
	int window_loads, window_bytes;	 /* the most loads issued between two vmcnt(0) drains */
	int64_t waits;			 /* executed vmcnt waits */
} inflight;

static int recent_bytes(const int *ring, int64_t pushed, int k)
{
	int sum = 0;
	for (int i = 0; i < k && i < RECENT_LOADS && i < pushed; i++)
		sum += ring[(pushed - 1 - i) % RECENT_LOADS];
	return sum;
}

static void walk_inflight(const trace_dispatch *d, int64_t hot, inflight *f)
{
	memset(f, 0, sizeof *f);
	f->max_line = -1;
	f->hot_n = -1;
	int ring[RECENT_LOADS] = {0};
	int64_t pushed = 0;
	int loads = 0, win = 0, win_b = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa || t->hits <= 0)
			continue;
		int st = 0, b = isa_vmem_bytes(t->isa, &st);
		if (b && !st) {
			loads++;
			win++, win_b += b;
			ring[pushed++ % RECENT_LOADS] = b;
			if (win > f->window_loads)
				f->window_loads = win, f->window_bytes = win_b;
			continue;
		}
		int n = isa_waitcnt_vmcnt(t->isa);
		if (n < 0)
			continue;
		f->waits++;
		int bytes = recent_bytes(ring, pushed, loads);
		if (loads > f->max_loads)
			f->max_loads = loads, f->max_bytes = bytes, f->max_line = t->code_line;
		if (t->code_line == hot)
			f->hot_loads = loads, f->hot_bytes = bytes, f->hot_n = n;
		if (loads > n)
			loads = n;
		if (n == 0)
			win = 0, win_b = 0;
	}
}

/* ---- the busiest loop ---- */

static long branch_simm(const char *isa)
{
	if (!starts(isa, "s_cbranch") && !starts(isa, "s_branch"))
		return 0;
	const char *sp = strrchr(isa, ' ');
	char *end = NULL;
	long v = sp ? strtol(sp + 1, &end, 10) : 0;
	if (!sp || !end || *end || v < 32768 || v > 65535)
		return 0;
	return v - 65536;
}

static jv *loop_facts(const trace_dispatch *d)
{
	jv *o = jv_object();
	const trace_inst *br = NULL, *entry = NULL;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa)
			continue;
		if (!entry)
			entry = t;
		if (t->hits > 0 && branch_simm(t->isa) < 0 && (!br || t->hits > br->hits))
			br = t;
	}
	if (!br) {
		jv_set_bool(o, "present", 0);
		jv_set_round(o, "iterations_per_wave", 0, 2);
		jv_set_bool(o, "multi_buffered", 0);
		return o;
	}
	int64_t target = br->vaddr + 4 + 4 * branch_simm(br->isa);
	int nonzero = 0, zero = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa || t->hits <= 0 || t->codeobj != br->codeobj ||
		    t->vaddr < target || t->vaddr > br->vaddr)
			continue;
		int n = isa_waitcnt_vmcnt(t->isa);
		nonzero += n > 0;
		zero += n == 0;
	}
	double iters = entry && entry->hits > 0 ? (double)br->hits / (double)entry->hits : 0;
	jv_set_bool(o, "present", 1);
	jv_set_int(o, "branch_code_line", br->code_line);
	jv_set_int(o, "body_first_vaddr", target);
	jv_set_int(o, "body_last_vaddr", br->vaddr);
	jv_set_round(o, "iterations_per_wave", iters, 2);
	jv_set_int(o, "nonzero_vmcnt_waits", nonzero);
	jv_set_int(o, "zero_vmcnt_waits", zero);
	jv_set_bool(o, "multi_buffered", nonzero > 0);
	jv_set_str(o, "basis",
		   "the busiest backward branch; multi_buffered when its body executes an "
		   "s_waitcnt vmcnt(N) with N > 0 (loads stay in flight across the wait)");
	return o;
}

static jv *vmem_facts(const trace_dispatch *d)
{
	int64_t entry = -1;
	double load_b = 0, store_b = 0, loads = 0, cl = 0, dma = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa)
			continue;
		if (entry < 0)
			entry = t->hits;
		if (t->hits <= 0)
			continue;
		int st = 0, b = isa_vmem_bytes(t->isa, &st);
		if (b && st)
			store_b += (double)b * 64.0 * (double)t->hits;
		else if (b)
			load_b += (double)b * 64.0 * (double)t->hits, loads += (double)t->hits;
		if (isa_is_crosslane(t->isa))
			cl += (double)t->hits;
		if (isa_is_lds_dma(t->isa))
			dma += (double)t->hits;
	}
	jv *o = jv_object();
	double w = entry > 0 ? (double)entry : 0;
	jv_set_int(o, "traced_waves", entry > 0 ? entry : 0);
	jv_set_round(o, "load_bytes_per_wave", w > 0 ? load_b / w : 0, 1);
	jv_set_round(o, "store_bytes_per_wave", w > 0 ? store_b / w : 0, 1);
	jv_set_round(o, "loads_per_wave", w > 0 ? loads / w : 0, 2);
	jv_set_round(o, "crosslane_per_wave", w > 0 ? cl / w : 0, 2);
	jv_set_round(o, "lds_dma_loads_per_wave", w > 0 ? dma / w : 0, 2);
	jv_set_str(o, "basis",
		   "executed VMEM loads/stores: bytes per lane of the opcode x 64 lanes x hits / "
		   "traced waves (the entry instruction's hits); assumes every lane active");
	return o;
}

static jv *valu_facts(const jv *top)
{
	double tr = 0, all = 0;
	for (size_t i = 0; i < jv_len(top); i++) {
		double st = jv_num(jv_get(jv_at(top, i), "stall"));
		all += st;
		tr += isa_is_transcendental(jv_string(jv_get(jv_at(top, i), "isa"))) ? st : 0;
	}
	jv *o = jv_object();
	jv_set_round(o, "transcendental_top_pct", all > 0 ? 100.0 * tr / all : 0, 2);
	jv_set_int(o, "top_listed", (int64_t)jv_len(top));
	jv_set_str(o, "basis",
		   "share of the valu class's listed hot stall on v_exp/v_log/v_rcp/v_rsq/v_sqrt/"
		   "v_sin/v_cos/v_div_* (fastmath changes only these)");
	return o;
}

/* "v_mfma_f32_32x32x16_bf16" -> M, N, K and the operand type ("bf16"); 0 when not MFMA. */
static int mfma_shape(const char *isa, long mnk[3], char *dt, size_t dtsz)
{
	if (!starts(isa, "v_mfma") && !starts(isa, "v_smfma"))
		return 0;
	size_t n = strcspn(isa, " ");
	for (size_t i = 0; i < n; i++) {
		char *e1 = NULL, *e2 = NULL, *e3 = NULL;
		if (!isdigit((unsigned char)isa[i]) || (i && isdigit((unsigned char)isa[i - 1])))
			continue;
		mnk[0] = strtol(isa + i, &e1, 10);
		if (*e1 != 'x' || !isdigit((unsigned char)e1[1]))
			continue;
		mnk[1] = strtol(e1 + 1, &e2, 10);
		if (*e2 != 'x' || !isdigit((unsigned char)e2[1]))
			continue;
		mnk[2] = strtol(e2 + 1, &e3, 10);
		const char *t = e3 + (*e3 == '_');
		size_t tl = strcspn(t, " _");
		snprintf(dt, dtsz, "%.*s", (int)tl, t);
		return 1;
	}
	return 0;
}

static const char *mfma_dtype(const char *t)
{
	const char *c = dtype_canon(t);
	if (c)
		return c;
	if (starts(t, "f8") || starts(t, "fp8") || starts(t, "bf8"))
		return "fp8";
	if (starts(t, "i8"))
		return "int8";
	if (starts(t, "xf32"))
		return "tf32";
	return NULL;
}

/* Matrix FLOPs per wave: 2 x M x N x K per executed MFMA; the dtype carrying most of them. */
static jv *mfma_facts(const trace_dispatch *d)
{
	double flops = 0, best = 0, waves = -1;
	const char *dtype = NULL;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa)
			continue;
		if (waves < 0)
			waves = (double)t->hits;
		long mnk[3];
		char dt[24];
		if (t->hits <= 0 || !mfma_shape(t->isa, mnk, dt, sizeof dt))
			continue;
		double f = 2.0 * (double)mnk[0] * (double)mnk[1] * (double)mnk[2] * (double)t->hits;
		flops += f;
		const char *c = mfma_dtype(dt);
		if (c && f > best)
			best = f, dtype = c;
	}
	jv *o = jv_object();
	jv_set_round(o, "flops_per_wave", waves > 0 ? flops / waves : 0, 1);
	jv_set(o, "dtype", dtype ? jv_str(dtype) : jv_null());
	jv_set_str(
	    o, "basis",
	    "2 x M x N x K of each executed v_mfma (shape from the mnemonic) x hits / traced "
	    "waves; VALU arithmetic is not counted");
	return o;
}

jv *isa_facts_build(const trace_dispatch *d, int64_t hot_wait_line, const jv *valu_top)
{
	jv *o = jv_object();
	isa_regs r;
	isa_regs_scan(d, &r);
	jv *regs = jv_set(o, "registers", jv_object());
	jv_set_int(regs, "vgpr", r.vgpr);
	jv_set_int(regs, "agpr", r.agpr);
	jv_set_int(regs, "sgpr", r.sgpr);
	jv_set(o, "vmem", vmem_facts(d));
	jv_set(o, "mfma", mfma_facts(d));
	inflight f;
	walk_inflight(d, hot_wait_line, &f);
	jv *lf = jv_set(o, "loads_in_flight", jv_object());
	jv_set_int(lf, "max", f.max_loads);
	jv_set_int(lf, "max_bytes_per_lane", f.max_bytes);
	jv_set(lf, "max_at_code_line", f.max_line >= 0 ? jv_int(f.max_line) : jv_null());
	jv_set_int(lf, "vmcnt_waits", f.waits);
	jv_set_int(lf, "window_loads", f.window_loads);
	jv_set_int(lf, "window_bytes_per_lane", f.window_bytes);
	/* all of a wave's loads in one window: it cannot keep more in flight without more work */
	double lpw = jv_num(jv_get(jv_get(o, "vmem"), "loads_per_wave"));
	jv_set_round(
	    lf, "window_pct_of_wave_loads",
	    lpw > 0 ? 100.0 * f.window_loads / (lpw > f.window_loads ? lpw : f.window_loads) : 0,
	    1);
	if (f.hot_n >= 0) {
		const jv_int_field hot[] = {{"code_line", hot_wait_line},
					    {"vmcnt", f.hot_n},
					    {"loads_before", f.hot_loads},
					    {"bytes_per_lane_before", f.hot_bytes}};
		jv_set_ints(jv_set(lf, "hot_wait", jv_object()), hot, sizeof hot / sizeof hot[0]);
	}
	jv_set_str(lf, "basis",
		   "executed instructions in address order: each VMEM load counts until an "
		   "s_waitcnt vmcnt(N) lowers the count to N; loads outstanding before a wait "
		   "(straight-line order, branches ignored); window: the most loads issued "
		   "between two vmcnt(0) drains (what the wave streams before it must wait for "
		   "all)");
	jv_set(o, "loop", loop_facts(d));
	jv_set(o, "valu", valu_facts(valu_top));
	return o;
}

/* Whether any listed producer of a wait matches. */
static int producers_any(const jv *w, int (*pred)(const char *))
{
	const jv *ps = jv_get(w, "producers");
	for (size_t i = 0; i < jv_len(ps); i++)
		if (pred(jv_string(jv_get(jv_at(ps, i), "isa"))))
			return 1;
	return 0;
}

static int is_store_isa(const char *isa)
{
	int st = 0;
	return isa_vmem_bytes(isa, &st) && st;
}

static int is_kernarg_load(const char *isa)
{
	return isa && starts(isa, "s_load");
}

jv *isa_wait_facts(const jv *waits)
{
	double all = 0, cl = 0, st = 0, ka = 0;
	for (size_t i = 0; i < jv_len(waits); i++) {
		const jv *w = jv_at(waits, i);
		const jv *sp = jv_get(w, "split");
		all += jv_num(jv_get(w, "stall"));
		if (producers_any(w, isa_is_crosslane))
			cl += jv_num(jv_get(sp, "lds"));
		if (producers_any(w, is_store_isa))
			st += jv_num(jv_get(sp, "memory"));
		if (producers_any(w, is_kernarg_load))
			ka += jv_num(jv_get(sp, "smem"));
	}
	jv *o = jv_object();
	jv_set_round(o, "crosslane_pct", all > 0 ? 100.0 * cl / all : 0, 2);
	jv_set_round(o, "store_pct", all > 0 ? 100.0 * st / all : 0, 2);
	jv_set_round(o, "kernarg_pct", all > 0 ? 100.0 * ka / all : 0, 2);
	jv_set_int(o, "waits_listed", (int64_t)jv_len(waits));
	jv_set_str(
	    o, "basis",
	    "over the listed waits (bubbles.waits, hottest first): the LDS part of the waits "
	    "whose producers include ds_bpermute/ds_permute/ds_swizzle, the memory part of "
	    "those whose producers include a VMEM store (gfx9 counts stores in vmcnt), the "
	    "SMEM part of those waiting on s_load (kernel arguments), as % of the listed "
	    "waits' stall");
	return o;
}
