/* The one bubbles.json reader (profile.h): a bubbles object, or a report.json (whose totals
 * are the bubbles totals and whose stall_taxonomy.classes are its classes), back into a stall
 * profile for diff, old bundles and fixtures. Every key it reads is checked for its type, so a
 * misspelt or mistyped key is an error naming it, never a silent 0. */
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
	return rc ? -1 : 0;
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
	return 0;
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
		prof_norm *n = &p->norm[class_norm(p->vendor, (int)c)];
		n->stall = trace_add(n->stall, p->classes[c].stall);
		n->latency = trace_add(n->latency, p->classes[c].latency);
		n->not_issued = trace_add(n->not_issued, p->classes[c].not_issued);
	}
	return 0;
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

int profile_from_json(const jv *doc, const char *name, stall_profile *p, fp_err *e)
{
	profile_init(p, VENDOR_AMD, UNIT_CYCLES, NULL);
	if (jv_type_of(doc) != JV_OBJECT)
		return bad(e, name, "not a JSON object");
	if (read_kind(doc, name, p, e) || read_totals(doc, name, p, e) ||
	    read_classes(doc, name, p, e))
		return -1;
	const jv *d = jv_get(doc, "dispatch");
	p->dispatch.dir = opt_str(d, "dir");
	p->dispatch.id = opt_str(d, "id");
	p->dispatch.tag = opt_str(d, "tag");
	p->dispatch.kernel = opt_str(doc, "kernel");
	if (!p->dispatch.kernel)
		p->dispatch.kernel = opt_str(d, "kernel");
	p->dispatch.arch = opt_str(doc, "arch");
	if (!p->dispatch.arch)
		p->dispatch.arch = opt_str(d, "arch");
	read_duration(doc, p);
	return 0;
}
