/* REPORT.html's annotated source: one table per source file, a row per shown line with its
 * heat bar (the line's stall relative to the hottest line), its share of the stall, the line
 * number as an anchor, the code, and beside it the line's hottest instruction with the full
 * ISA rows (class, stall, hits, the wait's producers) one click away. */
#include "out/report_html.h"

#include "out/html.h"

#include <stdio.h>
#include <string.h>

static double max_line_pct(const jv *view)
{
	double m = 0;
	const jv *fa = jv_get(view, "files");
	for (size_t i = 0; i < jv_len(fa); i++) {
		const jv *ls = jv_get(jv_at(fa, i), "lines");
		for (size_t k = 0; k < jv_len(ls); k++) {
			double p = jv_num(jv_get(jv_at(ls, k), "pct_of_stall"));
			if (p > m)
				m = p;
		}
	}
	return m;
}

static void producers(strbuf *out, const jv *ps)
{
	for (size_t i = 0; i < jv_len(ps); i++) {
		const jv *p = jv_at(ps, i);
		const char *src = jv_string(jv_get(p, "source"));
		const char *base = src && strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		sb_addf(out, "%s<span title=\"", i ? "<br>" : "");
		html_esc(out, src);
		sb_addf(out, "\">#%lld ", (long long)jv_i64(jv_get(p, "code_line")));
		html_esc(out, jv_string(jv_get(p, "isa")));
		html_text(out, " <small>", base, "</small></span>");
	}
}

static void isa_rows(strbuf *out, const jv *line)
{
	const jv *isa = jv_get(line, "isa");
	sb_addf(out,
		"<details><summary>%zu instruction%s</summary><table class=\"isarows\">"
		"<tr><th>#</th><th>class</th><th>stall</th><th>hits</th><th>isa</th>"
		"<th>waits for</th></tr>",
		jv_len(isa) + (size_t)jv_i64(jv_get(line, "isa_more")),
		jv_len(isa) + (size_t)jv_i64(jv_get(line, "isa_more")) == 1 ? "" : "s");
	for (size_t i = 0; i < jv_len(isa); i++) {
		const jv *r = jv_at(isa, i);
		const char *cls = jv_string(jv_get(r, "class"));
		sb_addf(out, "<tr><td>%lld</td><td><i class=\"dot\" style=\"background:%s\"></i>",
			(long long)jv_i64(jv_get(r, "code_line")), html_class_color(cls));
		html_esc(out, cls);
		sb_addf(out,
			"</td><td class=\"num\">%.2f%%</td><td class=\"num\">%lld</td><td><code>",
			jv_num(jv_get(r, "pct_of_stall")), (long long)jv_i64(jv_get(r, "hits")));
		html_esc(out, jv_string(jv_get(r, "isa")));
		sb_adds(out, "</code></td><td>");
		producers(out, jv_get(r, "producers"));
		sb_adds(out, "</td></tr>");
	}
	if (jv_i64(jv_get(line, "isa_more")))
		sb_addf(out,
			"<tr><td colspan=\"6\">+%lld more (report.json and `flyprof map "
			"--source-line` list them)</td></tr>",
			(long long)jv_i64(jv_get(line, "isa_more")));
	sb_adds(out, "</table></details>");
}

static void line_row(strbuf *out, size_t fi, const jv *l, double maxp)
{
	int64_t n = jv_i64(jv_get(l, "n"));
	const char *text = jv_string(jv_get(l, "text"));
	const jv *isa = jv_get(l, "isa");
	sb_addf(out, "<tr id=\"L%zu-%lld\"", fi, (long long)n);
	int64_t rank = jv_i64(jv_get(l, "rank"));
	const jv *eb = jv_get(l, "entry_bucket");
	int entry = jv_is_true(eb);
	if (isa)
		sb_addf(out, " class=\"costed%s%s\" data-rank=\"%lld\"",
			rank == 1 ? " hottest" : "", entry ? " entry" : "", (long long)rank);
	sb_adds(out, ">");
	if (isa) {
		double p = jv_num(jv_get(l, "pct_of_stall"));
		const char *cls = jv_string(jv_get(l, "class"));
		sb_addf(out,
			"<td class=\"heat\" title=\"%.2f%% of stall\"><i style=\"width:%.1f%%;"
			"background:%s\"></i></td><td class=\"num\">%.1f%%</td>",
			p, maxp > 0 ? 100.0 * p / maxp : 0, html_class_color(cls), p);
	} else {
		sb_adds(out, "<td class=\"heat\"></td><td></td>");
	}
	sb_addf(out, "<td class=\"ln\"><a href=\"#L%zu-%lld\">%lld</a></td><td class=\"code\">", fi,
		(long long)n, (long long)n);
	if (text) {
		html_text(out, "<pre>", text, "</pre>");
	} else {
		sb_adds(out, "<pre class=\"notext\">(source text not in the capture)</pre>");
	}
	sb_adds(out, "</td><td class=\"isa\">");
	if (isa) {
		const jv *top = NULL;
		for (size_t i = 0; i < jv_len(isa); i++)
			if (!top ||
			    jv_num(jv_get(jv_at(isa, i), "stall")) > jv_num(jv_get(top, "stall")))
				top = jv_at(isa, i);
		const char *cls = jv_string(jv_get(l, "class"));
		sb_addf(out, "<span class=\"cls\" style=\"color:%s\">", html_class_color(cls));
		html_esc(out, cls);
		sb_adds(out, "</span>");
		if (entry)
			sb_adds(
			    out,
			    " <span class=\"tag\" title=\"the kernel's entry line also collects "
			    "code without a source location of its own\">entry</span>");
		html_text(out, " <code>", jv_string(jv_get(top, "isa")), "</code>");
		isa_rows(out, l);
	}
	sb_adds(out, "</td></tr>\n");
}

void report_html_source(strbuf *out, const jv *view)
{
	const jv *fa = jv_get(view, "files");
	double maxp = max_line_pct(view);
	sb_adds(out, "<section id=\"source\"><h2>Annotated source</h2>\n");
	if (!jv_len(fa))
		sb_adds(out, "<p class=\"note\">No instruction of this trace maps to a source line "
			     "(no line information in the capture).</p>");
	for (size_t i = 0; i < jv_len(fa); i++) {
		const jv *f = jv_at(fa, i);
		sb_addf(out, "<div class=\"file\" id=\"F%zu\"><h3><span class=\"path\">", i);
		html_esc(out, jv_string(jv_get(f, "file")));
		sb_addf(out, "</span> <span class=\"share\">%.1f%% of stall</span></h3>",
			jv_num(jv_get(f, "pct_of_stall")));
		const jv *ht = jv_get(f, "has_text");
		if (!jv_is_true(ht))
			sb_adds(out, "<p class=\"note\">The capture holds no copy of this file: "
				     "lines are shown by number.</p>");
		sb_adds(out, "<table class=\"src\">\n");
		const jv *ls = jv_get(f, "lines");
		for (size_t k = 0; k < jv_len(ls); k++) {
			const jv *l = jv_at(ls, k);
			if (jv_get(l, "gap"))
				sb_addf(out,
					"<tr class=\"gap\"><td colspan=\"5\">&#8942; %lld line%s "
					"without cost</td></tr>\n",
					(long long)jv_i64(jv_get(l, "gap")),
					jv_i64(jv_get(l, "gap")) == 1 ? "" : "s");
			else
				line_row(out, i, l, maxp);
		}
		sb_adds(out, "</table></div>\n");
	}
	sb_adds(out, "</section>\n");
}
