/* The actionable .py:line of a class, around the kernel-entry bucket (evidence_loc.h). */
#include "core/diagnose/evidence_loc.h"

#include "core/analysis/srcmap.h"
#include "model/taxonomy.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int evloc_on_bucket(const jv *eb, const char *source)
{
	const jv *buckets = jv_get(eb, "lines");
	src_frame fr[SRCMAP_MAX_FRAMES];
	if (!source || !jv_len(buckets) || srcmap_parse_chain(source, fr, SRCMAP_MAX_FRAMES) == 0)
		return 0;
	for (size_t i = 0; i < jv_len(buckets); i++) {
		const jv *b = jv_at(buckets, i);
		const char *f = jv_string(jv_get(b, "file"));
		if (f && strlen(f) == fr[0].path_len &&
		    strncmp(f, fr[0].path, fr[0].path_len) == 0 &&
		    jv_i64(jv_get(b, "line")) == fr[0].line)
			return 1;
	}
	return 0;
}

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

evloc_kind evloc_kind_of(const jv *eb, const char *source)
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	if (!source || !*source)
		return EVLOC_NONE;
	if (evloc_on_bucket(eb, source))
		return EVLOC_ENTRY_BUCKET;
	if (srcmap_parse_chain(source, fr, SRCMAP_MAX_FRAMES) > 0 &&
	    evloc_library_path(fr[0].path, fr[0].path_len))
		return EVLOC_LIBRARY_FRAME;
	return EVLOC_LINE;
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
typedef struct {
	const char *file;
	size_t len;
	int64_t line;
} bucket_key;

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

jv *evloc_scan_trace(const trace_dispatch *d)
{
	jv *eb = jv_object();
	const jv *lines = jv_set(eb, "lines", bucket_lines(d));
	size_t nk = jv_len(lines);
	bucket_key *keys = xcalloc(nk ? nk : 1, sizeof *keys);
	for (size_t i = 0; i < nk; i++) {
		const char *f = jv_string(jv_get(jv_at(lines, i), "file"));
		keys[i] = (bucket_key){f ? f : "", f ? strlen(f) : 0,
				       jv_i64(jv_get(jv_at(lines, i), "line"))};
	}
	qsort(keys, nk, sizeof *keys, cmp_bucket);
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

const jv *evloc_wait_of(const jv *bubbles, const jv *code_line)
{
	const jv *w = jv_get(bubbles, "waits");
	for (size_t i = 0; code_line && i < jv_len(w); i++)
		if (jv_equal(jv_get(jv_at(w, i), "code_line"), code_line))
			return jv_at(w, i);
	return NULL;
}

static int attributable(const jv *buckets, const char *src)
{
	return evloc_kind_of(buckets, src) == EVLOC_LINE;
}

/* The wait's producer to act on: a load with an ordinary line first (the wait exists for
 * the data it brings), then any other producer with an ordinary line. */
static const jv *producer_pick(const jv *wait, const jv *buckets)
{
	const jv *prods = jv_get(wait, "producers");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < jv_len(prods); i++) {
			const jv *p = jv_at(prods, i);
			const char *isa = jv_string(jv_get(p, "isa"));
			int load = isa && strstr(isa, "load") != NULL;
			if ((pass == 1 || load) &&
			    attributable(buckets, jv_string(jv_get(p, "source"))))
				return p;
		}
	return NULL;
}

static const jv *off_bucket_top(const jv *ce, const jv *buckets)
{
	const char *klass = jv_string(jv_get(ce, "class"));
	const jv *scan = jv_get(buckets, "hottest_off_bucket");
	if (jv_type_of(scan) == JV_OBJECT) /* the whole trace was searched */
		return klass ? jv_get(scan, klass) : NULL;
	const jv *top = jv_get(ce, "top");
	for (size_t i = 0; i < jv_len(top); i++)
		if (attributable(buckets, jv_string(jv_get(jv_at(top, i), "source"))))
			return jv_at(top, i);
	return NULL;
}

/* The actionable entry of a hot line on a bucket or library frame: the wait's producer, else
 * the hottest instruction of the class on an ordinary line; none leaves w->actionable NULL. */
static void bucket_actionable(const jv *bubbles, const jv *ce, const jv *top, const jv *buckets,
			      evloc_where *w)
{
	evloc_kind k = w->kind;
	const jv *p = w->wait ? producer_pick(w->wait, buckets) : NULL;
	if (p) {
		w->actionable = p;
		w->via = "wait_producer";
		snprintf(w->basis, sizeof w->basis,
			 "the hot wait sits on %s; this is the instruction it waits on (wait "
			 "producer attribution), so its line is the one to change",
			 kinds[k].what);
		return;
	}
	const jv *alt = off_bucket_top(ce, buckets);
	if (!alt)
		return;
	double cs = jv_num(jv_get(ce, "stall"));
	double share = cs > 0 ? 100.0 * jv_num(jv_get(alt, "stall")) / cs : 0.0;
	w->actionable = alt;
	w->via = kinds[k].off_via;
	w->pct_of_class_stall = share;
	snprintf(w->basis, sizeof w->basis,
		 "the hottest instruction of this class %s (%.1f%% of the class's stall)",
		 kinds[k].off_what, share);
}

/* "none of its N instructions" / "none of the N hottest listed instructions" / "no stalled
 * instruction of the class in the trace" (static buffer: used at once). */
static const char *scanned_text(const jv *ce, const jv *eb, size_t listed, int all)
{
	static char buf[96];
	const jv *scan = jv_get(eb, "hottest_off_bucket");
	if (jv_type_of(scan) == JV_OBJECT)
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

void evloc_locate(const jv *bubbles, const jv *ce, const jv *top, const jv *buckets, evloc_where *w)
{
	memset(w, 0, sizeof *w);
	w->source = jv_string(jv_get(top, "source"));
	w->kind = evloc_kind_of(buckets, w->source);
	w->wait = evloc_wait_of(bubbles, jv_get(top, "code_line"));
	w->pct_of_class_stall = -1;
	if (w->kind == EVLOC_NONE || w->kind == EVLOC_LINE)
		return;
	w->class_entry = ce;
	w->eb = buckets;
	bucket_actionable(bubbles, ce, top, buckets, w);
	w->unattributable = w->actionable == NULL;
}

/* Why nothing is attributable, in words. */
static jv *none_reason(const evloc_where *w)
{
	size_t listed = jv_len(jv_get(w->class_entry, "top"));
	int all = jv_is_num(jv_get(w->class_entry, "instructions")) &&
		  (double)listed >= jv_num(jv_get(w->class_entry, "instructions"));
	return jv_strf("no attributable source line: the class's stall sits on %s %s (%s%s has "
		       "another .py line); the ISA is the evidence",
		       kinds[w->kind].what, w->source,
		       scanned_text(w->class_entry, w->eb, listed, all),
		       w->wait ? ", nor the instructions the hot wait waits on," : "");
}

const char *evloc_actionable_source(const evloc_where *w)
{
	if (w->kind == EVLOC_LINE)
		return w->source;
	return w->actionable ? jv_string(jv_get(w->actionable, "source")) : NULL;
}

static jv *actionable_jv(const evloc_where *w)
{
	const jv *from = w->actionable;
	jv *a = jv_object();
	jv_set(a, "source", jv_copy(jv_get(from, "source")));
	jv_set(a, "code_line",
	       jv_get(from, "code_line") ? jv_copy(jv_get(from, "code_line")) : jv_null());
	jv_set(a, "isa", jv_get(from, "isa") ? jv_copy(jv_get(from, "isa")) : jv_null());
	if (jv_get(from, "stall"))
		jv_set(a, "stall", jv_copy(jv_get(from, "stall")));
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
	if (w->actionable) {
		jv_set(ev, "actionable_source", jv_copy(jv_get(w->actionable, "source")));
		jv_set(ev, "actionable", actionable_jv(w));
		jv_set_str(ev, "secondary_source", w->source);
		return;
	}
	jv_set(ev, "actionable_source", jv_null());
	jv_set(ev, "actionable", jv_null());
	jv_set_str(ev, "secondary_source", w->source);
	jv_set(ev, "none_reason", none_reason(w));
}

void evloc_fill(jv *ev, jv *h, const jv *bubbles, const jv *ce, const jv *top, const jv *buckets)
{
	evloc_where w;
	evloc_locate(bubbles, ce, top, buckets, &w);
	evloc_write(&w, ev, h);
}
