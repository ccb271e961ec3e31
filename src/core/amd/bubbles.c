/* bubbles: orchestration, totals, classes, normalised classes, mix, checks. The ranked lists
 * are in bubbles_lists.c, the sections from optional files in bubbles_extra.c. */
#include "core/amd/bubbles.h"

#include "base/xalloc.h"
#include "core/amd/bubbles_int.h"
#include "core/amd/wave_states.h"

#include <stdlib.h>
#include <string.h>

#define CLASS_TOP 3

typedef struct class_acc {
	size_t count;
	int64_t hits, latency, stall, idle;
	long top[CLASS_TOP];	      /* instruction indices, most attributed stall first */
	int64_t top_stall[CLASS_TOP]; /* the stall each one carries in this class */
} class_acc;

/* The decoder category seen most often for each instruction (lowest value on ties). */
static void set_categories(bub *b)
{
	for (size_t i = 0; i < b->d->n_insts; i++) {
		trace_inst *t = &b->d->insts[i];
		t->category = TRACE_CAT_UNKNOWN;
		if (!b->have_waves || t->code_line < 0 || (uint64_t)t->code_line >= b->agg.n_lines)
			continue;
		const wave_line *L = &b->agg.lines[t->code_line];
		uint32_t best = 0;
		for (int c = 0; c < WAVE_N_CATS - 1; c++)
			if (L->cats[c] > best) {
				best = L->cats[c];
				t->category = (uint8_t)c;
			}
	}
}

static void classify(bub *b)
{
	trace_dispatch *d = b->d;
	b->wait_of = xcalloc(d->n_insts + 1, sizeof *b->wait_of);
	for (size_t i = 0; i < d->n_insts; i++)
		b->wait_of[i] = -1;
	for (size_t k = 0; k < b->waits.n; k++)
		b->wait_of[b->waits.v[k].inst] = (long)k;
	for (size_t i = 0; i < d->n_insts; i++) {
		trace_inst *t = &d->insts[i];
		if (t->is_label) {
			t->klass = -1;
			continue;
		}
		t->klass = (int16_t)(b->wait_of[i] >= 0 ? b->waits.v[b->wait_of[i]].klass
							: tax_classify(t->isa, t->category));
		b->n_static++;
		b->n_executed += t->hits > 0;
		b->hits = trace_add(b->hits, t->hits);
		b->latency = trace_add(b->latency, t->latency);
		b->stall = trace_add(b->stall, t->stall);
		b->idle = trace_add(b->idle, t->idle);
	}
}

static void note_top(class_acc *c, long inst, int64_t stall)
{
	if (stall <= 0)
		return;
	for (int k = 0; k < CLASS_TOP; k++) {
		if (c->top[k] >= 0 && stall <= c->top_stall[k])
			continue;
		for (int m = CLASS_TOP - 1; m > k; m--) {
			c->top[m] = c->top[m - 1];
			c->top_stall[m] = c->top_stall[m - 1];
		}
		c->top[k] = inst;
		c->top_stall[k] = stall;
		return;
	}
}

static tax_class wait_group_class(int g)
{
	static const tax_class map[WAIT_SPLIT__COUNT] = {TAX_VMEM_WAIT, TAX_LDS_WAIT, TAX_SMEM_WAIT,
							 TAX_OTHER};
	return map[g];
}

/* A wait's stall and latency are split across the wait classes by its producer shares; its
 * count, hits and idle stay with its (dominant) class. */
static void add_wait(class_acc *acc, const wait_info *w, const trace_inst *t)
{
	int64_t lat[WAIT_SPLIT__COUNT];
	int fallback = w->klass == TAX_LDS_WAIT	   ? 1
		       : w->klass == TAX_SMEM_WAIT ? 2
		       : w->klass == TAX_OTHER	   ? 3
						   : 0;
	waits_split(t->latency, w->n_producers ? w->weight : w->split, fallback, lat);
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++) {
		class_acc *c = &acc[wait_group_class(g)];
		c->stall = trace_add(c->stall, w->split[g]);
		c->latency = trace_add(c->latency, lat[g]);
		note_top(c, w->inst, w->split[g]);
	}
}

static void accumulate(const bub *b, class_acc *acc)
{
	for (int c = 0; c < TAX__COUNT; c++)
		for (int k = 0; k < CLASS_TOP; k++)
			acc[c].top[k] = -1;
	for (size_t i = 0; i < b->d->n_insts; i++) {
		const trace_inst *t = &b->d->insts[i];
		if (t->is_label)
			continue;
		class_acc *c = &acc[t->klass];
		c->count++;
		c->hits = trace_add(c->hits, t->hits);
		c->idle = trace_add(c->idle, t->idle);
		if (b->wait_of[i] >= 0) {
			add_wait(acc, &b->waits.v[b->wait_of[i]], t);
			continue;
		}
		c->latency = trace_add(c->latency, t->latency);
		c->stall = trace_add(c->stall, t->stall);
		note_top(c, (long)i, t->stall);
	}
}

static jv *class_top(const bub *b, const class_acc *c)
{
	jv *a = jv_array();
	for (int k = 0; k < CLASS_TOP && c->top[k] >= 0; k++) {
		const trace_inst *t = &b->d->insts[c->top[k]];
		jv *o = jv_push(a, jv_object());
		jv_set_int(o, "code_line", t->code_line);
		jv_set_str(o, "isa", t->isa);
		jv_set_str(o, "source", t->source);
		jv_set_int(o, "stall", c->top_stall[k]);
	}
	return a;
}

static int order_by_stall(const int64_t *stall, const int64_t *lat, int n, int *ord)
{
	for (int i = 0; i < n; i++)
		ord[i] = i;
	for (int i = 1; i < n; i++) /* insertion sort: stable, n <= 14 */
		for (int j = i; j > 0; j--) {
			int a = ord[j - 1], c = ord[j];
			if (stall[c] > stall[a] || (stall[c] == stall[a] && lat[c] > lat[a])) {
				ord[j - 1] = c;
				ord[j] = a;
			}
		}
	return n;
}

static jv *classes_json(const bub *b, const class_acc *acc)
{
	int64_t st[TAX__COUNT], lat[TAX__COUNT];
	int ord[TAX__COUNT];
	for (int c = 0; c < TAX__COUNT; c++) {
		st[c] = acc[c].stall;
		lat[c] = acc[c].latency;
	}
	order_by_stall(st, lat, TAX__COUNT, ord);
	jv *a = jv_array();
	for (int k = 0; k < TAX__COUNT; k++) {
		const class_acc *c = &acc[ord[k]];
		if (!c->count && !c->stall && !c->latency)
			continue;
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "class", tax_class_name(ord[k]));
		jv_set_str(o, "normalized", tax_norm_name(tax_normalize(ord[k])));
		jv_set_int(o, "instructions", (int64_t)c->count);
		jv_set_int(o, "hits", c->hits);
		jv_set_int(o, "latency", c->latency);
		jv_set_int(o, "stall", c->stall);
		jv_set_int(o, "idle", c->idle);
		jv_set(o, "pct_of_stall", bub_pct(c->stall, b->stall));
		jv_set(o, "pct_of_latency", bub_pct(c->latency, b->latency));
		jv_set(o, "top", class_top(b, c));
	}
	return a;
}

static jv *normalized_json(const bub *b, const class_acc *acc)
{
	int64_t st[NORM__COUNT] = {0}, lat[NORM__COUNT] = {0};
	int ord[NORM__COUNT], any[NORM__COUNT] = {0};
	for (int c = 0; c < TAX__COUNT; c++) {
		tax_norm n = tax_normalize(c);
		st[n] = trace_add(st[n], acc[c].stall);
		lat[n] = trace_add(lat[n], acc[c].latency);
		any[n] |= acc[c].count > 0 || acc[c].latency > 0;
	}
	order_by_stall(st, lat, NORM__COUNT, ord);
	jv *a = jv_array();
	for (int k = 0; k < NORM__COUNT; k++) {
		if (!any[ord[k]])
			continue;
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "class", tax_norm_name(ord[k]));
		jv_set_int(o, "stall", st[ord[k]]);
		jv_set_int(o, "latency", lat[ord[k]]);
		jv_set(o, "pct_of_stall", bub_pct(st[ord[k]], b->stall));
		jv_set(o, "pct_of_latency", bub_pct(lat[ord[k]], b->latency));
	}
	return a;
}

static jv *mix_json(const class_acc *acc)
{
	jv *m = jv_object();
	jv *s = jv_set(m, "static", jv_object());
	jv *d = jv_set(m, "dynamic", jv_object());
	for (int c = 0; c < TAX__COUNT; c++) {
		if (!acc[c].count)
			continue;
		jv_set_int(s, tax_class_name(c), (int64_t)acc[c].count);
		jv_set_int(d, tax_class_name(c), acc[c].hits);
	}
	return m;
}

static jv *totals_json(const bub *b)
{
	jv *t = jv_object();
	jv_set_int(t, "instructions", (int64_t)b->n_static);
	jv_set_int(t, "executed_instructions", (int64_t)b->n_executed);
	jv_set_int(t, "hits", b->hits);
	jv_set_int(t, "latency", b->latency);
	jv_set_int(t, "stall", b->stall);
	jv_set_int(t, "idle", b->idle);
	jv_set_int(t, "issue", trace_sub(b->latency, b->stall));
	jv_set_int(t, "waves", (int64_t)b->agg.n_files);
	jv_set(t, "stall_pct_of_latency", bub_pct(b->stall, b->latency));
	jv_set(t, "idle_pct_of_latency", bub_pct(b->idle, b->latency));
	jv_set_str(t, "source", "code.json (sums over every instruction row, labels excluded)");
	return t;
}

/* code.json numbers recomputed from the wave files (docs/facts-rocprofv3.md#metric-semantics). */
static jv *wave_check(const bub *b, jv *warnings)
{
	int64_t diff[4] = {0}, mism = 0;
	jv *first = NULL;
	for (size_t i = 0; i < b->d->n_insts; i++) {
		const trace_inst *t = &b->d->insts[i];
		if (t->is_label)
			continue;
		wave_line z = {0};
		const wave_line *L = t->code_line >= 0 && (uint64_t)t->code_line < b->agg.n_lines
					 ? &b->agg.lines[t->code_line]
					 : &z;
		int64_t got[4] = {L->hits, L->latency, L->stall, L->idle};
		int64_t want[4] = {t->hits, t->latency, t->stall, t->idle};
		int bad = 0;
		for (int k = 0; k < 4; k++)
			if (got[k] != want[k]) {
				diff[k]++;
				bad = 1;
			}
		mism = trace_add(mism, bad);
		if (bad && !first) {
			first = jv_object();
			jv_set_int(first, "code_line", t->code_line);
			jv *c = jv_set(first, "code_json", jv_array());
			jv *w = jv_set(first, "waves", jv_array());
			for (int k = 0; k < 4; k++) {
				jv_push(c, jv_int(want[k]));
				jv_push(w, jv_int(got[k]));
			}
		}
	}
	jv *o = jv_object();
	jv_set_bool(o, "checked", b->have_waves);
	jv_set_bool(o, "hits_match", b->have_waves && !diff[0]);
	jv_set_bool(o, "latency_match", b->have_waves && !diff[1]);
	jv_set_bool(o, "stall_match", b->have_waves && !diff[2]);
	jv_set_bool(o, "idle_match", b->have_waves && !diff[3]);
	jv_set_int(o, "mismatched_lines", mism);
	jv_set(o, "first_mismatch", first ? first : jv_null());
	jv_set_int(o, "wave_files", (int64_t)b->agg.n_files);
	jv_set_int(o, "records", b->agg.records);
	jv_set_int(o, "unmapped_records", b->agg.unmapped_records);
	jv_set_int(o, "unknown_line_records", b->agg.unknown_line_records);
	jv_set_int(o, "bytes", b->agg.bytes);
	if (b->have_waves && mism)
		jv_push(warnings, jv_strf("wave files disagree with code.json on %lld instruction "
					  "line(s) (see wave_check.first_mismatch)",
					  (long long)mism));
	if (b->agg.unknown_line_records)
		jv_push(warnings, jv_strf("%lld wave records name code lines absent from code.json",
					  (long long)b->agg.unknown_line_records));
	return o;
}

static jv *dispatch_json(const bub *b, const dispatch_choice *c)
{
	jv *o = jv_object();
	jv_set_str(o, "dir", c ? c->dir : b->d->dir);
	jv_set(o, "id", c ? jv_str(c->id) : jv_null());
	jv_set(o, "tag", c && c->tag ? jv_str(c->tag) : jv_null());
	jv_set(o, "kernel", b->d->kernel ? jv_str(b->d->kernel) : jv_null());
	jv_set(o, "arch", b->d->arch ? jv_str(b->d->arch) : jv_null());
	jv_set(o, "selection", c && c->why ? jv_str(c->why) : jv_null());
	jv_set(o, "candidates", c && c->candidates ? jv_copy(c->candidates) : jv_array());
	return o;
}

static int sections(bub *b, jv *r, bubbles_counts *cnt, jv *warnings, fp_err *e)
{
	class_acc acc[TAX__COUNT];
	memset(acc, 0, sizeof acc);
	accumulate(b, acc);
	jv_set(r, "totals", totals_json(b));
	jv_set(r, "classes", classes_json(b, acc));
	jv_set(r, "normalized", normalized_json(b, acc));
	jv_set(r, "mix", mix_json(acc));
	jv_set(r, "hotspots", bub_hotspots(b, &cnt->hotspots));
	jv *unm = NULL;
	jv_set(r, "lines", bub_lines(b, &unm, &cnt->lines));
	jv_set(r, "unmapped", unm);
	jv_set(r, "waits", bub_waits(b, &cnt->waits));
	jv *occ = bub_occupancy(b, warnings, e);
	if (!occ)
		return -1;
	jv_set(r, "occupancy", occ);
	jv *ws = b->have_waves ? wave_states_build(&b->agg, b->d->dir, warnings, e) : jv_null();
	if (!ws)
		return -1;
	jv_set(r, "wave_states", ws);
	jv_set(r, "wave_check", wave_check(b, warnings));
	jv *clk = bub_clock(b, warnings, e);
	if (!clk)
		return -1;
	jv_set(r, "clock", clk);
	if (b->o->detail_line >= 0) {
		jv *det = bub_detail(b, e);
		if (!det)
			return -1;
		jv_set(r, "detail", det);
	}
	return 0;
}

int bubbles_compute(trace_dispatch *d, const dispatch_choice *choice, const bubbles_params *o,
		    jv **out, bubbles_counts *counts, jv *warnings, fp_err *e)
{
	*out = NULL;
	if (o->detail_line >= 0 && bub_check_detail(d, o->detail_line, e))
		return -1;
	bub b;
	memset(&b, 0, sizeof b);
	b.d = d;
	b.o = o;
	const char *dir = choice && choice->dir ? choice->dir : d->dir;
	if (wave_agg_run(dir, d, o->threads, o->detail_line, &b.agg, e))
		return -1;
	b.have_waves = b.agg.n_files > 0;
	if (!b.have_waves)
		jv_push(warnings, jv_strf("%s has no wave files: categories, waits and wave states "
					  "are unavailable",
					  dir));
	set_categories(&b);
	waits_attribute(d, b.have_waves ? &b.agg : NULL, &b.waits);
	classify(&b);
	jv *r = jv_object();
	jv *disp = jv_set(r, "dispatch", dispatch_json(&b, choice));
	bubbles_counts cnt = {0, 0, 0};
	int rc = bub_filenames(&b, disp, warnings, e);
	if (rc == 0)
		rc = sections(&b, r, &cnt, warnings, e);
	if (counts)
		*counts = cnt;
	waits_release(&b.waits);
	wave_agg_release(&b.agg);
	free(b.wait_of);
	if (rc) {
		jv_free(r);
		return -1;
	}
	*out = r;
	return 0;
}
