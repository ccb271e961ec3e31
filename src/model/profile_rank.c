/* The vendor-neutral ranking of a stall profile (profile.h): class and normalised sums with
 * each class's top instructions, hotspots, source lines and waits, each cut once to --top. */
#include "model/profile.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Inserts inst into a class's top list by key (ties: the earlier instruction stays first). */
static void note_top(prof_class *c, const prof_part *pt, int64_t key)
{
	if (key <= 0)
		return;
	for (size_t k = 0; k < PROF_CLASS_TOP; k++) {
		if (k < c->n_top) {
			const prof_top *t = &c->top[k];
			if (key <= (t->stall > 0 ? t->stall : t->latency))
				continue;
		}
		size_t last = c->n_top < PROF_CLASS_TOP ? c->n_top : PROF_CLASS_TOP - 1;
		for (size_t m = last; m > k; m--)
			c->top[m] = c->top[m - 1];
		c->top[k] = (prof_top){pt->inst, pt->stall, pt->latency};
		if (c->n_top < PROF_CLASS_TOP)
			c->n_top++;
		return;
	}
}

static int in_range(const stall_profile *p, int k)
{
	return k >= 0 && k < class_count(p->vendor);
}

static void rank_classes(stall_profile *p)
{
	int nc = class_count(p->vendor);
	p->classes = xcalloc((size_t)nc, sizeof *p->classes);
	p->n_unclassed = 0;
	p->unclassed_hits = 0;
	const trace_dispatch *d = p->trace;
	for (size_t i = 0; d && i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label)
			continue;
		if (!in_range(p, t->klass)) {
			p->n_unclassed++;
			p->unclassed_hits = trace_add(p->unclassed_hits, t->hits);
			continue;
		}
		prof_class *c = &p->classes[t->klass];
		c->instructions++;
		c->hits = trace_add(c->hits, t->hits);
		c->idle = trace_add(c->idle, t->idle);
	}
	for (size_t k = 0; k < p->n_parts; k++) {
		const prof_part *pt = &p->parts[k];
		if (!in_range(p, pt->klass))
			continue;
		prof_class *c = &p->classes[pt->klass];
		c->latency = trace_add(c->latency, pt->latency);
		c->stall = trace_add(c->stall, pt->stall);
		c->not_issued = trace_add(c->not_issued, pt->not_issued);
		note_top(c, pt, class_is_stall(p->vendor, pt->klass) ? pt->stall : pt->latency);
	}
}

/* Order of n ids by stall, then latency, both descending; ties keep the lower id first. */
static size_t order_ids(const int64_t *stall, const int64_t *lat, const int *use, int n, int *ord)
{
	size_t m = 0;
	for (int i = 0; i < n; i++)
		if (use[i])
			ord[m++] = i;
	for (size_t i = 1; i < m; i++) /* insertion sort: stable, n <= 20 */
		for (size_t j = i; j > 0; j--) {
			int a = ord[j - 1], c = ord[j];
			if (!(stall[c] > stall[a] || (stall[c] == stall[a] && lat[c] > lat[a])))
				break;
			ord[j - 1] = c;
			ord[j] = a;
		}
	return m;
}

static void order_classes(stall_profile *p)
{
	int nc = class_count(p->vendor);
	int64_t *st = xcalloc((size_t)nc, sizeof *st), *lat = xcalloc((size_t)nc, sizeof *lat);
	int *use = xcalloc((size_t)nc, sizeof *use);
	p->class_order = xcalloc((size_t)nc, sizeof *p->class_order);
	for (int c = 0; c < nc; c++) {
		const prof_class *x = &p->classes[c];
		st[c] = x->stall;
		lat[c] = x->latency;
		use[c] = x->instructions || x->stall || x->latency || x->not_issued;
	}
	p->n_class_order = order_ids(st, lat, use, nc, p->class_order);
	free(st);
	free(lat);
	free(use);
}

static void rank_norm(stall_profile *p)
{
	int64_t st[NORM__COUNT], lat[NORM__COUNT];
	int use[NORM__COUNT];
	memset(p->norm, 0, sizeof p->norm);
	for (int c = 0; c < class_count(p->vendor); c++) {
		const prof_class *x = &p->classes[c];
		prof_norm *n = &p->norm[class_norm(p->vendor, c)];
		n->stall = trace_add(n->stall, x->stall);
		n->latency = trace_add(n->latency, x->latency);
		n->not_issued = trace_add(n->not_issued, x->not_issued);
		n->used |= x->instructions > 0 || x->latency > 0 || x->not_issued > 0;
	}
	for (int n = 0; n < NORM__COUNT; n++) {
		st[n] = p->norm[n].stall;
		lat[n] = p->norm[n].latency;
		use[n] = p->norm[n].used;
	}
	p->n_norm_order = order_ids(st, lat, use, NORM__COUNT, p->norm_order);
}

static int cmp_stall_desc(const void *x, const void *y, void *ctx)
{
	const trace_inst *in = ctx;
	const trace_inst *a = &in[*(const size_t *)x], *b = &in[*(const size_t *)y];
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	return a->code_line < b->code_line ? -1 : a->code_line > b->code_line;
}

static size_t cut(size_t n, size_t top)
{
	return top && top < n ? top : n;
}

static void rank_hotspots(stall_profile *p, size_t top)
{
	const trace_dispatch *d = p->trace;
	size_t n_in = d ? d->n_insts : 0, n = 0;
	p->hot = xcalloc(n_in + 1, sizeof *p->hot);
	for (size_t i = 0; i < n_in; i++)
		if (!d->insts[i].is_label && d->insts[i].stall > 0)
			p->hot[n++] = i;
	if (n)
		qsort_r(p->hot, n, sizeof *p->hot, cmp_stall_desc, (void *)d->insts);
	p->hot_total = n;
	p->n_hot = cut(n, top);
}

static int cmp_src(const void *x, const void *y, void *ctx)
{
	const trace_inst *in = ctx;
	const trace_inst *a = &in[*(const size_t *)x], *b = &in[*(const size_t *)y];
	int c = strcmp(a->source, b->source);
	return c ? c : (a->code_line < b->code_line ? -1 : a->code_line > b->code_line);
}

static int cmp_line(const void *x, const void *y)
{
	const prof_line *a = x, *b = y;
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	return strcmp(a->source, b->source);
}

static void line_add(const stall_profile *p, prof_line *l, size_t i)
{
	const trace_inst *t = &p->trace->insts[i];
	l->instructions++;
	l->hits = trace_add(l->hits, t->hits);
	l->latency = trace_add(l->latency, t->latency);
	l->stall = trace_add(l->stall, t->stall);
	l->idle = trace_add(l->idle, t->idle);
	if (p->not_issued)
		l->not_issued = trace_add(l->not_issued, p->not_issued[i]);
}

/* The parts of each instruction: first[i] .. first[i + 1] index into by_inst. */
static size_t *parts_by_inst(const stall_profile *p, size_t **first)
{
	size_t n_in = p->trace->n_insts;
	size_t *f = xcalloc(n_in + 2, sizeof *f), *pos = xcalloc(n_in + 1, sizeof *pos);
	size_t *by = xcalloc(p->n_parts + 1, sizeof *by);
	for (size_t k = 0; k < p->n_parts; k++)
		if (p->parts[k].inst < n_in)
			f[p->parts[k].inst + 1]++;
	for (size_t i = 0; i < n_in; i++)
		f[i + 1] += f[i];
	for (size_t k = 0; k < p->n_parts; k++) {
		size_t i = p->parts[k].inst;
		if (i < n_in)
			by[f[i] + pos[i]++] = k;
	}
	free(pos);
	*first = f;
	return by;
}

/* The class carrying most stall over instructions idx[a..b), or -1 (ties: lower id). */
static int line_class(const stall_profile *p, const size_t *idx, size_t a, size_t b,
		      const size_t *first, const size_t *by, int64_t *acc)
{
	int nc = class_count(p->vendor), best = -1;
	memset(acc, 0, (size_t)nc * sizeof *acc);
	for (size_t k = a; k < b; k++) {
		const trace_inst *t = &p->trace->insts[idx[k]];
		if (!p->line_class_from_parts) {
			if (in_range(p, t->klass))
				acc[t->klass] = trace_add(acc[t->klass], t->stall);
			continue;
		}
		for (size_t j = first[idx[k]]; j < first[idx[k] + 1]; j++) {
			const prof_part *pt = &p->parts[by[j]];
			if (in_range(p, pt->klass))
				acc[pt->klass] = trace_add(acc[pt->klass], pt->stall);
		}
	}
	for (int c = 0; c < nc; c++)
		if (class_is_stall(p->vendor, c) && acc[c] > 0 && (best < 0 || acc[c] > acc[best]))
			best = c;
	return best;
}

static void rank_lines(stall_profile *p, size_t top)
{
	const trace_dispatch *d = p->trace;
	size_t n_in = d ? d->n_insts : 0, n = 0, m = 0;
	size_t *idx = xcalloc(n_in + 1, sizeof *idx);
	memset(&p->unmapped, 0, sizeof p->unmapped);
	p->unmapped.source = "";
	p->unmapped.klass = -1;
	for (size_t i = 0; i < n_in; i++) {
		if (d->insts[i].is_label)
			continue;
		if (d->insts[i].source[0])
			idx[n++] = i;
		else
			line_add(p, &p->unmapped, i);
	}
	if (n)
		qsort_r(idx, n, sizeof *idx, cmp_src, (void *)d->insts);
	p->lines = xcalloc(n + 1, sizeof *p->lines);
	size_t *first = NULL, *by = d ? parts_by_inst(p, &first) : NULL;
	int64_t *acc = xcalloc((size_t)class_count(p->vendor), sizeof *acc);
	for (size_t k = 0; k < n;) {
		size_t e = k;
		prof_line *l = &p->lines[m++];
		l->source = d->insts[idx[k]].source;
		while (e < n && strcmp(d->insts[idx[e]].source, l->source) == 0)
			line_add(p, l, idx[e++]);
		l->klass = line_class(p, idx, k, e, first, by, acc);
		k = e;
	}
	free(acc);
	free(first);
	free(by);
	free(idx);
	qsort(p->lines, m, sizeof *p->lines, cmp_line);
	p->lines_total = m;
	p->n_lines = cut(m, top);
}

static int cmp_wait(const void *x, const void *y, void *ctx)
{
	const stall_profile *p = ctx;
	const prof_wait *a = &p->waits[*(const size_t *)x], *b = &p->waits[*(const size_t *)y];
	if (a->stall != b->stall)
		return a->stall > b->stall ? -1 : 1;
	int64_t la = p->trace->insts[a->inst].code_line, lb = p->trace->insts[b->inst].code_line;
	return la < lb ? -1 : la > lb;
}

static void rank_waits(stall_profile *p, size_t top)
{
	size_t n = 0;
	p->wait_order = xcalloc(p->n_waits + 1, sizeof *p->wait_order);
	for (size_t i = 0; i < p->n_waits; i++)
		if (p->waits[i].stall > 0 || p->waits[i].n_producers)
			p->wait_order[n++] = i;
	if (n)
		qsort_r(p->wait_order, n, sizeof *p->wait_order, cmp_wait, p);
	p->waits_total = n;
	p->n_wait_order = cut(n, top);
}

void profile_rank(stall_profile *p, size_t top)
{
	rank_classes(p);
	order_classes(p);
	rank_norm(p);
	rank_hotspots(p, top);
	rank_lines(p, top);
	rank_waits(p, top);
}
