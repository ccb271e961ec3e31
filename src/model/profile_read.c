/* The one bubbles.json reader (profile.h): a bubbles object, or a report.json (whose totals
 * are the bubbles totals and whose stall_taxonomy.classes are its classes), back into a stall
 * profile for diff, old bundles, fixtures and the rule signals of a report built from a bubbles
 * object alone. Every number it reads is checked for its type, so a misspelt or mistyped key is
 * an error naming it, never a silent 0. The lists are read as the file has them (cut or not):
 * what a reader of the file saw is what the profile holds. */
#include "model/profile.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int bad(fp_err *e, const char *name, const char *what)
{
	return fp_fail(e, ERR_BAD_INPUT, "%s: %s", name, what);
}

/* An optional integer member: absent or null leaves *out; anything but an integer is an
 * error. */
static int opt_int(const jv *o, const char *key, int64_t *out, const char *name, const char *where,
		   fp_err *e)
{
	const jv *v = jv_get(o, key);
	if (jv_type_of(v) == JV_NULL)
		return 0;
	double d = jv_num(v);
	if (!jv_is_num(v) || d != (double)(int64_t)d)
		return fp_fail(e, ERR_BAD_INPUT, "%s: %s.%s is not an integer", name, where, key);
	*out = (int64_t)d;
	return 0;
}

static char *opt_str(const jv *o, const char *key)
{
	const char *s = jv_string(jv_get(o, key));
	return s ? xstrdup(s) : NULL;
}

static int read_kind(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	const jv *be = jv_get(doc, "backend");
	const char *b = jv_string(be);
	if (jv_type_of(be) != JV_NULL && !b)
		return bad(e, name, "\"backend\" is not a string");
	if (!b || strcmp(b, "amd") == 0 || strcmp(b, "rocprofv3") == 0)
		p->vendor = VENDOR_AMD;
	else if (strcmp(b, "nvidia") == 0 || strcmp(b, "ncu") == 0)
		p->vendor = VENDOR_NVIDIA;
	else
		return fp_fail(e, ERR_BAD_INPUT, "%s: unknown backend \"%s\"", name, b);
	const char *u = jv_string(jv_get(doc, "unit"));
	if (!u)
		u = jv_string(jv_get(jv_get(doc, "totals"), "unit"));
	if (!u || strcmp(u, "cycles") == 0)
		p->unit = UNIT_CYCLES;
	else if (strcmp(u, "samples") == 0)
		p->unit = UNIT_SAMPLES;
	else
		return fp_fail(e, ERR_BAD_INPUT, "%s: unknown unit \"%s\"", name, u);
	return 0;
}

static int read_totals(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	const jv *t = jv_get(doc, "totals");
	if (jv_type_of(t) != JV_OBJECT)
		return bad(e, name, "no \"totals\" object: not a report or bubbles document");
	prof_totals *x = &p->totals;
	int64_t n = 0, ex = 0;
	int rc = opt_int(t, "instructions", &n, name, "totals", e) ||
		 opt_int(t, "executed_instructions", &ex, name, "totals", e) ||
		 opt_int(t, "hits", &x->hits, name, "totals", e) ||
		 opt_int(t, "latency", &x->latency, name, "totals", e) ||
		 opt_int(t, "stall", &x->stall, name, "totals", e) ||
		 opt_int(t, "idle", &x->idle, name, "totals", e) ||
		 opt_int(t, "issue", &x->issue, name, "totals", e) ||
		 opt_int(t, "not_issued", &x->not_issued, name, "totals", e) ||
		 opt_int(t, "waves", &x->waves, name, "totals", e);
	x->instructions = n > 0 ? (size_t)n : 0;
	x->executed = ex > 0 ? (size_t)ex : 0;
	/* the text that says how the vendor's numbers are defined */
	static const char *const note_keys[] = {"source", "definitions"};
	for (size_t i = 0; i < 2 && !p->own_note; i++)
		if (jv_string(jv_get(t, note_keys[i]))) {
			p->own_note = xstrdup(jv_string(jv_get(t, note_keys[i])));
			p->totals_note_key = note_keys[i];
			p->totals_note = p->own_note;
		}
	return rc ? -1 : 0;
}

/* An instruction a list names, appended to the profile's own trace; returns its index. */
static size_t add_inst(stall_profile *p, const jv *o, int klass)
{
	trace_dispatch *d = p->own_trace;
	d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
	trace_inst *t = &d->insts[d->n_insts];
	memset(t, 0, sizeof *t);
	t->code_line = jv_is_num(jv_get(o, "code_line")) ? jv_i64(jv_get(o, "code_line")) : -1;
	const char *isa = jv_string(jv_get(o, "isa")), *src = jv_string(jv_get(o, "source"));
	t->isa = xstrdup(isa ? isa : "");
	t->source = xstrdup(src ? src : "");
	t->category = TRACE_CAT_UNKNOWN;
	t->klass = (int16_t)klass;
	return d->n_insts++;
}

/* The class's "top" list: the first PROF_CLASS_TOP entries, stall (and samples) each. */
static int read_top(const jv *c, int id, const char *name, stall_profile *p, fp_err *e)
{
	const jv *top = jv_get(c, "top");
	if (top && jv_type_of(top) != JV_ARRAY && jv_type_of(top) != JV_NULL)
		return bad(e, name, "a class's \"top\" is not an array");
	prof_class *x = &p->classes[id];
	for (size_t k = 0; k < jv_len(top) && x->n_top < PROF_CLASS_TOP; k++) {
		const jv *o = jv_at(top, k);
		prof_top t = {0, 0, 0};
		if (opt_int(o, "stall", &t.stall, name, "classes[].top[]", e) ||
		    opt_int(o, "samples", &t.latency, name, "classes[].top[]", e))
			return -1;
		t.inst = add_inst(p, o, id);
		x->top[x->n_top++] = t;
	}
	return 0;
}

static int read_class(const jv *c, size_t i, const char *name, stall_profile *p, fp_err *e)
{
	const char *k = jv_string(jv_get(c, "class"));
	if (!k)
		return fp_fail(e, ERR_BAD_INPUT, "%s: classes[%zu] has no \"class\" name", name, i);
	int id = class_lookup(p->vendor, k);
	if (id < 0)
		return fp_fail(e, ERR_BAD_INPUT, "%s: classes[%zu]: \"%s\" is not an %s class",
			       name, i, k, vendor_name(p->vendor));
	prof_class *x = &p->classes[id];
	int64_t n = 0;
	if (!jv_is_num(jv_get(c, "stall")))
		return fp_fail(e, ERR_BAD_INPUT, "%s: classes[%zu] (%s) has no numeric \"stall\"",
			       name, i, k);
	if (opt_int(c, "stall", &x->stall, name, "classes[]", e) ||
	    opt_int(c, "latency", &x->latency, name, "classes[]", e) ||
	    opt_int(c, "hits", &x->hits, name, "classes[]", e) ||
	    opt_int(c, "idle", &x->idle, name, "classes[]", e) ||
	    opt_int(c, "not_issued", &x->not_issued, name, "classes[]", e) ||
	    opt_int(c, "instructions", &n, name, "classes[]", e))
		return -1;
	x->instructions = n > 0 ? (size_t)n : 0;
	p->class_order[p->n_class_order++] = id;
	return read_top(c, id, name, p, e);
}

static int read_classes(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	const jv *tx = jv_get(doc, "stall_taxonomy");
	const jv *cls = tx ? jv_get(tx, "classes") : jv_get(doc, "classes");
	if (cls && jv_type_of(cls) != JV_ARRAY)
		return bad(e, name, "\"classes\" is not an array");
	size_t nc = (size_t)class_count(p->vendor);
	p->classes = xcalloc(nc, sizeof *p->classes);
	p->class_order = xcalloc(nc, sizeof *p->class_order);
	for (size_t i = 0; i < jv_len(cls); i++) {
		if (p->n_class_order == nc)
			return fp_fail(e, ERR_BAD_INPUT, "%s: classes lists a class twice", name);
		if (read_class(jv_at(cls, i), i, name, p, e))
			return -1;
	}
	for (size_t c = 0; c < nc; c++) {
		const prof_class *x = &p->classes[c];
		prof_norm *n = &p->norm[class_norm(p->vendor, (int)c)];
		n->stall = trace_add(n->stall, x->stall);
		n->latency = trace_add(n->latency, x->latency);
		n->not_issued = trace_add(n->not_issued, x->not_issued);
		n->used |= x->instructions > 0 || x->latency > 0 || x->not_issued > 0;
	}
	return 0;
}

/* The "normalized" list where the document has one: the sums as the writer ranked them (a
 * normalised class it does not list was unused). */
static int read_normalized(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	const jv *tx = jv_get(doc, "stall_taxonomy");
	const jv *arr = jv_get(tx ? tx : doc, "normalized");
	if (jv_type_of(arr) != JV_ARRAY)
		return 0;
	memset(p->norm, 0, sizeof p->norm);
	p->n_norm_order = 0;
	for (size_t i = 0; i < jv_len(arr); i++) {
		const jv *o = jv_at(arr, i);
		int n =
		    norm_lookup(jv_string(jv_get(o, "class")) ? jv_string(jv_get(o, "class")) : "");
		if (n < 0)
			return fp_fail(e, ERR_BAD_INPUT,
				       "%s: normalized[%zu] is not a normalised class", name, i);
		prof_norm *x = &p->norm[n];
		if (opt_int(o, "stall", &x->stall, name, "normalized[]", e) ||
		    opt_int(o, "latency", &x->latency, name, "normalized[]", e) ||
		    opt_int(o, "not_issued", &x->not_issued, name, "normalized[]", e))
			return -1;
		x->used = 1;
		if (p->n_norm_order < NORM__COUNT)
			p->norm_order[p->n_norm_order++] = n;
	}
	return 0;
}

/* mix.dynamic: each class's executed instructions (a class it does not list executed none,
 * whatever its classes entry says); a name outside the class table is the unclassed entry. */
static int read_mix(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	const jv *dyn = jv_get(jv_get(doc, "mix"), "dynamic");
	if (jv_type_of(dyn) != JV_OBJECT)
		return 0;
	for (int c = 0; c < class_count(p->vendor); c++)
		p->classes[c].hits = 0;
	for (size_t i = 0; i < jv_len(dyn); i++) {
		const jv *v = jv_value_at(dyn, i);
		double d = jv_num(v);
		if (!jv_is_num(v) || d != (double)(int64_t)d)
			return fp_fail(e, ERR_BAD_INPUT, "%s: mix.dynamic.%s is not an integer",
				       name, jv_key_at(dyn, i));
		int id = class_lookup(p->vendor, jv_key_at(dyn, i));
		if (id >= 0)
			p->classes[id].hits = (int64_t)d;
		else {
			p->n_unclassed++;
			p->unclassed_hits = trace_add(p->unclassed_hits, (int64_t)d);
		}
	}
	return 0;
}

static tax_prod prod_lookup(const char *s)
{
	for (int t = 0; s && t < PROD__COUNT; t++)
		if (strcmp(tax_prod_name((tax_prod)t), s) == 0)
			return (tax_prod)t;
	return PROD_OTHER;
}

/* A wait's producers: their line, type and waves, and the instruction each names (appended to
 * own_trace, so the isa and source the file lists are what the profile holds). */
static int read_producers(const jv *o, const char *name, stall_profile *p, size_t wi, fp_err *e)
{
	const jv *arr = jv_get(o, "producers");
	if (jv_type_of(arr) != JV_ARRAY || !jv_len(arr))
		return 0;
	size_t n = jv_len(arr);
	prof_producer *x = xcalloc(n, sizeof *x);
	p->waits[wi].producers = x;
	for (size_t i = 0; i < n; i++) {
		const jv *q = jv_at(arr, i);
		x[i].code_line = -1;
		if (opt_int(q, "code_line", &x[i].code_line, name, "waits[].producers[]", e) ||
		    opt_int(q, "waves", &x[i].waves, name, "waits[].producers[]", e))
			return -1;
		x[i].type = prod_lookup(jv_string(jv_get(q, "type")));
		x[i].inst = (long)add_inst(p, q, -1);
		p->waits[wi].n_producers = i + 1;
	}
	return 0;
}

/* The listed waits, in the file's order. */
static int read_waits(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	static const char *const group[PROF_SPLIT__COUNT] = {"memory", "lds", "smem", "other"};
	const jv *arr = jv_get(doc, "waits");
	if (jv_type_of(arr) != JV_ARRAY)
		return 0;
	p->wait_order = xcalloc(jv_len(arr) + 1, sizeof *p->wait_order);
	for (size_t i = 0; i < jv_len(arr); i++) {
		const jv *o = jv_at(arr, i);
		const char *k = jv_string(jv_get(o, "class"));
		int klass = k ? class_lookup(p->vendor, k) : -1;
		prof_wait *w = profile_add_wait(p, add_inst(p, o, klass));
		w->klass = klass;
		if (opt_int(o, "stall", &w->stall, name, "waits[]", e) ||
		    opt_int(o, "waves", &w->waves, name, "waits[]", e))
			return -1;
		const jv *sp = jv_get(o, "split");
		for (int g = 0; g < PROF_SPLIT__COUNT; g++)
			if (opt_int(sp, group[g], &w->split[g], name, "waits[].split", e))
				return -1;
		w->producers_known =
		    !jv_get(o, "producers_known") || jv_is_true(jv_get(o, "producers_known"));
		if (read_producers(o, name, p, p->n_waits - 1, e))
			return -1;
		p->wait_order[p->n_wait_order++] = p->n_waits - 1;
	}
	p->waits_total = p->n_wait_order;
	return 0;
}

/* A number of a list entry as a reader of the file takes it: absent, mistyped or out of the
 * int64 range counts 0. */
static int64_t lenient_int(const jv *o, const char *key)
{
	double d = jv_num(jv_get(o, key));
	return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : 0;
}

/* The listed source lines, in the file's order; their sources are owned (own_sources). */
static void read_lines(const jv *doc, stall_profile *p)
{
	const jv *arr = jv_get(doc, "lines");
	if (jv_type_of(arr) != JV_ARRAY || !jv_len(arr))
		return;
	size_t n = jv_len(arr);
	p->lines = xcalloc(n, sizeof *p->lines);
	p->own_sources = xcalloc(n, sizeof *p->own_sources);
	for (size_t i = 0; i < n; i++) {
		const jv *o = jv_at(arr, i);
		prof_line *l = &p->lines[i];
		const char *src = jv_string(jv_get(o, "source"));
		const char *k = jv_string(jv_get(o, "class"));
		p->own_sources[i] = src ? xstrdup(src) : NULL;
		l->source = p->own_sources[i];
		int64_t insts = lenient_int(o, "instructions");
		l->instructions = insts > 0 ? (size_t)insts : 0;
		l->hits = lenient_int(o, "hits");
		l->latency = lenient_int(o, "latency");
		l->stall = lenient_int(o, "stall");
		l->idle = lenient_int(o, "idle");
		l->not_issued = lenient_int(o, "not_issued");
		l->klass = k ? class_lookup(p->vendor, k) : -1;
	}
	p->n_lines = p->lines_total = n;
}

/* An address as the writer prints it ("0x1f0"), or a plain number; 0 when neither. */
static uint64_t lenient_addr(const jv *o, const char *key)
{
	const char *s = jv_string(jv_get(o, key));
	if (s)
		return strtoull(s, NULL, 16);
	return (uint64_t)lenient_int(o, key);
}

/* The listed hotspots, in the file's order: each an instruction of own_trace with its costs,
 * class and address, its stall reasons (NVIDIA) as parts. */
static void read_hotspots(const jv *doc, stall_profile *p)
{
	const jv *arr = jv_get(doc, "hotspots");
	if (jv_type_of(arr) != JV_ARRAY || !jv_len(arr))
		return;
	size_t n = jv_len(arr);
	p->hot = xcalloc(n, sizeof *p->hot);
	for (size_t k = 0; k < n; k++) {
		const jv *o = jv_at(arr, k);
		const char *c = jv_string(jv_get(o, "class"));
		size_t i = add_inst(p, o, c ? class_lookup(p->vendor, c) : -1);
		trace_inst *t = &p->own_trace->insts[i];
		t->vaddr = (int64_t)lenient_addr(o, "vaddr");
		t->hits = lenient_int(o, "hits");
		t->latency = lenient_int(o, "latency");
		t->stall = lenient_int(o, "stall");
		t->idle = lenient_int(o, "idle");
		const jv *rs = jv_get(o, "reasons");
		for (size_t r = 0; jv_type_of(rs) == JV_OBJECT && r < jv_len(rs); r++) {
			int id = class_lookup(p->vendor, jv_key_at(rs, r));
			double v = jv_num(jv_value_at(rs, r));
			if (id >= 0 && v > 0 && v < 9.2e18)
				profile_add_part(p, i, id, (int64_t)v, 0, 0);
		}
		p->hot[k] = i;
	}
	p->n_hot = p->hot_total = n;
}

/* The per-instruction measures the hotspots carry (address, not_issued), once own_trace holds
 * every listed instruction: parallel to it, 0 for an instruction no hotspot lists. */
static void read_hotspot_measures(const jv *doc, stall_profile *p)
{
	const jv *arr = jv_get(doc, "hotspots");
	size_t n = p->own_trace->n_insts;
	for (size_t k = 0; k < p->n_hot; k++) {
		const jv *o = jv_at(arr, k);
		if (jv_get(o, "address") && !p->address)
			p->address = xcalloc(n, sizeof *p->address);
		if (jv_get(o, "not_issued") && !p->not_issued)
			p->not_issued = xcalloc(n, sizeof *p->not_issued);
	}
	for (size_t k = 0; k < p->n_hot; k++) {
		const jv *o = jv_at(arr, k);
		if (p->address)
			p->address[p->hot[k]] = lenient_addr(o, "address");
		if (p->not_issued)
			p->not_issued[p->hot[k]] = lenient_int(o, "not_issued");
	}
}

/* The kernel's duration where the document has one: the Nsight Compute details' Duration, or
 * the span of an ATT trace (first to last realtime sample). */
static void read_duration(const jv *doc, stall_profile *p)
{
	const jv *d = jv_get(jv_get(jv_get(doc, "details"), "throughput"), "duration_us");
	const jv *clk = jv_get(doc, "clock");
	p->duration_us = -1;
	if (jv_is_num(d)) {
		p->duration_us = jv_num(d);
		p->duration_source = "Nsight Compute details: Duration";
	} else if (jv_is_true(jv_get(clk, "available")) &&
		   jv_is_num(jv_get(clk, "trace_span_us"))) {
		p->duration_us = jv_num(jv_get(clk, "trace_span_us"));
		p->duration_source = "ATT trace span (realtime.json, first to last sample)";
	}
}

/* The dispatch object: its strings, candidates and the vendor keys the writer merges back
 * (every other key). */
static void read_dispatch(const jv *d, stall_profile *p)
{
	static const char *const known[] = {"backend", "dir",  "id",	    "tag",
					    "kernel",  "arch", "selection", "candidates"};
	p->dispatch.dir = opt_str(d, "dir");
	p->dispatch.id = opt_str(d, "id");
	p->dispatch.tag = opt_str(d, "tag");
	p->dispatch.selection = opt_str(d, "selection");
	if (jv_type_of(jv_get(d, "candidates")) == JV_ARRAY)
		p->dispatch.candidates = jv_copy(jv_get(d, "candidates"));
	for (size_t i = 0; jv_type_of(d) == JV_OBJECT && i < jv_len(d); i++) {
		const char *k = jv_key_at(d, i);
		size_t j = 0;
		while (j < sizeof known / sizeof known[0] && strcmp(known[j], k) != 0)
			j++;
		if (j == sizeof known / sizeof known[0])
			profile_dispatch_extra(p, k, jv_copy(jv_value_at(d, i)));
	}
}

int profile_from_json(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	profile_init(p, VENDOR_AMD, UNIT_CYCLES, NULL);
	p->own_trace = xcalloc(1, sizeof *p->own_trace);
	trace_dispatch_init(p->own_trace);
	p->trace = p->own_trace;
	if (jv_type_of(doc) != JV_OBJECT)
		return bad(e, name, "not a JSON object");
	if (read_kind(doc, name, p, e) || read_totals(doc, name, p, e) ||
	    read_classes(doc, name, p, e) || read_normalized(doc, name, p, e) ||
	    read_mix(doc, name, p, e) || read_waits(doc, name, p, e))
		return -1;
	const jv *d = jv_get(doc, "dispatch");
	read_dispatch(d, p);
	p->dispatch.kernel = opt_str(doc, "kernel");
	if (!p->dispatch.kernel)
		p->dispatch.kernel = opt_str(d, "kernel");
	p->dispatch.arch = opt_str(doc, "arch");
	if (!p->dispatch.arch)
		p->dispatch.arch = opt_str(d, "arch");
	read_lines(doc, p);
	read_hotspots(doc, p);
	read_hotspot_measures(doc, p);
	read_duration(doc, p);
	const jv *occ = jv_get(doc, "occupancy");
	if (jv_type_of(occ) == JV_OBJECT)
		p->occupancy = jv_copy(occ);
	const jv *ws = jv_get(doc, "wave_states");
	if (jv_type_of(ws) == JV_OBJECT)
		p->wave_states = jv_copy(ws);
	return 0;
}
