/* The actionable .py:line of a class, around the kernel-entry bucket (evidence_loc.h). */
#include "core/diagnose/evidence_loc.h"

#include "core/analysis/srcmap.h"
#include "model/taxonomy.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the components from `at` on are "name/..." (name followed by a separator). */
static int component_at(const char *p, size_t n, size_t at, const char *name)
{
	size_t k = strlen(name);
	return (at == 0 || p[at - 1] == '/') && at + k < n && strncmp(p + at, name, k) == 0 &&
	       p[at + k] == '/';
}

/* 1 when the components at `at` are "a/b/" (a package directory inside another). */
static int pair_at(const char *p, size_t n, size_t at, const char *a, const char *b)
{
	return component_at(p, n, at, a) && component_at(p, n, at + strlen(a) + 1, b);
}

int evloc_library_path(const char *path, size_t n)
{
	for (size_t i = 0; path && i < n; i++)
		if (pair_at(path, n, i, "python_packages", "flydsl") ||
		    pair_at(path, n, i, "site-packages", "flydsl") ||
		    pair_at(path, n, i, "triton", "language"))
			return 1;
	return 0;
}

/* What each kind is called in JSON ("source_kind") and in prose. */
static const struct {
	const char *name, *what, *off_via, *off_what;
} kinds[] = {
    [EVLOC_NONE] = {"none", "no source line", "", ""},
    [EVLOC_LINE] = {"line", "an ordinary line", "", ""},
    [EVLOC_ENTRY_BUCKET] = {"entry_bucket", "the kernel-entry bucket", "class_hotspot_off_bucket",
			    "that is not on the kernel-entry bucket"},
    [EVLOC_LIBRARY_FRAME] = {"library_frame", "a library frame", "class_hotspot_user_line",
			     "on a user line (not a library frame or entry bucket)"},
};

const char *evloc_kind_name(evloc_kind k)
{
	return kinds[k].name;
}

const char *evloc_kind_text(const char *source_kind)
{
	for (size_t i = 0; source_kind && i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kinds[i].name, source_kind) == 0)
			return kinds[i].what;
	return NULL;
}

static jv *bucket_lines(const trace_dispatch *d)
{
	srcmap_summary s;
	srcmap_build(d, SRCMAP_LEAF, &s);
	jv *arr = jv_array();
	for (size_t i = 0; i < s.n_lines; i++) {
		const srcmap_line *ln = &s.lines[i];
		if (!ln->entry_bucket)
			continue;
		jv *o = jv_push(arr, jv_object());
		jv_set_str(o, "file", ln->file);
		jv_set_int(o, "line", ln->line);
		jv_set(o, "source", jv_strf("%s:%lld", ln->file, (long long)ln->line));
		jv_set_int(o, "stall", ln->stall);
	}
	srcmap_summary_release(&s);
	return arr;
}

/* The bucket lines as a sorted table, so the per-instruction test is a binary search: a
 * code.json of 40,000 one-instruction kernels has 40,000 buckets, and a scan of all of them
 * for every instruction took minutes. */
typedef evloc_bucket_key bucket_key;

static int cmp_bucket(const void *a, const void *b)
{
	const bucket_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->file, y->file, n);
	if (c == 0 && x->len != y->len)
		c = x->len < y->len ? -1 : 1;
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static evloc_kind kind_sorted(const bucket_key *keys, size_t n, const char *source)
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	if (!source || !*source)
		return EVLOC_NONE;
	if (srcmap_parse_chain(source, fr, SRCMAP_MAX_FRAMES) == 0)
		return EVLOC_LINE;
	bucket_key k = {fr[0].path, fr[0].path_len, fr[0].line};
	if (n && bsearch(&k, keys, n, sizeof *keys, cmp_bucket))
		return EVLOC_ENTRY_BUCKET;
	return evloc_library_path(fr[0].path, fr[0].path_len) ? EVLOC_LIBRARY_FRAME : EVLOC_LINE;
}

/* The sorted table of the bucket lines (file strings borrowed from `lines`). */
static bucket_key *keys_of(const jv *lines, size_t *n)
{
	size_t nk = jv_len(lines);
	bucket_key *keys = xcalloc(nk ? nk : 1, sizeof *keys);
	for (size_t i = 0; i < nk; i++) {
		const char *f = jv_string(jv_get(jv_at(lines, i), "file"));
		keys[i] = (bucket_key){f ? f : "", f ? strlen(f) : 0,
				       jv_i64(jv_get(jv_at(lines, i), "line"))};
	}
	qsort(keys, nk, sizeof *keys, cmp_bucket);
	*n = nk;
	return keys;
}

void evloc_buckets_read(const jv *eb, evloc_buckets *b)
{
	memset(b, 0, sizeof *b);
	b->keys = keys_of(jv_get(eb, "lines"), &b->n);
	const jv *scan = jv_get(eb, "hottest_off_bucket");
	b->hottest = jv_type_of(scan) == JV_OBJECT ? scan : NULL;
}

void evloc_buckets_release(evloc_buckets *b)
{
	free(b->keys);
	memset(b, 0, sizeof *b);
}

evloc_kind evloc_kind_in(const evloc_buckets *b, const char *source)
{
	return kind_sorted(b ? b->keys : NULL, b ? b->n : 0, source);
}

jv *evloc_scan_trace(const trace_dispatch *d)
{
	jv *eb = jv_object();
	const jv *lines = jv_set(eb, "lines", bucket_lines(d));
	size_t nk;
	bucket_key *keys = keys_of(lines, &nk);
	const trace_inst *best[TAX__COUNT] = {0};
	size_t classified = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		classified += !t->is_label && t->klass >= 0 && t->klass < TAX__COUNT;
		if (t->is_label || t->klass < 0 || t->klass >= TAX__COUNT || t->stall <= 0 ||
		    kind_sorted(keys, nk, t->source) != EVLOC_LINE)
			continue;
		if (!best[t->klass] || t->stall > best[t->klass]->stall)
			best[t->klass] = t;
	}
	free(keys);
	/* an unclassified trace (NVIDIA: the classes come from the sampler, not trace.h) was not
	 * searched: null makes evloc_fill use each class's top list instead */
	if (!classified) {
		jv_set(eb, "hottest_off_bucket", jv_null());
		jv_set_str(eb, "note",
			   "lines: kernel-entry buckets (srcmap); hottest_off_bucket: "
			   "null, the trace's instructions carry no class");
		return eb;
	}
	jv *h = jv_set(eb, "hottest_off_bucket", jv_object());
	for (int c = 0; c < TAX__COUNT; c++) {
		if (!best[c])
			continue;
		jv *o = jv_set(h, tax_class_name((tax_class)c), jv_object());
		jv_set_int(o, "code_line", best[c]->code_line);
		jv_set_str(o, "isa", best[c]->isa ? best[c]->isa : "");
		jv_set_str(o, "source", best[c]->source);
		jv_set_int(o, "stall", best[c]->stall);
	}
	jv_set_str(eb, "note",
		   "lines: kernel-entry buckets (srcmap, as `map` flags them); "
		   "hottest_off_bucket: per class, the instruction with the most stall whose "
		   "line is neither a bucket nor a library frame (a line inside FlyDSL's or "
		   "Triton's own package)");
	return eb;
}

/* The profile's wait of the instruction at code_line (among the listed waits), or NULL. */
static const prof_wait *wait_of(const stall_profile *p, int64_t code_line)
{
	for (size_t k = 0; k < p->n_wait_order; k++) {
		const prof_wait *w = &p->waits[p->wait_order[k]];
		if (p->trace->insts[w->inst].code_line == code_line)
			return w;
	}
	return NULL;
}

static int attributable(const evloc_buckets *buckets, const char *src)
{
	return evloc_kind_in(buckets, src) == EVLOC_LINE;
}

/* The wait's producer to act on: a load with an ordinary line first (the wait exists for
 * the data it brings), then any other producer with an ordinary line. */
static const prof_producer *producer_pick(const stall_profile *p, const prof_wait *wait,
					  const evloc_buckets *buckets)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < wait->n_producers; i++) {
			const prof_producer *x = &wait->producers[i];
			const char *isa = profile_producer_isa(p, x);
			int load = isa && strstr(isa, "load") != NULL;
			if ((pass == 1 || load) &&
			    attributable(buckets, profile_producer_source(p, x)))
				return x;
		}
	return NULL;
}

/* The hottest instruction of the class on an ordinary line: from the bucket object's scan of
 * the whole trace when it has one, else from the class's top list. 0 when there is none. */
static int off_bucket_top(const stall_profile *p, int klass, const evloc_buckets *buckets,
			  evloc_entry *out)
{
	if (buckets && buckets->hottest) { /* the whole trace was searched */
		const jv *o = jv_get(buckets->hottest, class_name(p->vendor, klass));
		if (!o)
			return 0;
		out->source = jv_string(jv_get(o, "source"));
		out->isa = jv_string(jv_get(o, "isa"));
		out->code_line = jv_i64(jv_get(o, "code_line"));
		out->stall = jv_i64(jv_get(o, "stall"));
		out->has_stall = jv_get(o, "stall") != NULL;
		return 1;
	}
	const prof_class *c = &p->classes[klass];
	for (size_t i = 0; i < c->n_top; i++) {
		const trace_inst *t = &p->trace->insts[c->top[i].inst];
		if (attributable(buckets, t->source)) {
			out->source = t->source;
			out->isa = t->isa;
			out->code_line = t->code_line;
			out->stall = c->top[i].stall;
			out->has_stall = 1;
			return 1;
		}
	}
	return 0;
}

/* The actionable entry of a hot line on a bucket or library frame: the wait's producer, else
 * the hottest instruction of the class on an ordinary line; none leaves w->has_actionable 0. */
static void bucket_actionable(const stall_profile *p, int klass, const evloc_buckets *buckets,
			      evloc_where *w)
{
	evloc_kind k = w->kind;
	const prof_producer *x = w->wait ? producer_pick(p, w->wait, buckets) : NULL;
	if (x) {
		w->has_actionable = 1;
		w->actionable.source = profile_producer_source(p, x);
		w->actionable.isa = profile_producer_isa(p, x);
		w->actionable.code_line = x->code_line;
		w->via = "wait_producer";
		snprintf(w->basis, sizeof w->basis,
			 "the hot wait sits on %s; this is the instruction it waits on (wait "
			 "producer attribution), so its line is the one to change",
			 kinds[k].what);
		return;
	}
	if (!off_bucket_top(p, klass, buckets, &w->actionable))
		return;
	double cs = (double)p->classes[klass].stall;
	double share = cs > 0 ? 100.0 * (double)w->actionable.stall / cs : 0.0;
	w->has_actionable = 1;
	w->via = kinds[k].off_via;
	w->pct_of_class_stall = share;
	snprintf(w->basis, sizeof w->basis,
		 "the hottest instruction of this class %s (%.1f%% of the class's stall)",
		 kinds[k].off_what, share);
}

/* "none of its N instructions" / "none of the N hottest listed instructions" / "no stalled
 * instruction of the class in the trace" (static buffer: used at once). */
static const char *scanned_text(const evloc_buckets *eb, size_t listed, int all)
{
	static char buf[96];
	if (eb && eb->hottest)
		return "no stalled instruction of the class anywhere in the trace";
	snprintf(buf, sizeof buf, "none of %s %zu %sinstructions", all ? "its" : "the", listed,
		 all ? "" : "hottest listed ");
	return buf;
}

static jv *source_note(evloc_kind k, const char *src)
{
	if (k == EVLOC_ENTRY_BUCKET)
		return jv_strf(
		    "%s is the kernel's entry line (the @flyc.kernel decorator / def "
		    "line): FlyDSL gives it the prologue, compiler-generated code, ops "
		    "without a user location and backend-inserted s_waitcnt, so it is not "
		    "the Python line that causes this stall",
		    src);
	return jv_strf("%s is a library frame: a line inside FlyDSL's or Triton's own package "
		       "(a wrapper the kernel calls), which the kernel author does not edit; the "
		       "stall comes from how the kernel uses it",
		       src);
}

void evloc_locate(const stall_profile *p, int klass, const evloc_buckets *buckets, evloc_where *w)
{
	memset(w, 0, sizeof *w);
	w->pct_of_class_stall = -1;
	const prof_class *c = &p->classes[klass];
	if (!c->n_top)
		return;
	const trace_inst *hot = &p->trace->insts[c->top[0].inst];
	w->source = hot->source;
	w->kind = evloc_kind_in(buckets, w->source);
	w->wait = wait_of(p, hot->code_line);
	if (w->kind == EVLOC_NONE || w->kind == EVLOC_LINE)
		return;
	w->listed = c->n_top;
	w->all_listed = c->n_top >= c->instructions;
	w->eb = buckets;
	bucket_actionable(p, klass, buckets, w);
	w->unattributable = !w->has_actionable;
}

/* Why nothing is attributable, in words. */
static jv *none_reason(const evloc_where *w)
{
	return jv_strf("no attributable source line: the class's stall sits on %s %s (%s%s has "
		       "another .py line); the ISA is the evidence",
		       kinds[w->kind].what, w->source,
		       scanned_text(w->eb, w->listed, w->all_listed),
		       w->wait ? ", nor the instructions the hot wait waits on," : "");
}

const char *evloc_actionable_source(const evloc_where *w)
{
	if (w->kind == EVLOC_LINE)
		return w->source;
	return w->has_actionable ? w->actionable.source : NULL;
}

static jv *actionable_jv(const evloc_where *w)
{
	const evloc_entry *from = &w->actionable;
	jv *a = jv_object();
	jv_set(a, "source", from->source ? jv_str(from->source) : jv_null());
	jv_set_int(a, "code_line", from->code_line);
	jv_set(a, "isa", from->isa ? jv_str(from->isa) : jv_null());
	if (from->has_stall)
		jv_set_int(a, "stall", from->stall);
	jv_set_str(a, "via", w->via);
	jv_set_str(a, "basis", w->basis);
	if (w->pct_of_class_stall >= 0)
		jv_set_round(a, "pct_of_class_stall", w->pct_of_class_stall, 2);
	return a;
}

void evloc_write(const evloc_where *w, jv *ev, jv *h)
{
	jv_set_str(h, "source_kind", kinds[w->kind].name);
	if (w->kind == EVLOC_NONE) {
		jv_set(ev, "actionable_source", jv_null());
		return;
	}
	if (w->kind == EVLOC_LINE) {
		jv_set_str(ev, "actionable_source", w->source);
		return;
	}
	jv_set(h, "source_note", source_note(w->kind, w->source));
	if (w->has_actionable) {
		jv_set(ev, "actionable_source",
		       w->actionable.source ? jv_str(w->actionable.source) : jv_null());
		jv_set(ev, "actionable", actionable_jv(w));
		jv_set_str(ev, "secondary_source", w->source);
		return;
	}
	jv_set(ev, "actionable_source", jv_null());
	jv_set(ev, "actionable", jv_null());
	jv_set_str(ev, "secondary_source", w->source);
	jv_set(ev, "none_reason", none_reason(w));
}
