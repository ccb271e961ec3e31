/* The --detail view of bubbles: one instruction with its per-wave distribution. */
#include "core/amd/bubbles_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

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
		profile_set_costs(o, w->hits, w->latency, w->stall, w->idle);
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
	jv_set_int(o, "code_line", t->code_line);
	jv_set_str(o, "isa", t->isa);
	jv_set_str(o, "source", t->source);
	jv_set(o, "vaddr", jv_strf("0x%llx", (unsigned long long)t->vaddr));
	jv_set_str(o, "class", tax_class_name(t->klass));
	jv_set_str(o, "normalized", tax_norm_name(tax_normalize(t->klass)));
	profile_set_costs(o, t->hits, t->latency, t->stall, t->idle);
	jv_set_int(o, "issue", trace_sub(t->latency, t->stall));
	jv_set_round(o, "pct_of_stall", profile_pct(t->stall, b->p->totals.stall), 2);
	if (b->wait_of[i] >= 0)
		jv_set(o, "wait", profile_wait_json(b->p, &b->p->waits[b->wait_of[i]]));
	jv_set(o, "wave_stats", detail_stats(b));
	jv_set(o, "per_wave", detail_waves(b));
	return o;
}
