/* The ranked lists of bubbles: hotspots, source lines, waits, and the --detail view. */
#include "core/amd/bubbles_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

jv *bub_pct(int64_t part, int64_t whole)
{
	return jv_round(whole > 0 ? 100.0 * (double)part / (double)whole : 0.0, 2);
}

size_t bub_cut(jv *list, size_t top)
{
	size_t n = list->v.arr.n;
	if (top == 0 || n <= top)
		return n;
	for (size_t i = top; i < n; i++)
		jv_free(list->v.arr.items[i]);
	list->v.arr.n = top;
	return n;
}

static int cmp_stall_desc(const void *x, const void *y, void *ctx)
{
	const trace_dispatch *sort_d = ctx;
	const trace_inst *a = &sort_d->insts[*(const size_t *)x];
	const trace_inst *b = &sort_d->insts[*(const size_t *)y];
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	return a->code_line < b->code_line ? -1 : a->code_line > b->code_line;
}

static void inst_fields(jv *o, const trace_inst *t)
{
	jv_set_int(o, "code_line", t->code_line);
	jv_set_str(o, "isa", t->isa);
	jv_set_str(o, "source", t->source);
}

jv *bub_hotspots(const bub *b, size_t *total)
{
	const trace_dispatch *d = b->d;
	size_t *idx = xcalloc(d->n_insts + 1, sizeof *idx), n = 0;
	for (size_t i = 0; i < d->n_insts; i++)
		if (!d->insts[i].is_label && d->insts[i].stall > 0)
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, cmp_stall_desc, (void *)d);
	jv *a = jv_array();
	size_t top = b->o->top && b->o->top < n ? b->o->top : n;
	for (size_t r = 0; r < top; r++) {
		const trace_inst *t = &d->insts[idx[r]];
		jv *o = jv_push(a, jv_object());
		jv_set_int(o, "rank", (int64_t)r + 1);
		jv_set_int(o, "code_line", t->code_line);
		jv_set(o, "vaddr", jv_strf("0x%llx", (unsigned long long)t->vaddr));
		jv_set_str(o, "isa", t->isa);
		jv_set_str(o, "source", t->source);
		jv_set_str(o, "class", tax_class_name(t->klass));
		jv_set_str(o, "normalized", tax_norm_name(tax_normalize(t->klass)));
		jv_set_int(o, "hits", t->hits);
		jv_set_int(o, "latency", t->latency);
		jv_set_int(o, "stall", t->stall);
		jv_set_int(o, "idle", t->idle);
		jv_set(o, "pct_of_stall", bub_pct(t->stall, b->stall));
	}
	free(idx);
	*total = n;
	return a;
}

typedef struct line_group {
	const char *source;
	size_t instructions;
	int64_t hits, latency, stall, idle;
	int64_t class_stall[TAX__COUNT]; /* stall of the group's instructions by their class */
} line_group;

static int cmp_src(const void *x, const void *y, void *ctx)
{
	const trace_dispatch *sort_d = ctx;
	const trace_inst *a = &sort_d->insts[*(const size_t *)x];
	const trace_inst *b = &sort_d->insts[*(const size_t *)y];
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

/* "path/file.py:LINE" (the last element of an inline chain "a -> b"): file and line. */
static void split_source(const char *src, jv *o)
{
	const char *last = src, *p;
	while ((p = strstr(last, " -> ")) != NULL)
		last = p + 4;
	const char *colon = strrchr(last, ':');
	char *end = NULL;
	long long line = colon ? strtoll(colon + 1, &end, 10) : 0;
	if (colon && end && *end == '\0' && end != colon + 1) {
		jv_set(o, "file", jv_strn(last, (size_t)(colon - last)));
		jv_set_int(o, "line", line);
	} else {
		jv_set_str(o, "file", last);
		jv_set(o, "line", jv_null());
	}
}

static line_group *group_lines(const bub *b, size_t *ng, line_group *unm)
{
	const trace_dispatch *d = b->d;
	size_t *idx = xcalloc(d->n_insts + 1, sizeof *idx), n = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label)
			continue;
		if (t->source[0]) {
			idx[n++] = i;
			continue;
		}
		unm->instructions++;
		unm->hits = trace_add(unm->hits, t->hits);
		unm->latency = trace_add(unm->latency, t->latency);
		unm->stall = trace_add(unm->stall, t->stall);
		unm->idle = trace_add(unm->idle, t->idle);
	}
	qsort_r(idx, n, sizeof *idx, cmp_src, (void *)d);
	line_group *g = xcalloc(n + 1, sizeof *g);
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		const trace_inst *t = &d->insts[idx[k]];
		if (!m || strcmp(g[m - 1].source, t->source) != 0)
			g[m++].source = t->source;
		line_group *x = &g[m - 1];
		x->instructions++;
		x->hits = trace_add(x->hits, t->hits);
		x->latency = trace_add(x->latency, t->latency);
		x->stall = trace_add(x->stall, t->stall);
		x->idle = trace_add(x->idle, t->idle);
		x->class_stall[t->klass] = trace_add(x->class_stall[t->klass], t->stall);
	}
	free(idx);
	qsort(g, m, sizeof *g, cmp_group);
	*ng = m;
	return g;
}

/* The class carrying most of a line's stall, or null when the line has none. */
static jv *dominant(const line_group *g)
{
	int best = -1;
	for (int c = 0; c < TAX__COUNT; c++)
		if (g->class_stall[c] > 0 && (best < 0 || g->class_stall[c] > g->class_stall[best]))
			best = c;
	return best < 0 ? jv_null() : jv_str(tax_class_name(best));
}

jv *bub_lines(const bub *b, jv **unmapped, size_t *total)
{
	line_group unm;
	memset(&unm, 0, sizeof unm);
	unm.source = "";
	size_t m = 0;
	line_group *g = group_lines(b, &m, &unm);
	jv *a = jv_array();
	for (size_t k = 0; k < m; k++) {
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "source", g[k].source);
		split_source(g[k].source, o);
		jv_set_int(o, "instructions", (int64_t)g[k].instructions);
		jv_set_int(o, "hits", g[k].hits);
		jv_set_int(o, "latency", g[k].latency);
		jv_set_int(o, "stall", g[k].stall);
		jv_set_int(o, "idle", g[k].idle);
		jv_set(o, "pct_of_stall", bub_pct(g[k].stall, b->stall));
		jv_set(o, "class", dominant(&g[k]));
	}
	free(g);
	*total = bub_cut(a, b->o->top);
	jv *u = jv_object();
	jv_set_int(u, "instructions", (int64_t)unm.instructions);
	jv_set_int(u, "hits", unm.hits);
	jv_set_int(u, "stall", unm.stall);
	jv_set(u, "pct_of_stall", bub_pct(unm.stall, b->stall));
	jv_set_int(u, "latency", unm.latency);
	jv_set(u, "pct_of_latency", bub_pct(unm.latency, b->latency));
	*unmapped = u;
	return a;
}

jv *bub_wait_json(const bub *b, const wait_info *w)
{
	const trace_dispatch *d = b->d;
	const trace_inst *t = &d->insts[w->inst];
	jv *o = jv_object();
	inst_fields(o, t);
	jv_set_str(o, "class", tax_class_name(w->klass));
	jv_set_int(o, "stall", t->stall);
	jv_set(o, "pct_of_stall", bub_pct(t->stall, b->stall));
	jv_set_int(o, "waves", w->waves);
	jv *ps = jv_set(o, "producers", jv_array());
	for (size_t i = 0; i < w->n_producers; i++) {
		const wait_producer *p = &w->producers[i];
		jv *q = jv_push(ps, jv_object());
		jv_set_int(q, "code_line", p->code_line);
		jv_set_str(q, "isa", p->inst >= 0 ? d->insts[p->inst].isa : "?");
		jv_set_str(q, "source", p->inst >= 0 ? d->insts[p->inst].source : "");
		jv_set_str(q, "type", tax_prod_name(p->type));
		jv_set_int(q, "waves", p->waves);
	}
	jv *sp = jv_set(o, "split", jv_object());
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++)
		jv_set_int(sp, waits_group_name(g), w->split[g]);
	jv_set_str(o, "split_method", w->method);
	return o;
}

static int cmp_wait(const void *x, const void *y, void *ctx)
{
	const trace_dispatch *sort_d = ctx;
	const wait_info *a = *(wait_info *const *)x, *b = *(wait_info *const *)y;
	const trace_inst *ta = &sort_d->insts[a->inst], *tb = &sort_d->insts[b->inst];
	if (ta->stall != tb->stall)
		return ta->stall > tb->stall ? -1 : 1;
	return ta->code_line < tb->code_line ? -1 : ta->code_line > tb->code_line;
}

jv *bub_waits(const bub *b, size_t *total)
{
	const wait_info **v = xcalloc(b->waits.n + 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < b->waits.n; i++) {
		const wait_info *w = &b->waits.v[i];
		if (b->d->insts[w->inst].stall > 0 || w->n_producers)
			v[n++] = w;
	}
	qsort_r(v, n, sizeof *v, cmp_wait, (void *)b->d);
	jv *a = jv_array();
	size_t top = b->o->top && b->o->top < n ? b->o->top : n;
	for (size_t i = 0; i < top; i++)
		jv_push(a, bub_wait_json(b, v[i]));
	free(v);
	*total = n;
	return a;
}

int bub_check_detail(const trace_dispatch *d, int64_t line, fp_err *e)
{
	long i = trace_find_line(d, line);
	if (i >= 0 && !d->insts[i].is_label)
		return 0;
	fp_fail(e, ERR_NO_MATCH, "no instruction on code line %lld", (long long)line);
	jv *av = jv_array();
	for (size_t k = 0; k < d->n_insts; k++)
		if (!d->insts[k].is_label && d->insts[k].hits > 0)
			jv_push(av, jv_int(d->insts[k].code_line));
	fp_err_extra(e, "available", av);
	fp_err_set_help(e,
			"pick an executed code line from error.available (code.json LineNumber)");
	return -1;
}

static jv *detail_waves(const bub *b)
{
	jv *a = jv_array();
	for (size_t i = 0; i < b->agg.n_detail; i++) {
		const wave_detail *w = &b->agg.detail[i];
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "wave", b->agg.files[w->file]);
		jv_set_int(o, "hits", w->hits);
		jv_set_int(o, "latency", w->latency);
		jv_set_int(o, "stall", w->stall);
		jv_set_int(o, "idle", w->idle);
	}
	return a;
}

static jv *detail_stats(const bub *b)
{
	jv *s = jv_object();
	int64_t mn = 0, mx = 0, sum = 0;
	for (size_t i = 0; i < b->agg.n_detail; i++) {
		int64_t v = b->agg.detail[i].stall;
		mn = i == 0 || v < mn ? v : mn;
		mx = i == 0 || v > mx ? v : mx;
		sum = trace_add(sum, v);
	}
	jv_set_int(s, "waves", (int64_t)b->agg.n_detail);
	jv_set_int(s, "stall_min", mn);
	jv_set_int(s, "stall_max", mx);
	jv_set_round(s, "stall_mean", b->agg.n_detail ? (double)sum / (double)b->agg.n_detail : 0.0,
		     2);
	return s;
}

jv *bub_detail(const bub *b, fp_err *e)
{
	const trace_dispatch *d = b->d;
	if (bub_check_detail(d, b->o->detail_line, e))
		return NULL;
	long i = trace_find_line(d, b->o->detail_line);
	const trace_inst *t = &d->insts[i];
	jv *o = jv_object();
	inst_fields(o, t);
	jv_set(o, "vaddr", jv_strf("0x%llx", (unsigned long long)t->vaddr));
	jv_set_str(o, "class", tax_class_name(t->klass));
	jv_set_str(o, "normalized", tax_norm_name(tax_normalize(t->klass)));
	jv_set_int(o, "hits", t->hits);
	jv_set_int(o, "latency", t->latency);
	jv_set_int(o, "stall", t->stall);
	jv_set_int(o, "idle", t->idle);
	jv_set_int(o, "issue", trace_sub(t->latency, t->stall));
	jv_set(o, "pct_of_stall", bub_pct(t->stall, b->stall));
	if (b->wait_of[i] >= 0)
		jv_set(o, "wait", bub_wait_json(b, &b->waits.v[b->wait_of[i]]));
	jv_set(o, "wave_stats", detail_stats(b));
	jv_set(o, "per_wave", detail_waves(b));
	return o;
}
