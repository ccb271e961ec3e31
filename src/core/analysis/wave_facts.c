/* Working and idle waves, exposed stall and the timeline, in the bubbles pass (wave_facts.h). */
#include "core/analysis/wave_facts.h"

#include "base/xalloc.h"
#include "core/amd/wave_agg.h"
#include "core/analysis/isa_facts.h"

#include <stdlib.h>
#include <string.h>

/* ---- the idle-wave figures, class-free while the pass runs ---- */

static void facts_init(wave_facts_acc *a)
{
	memset(a, 0, sizeof *a);
}

static void facts_release(wave_facts_acc *a)
{
	free(a->w);
	free(a->idle);
	memset(a, 0, sizeof *a);
}

static size_t idle_hash(int64_t insts, int64_t inst)
{
	uint64_t h = (uint64_t)insts * 0x9E3779B97F4A7C15ull ^ (uint64_t)inst;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(h ^ (h >> 29));
}

static void idle_add(wave_facts_acc *a, int64_t insts, int64_t inst, int64_t stall);

static void idle_grow(wave_facts_acc *a)
{
	idle_slot *old = a->idle;
	size_t cap = a->idle_cap;
	a->idle_cap = cap ? 2 * cap : 256;
	a->idle = xmalloc(a->idle_cap * sizeof *a->idle);
	for (size_t i = 0; i < a->idle_cap; i++)
		a->idle[i].inst = -1;
	a->idle_n = 0;
	for (size_t i = 0; i < cap; i++)
		if (old[i].inst >= 0)
			idle_add(a, old[i].insts, old[i].inst, old[i].stall);
	free(old);
}

static void idle_add(wave_facts_acc *a, int64_t insts, int64_t inst, int64_t stall)
{
	if (2 * (a->idle_n + 1) > a->idle_cap)
		idle_grow(a);
	size_t j = idle_hash(insts, inst) & (a->idle_cap - 1);
	while (a->idle[j].inst >= 0 && (a->idle[j].inst != inst || a->idle[j].insts != insts))
		j = (j + 1) & (a->idle_cap - 1);
	idle_slot *s = &a->idle[j];
	if (s->inst < 0) {
		*s = (idle_slot){insts, 0, inst};
		a->idle_n++;
	}
	s->stall = trace_add(s->stall, stall);
}

/* A worker's share of the pass: its own sums, merged after. */
typedef struct worker_part {
	const wave_report *r;
	wave_facts_acc wf;
	exposed_acc ex;
	/* exposed_wave's facts of the current group's waves, by pos (wave_pass.h), and gathered
	 * in a group's order for exposed_group_facts */
	exposed_wave_facts *facts, *gathered;
	size_t cap_facts, cap_gathered;
	wave_timeline tl;
} worker_part;

/* A wave's figures, counted by exposed_wave in its loop over the records (f); its stall is
 * summed per instruction there too. */
static void facts_wave(worker_part *p, const att_wave *w, const exposed_wave_facts *f)
{
	const wave_report *r = p->r;
	wave_facts_acc *a = &p->wf;
	wave_stat s = {f->mapped, f->flagged, f->latency};
	if (!s.stores) /* the wave may turn out idle: its stalls again, under its count */
		for (size_t k = 0; k < w->n_insts; k++) {
			const att_wave_inst *in = &w->insts[k];
			long i = in->line > 0 && in->stall > 0
				     ? line_index_find(&r->lines, in->line)
				     : -1;
			if (i >= 0)
				idle_add(a, s.insts, i, in->stall);
		}
	a->w = xgrow(a->w, &a->cap, a->n + 1, sizeof *a->w);
	a->w[a->n++] = s;
}

static void facts_merge(wave_facts_acc *dst, const wave_facts_acc *src)
{
	dst->w = xgrow(dst->w, &dst->cap, dst->n + src->n, sizeof *dst->w);
	if (src->n)
		memcpy(dst->w + dst->n, src->w, src->n * sizeof *dst->w);
	dst->n += src->n;
	for (size_t i = 0; i < src->idle_cap; i++)
		if (src->idle[i].inst >= 0)
			idle_add(dst, src->idle[i].insts, src->idle[i].inst, src->idle[i].stall);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static int is_idle(const wave_stat *s, int64_t busiest)
{
	return (double)s->insts < WAVE_IDLE_FRACTION * (double)busiest && !s->stores;
}

static jv *facts_to_json(const wave_facts_acc *a, const wave_report *r)
{
	const trace_dispatch *d = r->d;
	int64_t busiest = 0, idle_max = 0, work_min = -1;
	for (size_t i = 0; i < a->n; i++)
		busiest = a->w[i].insts > busiest ? a->w[i].insts : busiest;
	size_t idle = 0;
	double lat = 0, idle_lat = 0, stall[TAX__COUNT] = {0}, idle_stall[TAX__COUNT] = {0};
	for (size_t i = 0; i < a->n; i++) {
		const wave_stat *s = &a->w[i];
		lat += (double)s->latency;
		if (is_idle(s, busiest)) {
			idle++;
			idle_lat += (double)s->latency;
			idle_max = s->insts > idle_max ? s->insts : idle_max;
		} else if (work_min < 0 || s->insts < work_min)
			work_min = s->insts;
	}
	/* the classes are known now: integer sums per class, then doubles as the JSON has them.
	 * Every wave's stall per instruction is exposed stall's sum (exposed_wave adds each
	 * record's once, in 128 bits); wrapped to 64 bits as every sum of trace values is
	 * (trace_add), it is the same modulo 2^64 in any order. */
	int64_t st[TAX__COUNT] = {0}, idle_st[TAX__COUNT] = {0};
	for (size_t i = 0; i < d->n_insts; i++) {
		int c = tax_class_of_inst(d, (long)i);
		st[c] = trace_add(st[c], (int64_t)(uint64_t)r->ex.line_stall[i]);
	}
	for (size_t k = 0; k < a->idle_cap; k++) {
		const idle_slot *q = &a->idle[k];
		wave_stat s = {q->insts, 0, 0};
		if (q->inst >= 0 && is_idle(&s, busiest))
			idle_st[tax_class_of_inst(d, q->inst)] =
			    trace_add(idle_st[tax_class_of_inst(d, q->inst)], q->stall);
	}
	for (int c = 0; c < TAX__COUNT; c++) {
		stall[c] = (double)st[c];
		idle_stall[c] = (double)idle_st[c];
	}
	jv *o = jv_object();
	jv_set_int(o, "traced_waves", (int64_t)a->n);
	jv_set_int(o, "idle_waves", (int64_t)idle);
	jv_set_int(o, "working_waves", (int64_t)(a->n - idle));
	jv_set_round(o, "idle_pct", pct((double)idle, (double)a->n), 1);
	jv_set_round(o, "idle_latency_pct", pct(idle_lat, lat), 2);
	jv *ins = jv_set(o, "instructions", jv_object());
	jv_set_int(ins, "busiest_wave", busiest);
	jv_set(ins, "idle_wave_max", idle ? jv_int(idle_max) : jv_null());
	jv_set(ins, "working_wave_min", work_min >= 0 ? jv_int(work_min) : jv_null());
	double wstall = 0;
	for (int c = 0; c < TAX__COUNT; c++)
		wstall += stall[c] - idle_stall[c];
	jv *cls = jv_set(o, "classes", jv_array());
	for (int c = 0; c < TAX__COUNT; c++) {
		if (stall[c] <= 0)
			continue;
		jv *e = jv_push(cls, jv_object());
		jv_set_str(e, "class", tax_class_name((tax_class)c));
		jv_set_round(e, "stall", stall[c], 0);
		jv_set_round(e, "idle_wave_share_pct", pct(idle_stall[c], stall[c]), 2);
		jv_set_round(e, "working_stall", stall[c] - idle_stall[c], 0);
		jv_set_round(e, "working_pct_of_stall", pct(stall[c] - idle_stall[c], wstall), 2);
	}
	jv_set(
	    o, "definition",
	    jv_strf("a wave did no work when it executed fewer than %.0f%% of the busiest traced "
		    "wave's instructions and no VMEM store or atomic; working_pct_of_stall is the "
		    "taxonomy over working waves only",
		    100 * WAVE_IDLE_FRACTION));
	if (a->n && idle * 2 >= a->n)
		jv_set_str(o, "note",
			   "most traced waves did no work: the traced CU saw mostly idle waves; "
			   "re-capture with another att_target_cu (input_trace.yaml) to see more "
			   "working waves");
	return o;
}

/* ---- the hooks ---- */

static void *on_begin(void *ctx)
{
	wave_report *r = ctx;
	worker_part *p = xcalloc(1, sizeof *p);
	p->r = r;
	facts_init(&p->wf);
	exposed_init(&p->ex, r->d);
	exposed_flag(&p->ex, r->is_store); /* the wave facts count stores in exposed_wave */
	if (r->tl)
		wave_timeline_part(&r->tl->t, &p->tl);
	return p;
}

/* Exposed stall's part of a wave is taken here, while its records are in cache (just parsed and
 * folded): its summed stall and the facts the group needs (exposed_wave). */
static void on_wave(void *wk, const char *name, size_t rank, size_t pos, const att_wave *w)
{
	worker_part *p = wk;
	p->facts = xgrow(p->facts, &p->cap_facts, pos + 1, sizeof *p->facts);
	if (pos == 0) /* a new group: the previous one is done (or was given up) */
		exposed_store_reset(&p->ex);
	exposed_wave(&p->ex, w, &p->facts[pos]);
	facts_wave(p, w, &p->facts[pos]);
	if (p->r->tl)
		wave_timeline_add(&p->tl, name, rank, w);
}

static void on_group(void *wk, const wave_group *g)
{
	worker_part *p = wk;
	p->gathered = xgrow(p->gathered, &p->cap_gathered, g->n, sizeof *p->gathered);
	for (size_t k = 0; k < g->n; k++)
		p->gathered[k] = p->facts[g->pos[k]];
	exposed_group_facts(&p->ex, g, p->gathered);
}

static void on_end(void *ctx, void *wk, int ok)
{
	wave_report *r = ctx;
	worker_part *p = wk;
	if (ok) {
		facts_merge(&r->wf, &p->wf);
		exposed_merge(&r->ex, &p->ex);
	}
	if (r->tl) {
		if (ok)
			wave_timeline_merge(&r->tl->t, &p->tl);
		else
			wave_timeline_release(&p->tl);
	}
	facts_release(&p->wf);
	exposed_release(&p->ex);
	free(p->facts);
	free(p->gathered);
	free(p);
}

void wave_report_init(wave_report *r, const trace_dispatch *d, const char *dir,
		      wave_pass_timeline *tl)
{
	memset(r, 0, sizeof *r);
	r->d = d;
	line_index_init(&r->lines, d);
	r->is_store = xcalloc(d->n_insts ? d->n_insts : 1, 1);
	for (size_t i = 0; i < d->n_insts; i++) {
		int st = 0;
		r->is_store[i] = isa_vmem_bytes(d->insts[i].isa, &st) && st;
	}
	facts_init(&r->wf);
	exposed_init(&r->ex, d);
	if (tl) {
		tl->built = 0;
		if (wave_timeline_begin(dir, 0, &tl->t, &tl->err) == 0)
			r->tl = tl;
	}
	/* exposed_wave keeps the records exposed_group_facts reads, compact */
	r->hooks = (wave_pass_hooks){r, on_begin, on_wave, on_group, on_end, 1};
}

void wave_report_finish(wave_report *r, const char *dir, jv **wave_facts, jv **exposed)
{
	if (wave_facts)
		*wave_facts = facts_to_json(&r->wf, r);
	if (exposed) /* by class now that the classes are set (exposed_stall.h) */
		*exposed = exposed_to_json(&r->ex, 10);
	if (r->tl)
		r->tl->built = wave_timeline_finish(&r->tl->t, dir, &r->tl->err) == 0;
	r->finished = 1;
}

void wave_report_release(wave_report *r)
{
	if (r->tl && !r->finished)
		wave_timeline_release(&r->tl->t);
	facts_release(&r->wf);
	exposed_release(&r->ex);
	free(r->is_store);
	line_index_release(&r->lines);
	memset(r, 0, sizeof *r);
}

int wave_facts_and_exposed(const char *dir, const trace_dispatch *d, int threads, jv **wave_facts,
			   jv **exposed, wave_pass_timeline *tl, fp_err *e)
{
	wave_report r;
	wave_report_init(&r, d, dir, tl);
	wave_agg agg;
	int rc = wave_agg_run(dir, d, threads, -1, &r.hooks, &agg, e);
	if (rc == 0) {
		wave_report_finish(&r, dir, wave_facts, exposed);
		wave_agg_release(&agg);
	} else if (r.tl)
		fp_fail(&tl->err, e->code, "%s", e->message ? e->message : "");
	wave_report_release(&r);
	return rc;
}

void wave_pass_timeline_release(wave_pass_timeline *tl)
{
	if (tl->built)
		wave_timeline_release(&tl->t);
	tl->built = 0;
	fp_err_clear(&tl->err);
}
