/* The ranked lists of NVIDIA bubbles (hotspots, lines, waits) and occupancy from the details
 * export (ncu_bubbles.h). */
#include "core/nvidia/ncu_bubbles_int.h"

#include "base/xalloc.h"
#include "core/hw/occupancy.h"
#include "core/hw/soc.h"

#include <stdlib.h>
#include <string.h>

/* Hopper (and Volta through Ada) SMs have 4 sub-partitions, each with one warp scheduler
 * (docs/facts-nvidia.md#sm90-limits): the NVIDIA counterpart of a SIMD for "per_simd". */
#define NCU_SCHEDULERS_PER_SM 4

static int cmp_stall_desc(const void *x, const void *y, void *ctx)
{
	const trace_inst *in = ctx;
	const trace_inst *a = &in[*(const size_t *)x], *b = &in[*(const size_t *)y];
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	return a->code_line < b->code_line ? -1 : a->code_line > b->code_line;
}

static const char *class_name(int k)
{
	return k < 0 ? "unsampled" : ncu_reason_name(k);
}

static const char *norm_name(int k)
{
	return k < 0 ? "other" : tax_norm_name(ncu_reason_norm(k));
}

/* {reason: samples} of one instruction, largest first. */
static jv *reasons(const ncu_inst_samples *s)
{
	jv *o = jv_object();
	int done[NCU__COUNT] = {0};
	for (;;) {
		int best = -1;
		for (int r = 0; r < NCU__COUNT; r++)
			if (!done[r] && s->by_reason[r] > 0 &&
			    (best < 0 || s->by_reason[r] > s->by_reason[best]))
				best = r;
		if (best < 0)
			return o;
		done[best] = 1;
		jv_set_int(o, ncu_reason_name(best), s->by_reason[best]);
	}
}

jv *ncu_hotspots(const ncu_model *m, size_t *total)
{
	const trace_dispatch *d = &m->src.trace;
	size_t *idx = xcalloc(d->n_insts + 1, sizeof *idx), n = 0;
	for (size_t i = 0; i < d->n_insts; i++)
		if (d->insts[i].stall > 0)
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, cmp_stall_desc, (void *)d->insts);
	jv *a = jv_array();
	size_t top = m->top && m->top < n ? m->top : n;
	for (size_t r = 0; r < top; r++) {
		const trace_inst *t = &d->insts[idx[r]];
		const ncu_inst_samples *s = &m->src.s[idx[r]];
		jv *o = jv_push(a, jv_object());
		jv_set_int(o, "rank", (int64_t)r + 1);
		jv_set_int(o, "code_line", t->code_line);
		jv_set(o, "vaddr", jv_strf("0x%llx", (unsigned long long)t->vaddr));
		jv_set(o, "address", jv_strf("0x%llx", (unsigned long long)s->address));
		jv_set_str(o, "isa", t->isa);
		jv_set_str(o, "source", t->source);
		jv_set_str(o, "class", class_name(t->klass));
		jv_set_str(o, "normalized", norm_name(t->klass));
		jv_set_int(o, "hits", t->hits);
		jv_set_int(o, "latency", t->latency);
		jv_set_int(o, "stall", t->stall);
		jv_set_int(o, "idle", 0);
		jv_set_int(o, "not_issued", s->not_issued);
		jv_set(o, "pct_of_stall", ncu_pct(t->stall, m->stall));
		jv_set(o, "reasons", reasons(s));
	}
	free(idx);
	*total = n;
	return a;
}

typedef struct line_group {
	const char *source;
	size_t instructions;
	int64_t hits, latency, stall, not_issued;
	int64_t reason[NCU__COUNT];
} line_group;

static int cmp_src(const void *x, const void *y, void *ctx)
{
	const trace_inst *in = ctx;
	const trace_inst *a = &in[*(const size_t *)x], *b = &in[*(const size_t *)y];
	int c = strcmp(a->source, b->source);
	return c ? c : (a->code_line < b->code_line ? -1 : a->code_line > b->code_line);
}

static int cmp_group(const void *x, const void *y)
{
	const line_group *a = x, *b = y;
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	return strcmp(a->source, b->source);
}

/* "path/k.cu:12" -> file "path/k.cu", line 12 (the text after the last ':' must be digits). */
static void split_source(jv *o, const char *src)
{
	const char *colon = strrchr(src, ':');
	int ok = colon && colon[1];
	for (const char *p = colon ? colon + 1 : ""; ok && *p; p++)
		ok = *p >= '0' && *p <= '9';
	if (!ok || colon - src > 4096 || strlen(colon + 1) > 9) {
		jv_set_str(o, "file", src);
		jv_set(o, "line", jv_null());
		return;
	}
	jv_set(o, "file", jv_strn(src, (size_t)(colon - src)));
	jv_set_int(o, "line", strtoll(colon + 1, NULL, 10));
}

static jv *group_json(const ncu_model *m, const line_group *g)
{
	jv *o = jv_object();
	jv_set_str(o, "source", g->source);
	split_source(o, g->source);
	jv_set_int(o, "instructions", (int64_t)g->instructions);
	jv_set_int(o, "hits", g->hits);
	jv_set_int(o, "latency", g->latency);
	jv_set_int(o, "stall", g->stall);
	jv_set_int(o, "idle", 0);
	jv_set_int(o, "not_issued", g->not_issued);
	jv_set(o, "pct_of_stall", ncu_pct(g->stall, m->stall));
	int best = -1;
	for (int r = 0; r < NCU__COUNT; r++)
		if (ncu_reason_is_stall(r) && g->reason[r] > 0 &&
		    (best < 0 || g->reason[r] > g->reason[best]))
			best = r;
	jv_set(o, "class", best >= 0 ? jv_str(ncu_reason_name(best)) : jv_null());
	return o;
}

static jv *unmapped_json(const ncu_model *m)
{
	int64_t n = 0, hits = 0, stall = 0, lat = 0;
	for (size_t i = 0; i < m->src.trace.n_insts; i++) {
		const trace_inst *t = &m->src.trace.insts[i];
		if (t->source[0])
			continue;
		n++;
		hits = trace_add(hits, t->hits);
		stall = trace_add(stall, t->stall);
		lat = trace_add(lat, t->latency);
	}
	jv *o = jv_object();
	jv_set_int(o, "instructions", n);
	jv_set_int(o, "hits", hits);
	jv_set_int(o, "stall", stall);
	jv_set(o, "pct_of_stall", ncu_pct(stall, m->stall));
	jv_set_int(o, "latency", lat);
	jv_set(o, "pct_of_latency", ncu_pct(lat, m->all));
	return o;
}

jv *ncu_lines(const ncu_model *m, size_t *total, jv **unmapped)
{
	const trace_dispatch *d = &m->src.trace;
	size_t *idx = xcalloc(d->n_insts + 1, sizeof *idx), n = 0;
	for (size_t i = 0; i < d->n_insts; i++)
		if (d->insts[i].source[0])
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, cmp_src, (void *)d->insts);
	line_group *g = xcalloc(n + 1, sizeof *g);
	size_t ng = 0;
	for (size_t k = 0; k < n; k++) {
		const trace_inst *t = &d->insts[idx[k]];
		if (ng == 0 || strcmp(g[ng - 1].source, t->source) != 0)
			g[ng++].source = t->source;
		line_group *x = &g[ng - 1];
		x->instructions++;
		x->hits = trace_add(x->hits, t->hits);
		x->latency = trace_add(x->latency, t->latency);
		x->stall = trace_add(x->stall, t->stall);
		x->not_issued = trace_add(x->not_issued, m->src.s[idx[k]].not_issued);
		for (int r = 0; r < NCU__COUNT; r++)
			x->reason[r] = trace_add(x->reason[r], m->src.s[idx[k]].by_reason[r]);
	}
	qsort(g, ng, sizeof *g, cmp_group);
	jv *a = jv_array();
	for (size_t k = 0; k < ng; k++)
		jv_push(a, group_json(m, &g[k]));
	free(g);
	free(idx);
	*total = ncu_cut(a, m->top);
	*unmapped = unmapped_json(m);
	return a;
}

static int64_t dep_samples(const ncu_inst_samples *s)
{
	return trace_add(
	    trace_add(s->by_reason[NCU_LONG_SCOREBOARD], s->by_reason[NCU_SHORT_SCOREBOARD]),
	    s->by_reason[NCU_IMC_MISS]);
}

static int cmp_dep_desc(const void *x, const void *y, void *ctx)
{
	const ncu_model *m = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int64_t a = dep_samples(&m->src.s[i]), b = dep_samples(&m->src.s[j]);
	if (a != b)
		return a > b ? -1 : 1;
	return i < j ? -1 : i > j;
}

static jv *wait_json(const ncu_model *m, size_t i)
{
	const trace_inst *t = &m->src.trace.insts[i];
	const ncu_inst_samples *s = &m->src.s[i];
	int64_t mem = trace_add(s->by_reason[NCU_LONG_SCOREBOARD], s->by_reason[NCU_IMC_MISS]);
	int64_t lds = s->by_reason[NCU_SHORT_SCOREBOARD], dep = dep_samples(s);
	jv *o = jv_object();
	jv_set_int(o, "code_line", t->code_line);
	jv_set_str(o, "isa", t->isa);
	jv_set_str(o, "source", t->source);
	jv_set_str(o, "class",
		   ncu_reason_name(lds > mem ? NCU_SHORT_SCOREBOARD
				   : s->by_reason[NCU_LONG_SCOREBOARD] >= s->by_reason[NCU_IMC_MISS]
				       ? NCU_LONG_SCOREBOARD
				       : NCU_IMC_MISS));
	jv_set_int(o, "stall", dep);
	jv_set(o, "pct_of_stall", ncu_pct(dep, m->stall));
	jv_set(o, "waves", jv_null());
	jv_set(o, "producers", jv_array());
	jv_set_bool(o, "producers_known", 0);
	jv *sp = jv_set(o, "split", jv_object());
	jv_set_int(sp, "memory", mem);
	jv_set_int(sp, "lds", lds);
	jv_set_int(sp, "smem", 0);
	jv_set_int(sp, "other", 0);
	jv_set_str(o, "split_method", "reason");
	return o;
}

jv *ncu_waits(const ncu_model *m, size_t *total)
{
	size_t n_in = m->src.trace.n_insts;
	size_t *idx = xcalloc(n_in + 1, sizeof *idx), n = 0;
	for (size_t i = 0; i < n_in; i++)
		if (dep_samples(&m->src.s[i]) > 0)
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, cmp_dep_desc, (void *)m);
	jv *a = jv_array();
	size_t top = m->top && m->top < n ? m->top : n;
	for (size_t k = 0; k < top; k++)
		jv_push(a, wait_json(m, idx[k]));
	free(idx);
	*total = n;
	return a;
}

static jv *num_or_null(const ncu_model *m, const char *section, const char *name, int digits)
{
	double v;
	if (ncu_details_num(&m->det, section, name, &v))
		return jv_round(v, digits);
	return jv_null();
}

static jv *observed(const ncu_model *m)
{
	jv *o = jv_object();
	jv *ps = jv_set(o, "per_simd", jv_object());
	jv_set(ps, "peak", jv_null());
	jv_set(ps, "mean", num_or_null(m, "Scheduler Statistics", "Active Warps Per Scheduler", 3));
	jv *pc = jv_set(o, "per_cu", jv_object());
	jv_set(pc, "peak", jv_null());
	jv_set(pc, "mean", num_or_null(m, "Occupancy", "Achieved Active Warps Per SM", 3));
	jv_set(o, "achieved_pct_of_max_warps",
	       num_or_null(m, "Occupancy", "Achieved Occupancy", 2));
	jv_set_str(o, "unit",
		   "warps (per_simd = per warp scheduler / SM sub-partition, per_cu = "
		   "per SM)");
	jv_set_str(o, "source",
		   "ncu details: Scheduler Statistics / Active Warps Per Scheduler, "
		   "Occupancy / Achieved Active Warps Per SM (means over the kernel; "
		   "ncu reports no peak)");
	return o;
}

/* The block limit that binds (fewest blocks); on ties hardware caps (warps, SM blocks,
 * barriers) win over resources, as in occupancy.h. The limits take occupancy.h's names so
 * both vendors read alike: warps -> wave_slots, blocks per SM -> wg_slots, shared memory ->
 * lds. */
static jv *theoretical(const ncu_model *m)
{
	static const struct {
		const char *metric, *name;
	} lim[] = {{"Block Limit Warps", "wave_slots"},
		   {"Block Limit SM", "wg_slots"},
		   {"Block Limit Barriers", "barriers"},
		   {"Block Limit Registers", "registers"},
		   {"Block Limit Shared Mem", "lds"}};
	double warps;
	if (!ncu_details_num(&m->det, "Occupancy", "Theoretical Active Warps per SM", &warps))
		return jv_null();
	jv *o = jv_object();
	jv_set_round(o, "waves_per_simd", warps / NCU_SCHEDULERS_PER_SM, 2);
	jv_set_round(o, "waves_per_cu", warps, 2);
	jv_set(o, "pct_of_max_waves", num_or_null(m, "Occupancy", "Theoretical Occupancy", 2));
	jv_set_int(o, "schedulers_per_sm", NCU_SCHEDULERS_PER_SM);
	jv *bl = jv_set(o, "block_limits", jv_object());
	const char *limiter = NULL;
	double best = 0;
	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		double v;
		if (!ncu_details_num(&m->det, "Occupancy", lim[i].metric, &v)) {
			jv_set(bl, lim[i].name, jv_null());
			continue;
		}
		jv_set_round(bl, lim[i].name, v, 2);
		if (!limiter || v < best) {
			limiter = lim[i].name;
			best = v;
		}
	}
	jv_set(o, "limiter", limiter ? jv_str(limiter) : jv_null());
	jv_set(o, "registers_per_thread",
	       num_or_null(m, "Launch Statistics", "Registers Per Thread", 0));
	jv_set_str(o, "source",
		   "ncu details: Occupancy section (Theoretical Active Warps per SM, "
		   "Block Limit *)");
	return o;
}

/* flyprof's own occupancy model (occupancy.h, soc.json sm_90) from the same resources, as a
 * cross-check of ncu's figure; NULL when the arch or resources are unknown. */
static jv *model(const ncu_model *m, const jv *th, jv *warnings)
{
	fp_err e = FP_ERR_INIT;
	soc_table *t = m->det.arch ? soc_table_load(&e) : NULL;
	const soc_spec *s = t ? soc_lookup(t, m->det.arch) : NULL;
	trace_resources r;
	occ_result o;
	jv *out = NULL;
	ncu_details_resources(&m->det, &r);
	if (s && occ_theoretical(s, &r, &o) == 0) {
		out = occ_to_json(&o);
		int agrees = jv_num(jv_get(th, "waves_per_cu")) == (double)o.waves_per_cu;
		jv_set_bool(out, "agrees_with_ncu", agrees);
		if (!agrees && warnings)
			jv_push(warnings, jv_strf("occupancy: ncu says %g warps per SM, flyprof's "
						  "model %d (limited by %s)",
						  jv_num(jv_get(th, "waves_per_cu")),
						  o.waves_per_cu, o.limiter));
	}
	soc_table_free(t);
	fp_err_clear(&e);
	return out;
}

jv *ncu_occupancy(const ncu_model *m, jv *warnings)
{
	jv *o = jv_object();
	if (!m->has_details) {
		jv_set_bool(o, "available", 0);
		jv_set(o, "observed", jv_null());
		jv_set(o, "theoretical", jv_null());
		return o;
	}
	jv_set_bool(o, "available", 1);
	jv_set(o, "observed", observed(m));
	jv *th = jv_set(o, "theoretical", theoretical(m));
	if (th->type == JV_OBJECT) {
		jv *md = model(m, th, warnings);
		jv_set(th, "model", md ? md : jv_null());
	}
	return o;
}
