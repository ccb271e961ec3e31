/* Working and idle waves (wave_facts.h). */
#include "core/analysis/wave_facts.h"

#include "base/xalloc.h"
#include "core/analysis/exposed_stall.h"
#include "core/analysis/isa_facts.h"

#include <stdlib.h>
#include <string.h>

void wave_facts_init(wave_facts_acc *a, const trace_dispatch *d)
{
	memset(a, 0, sizeof *a);
	a->d = d;
	line_index_init(&a->lines, d);
	a->is_store = xcalloc(d->n_insts ? d->n_insts : 1, 1);
	for (size_t i = 0; i < d->n_insts; i++) {
		int st = 0;
		a->is_store[i] = isa_vmem_bytes(d->insts[i].isa, &st) && st;
	}
}

void wave_facts_release(wave_facts_acc *a)
{
	free(a->w);
	free(a->is_store);
	line_index_release(&a->lines);
	memset(a, 0, sizeof *a);
}

void wave_facts_group(wave_facts_acc *a, const wave_group *g)
{
	for (size_t k = 0; k < g->n; k++) {
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 64;
			a->w = xrealloc(a->w, a->cap * sizeof *a->w);
		}
		wave_stat *s = &a->w[a->n++];
		memset(s, 0, sizeof *s);
		for (size_t r = 0; r < g->waves[k].n_insts; r++) {
			const att_wave_inst *in = &g->waves[k].insts[r];
			s->latency += in->duration > 0 ? in->duration : 0;
			long i = in->line > 0 ? line_index_find(&a->lines, in->line) : -1;
			if (i < 0)
				continue;
			const trace_inst *t = &a->d->insts[i];
			s->insts++;
			s->stores += a->is_store[i];
			int c = t->klass >= 0 && t->klass < TAX__COUNT ? t->klass : TAX_OTHER;
			s->stall[c] += in->stall > 0 ? (double)in->stall : 0;
		}
	}
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

jv *wave_facts_to_json(const wave_facts_acc *a)
{
	int64_t busiest = 0, idle_max = 0, work_min = -1;
	for (size_t i = 0; i < a->n; i++)
		busiest = a->w[i].insts > busiest ? a->w[i].insts : busiest;
	size_t idle = 0;
	double lat = 0, idle_lat = 0, stall[TAX__COUNT] = {0}, idle_stall[TAX__COUNT] = {0};
	for (size_t i = 0; i < a->n; i++) {
		const wave_stat *s = &a->w[i];
		int is_idle = (double)s->insts < WAVE_IDLE_FRACTION * (double)busiest && !s->stores;
		lat += (double)s->latency;
		for (int c = 0; c < TAX__COUNT; c++) {
			stall[c] += s->stall[c];
			idle_stall[c] += is_idle ? s->stall[c] : 0;
		}
		if (is_idle) {
			idle++;
			idle_lat += (double)s->latency;
			idle_max = s->insts > idle_max ? s->insts : idle_max;
		} else if (work_min < 0 || s->insts < work_min)
			work_min = s->insts;
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

typedef struct both {
	wave_facts_acc wf;
	exposed_acc ex;
	wave_timeline *tl; /* NULL when not asked for or its code.json part failed */
} both;

static void on_group(void *ctx, const wave_group *g)
{
	both *b = ctx;
	wave_facts_group(&b->wf, g);
	exposed_group(&b->ex, g);
}

static void on_file(void *ctx, const char *name, size_t rank, const att_wave *w)
{
	both *b = ctx;
	if (b->tl)
		wave_timeline_add(b->tl, name, rank, w);
}

int wave_facts_and_exposed(const char *dir, const trace_dispatch *d, wave_keep *keep,
			   jv **wave_facts, jv **exposed, wave_pass_timeline *tl, fp_err *e)
{
	both b;
	wave_facts_init(&b.wf, d);
	exposed_init(&b.ex, d);
	b.tl = NULL;
	if (tl) {
		tl->built = 0;
		if (wave_timeline_begin(dir, 0, &tl->t, &tl->err) == 0)
			b.tl = &tl->t;
	}
	int rc = wave_scan_each(dir, keep, on_group, b.tl ? on_file : NULL, &b, e);
	if (!rc && wave_facts)
		*wave_facts = wave_facts_to_json(&b.wf);
	if (!rc && exposed)
		*exposed = exposed_to_json(&b.ex, 10);
	if (b.tl && rc) {
		wave_timeline_release(b.tl);
		fp_fail(&tl->err, e->code, "%s", e->message ? e->message : "");
	} else if (b.tl)
		tl->built = wave_timeline_finish(b.tl, dir, &tl->err) == 0;
	wave_facts_release(&b.wf);
	exposed_release(&b.ex);
	return rc;
}

void wave_pass_timeline_release(wave_pass_timeline *tl)
{
	if (tl->built)
		wave_timeline_release(&tl->t);
	tl->built = 0;
	fp_err_clear(&tl->err);
}
