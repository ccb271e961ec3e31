/* bubbles from Nsight Compute exports (ncu_bubbles.h): loading, totals, classes, normalized,
 * mix, dispatch; the ranked lists and occupancy are in ncu_bubbles_lists.c. */
#include "core/nvidia/ncu_bubbles_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

jv *ncu_pct(int64_t part, int64_t whole)
{
	return jv_round(whole > 0 ? 100.0 * (double)part / (double)whole : 0.0, 2);
}

size_t ncu_cut(jv *list, size_t top)
{
	size_t n = list->v.arr.n;
	if (top == 0 || n <= top)
		return n;
	for (size_t i = top; i < n; i++)
		jv_free(list->v.arr.items[i]);
	list->v.arr.n = top;
	return n;
}

int ncu_dominant(const ncu_model *m, size_t i)
{
	const ncu_inst_samples *s = &m->src.s[i];
	int best = -1;
	for (int r = 0; r < NCU__COUNT; r++)
		if (ncu_reason_is_stall(r) && s->by_reason[r] > 0 &&
		    (best < 0 || s->by_reason[r] > s->by_reason[best]))
			best = r;
	if (best < 0 && s->by_reason[NCU_SELECTED] > 0)
		best = NCU_SELECTED;
	return best;
}

static void warn(jv *warnings, jv *msg)
{
	if (warnings)
		jv_push(warnings, msg);
	else
		jv_free(msg);
}

/* Reads the source export(s): the SASS one is the table of record; the correlated one adds
 * the source lines (and is the table when there is no SASS-only export). */
static int load_source(ncu_model *m, const ncu_exports *x, jv *warnings, fp_err *e)
{
	if (!x->source_sass)
		return ncu_source_read_file(x->source_correlated, &m->src, e);
	if (ncu_source_read_file(x->source_sass, &m->src, e))
		return -1;
	if (!x->source_correlated) {
		warn(warnings, jv_strf("no correlated source export in %s: instructions have no "
				       "source lines (export with --print-source cuda,sass, for "
				       "Triton too)",
				       x->dir ? x->dir : "the exports"));
		return 0;
	}
	ncu_source corr;
	if (ncu_source_read_file(x->source_correlated, &corr, e))
		return -1;
	size_t matched, missing, disagree;
	ncu_source_adopt_lines(&m->src, &corr, &matched, &missing, &disagree);
	if (missing)
		warn(warnings,
		     jv_strf("%zu SASS instructions are not in the correlated export", missing));
	if (disagree)
		warn(warnings, jv_strf("%zu instructions have different sample counts in the SASS "
				       "and correlated exports (not from one report?)",
				       disagree));
	if (corr.trace.kernel && m->src.trace.kernel &&
	    strcmp(corr.trace.kernel, m->src.trace.kernel) != 0)
		warn(warnings, jv_strf("the correlated export is of kernel \"%s\", the SASS export "
				       "of \"%s\"",
				       corr.trace.kernel, m->src.trace.kernel));
	ncu_source_free(&corr);
	return 0;
}

static int load(ncu_model *m, const ncu_exports *x, jv *warnings, fp_err *e)
{
	if (load_source(m, x, warnings, e))
		return -1;
	for (size_t i = 0; i < m->src.n_unknown_cols; i++)
		warn(warnings, jv_strf("unknown stall column \"%s\" counted as class \"unknown\"",
				       m->src.unknown_cols[i]));
	if (m->src.extra_kernels)
		warn(warnings, jv_strf("the source export holds more than one kernel; only the "
				       "first (%s) is analysed",
				       m->src.trace.kernel ? m->src.trace.kernel : "?"));
	if (!x->details) {
		warn(warnings,
		     jv_str("no details export (details.csv): occupancy and launch figures "
			    "are unknown"));
		return 0;
	}
	if (ncu_details_read_file(x->details, &m->det, e))
		return -1;
	m->has_details = 1;
	if (m->src.trace.kernel && m->det.kernel && m->det.kernel[0] &&
	    strcmp(m->src.trace.kernel, m->det.kernel) != 0)
		warn(warnings, jv_strf("the details export is of kernel \"%s\", the source export "
				       "of \"%s\"",
				       m->det.kernel, m->src.trace.kernel));
	if (m->det.extra_kernels)
		warn(warnings, jv_strf("the details export holds rows of other kernels; only ID %s "
				       "is used",
				       m->det.id));
	return 0;
}

static void sum(ncu_model *m)
{
	for (size_t i = 0; i < m->src.trace.n_insts; i++) {
		const ncu_inst_samples *s = &m->src.s[i];
		const trace_inst *t = &m->src.trace.insts[i];
		m->all = trace_add(m->all, t->latency);
		m->stall = trace_add(m->stall, t->stall);
		m->hits = trace_add(m->hits, t->hits);
		m->not_issued = trace_add(m->not_issued, s->not_issued);
		m->selected = trace_add(m->selected, s->by_reason[NCU_SELECTED]);
		for (int r = 0; r < NCU__COUNT; r++) {
			m->r_all[r] = trace_add(m->r_all[r], s->by_reason[r]);
			m->r_ni[r] = trace_add(m->r_ni[r], s->ni_by_reason[r]);
		}
		m->src.trace.insts[i].klass = (int16_t)ncu_dominant(m, i);
	}
}

/* Warps launched (Threads / 32) from the details, or -1. */
static int64_t warps_launched(const ncu_model *m)
{
	double th;
	if (m->has_details && ncu_details_num(&m->det, "Launch Statistics", "Threads", &th) &&
	    th > 0)
		return (int64_t)((th + 31) / 32);
	return -1;
}

static jv *totals(const ncu_model *m)
{
	jv *t = jv_object();
	size_t executed = 0;
	for (size_t i = 0; i < m->src.trace.n_insts; i++)
		executed += m->src.trace.insts[i].hits > 0;
	jv_set_str(t, "unit", "samples");
	jv_set_int(t, "instructions", (int64_t)m->src.trace.n_insts);
	jv_set_int(t, "executed_instructions", (int64_t)executed);
	jv_set_int(t, "hits", m->hits);
	jv_set_int(t, "latency", m->all);
	jv_set_int(t, "stall", m->stall);
	jv_set_int(t, "idle", 0);
	jv_set_int(t, "issue", m->selected);
	jv_set_int(t, "not_issued", m->not_issued);
	int64_t w = warps_launched(m);
	jv_set(t, "waves", w >= 0 ? jv_int(w) : jv_null());
	jv_set(t, "stall_pct_of_latency", ncu_pct(m->stall, m->all));
	jv_set(t, "idle_pct_of_latency", ncu_pct(0, m->all));
	jv_set(t, "not_issued_pct_of_latency", ncu_pct(m->not_issued, m->all));
	jv_set_str(t, "definitions",
		   "latency: all warp-state samples; stall: samples in a stall reason (all minus "
		   "selected); issue: selected samples; not_issued: samples taken while the "
		   "scheduler issued nothing; hits: warp-level instructions executed; idle: not "
		   "measured by ncu (0); waves: warps launched (Threads / 32)");
	return t;
}

/* Up to 3 instructions carrying most samples of reason r (ties: code line). */
static jv *class_top(const ncu_model *m, int r)
{
	size_t best[3];
	size_t nb = 0;
	const ncu_inst_samples *x = m->src.s;
	for (size_t i = 0; i < m->src.trace.n_insts; i++) {
		int64_t v = x[i].by_reason[r];
		size_t k;
		if (v <= 0)
			continue;
		if (nb < 3)
			k = nb++;
		else if (v > x[best[2]].by_reason[r])
			k = 2;
		else
			continue;
		best[k] = i;
		for (; k > 0 && x[best[k - 1]].by_reason[r] < x[best[k]].by_reason[r]; k--) {
			size_t tmp = best[k - 1];
			best[k - 1] = best[k];
			best[k] = tmp;
		}
	}
	jv *a = jv_array();
	for (size_t k = 0; k < nb; k++) {
		const trace_inst *t = &m->src.trace.insts[best[k]];
		jv *o = jv_push(a, jv_object());
		jv_set_int(o, "code_line", t->code_line);
		jv_set_str(o, "isa", t->isa);
		jv_set_str(o, "source", t->source);
		jv_set_int(o, "stall", ncu_reason_is_stall(r) ? m->src.s[best[k]].by_reason[r] : 0);
		jv_set_int(o, "samples", m->src.s[best[k]].by_reason[r]);
	}
	return a;
}

static jv *class_entry(const ncu_model *m, int r)
{
	size_t insts = 0;
	int64_t hits = 0;
	for (size_t i = 0; i < m->src.trace.n_insts; i++)
		if (m->src.trace.insts[i].klass == r) {
			insts++;
			hits = trace_add(hits, m->src.trace.insts[i].hits);
		}
	int64_t stall = ncu_reason_is_stall(r) ? m->r_all[r] : 0;
	jv *o = jv_object();
	jv_set_str(o, "class", ncu_reason_name(r));
	jv_set_str(o, "normalized", tax_norm_name(ncu_reason_norm(r)));
	jv_set_int(o, "instructions", (int64_t)insts);
	jv_set_int(o, "hits", hits);
	jv_set_int(o, "latency", m->r_all[r]);
	jv_set_int(o, "stall", stall);
	jv_set_int(o, "idle", 0);
	jv_set_int(o, "not_issued", m->r_ni[r]);
	jv_set(o, "pct_of_stall", ncu_pct(stall, m->stall));
	jv_set(o, "pct_of_latency", ncu_pct(m->r_all[r], m->all));
	jv_set(o, "not_issued_pct_of_not_issued", ncu_pct(m->r_ni[r], m->not_issued));
	jv_set_str(o, "why", ncu_reason_why(r));
	jv_set(o, "top", class_top(m, r));
	return o;
}

static int cmp_class(const void *x, const void *y, void *ctx)
{
	const ncu_model *m = ctx;
	int a = *(const int *)x, b = *(const int *)y;
	int64_t sa = ncu_reason_is_stall(a) ? m->r_all[a] : 0;
	int64_t sb = ncu_reason_is_stall(b) ? m->r_all[b] : 0;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (m->r_all[a] != m->r_all[b])
		return m->r_all[a] > m->r_all[b] ? -1 : 1;
	return a - b;
}

static jv *classes(const ncu_model *m)
{
	int order[NCU__COUNT], n = 0;
	for (int r = 0; r < NCU__COUNT; r++)
		if (m->r_all[r] > 0 || m->r_ni[r] > 0)
			order[n++] = r;
	qsort_r(order, (size_t)n, sizeof order[0], cmp_class, (void *)m);
	jv *a = jv_array();
	for (int k = 0; k < n; k++)
		jv_push(a, class_entry(m, order[k]));
	return a;
}

static jv *normalized(const ncu_model *m)
{
	int64_t st[NORM__COUNT] = {0}, lat[NORM__COUNT] = {0}, ni[NORM__COUNT] = {0};
	for (int r = 0; r < NCU__COUNT; r++) {
		tax_norm c = ncu_reason_norm(r);
		lat[c] = trace_add(lat[c], m->r_all[r]);
		ni[c] = trace_add(ni[c], m->r_ni[r]);
		if (ncu_reason_is_stall(r))
			st[c] = trace_add(st[c], m->r_all[r]);
	}
	int used[NORM__COUNT];
	int n = 0;
	for (int c = 0; c < NORM__COUNT; c++)
		if (lat[c] > 0 || ni[c] > 0)
			used[n++] = c;
	for (int i = 1; i < n; i++) /* insertion sort by stall, then latency, then id */
		for (int j = i; j > 0; j--) {
			int a = used[j - 1], b = used[j];
			int swap = st[b] > st[a] || (st[b] == st[a] && lat[b] > lat[a]);
			if (!swap)
				break;
			used[j - 1] = b;
			used[j] = a;
		}
	jv *arr = jv_array();
	for (int k = 0; k < n; k++) {
		int c = used[k];
		jv *o = jv_push(arr, jv_object());
		jv_set_str(o, "class", tax_norm_name(c));
		jv_set_int(o, "stall", st[c]);
		jv_set_int(o, "latency", lat[c]);
		jv_set_int(o, "not_issued", ni[c]);
		jv_set(o, "pct_of_stall", ncu_pct(st[c], m->stall));
		jv_set(o, "pct_of_latency", ncu_pct(lat[c], m->all));
	}
	return arr;
}

static jv *mix(const ncu_model *m)
{
	jv *o = jv_object();
	jv_set_str(o, "basis",
		   "each instruction counted under its dominant stall reason "
		   "(\"unsampled\": no sample at its PC)");
	jv *st = jv_set(o, "static", jv_object());
	jv *dy = jv_set(o, "dynamic", jv_object());
	for (int r = -1; r < NCU__COUNT; r++) {
		int64_t n = 0, hits = 0;
		for (size_t i = 0; i < m->src.trace.n_insts; i++)
			if (m->src.trace.insts[i].klass == r) {
				n++;
				hits = trace_add(hits, m->src.trace.insts[i].hits);
			}
		if (n == 0)
			continue;
		const char *name = r < 0 ? "unsampled" : ncu_reason_name(r);
		jv_set_int(st, name, n);
		jv_set_int(dy, name, hits);
	}
	return o;
}

static jv *dispatch(const ncu_model *m, const ncu_exports *x)
{
	jv *d = jv_object();
	jv_set_str(d, "backend", "nvidia");
	jv_set_str(d, "dir", x->dir ? x->dir : "");
	jv_set(d, "id", m->has_details && m->det.id ? jv_str(m->det.id) : jv_null());
	jv_set(d, "tag", jv_null());
	const char *k = m->src.trace.kernel ? m->src.trace.kernel
			: m->has_details    ? m->det.kernel
					    : NULL;
	jv_set(d, "kernel", k ? jv_str(k) : jv_null());
	jv_set(d, "arch", m->has_details && m->det.arch ? jv_str(m->det.arch) : jv_null());
	jv_set_str(d, "selection",
		   "the first (and with ncu -c 1 the only) kernel of the Nsight "
		   "Compute exports");
	jv *c = jv_push(jv_set(d, "candidates", jv_array()), jv_object());
	jv_set(c, "id", jv_copy(jv_get(d, "id")));
	jv_set_str(c, "dir", x->dir ? x->dir : "");
	jv_set(c, "waves", jv_null());
	jv_set_int(c, "hits", m->hits);
	jv *ex = jv_set(d, "exports", jv_object());
	jv_set(ex, "source_sass", x->source_sass ? jv_str(x->source_sass) : jv_null());
	jv_set(ex, "source_correlated",
	       x->source_correlated ? jv_str(x->source_correlated) : jv_null());
	jv_set(ex, "details", x->details ? jv_str(x->details) : jv_null());
	jv_set(ex, "report", x->report ? jv_str(x->report) : jv_null());
	jv_set(d, "sass_base_address", jv_strf("0x%llx", (unsigned long long)m->src.base_address));
	return d;
}

static jv *wave_states(void)
{
	jv *w = jv_object();
	jv_set_bool(w, "available", 0);
	jv_set_str(w, "denominator", "n/a");
	jv_set_str(w, "note",
		   "Nsight Compute source counters sample warp states per PC; there "
		   "is no per-warp timeline (see totals and classes for the state "
		   "shares as samples)");
	return w;
}

static jv *assemble(ncu_model *m, const ncu_exports *x, ncu_bubbles_counts *counts, jv *warnings)
{
	jv *o = jv_object();
	jv_set_str(o, "backend", "nvidia");
	jv_set_str(o, "unit", "samples");
	jv_set(o, "dispatch", dispatch(m, x));
	jv_set(o, "totals", totals(m));
	jv_set(o, "classes", classes(m));
	jv_set(o, "normalized", normalized(m));
	jv_set(o, "mix", mix(m));
	ncu_bubbles_counts c = {0, 0, 0};
	jv *unmapped = NULL;
	jv_set(o, "hotspots", ncu_hotspots(m, &c.hotspots));
	jv_set(o, "lines", ncu_lines(m, &c.lines, &unmapped));
	jv_set(o, "unmapped", unmapped);
	jv_set(o, "waits", ncu_waits(m, &c.waits));
	jv_set_str(o, "waits_note",
		   "NVIDIA: the producer of a scoreboard dependency is not "
		   "recorded by Nsight Compute; waits lists the instructions "
		   "stalled on long_scoreboard/short_scoreboard/imc_miss with the "
		   "split by stall reason, producers unknown");
	jv_set(o, "occupancy", ncu_occupancy(m, warnings));
	jv_set(o, "wave_states", wave_states());
	jv_set(o, "details", m->has_details ? ncu_details_json(&m->det) : jv_null());
	if (counts)
		*counts = c;
	return o;
}

int ncu_bubbles_from_exports(const ncu_exports *x, const ncu_bubbles_params *p, jv **out,
			     ncu_bubbles_counts *counts, jv *warnings, fp_err *e)
{
	ncu_model m;
	memset(&m, 0, sizeof m);
	m.top = p ? p->top : 10;
	*out = NULL;
	int rc = load(&m, x, warnings, e);
	if (rc == 0) {
		sum(&m);
		*out = assemble(&m, x, counts, warnings);
	}
	ncu_source_free(&m.src);
	if (m.has_details)
		ncu_details_free(&m.det);
	return rc;
}

int ncu_trace_load(const ncu_exports *x, trace_dispatch *out, fp_err *e)
{
	ncu_model m;
	memset(&m, 0, sizeof m);
	trace_dispatch_init(out);
	int rc = load(&m, x, NULL, e);
	if (rc == 0) {
		*out = m.src.trace;
		out->unit = "samples";
		trace_dispatch_init(&m.src.trace);
		if (m.has_details) {
			ncu_details_resources(&m.det, &out->res);
			if (!out->arch && m.det.arch)
				out->arch = xstrdup(m.det.arch);
		}
	}
	ncu_source_free(&m.src);
	if (m.has_details)
		ncu_details_free(&m.det);
	return rc;
}

int ncu_bubbles_compute(const char *ncu_dir, const ncu_bubbles_params *p, jv **out,
			ncu_bubbles_counts *counts, jv *warnings, fp_err *e)
{
	ncu_exports x;
	*out = NULL;
	if (ncu_exports_find(ncu_dir, NULL, &x, e))
		return -1;
	int rc = ncu_bubbles_from_exports(&x, p, out, counts, warnings, e);
	ncu_exports_free(&x);
	return rc;
}
