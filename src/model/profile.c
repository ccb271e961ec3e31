/* Filling and releasing a stall profile (profile.h). */
#include "model/profile.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void profile_init(stall_profile *p, vendor_id v, prof_unit u, trace_dispatch *trace)
{
	memset(p, 0, sizeof *p);
	p->vendor = v;
	p->unit = u;
	p->trace = trace;
	p->totals.waves = -1;
	p->duration_us = -1;
}

static void dispatch_release(prof_dispatch *d)
{
	free(d->dir);
	free(d->id);
	free(d->tag);
	free(d->kernel);
	free(d->arch);
	free(d->selection);
	jv_free(d->candidates);
	jv_free(d->extra);
}

void profile_release(stall_profile *p)
{
	dispatch_release(&p->dispatch);
	for (size_t i = 0; i < p->n_waits; i++)
		free(p->waits[i].producers);
	free(p->waits);
	free(p->parts);
	free(p->not_issued);
	free(p->address);
	jv_free(p->occupancy);
	jv_free(p->wave_states);
	jv_free(p->extra);
	if (p->own_trace) {
		trace_dispatch_release(p->own_trace);
		free(p->own_trace);
	}
	free(p->classes);
	free(p->class_order);
	free(p->hot);
	for (size_t i = 0; p->own_sources && i < p->n_lines; i++)
		free(p->own_sources[i]);
	free(p->own_sources);
	free(p->own_note);
	free(p->lines);
	free(p->wait_order);
	memset(p, 0, sizeof *p);
}

void profile_add_part(stall_profile *p, size_t inst, int klass, int64_t latency, int64_t stall,
		      int64_t not_issued)
{
	if (p->n_parts == p->cap_parts) {
		p->cap_parts = p->cap_parts ? 2 * p->cap_parts : 64;
		p->parts = xrealloc(p->parts, p->cap_parts * sizeof *p->parts);
	}
	p->parts[p->n_parts++] = (prof_part){inst, klass, latency, stall, not_issued};
}

prof_wait *profile_add_wait(stall_profile *p, size_t inst)
{
	if (p->n_waits == p->cap_waits) {
		p->cap_waits = p->cap_waits ? 2 * p->cap_waits : 16;
		p->waits = xrealloc(p->waits, p->cap_waits * sizeof *p->waits);
	}
	prof_wait *w = &p->waits[p->n_waits++];
	memset(w, 0, sizeof *w);
	w->inst = inst;
	w->waves = -1;
	w->producers_known = 1;
	return w;
}

static void put(jv **obj, const char *key, jv *v)
{
	if (!*obj)
		*obj = jv_object();
	jv_set(*obj, key, v);
}

void profile_dispatch_extra(stall_profile *p, const char *key, jv *v)
{
	put(&p->dispatch.extra, key, v);
}

void profile_extra(stall_profile *p, const char *key, jv *v)
{
	put(&p->extra, key, v);
}

void profile_sum_totals(stall_profile *p)
{
	prof_totals *t = &p->totals;
	const trace_dispatch *d = p->trace;
	for (size_t i = 0; d && i < d->n_insts; i++) {
		const trace_inst *x = &d->insts[i];
		if (x->is_label)
			continue;
		t->instructions++;
		t->executed += x->hits > 0;
		t->hits = trace_add(t->hits, x->hits);
		t->latency = trace_add(t->latency, x->latency);
		t->stall = trace_add(t->stall, x->stall);
		t->idle = trace_add(t->idle, x->idle);
	}
	t->issue = trace_sub(t->latency, t->stall);
}

void profile_set_costs(jv *o, int64_t hits, int64_t latency, int64_t stall, int64_t idle)
{
	jv_set_int(o, "hits", hits);
	jv_set_int(o, "latency", latency);
	jv_set_int(o, "stall", stall);
	jv_set_int(o, "idle", idle);
}

double profile_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

const char *prof_unit_name(prof_unit u)
{
	return u == UNIT_SAMPLES ? "samples" : "cycles";
}

int64_t profile_mix_hits(const stall_profile *p, const char *name)
{
	int id = p->classes ? class_lookup(p->vendor, name) : -1;
	if (id >= 0 && p->classes[id].hits)
		return p->classes[id].hits;
	if (p->n_unclassed && strcmp(name, class_name(p->vendor, -1)) == 0)
		return p->unclassed_hits;
	return 0;
}

int profile_class_listed(const stall_profile *p, const char *name)
{
	int id = p->classes && name ? class_lookup(p->vendor, name) : -1;
	for (size_t k = 0; id >= 0 && k < p->n_class_order; k++)
		if (p->class_order[k] == id)
			return id;
	return -1;
}

int profile_largest_class(const stall_profile *p)
{
	int best = -1;
	for (size_t k = 0; p->classes && k < p->n_class_order; k++) {
		int id = p->class_order[k];
		if (p->classes[id].stall > (best >= 0 ? p->classes[best].stall : 0))
			best = id;
	}
	return best;
}
