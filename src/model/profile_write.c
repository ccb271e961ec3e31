/* The one bubbles.json writer (profile.h): a ranked stall profile as the bubbles object of
 * docs/bubbles.md. Both vendors go through here; the keys only a sampling profiler has
 * (not_issued, reasons, address, samples, the class meanings) are written for sample
 * profiles, so the AMD file keeps exactly its keys. */
#include "model/profile.h"

#include <stdlib.h>
#include <string.h>

static int sampled(const stall_profile *p)
{
	return p->unit == UNIT_SAMPLES;
}

static jv *pct(int64_t part, int64_t whole)
{
	return jv_round(profile_pct(part, whole), 2);
}

static jv *str_or_null(const char *s)
{
	return s ? jv_str(s) : jv_null();
}

static void merge(jv *dst, const jv *src)
{
	for (size_t i = 0; i < jv_len(src); i++)
		jv_set(dst, jv_key_at(src, i), jv_copy(jv_value_at(src, i)));
}

jv *profile_dispatch_json(const stall_profile *p)
{
	const prof_dispatch *d = &p->dispatch;
	jv *o = jv_object();
	if (p->vendor == VENDOR_NVIDIA)
		jv_set_str(o, "backend", vendor_name(p->vendor));
	jv_set_str(o, "dir", d->dir ? d->dir : "");
	jv_set(o, "id", str_or_null(d->id));
	jv_set(o, "tag", str_or_null(d->tag));
	jv_set(o, "kernel", str_or_null(d->kernel));
	jv_set(o, "arch", str_or_null(d->arch));
	jv_set(o, "selection", str_or_null(d->selection));
	jv_set(o, "candidates", d->candidates ? jv_copy(d->candidates) : jv_array());
	if (d->extra)
		merge(o, d->extra);
	return o;
}

jv *profile_totals_json(const stall_profile *p)
{
	const prof_totals *t = &p->totals;
	jv *o = jv_object();
	if (sampled(p))
		jv_set_str(o, "unit", prof_unit_name(p->unit));
	jv_set_int(o, "instructions", (int64_t)t->instructions);
	jv_set_int(o, "executed_instructions", (int64_t)t->executed);
	profile_set_costs(o, t->hits, t->latency, t->stall, t->idle);
	jv_set_int(o, "issue", t->issue);
	jv_set(o, "waves", t->waves >= 0 ? jv_int(t->waves) : jv_null());
	jv_set(o, "stall_pct_of_latency", pct(t->stall, t->latency));
	jv_set(o, "idle_pct_of_latency", pct(t->idle, t->latency));
	if (sampled(p)) {
		jv_set_int(o, "not_issued", t->not_issued);
		jv_set(o, "not_issued_pct_of_latency", pct(t->not_issued, t->latency));
	}
	if (p->totals_note_key && p->totals_note)
		jv_set_str(o, p->totals_note_key, p->totals_note);
	return o;
}

static void inst_fields(jv *o, const trace_inst *t)
{
	jv_set_int(o, "code_line", t->code_line);
	jv_set_str(o, "isa", t->isa);
	jv_set_str(o, "source", t->source);
}

void profile_inst_fields(jv *o, const stall_profile *p, size_t inst)
{
	inst_fields(o, &p->trace->insts[inst]);
}

static jv *class_top(const stall_profile *p, const prof_class *c)
{
	jv *a = jv_array();
	for (size_t k = 0; k < c->n_top; k++) {
		jv *o = jv_push(a, jv_object());
		inst_fields(o, &p->trace->insts[c->top[k].inst]);
		jv_set_int(o, "stall", c->top[k].stall);
		if (sampled(p))
			jv_set_int(o, "samples", c->top[k].latency);
	}
	return a;
}

static jv *classes_json(const stall_profile *p)
{
	jv *a = jv_array();
	for (size_t k = 0; k < p->n_class_order; k++) {
		int id = p->class_order[k];
		const prof_class *c = &p->classes[id];
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "class", class_name(p->vendor, id));
		jv_set_str(o, "normalized", norm_name(class_norm(p->vendor, id)));
		jv_set_int(o, "instructions", (int64_t)c->instructions);
		profile_set_costs(o, c->hits, c->latency, c->stall, c->idle);
		jv_set(o, "pct_of_stall", pct(c->stall, p->totals.stall));
		jv_set(o, "pct_of_latency", pct(c->latency, p->totals.latency));
		if (sampled(p)) {
			jv_set_int(o, "not_issued", c->not_issued);
			jv_set(o, "not_issued_pct_of_not_issued",
			       pct(c->not_issued, p->totals.not_issued));
			jv_set_str(o, "why", class_meaning(p->vendor, id));
		}
		jv_set(o, "top", class_top(p, c));
	}
	return a;
}

jv *profile_normalized_json(const stall_profile *p)
{
	jv *a = jv_array();
	for (size_t k = 0; k < p->n_norm_order; k++) {
		int n = p->norm_order[k];
		const prof_norm *x = &p->norm[n];
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "class", norm_name(n));
		jv_set_int(o, "stall", x->stall);
		jv_set_int(o, "latency", x->latency);
		if (sampled(p))
			jv_set_int(o, "not_issued", x->not_issued);
		jv_set(o, "pct_of_stall", pct(x->stall, p->totals.stall));
		jv_set(o, "pct_of_latency", pct(x->latency, p->totals.latency));
	}
	return a;
}

/* Static and dynamic instruction mix by each instruction's own class. */
static jv *mix_json(const stall_profile *p)
{
	jv *m = jv_object();
	if (p->mix_basis)
		jv_set_str(m, "basis", p->mix_basis);
	jv *s = jv_set(m, "static", jv_object());
	jv *d = jv_set(m, "dynamic", jv_object());
	int nc = class_count(p->vendor);
	if (p->n_unclassed) {
		jv_set_int(s, class_name(p->vendor, -1), (int64_t)p->n_unclassed);
		jv_set_int(d, class_name(p->vendor, -1), p->unclassed_hits);
	}
	for (int c = 0; c < nc; c++) {
		if (!p->classes[c].instructions)
			continue;
		jv_set_int(s, class_name(p->vendor, c), (int64_t)p->classes[c].instructions);
		jv_set_int(d, class_name(p->vendor, c), p->classes[c].hits);
	}
	return m;
}

/* {class: samples} of one instruction's parts, largest first (ties: lower class id). */
static jv *reasons_json(const stall_profile *p, size_t inst)
{
	int nc = class_count(p->vendor);
	int64_t *v = calloc((size_t)nc, sizeof *v);
	jv *o = jv_object();
	if (!v)
		return o;
	for (size_t k = 0; k < p->n_parts; k++)
		if (p->parts[k].inst == inst && p->parts[k].klass >= 0 && p->parts[k].klass < nc)
			v[p->parts[k].klass] = trace_add(v[p->parts[k].klass], p->parts[k].latency);
	for (;;) {
		int best = -1;
		for (int c = 0; c < nc; c++)
			if (v[c] > 0 && (best < 0 || v[c] > v[best]))
				best = c;
		if (best < 0)
			break;
		jv_set_int(o, class_name(p->vendor, best), v[best]);
		v[best] = 0;
	}
	free(v);
	return o;
}

jv *profile_hotspot_json(const stall_profile *p, size_t r)
{
	size_t i = p->hot[r];
	const trace_inst *t = &p->trace->insts[i];
	jv *o = jv_object();
	jv_set_int(o, "rank", (int64_t)r + 1);
	jv_set_int(o, "code_line", t->code_line);
	jv_set(o, "vaddr", jv_hex((uint64_t)t->vaddr));
	if (p->address)
		jv_set(o, "address", jv_hex(p->address[i]));
	jv_set_str(o, "isa", t->isa);
	jv_set_str(o, "source", t->source);
	jv_set_str(o, "class", class_name(p->vendor, t->klass));
	jv_set_str(o, "normalized", norm_name(class_norm(p->vendor, t->klass)));
	profile_set_costs(o, t->hits, t->latency, t->stall, t->idle);
	if (p->not_issued)
		jv_set_int(o, "not_issued", p->not_issued[i]);
	jv_set(o, "pct_of_stall", pct(t->stall, p->totals.stall));
	if (sampled(p))
		jv_set(o, "reasons", reasons_json(p, i));
	return o;
}

static jv *hotspots_json(const stall_profile *p)
{
	jv *a = jv_array();
	for (size_t r = 0; r < p->n_hot; r++)
		jv_push(a, profile_hotspot_json(p, r));
	return a;
}

static void split_source(const char *src, jv *o)
{
	const char *last = src, *q;
	while ((q = strstr(last, " -> ")) != NULL)
		last = q + 4;
	const char *colon = strrchr(last, ':');
	size_t digits = 0;
	int ok = colon != NULL;
	for (const char *c = colon ? colon + 1 : ""; ok && *c; c++, digits++)
		ok = *c >= '0' && *c <= '9';
	if (!ok || digits == 0 || digits > 9) {
		jv_set_str(o, "file", last);
		jv_set(o, "line", jv_null());
		return;
	}
	jv_set(o, "file", jv_strn(last, (size_t)(colon - last)));
	jv_set_int(o, "line", strtoll(colon + 1, NULL, 10));
}

jv *profile_line_json(const stall_profile *p, const prof_line *l)
{
	jv *o = jv_object();
	jv_set_str(o, "source", l->source);
	split_source(l->source, o);
	jv_set_int(o, "instructions", (int64_t)l->instructions);
	profile_set_costs(o, l->hits, l->latency, l->stall, l->idle);
	if (p->not_issued)
		jv_set_int(o, "not_issued", l->not_issued);
	jv_set(o, "pct_of_stall", pct(l->stall, p->totals.stall));
	jv_set(o, "class", l->klass >= 0 ? jv_str(class_name(p->vendor, l->klass)) : jv_null());
	return o;
}

static jv *lines_json(const stall_profile *p)
{
	jv *a = jv_array();
	for (size_t k = 0; k < p->n_lines; k++)
		jv_push(a, profile_line_json(p, &p->lines[k]));
	return a;
}

static jv *unmapped_json(const stall_profile *p)
{
	const prof_line *u = &p->unmapped;
	jv *o = jv_object();
	jv_set_int(o, "instructions", (int64_t)u->instructions);
	jv_set_int(o, "hits", u->hits);
	jv_set_int(o, "stall", u->stall);
	jv_set(o, "pct_of_stall", pct(u->stall, p->totals.stall));
	jv_set_int(o, "latency", u->latency);
	jv_set(o, "pct_of_latency", pct(u->latency, p->totals.latency));
	return o;
}

jv *profile_wait_json(const stall_profile *p, const prof_wait *w)
{
	const trace_dispatch *d = p->trace;
	jv *o = jv_object();
	inst_fields(o, &d->insts[w->inst]);
	jv_set_str(o, "class", class_name(p->vendor, w->klass));
	jv_set_int(o, "stall", w->stall);
	jv_set(o, "pct_of_stall", pct(w->stall, p->totals.stall));
	jv_set(o, "waves", w->waves >= 0 ? jv_int(w->waves) : jv_null());
	jv *ps = jv_set(o, "producers", jv_array());
	for (size_t i = 0; i < w->n_producers; i++)
		jv_push(ps, profile_producer_json(p, &w->producers[i]));
	if (!w->producers_known)
		jv_set_bool(o, "producers_known", 0);
	jv_set(o, "split", profile_wait_split_json(w));
	jv_set_str(o, "split_method", w->method ? w->method : "text");
	return o;
}

const char *profile_producer_isa(const stall_profile *p, const prof_producer *x)
{
	return x->inst >= 0 ? p->trace->insts[x->inst].isa : "?";
}

const char *profile_producer_source(const stall_profile *p, const prof_producer *x)
{
	return x->inst >= 0 ? p->trace->insts[x->inst].source : "";
}

jv *profile_producer_json(const stall_profile *p, const prof_producer *x)
{
	jv *q = jv_object();
	jv_set_int(q, "code_line", x->code_line);
	jv_set_str(q, "isa", profile_producer_isa(p, x));
	jv_set_str(q, "source", profile_producer_source(p, x));
	jv_set_str(q, "type", tax_prod_name(x->type));
	jv_set_int(q, "waves", x->waves);
	return q;
}

jv *profile_wait_split_json(const prof_wait *w)
{
	static const char *const groups[PROF_SPLIT__COUNT] = {"memory", "lds", "smem", "other"};
	jv *sp = jv_object();
	for (int g = 0; g < PROF_SPLIT__COUNT; g++)
		jv_set_int(sp, groups[g], w->split[g]);
	return sp;
}

static jv *waits_json(const stall_profile *p)
{
	jv *a = jv_array();
	for (size_t k = 0; k < p->n_wait_order; k++)
		jv_push(a, profile_wait_json(p, &p->waits[p->wait_order[k]]));
	return a;
}

jv *profile_to_json(const stall_profile *p)
{
	jv *r = jv_object();
	if (p->vendor == VENDOR_NVIDIA)
		jv_set_str(r, "backend", vendor_name(p->vendor));
	if (sampled(p))
		jv_set_str(r, "unit", prof_unit_name(p->unit));
	jv_set(r, "dispatch", profile_dispatch_json(p));
	jv_set(r, "totals", profile_totals_json(p));
	jv_set(r, "classes", classes_json(p));
	jv_set(r, "normalized", profile_normalized_json(p));
	jv_set(r, "mix", mix_json(p));
	jv_set(r, "hotspots", hotspots_json(p));
	jv_set(r, "lines", lines_json(p));
	jv_set(r, "unmapped", unmapped_json(p));
	jv_set(r, "waits", waits_json(p));
	if (p->waits_note)
		jv_set_str(r, "waits_note", p->waits_note);
	jv_set(r, "occupancy", p->occupancy ? jv_copy(p->occupancy) : jv_null());
	jv_set(r, "wave_states", p->wave_states ? jv_copy(p->wave_states) : jv_null());
	if (p->extra)
		merge(r, p->extra);
	return r;
}
