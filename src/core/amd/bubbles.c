/* The AMD backend's stall analysis: fills a stall profile from one ATT dispatch (code.json,
 * wave files, optional files). The ranking and the bubbles.json writer are vendor-neutral
 * (src/model/profile*.c); bubbles_compute chains the three. The --detail view is in
 * bubbles_lists.c, the sections from optional files in bubbles_extra.c. */
#include "core/amd/bubbles.h"

#include "base/xalloc.h"
#include "core/amd/bubbles_int.h"
#include "core/amd/wave_states.h"

#include <stdlib.h>
#include <string.h>

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

/* Each instruction's class: a wait's comes from its attribution, the rest from the ISA text and
 * the decoder category. */
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
		int k = -1;
		if (!t->is_label)
			k = b->wait_of[i] >= 0 ? (int)b->waits.v[b->wait_of[i]].klass
					       : (int)tax_classify(t->isa, t->category);
		t->klass = (int16_t)k;
	}
}

static tax_class wait_group_class(int g)
{
	static const tax_class map[WAIT_SPLIT__COUNT] = {TAX_VMEM_WAIT, TAX_LDS_WAIT, TAX_SMEM_WAIT,
							 TAX_OTHER};
	return map[g];
}

/* A wait's stall and latency are split across the wait classes by its producer shares (one
 * part per group); its count, hits and idle stay with its (dominant) class. */
static void add_wait_parts(stall_profile *p, const wait_info *w, const trace_inst *t)
{
	int64_t lat[WAIT_SPLIT__COUNT];
	int fallback = w->klass == TAX_LDS_WAIT	   ? 1
		       : w->klass == TAX_SMEM_WAIT ? 2
		       : w->klass == TAX_OTHER	   ? 3
						   : 0;
	waits_split(t->latency, w->n_producers ? w->weight : w->split, fallback, lat);
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++)
		profile_add_part(p, (size_t)w->inst, wait_group_class(g), lat[g], w->split[g], 0);
}

static void add_wait(stall_profile *p, const wait_info *w, const trace_inst *t)
{
	prof_wait *x = profile_add_wait(p, (size_t)w->inst);
	x->klass = w->klass;
	x->stall = t->stall;
	x->waves = w->waves;
	x->method = w->method;
	x->n_producers = w->n_producers;
	x->producers = xcalloc(w->n_producers + 1, sizeof *x->producers);
	for (size_t i = 0; i < w->n_producers; i++) {
		const wait_producer *q = &w->producers[i];
		x->producers[i] = (prof_producer){q->code_line, q->inst, q->type, q->waves};
	}
	for (int g = 0; g < WAIT_SPLIT__COUNT; g++)
		x->split[g] = w->split[g];
}

static void fill_parts(bub *b)
{
	for (size_t i = 0; i < b->d->n_insts; i++) {
		const trace_inst *t = &b->d->insts[i];
		if (t->is_label)
			continue;
		if (b->wait_of[i] >= 0)
			add_wait_parts(b->p, &b->waits.v[b->wait_of[i]], t);
		else
			profile_add_part(b->p, i, t->klass, t->latency, t->stall, 0);
	}
	for (size_t k = 0; k < b->waits.n; k++)
		add_wait(b->p, &b->waits.v[k], &b->d->insts[b->waits.v[k].inst]);
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

static void fill_dispatch(bub *b, const dispatch_choice *c)
{
	prof_dispatch *x = &b->p->dispatch;
	x->dir = xstrdup(c ? c->dir : b->d->dir);
	x->id = c && c->id ? xstrdup(c->id) : NULL;
	x->tag = c && c->tag ? xstrdup(c->tag) : NULL;
	x->kernel = b->d->kernel ? xstrdup(b->d->kernel) : NULL;
	x->arch = b->d->arch ? xstrdup(b->d->arch) : NULL;
	x->selection = c && c->why ? xstrdup(c->why) : NULL;
	x->candidates = c && c->candidates ? jv_copy(c->candidates) : jv_array();
}

static int sections(bub *b, jv *warnings, fp_err *e)
{
	stall_profile *p = b->p;
	if (!(p->occupancy = bub_occupancy(b, warnings, e)))
		return -1;
	p->wave_states = b->have_waves ? wave_states_build(&b->agg, b->d->dir, warnings, e) : NULL;
	if (b->have_waves && !p->wave_states)
		return -1;
	profile_extra(p, "wave_check", wave_check(b, warnings));
	jv *clk = bub_clock(b, warnings, e);
	if (!clk)
		return -1;
	profile_extra(p, "clock", clk);
	if (b->o->detail_line >= 0) {
		jv *det = bub_detail(b, e);
		if (!det)
			return -1;
		profile_extra(p, "detail", det);
	}
	return 0;
}

int amd_profile_fill(trace_dispatch *d, const dispatch_choice *choice, file_listing *names,
		     const bubbles_params *o, stall_profile *p, jv *warnings, fp_err *e)
{
	profile_init(p, VENDOR_AMD, UNIT_CYCLES, d);
	if (o->detail_line >= 0 && bub_check_detail(d, o->detail_line, e))
		return -1;
	bub b;
	memset(&b, 0, sizeof b);
	b.d = d;
	b.o = o;
	b.p = p;
	const char *dir = choice && choice->dir ? choice->dir : d->dir;
	int rc =
	    names && strcmp(names->dir, dir) == 0
		? wave_agg_run_listed(names, d, o->threads, o->detail_line, o->hooks, &b.agg, e)
		: wave_agg_run(dir, d, o->threads, o->detail_line, o->hooks, &b.agg, e);
	if (rc)
		return -1;
	b.have_waves = b.agg.n_files > 0;
	if (!b.have_waves)
		jv_push(warnings, jv_strf("%s has no wave files: categories, waits and wave states "
					  "are unavailable",
					  dir));
	set_categories(&b);
	waits_attribute(d, b.have_waves ? &b.agg : NULL, &b.waits);
	classify(&b);
	profile_sum_totals(p);
	p->totals.waves = (int64_t)b.agg.n_files;
	p->totals_note_key = "source";
	p->totals_note = "code.json (sums over every instruction row, labels excluded)";
	fill_parts(&b);
	fill_dispatch(&b, choice);
	rc = bub_filenames(&b, p, warnings, e);
	if (rc == 0)
		rc = sections(&b, warnings, e);
	waits_release(&b.waits);
	wave_agg_release(&b.agg);
	free(b.wait_of);
	return rc;
}

int bubbles_compute(trace_dispatch *d, const dispatch_choice *choice, const bubbles_params *o,
		    jv **out, bubbles_counts *counts, jv *warnings, fp_err *e)
{
	stall_profile p;
	*out = NULL;
	int rc = amd_profile_fill(d, choice, NULL, o, &p, warnings, e);
	if (rc == 0) {
		profile_rank(&p, o->top);
		*out = profile_to_json(&p);
		if (counts)
			*counts = (bubbles_counts){p.hot_total, p.lines_total, p.waits_total};
	}
	profile_release(&p);
	return rc;
}
