#include "core/amd/waits.h"

#include "base/lower_bound.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

const char *waits_group_name(int g)
{
	static const char *const names[WAIT_SPLIT__COUNT] = {"memory", "lds", "smem", "other"};
	return g >= 0 && g < WAIT_SPLIT__COUNT ? names[g] : "other";
}

static int group_of(tax_prod p)
{
	switch (p) {
	case PROD_VMEM:
	case PROD_FLAT:
		return WAIT_SPLIT_MEMORY;
	case PROD_LDS:
		return WAIT_SPLIT_LDS;
	case PROD_SMEM:
		return WAIT_SPLIT_SMEM;
	default:
		return WAIT_SPLIT_OTHER;
	}
}

static int largest(const int64_t *w)
{
	int best = 0;
	for (int g = 1; g < WAIT_SPLIT__COUNT; g++)
		if (w[g] > w[best])
			best = g;
	return best;
}

void waits_split(int64_t value, const int64_t *weight, int fallback, int64_t *out)
{
	int64_t total = 0;
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++) {
		out[g] = 0;
		total += weight[g];
	}
	if (total <= 0) {
		out[fallback] = value;
		return;
	}
	int64_t given = 0;
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++) {
		/* value * weight can overflow for huge traces: go through long double. */
		out[g] =
		    (int64_t)((long double)value * (long double)weight[g] / (long double)total);
		given += out[g];
	}
	out[largest(weight)] += value - given;
}

/* Static fallback for an lgkmcnt-only wait: nearest earlier LDS/SMEM instruction. */
static int text_group(const trace_dispatch *d, long at)
{
	const char *isa = d->insts[at].isa;
	unsigned c = tax_wait_counters(isa);
	if (c & (WAIT_VM | WAIT_EXP))
		return WAIT_SPLIT_MEMORY;
	for (long i = at - 1; i >= 0; i--) {
		const trace_inst *p = &d->insts[i];
		if (p->is_label || tax_is_wait(p->isa))
			break;
		tax_prod t = tax_producer_type(p->isa, p->category);
		if (t == PROD_SMEM)
			return WAIT_SPLIT_SMEM;
		if (t == PROD_LDS)
			return WAIT_SPLIT_LDS;
	}
	return WAIT_SPLIT_LDS;
}

static tax_class class_of_group(int g)
{
	switch (g) {
	case WAIT_SPLIT_MEMORY:
		return TAX_VMEM_WAIT;
	case WAIT_SPLIT_LDS:
		return TAX_LDS_WAIT;
	case WAIT_SPLIT_SMEM:
		return TAX_SMEM_WAIT;
	default:
		return TAX_OTHER;
	}
}

/* First pair index with wait_line >= line (pairs are sorted). */
static size_t first_pair(const wave_agg *agg, int64_t line)
{
	return lower_bound_i64(agg->pairs, agg->n_pairs, sizeof *agg->pairs,
			       offsetof(wave_pair, wait_line), line);
}

static void fill_producers(const trace_dispatch *d, const wave_agg *agg, wait_info *w)
{
	int64_t line = d->insts[w->inst].code_line;
	size_t i = first_pair(agg, line), n = 0;
	while (i + n < agg->n_pairs && agg->pairs[i + n].wait_line == line)
		n++;
	w->producers = xcalloc(n ? n : 1, sizeof *w->producers);
	w->n_producers = n;
	for (size_t k = 0; k < n; k++) {
		const wave_pair *p = &agg->pairs[i + k];
		wait_producer *q = &w->producers[k];
		q->code_line = p->producer_line;
		q->inst = trace_find_line(d, p->producer_line);
		q->type = q->inst >= 0
			      ? tax_producer_type(d->insts[q->inst].isa, d->insts[q->inst].category)
			      : PROD_OTHER;
		q->waves = p->waves;
		w->weight[group_of(q->type)] += p->waves;
	}
	if (line >= 0 && (uint64_t)line < agg->n_lines)
		w->waves = agg->lines[line].wait_waves;
}

void waits_attribute(const trace_dispatch *d, const wave_agg *agg, waits_result *out)
{
	memset(out, 0, sizeof *out);
	size_t cap = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !tax_is_wait(t->isa))
			continue;
		out->v = xgrow(out->v, &cap, out->n + 1, sizeof *out->v);
		wait_info *w = &out->v[out->n++];
		memset(w, 0, sizeof *w);
		w->inst = (long)i;
		if (agg)
			fill_producers(d, agg, w);
		int fallback = text_group(d, (long)i);
		w->method = w->n_producers ? "producers" : "text";
		waits_split(t->stall, w->weight, fallback, w->split);
		int g = t->stall > 0	 ? largest(w->split)
			: w->n_producers ? largest(w->weight)
					 : fallback;
		w->klass = class_of_group(g);
	}
}

void waits_release(waits_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].producers);
	free(r->v);
	memset(r, 0, sizeof *r);
}
