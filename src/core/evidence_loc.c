/* The actionable .py:line of a class, around the kernel-entry bucket (evidence_loc.h). */
#include "evidence_loc.h"

#include "srcmap.h"
#include "taxonomy.h"

#include <stdio.h>
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
	srcmap_summary_free(&s);
	return arr;
}

jv *evloc_scan_trace(const trace_dispatch *d)
{
	jv *eb = jv_object();
	jv_set(eb, "lines", bucket_lines(d));
	const trace_inst *best[TAX__COUNT] = {0};
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || t->klass < 0 || t->klass >= TAX__COUNT || t->stall <= 0 ||
		    !t->source || !*t->source || evloc_on_bucket(eb, t->source))
			continue;
		if (!best[t->klass] || t->stall > best[t->klass]->stall)
			best[t->klass] = t;
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
		   "line is not a bucket");
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
	return src && *src && !evloc_on_bucket(buckets, src);
}

static jv *actionable_obj(const jv *from, const char *via, const char *basis)
{
	jv *a = jv_object();
	jv_set(a, "source", jv_copy(jv_get(from, "source")));
	jv_set(a, "code_line",
	       jv_get(from, "code_line") ? jv_copy(jv_get(from, "code_line")) : jv_null());
	jv_set(a, "isa", jv_get(from, "isa") ? jv_copy(jv_get(from, "isa")) : jv_null());
	if (jv_get(from, "stall"))
		jv_set(a, "stall", jv_copy(jv_get(from, "stall")));
	jv_set_str(a, "via", via);
	jv_set_str(a, "basis", basis);
	return a;
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
	if (scan && scan->type == JV_OBJECT) /* the whole trace was searched */
		return klass ? jv_get(scan, klass) : NULL;
	const jv *top = jv_get(ce, "top");
	for (size_t i = 0; i < jv_len(top); i++)
		if (attributable(buckets, jv_string(jv_get(jv_at(top, i), "source"))))
			return jv_at(top, i);
	return NULL;
}

static jv *bucket_actionable(const jv *bubbles, const jv *ce, const jv *top, const jv *buckets)
{
	const jv *w = evloc_wait_of(bubbles, jv_get(top, "code_line"));
	const jv *p = w ? producer_pick(w, buckets) : NULL;
	if (p)
		return actionable_obj(
		    p, "wait_producer",
		    "the hot wait sits on the kernel-entry bucket; this is the instruction it "
		    "waits on (wait producer attribution), so its line is the one to change");
	const jv *alt = off_bucket_top(ce, buckets);
	if (!alt)
		return NULL;
	char basis[256];
	double cs = jv_num(jv_get(ce, "stall"));
	snprintf(basis, sizeof basis,
		 "the hottest instruction of this class that is not on the kernel-entry bucket "
		 "(%.1f%% of the class's stall)",
		 cs > 0 ? 100.0 * jv_num(jv_get(alt, "stall")) / cs : 0.0);
	jv *a = actionable_obj(alt, "class_hotspot_off_bucket", basis);
	jv_set_round(a, "pct_of_class_stall",
		     cs > 0 ? 100.0 * jv_num(jv_get(alt, "stall")) / cs : 0.0, 2);
	return a;
}

/* "none of its N instructions" / "none of the N hottest listed instructions" / "no stalled
 * instruction of the class in the trace" (static buffer: used at once). */
static const char *scanned_text(const jv *ce, const jv *eb, size_t listed, int all)
{
	static char buf[96];
	const jv *scan = jv_get(eb, "hottest_off_bucket");
	if (scan && scan->type == JV_OBJECT)
		return "no stalled instruction of the class anywhere in the trace";
	snprintf(buf, sizeof buf, "none of %s %zu %sinstructions", all ? "its" : "the", listed,
		 all ? "" : "hottest listed ");
	return buf;
}

void evloc_fill(jv *ev, jv *h, const jv *bubbles, const jv *ce, const jv *top, const jv *buckets)
{
	const char *src = jv_string(jv_get(top, "source"));
	if (!src || !*src) {
		jv_set_str(h, "source_kind", "none");
		jv_set(ev, "actionable_source", jv_null());
		return;
	}
	if (!evloc_on_bucket(buckets, src)) {
		jv_set_str(h, "source_kind", "line");
		jv_set_str(ev, "actionable_source", src);
		return;
	}
	jv_set_str(h, "source_kind", "entry_bucket");
	jv_set(h, "source_note",
	       jv_strf("%s is the kernel's entry line (the @flyc.kernel decorator / def line): "
		       "FlyDSL gives it the prologue, compiler-generated code, ops without a user "
		       "location and backend-inserted s_waitcnt, so it is not the Python line that "
		       "causes this stall",
		       src));
	jv *a = bucket_actionable(bubbles, ce, top, buckets);
	if (a) {
		jv_set(ev, "actionable_source", jv_copy(jv_get(a, "source")));
		jv_set(ev, "actionable", a);
		jv_set_str(ev, "secondary_source", src);
		return;
	}
	jv_set(ev, "actionable_source", jv_null());
	jv_set(ev, "actionable", jv_null());
	size_t listed = jv_len(jv_get(ce, "top"));
	int all = jv_is_num(jv_get(ce, "instructions")) &&
		  (double)listed >= jv_num(jv_get(ce, "instructions"));
	int is_wait = evloc_wait_of(bubbles, jv_get(top, "code_line")) != NULL;
	jv_set(ev, "none_reason",
	       jv_strf("no attributable source line: the class's stall sits on the kernel-entry "
		       "bucket %s (%s%s has another .py line); the ISA is the evidence",
		       src, scanned_text(ce, buckets, listed, all),
		       is_wait ? ", nor the instructions the hot wait waits on," : ""));
}
