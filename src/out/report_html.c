/* The REPORT.html page around the annotated source: summary, findings, class mix, flame
 * graph, timeline, occupancy, roofline (report_html.h lists the sections). */
#include "out/report_html.h"

#include "out/html.h"
#include "out/source_view.h"

#include <stdio.h>
#include <string.h>

static const char css[] =
    ":root{--fg:#1b1f24;--mut:#5b6470;--ln:#e3e6ea}*{box-sizing:border-box}"
    "body{margin:0;font:13px/1.4 system-ui,'Segoe UI',Helvetica,Arial,sans-serif;color:var(--fg);"
    "background:#f4f5f7}"
    "header{padding:8px 16px;background:#fff;border-bottom:1px solid var(--ln)}"
    "h1{font-size:17px;margin:0}h1 small{font-weight:normal;color:var(--mut);font-size:12px}"
    "h2{font-size:14px;margin:0 0 6px}h3{font-size:12px;margin:6px 0;font-weight:600}"
    ".headline{margin:3px 0}.bound b{padding:0 6px;border-radius:3px;background:#fde2e1}"
    "nav{font-size:12px}nav a{margin-right:12px;color:#2e6fd8}"
    ".top{display:grid;grid-template-columns:minmax(0,1fr) 360px;gap:10px;padding:10px 16px;"
    "height:max(420px,calc(100vh - 150px))}"
    ".panel,section{background:#fff;border:1px solid var(--ln);border-radius:6px;padding:8px}"
    "#findings{overflow:auto}section{margin:10px 16px}"
    "#source{overflow:auto;height:100%;margin:0;border:0;border-radius:6px}"
    "table{border-collapse:collapse}"
    "table.src{width:100%;font:12px/1.35 ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,"
    "monospace}"
    "table.src td{padding:0 5px;vertical-align:top;border-bottom:1px solid #f1f2f4}"
    "td.heat{width:64px;min-width:64px}td.heat "
    "i{display:block;height:9px;margin-top:4px;border-radius:2px}"
    "td.num{text-align:right;white-space:nowrap;min-width:48px}"
    "td.ln{color:var(--mut);text-align:right;width:36px}td.ln a{color:inherit;"
    "text-decoration:none}"
    "td.code{max-width:0;width:55%}td.code pre{margin:0;white-space:pre;overflow:hidden;"
    "text-overflow:ellipsis}pre.notext{color:#aab}"
    "td.isa{font-size:11px;color:var(--mut);width:45%;max-width:0}"
    "td.isa>code{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    "td.isa details[open]{white-space:normal}"
    "tr.costed{background:#fffaf2}tr.hottest{background:#ffe4e0}tr:target{background:#fff1a8}"
    "tr.gap td{color:#99a;text-align:center;font-size:11px;background:#fafbfc}"
    ".cls{font-weight:600}.tag{font-size:10px;border:1px solid #99a;border-radius:3px;"
    "padding:0 3px}"
    "details summary{cursor:pointer;color:#2e6fd8}"
    "table.isarows td,table.isarows th{padding:1px 5px;font-size:11px;text-align:left;"
    "border-bottom:1px solid #eee;vertical-align:top}"
    "i.dot{display:inline-block;width:8px;height:8px;border-radius:50%;margin-right:4px}"
    "ol.findings{margin:0;padding-left:0;list-style:none}"
    "ol.findings li{border-bottom:1px solid var(--ln);padding:6px 0}"
    ".rank{display:inline-block;min-width:20px;text-align:center;background:#1b1f24;color:#fff;"
    "border-radius:3px;margin-right:4px}"
    ".gain{color:#b03a2e;font-weight:600}.conf{color:var(--mut)}"
    ".finding p{margin:3px 0}.note{color:var(--mut)}"
    ".bar{display:flex;height:18px;border-radius:3px;overflow:hidden;margin:4px 0}"
    ".bar span{display:block;height:100%}"
    "table.grid td,table.grid th{padding:2px 8px;text-align:left;border-bottom:1px solid #eee}"
    "svg{max-width:100%;height:auto}"
    "footer{margin:10px 16px 20px;color:var(--mut);font-size:12px}";

/* On load, the source panel scrolls so the hottest line sits in its upper third (a link to a
 * line, #L..., wins). */
static const char script[] = "(function(){var s=document.getElementById('source'),"
			     "h=document.querySelector('#source tr.hottest');"
			     "if(s&&h&&!location.hash){s.scrollTop+=h.getBoundingClientRect().top-"
			     "s.getBoundingClientRect().top-s.clientHeight/3;}})();";

static const char *str(const jv *o, const char *k)
{
	const char *s = jv_string(jv_get(o, k));
	return s ? s : "";
}

static void summary(strbuf *out, const jv *rep)
{
	const jv *d = jv_get(rep, "dispatch"), *b = jv_get(rep, "bound");
	html_text(out, "<header id=\"summary\"><h1>", str(rep, "kernel"), " <small>");
	html_esc(out, str(rep, "arch"));
	sb_adds(out, " &middot; ");
	html_esc(out, str(rep, "backend"));
	if (*str(d, "id")) {
		sb_adds(out, " &middot; dispatch ");
		html_esc(out, str(d, "id"));
	}
	const char *kind = str(jv_get(rep, "kernel_traits"), "kind");
	if (*kind)
		html_text(out, " &middot; ", kind, " kernel");
	html_text(out, "</small></h1><p class=\"headline\">", str(rep, "headline"), "</p>");
	if (*str(b, "bound")) {
		html_text(out, "<p class=\"bound\"><b>", str(b, "bound"), "-bound</b> ");
		html_esc(out, str(b, "basis"));
		html_text(out, ", ", str(b, "confidence"), " confidence: ");
		html_esc(out, str(b, "why"));
		sb_adds(out, "</p>");
	}
	sb_adds(out, "<nav><a href=\"#source\">source</a><a href=\"#findings\">findings</a>"
		     "<a href=\"#classes\">class mix</a><a href=\"#flame\">flame graph</a>"
		     "<a href=\"#timeline\">timeline</a><a href=\"#occupancy\">occupancy</a>"
		     "<a href=\"#roofline\">roofline</a></nav></header>\n");
}

static const char *rec_source(const jv *r)
{
	const jv *ev = jv_get(r, "evidence");
	const char *s = jv_string(jv_get(ev, "actionable_source"));
	if (!s)
		s = jv_string(jv_get(jv_get(ev, "hotspot"), "source"));
	return s;
}

static void findings(strbuf *out, const jv *rep, const jv *view)
{
	const jv *recs = jv_get(rep, "recommendations");
	sb_adds(out, "<aside id=\"findings\" class=\"panel\"><h2>Findings</h2>");
	if (!jv_len(recs))
		sb_adds(out, "<p class=\"note\">No rule fired on this trace.</p>");
	sb_adds(out, "<ol class=\"findings\">");
	for (size_t i = 0; i < jv_len(recs); i++) {
		const jv *r = jv_at(recs, i), *k = jv_get(r, "knob");
		sb_addf(
		    out,
		    "<li class=\"finding\" id=\"R%lld\"><div><span class=\"rank\">%lld</span><b>",
		    (long long)jv_i64(jv_get(r, "rank")), (long long)jv_i64(jv_get(r, "rank")));
		html_esc(out, jv_type_of(k) == JV_OBJECT ? str(k, "id") : str(r, "knob"));
		sb_addf(out, "</b> <span class=\"cls\" style=\"color:%s\">",
			html_class_color(str(r, "class")));
		html_esc(out, str(r, "class"));
		sb_adds(out, "</span>");
		const jv *g = jv_get(jv_get(r, "gain"), "upper_bound_pct");
		if (jv_is_num(g))
			sb_addf(out,
				" <span class=\"gain\" title=\"upper bound\">&le;%.1f%%</span>",
				jv_num(g));
		html_text(out, " <span class=\"conf\">", str(r, "confidence"),
			  " confidence</span></div><p>");
		html_esc(out, str(r, "change"));
		sb_adds(out, "</p>");
		const char *src = rec_source(r);
		char anchor[64];
		source_view_anchor(view, src, anchor, sizeof anchor);
		if (src) {
			const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
			sb_adds(out, "<p>at ");
			if (*anchor)
				sb_addf(out, "<a class=\"to-line\" href=\"#%s\">", anchor);
			html_esc(out, base);
			sb_adds(out, *anchor ? "</a>" : "");
			const char *isa = str(jv_get(jv_get(r, "evidence"), "hotspot"), "isa");
			if (*isa)
				html_text(out, " <code>", isa, "</code>");
			sb_adds(out, "</p>");
		}
		if (k && *str(k, "api"))
			html_text(out, "<p class=\"note\">api: <code>", str(k, "api"),
				  "</code></p>");
		if (*str(r, "verify"))
			html_text(out, "<p class=\"note\">verify: ", str(r, "verify"), "</p>");
		sb_adds(out, "</li>");
	}
	sb_adds(out, "</ol></aside>\n");
}

static void stacked_bar(strbuf *out, const jv *items, const char *name_key, const char *pct_key)
{
	sb_adds(out, "<div class=\"bar\">");
	for (size_t i = 0; i < jv_len(items); i++) {
		const jv *c = jv_at(items, i);
		double p = jv_num(jv_get(c, pct_key));
		if (p <= 0)
			continue;
		sb_addf(out, "<span style=\"width:%.2f%%;background:%s\" title=\"", p,
			html_class_color(str(c, name_key)));
		html_esc(out, str(c, name_key));
		sb_addf(out, " %.1f%%\"></span>", p);
	}
	sb_adds(out, "</div>");
}

static void classes(strbuf *out, const jv *rep)
{
	const jv *st = jv_get(rep, "stall_taxonomy"), *cl = jv_get(st, "classes");
	sb_adds(out, "<section id=\"classes\"><h2>Stall class mix</h2>");
	stacked_bar(out, cl, "class", "pct_of_stall");
	sb_adds(out, "<table class=\"grid\"><tr><th>class</th><th>group</th><th>% of stall</th>"
		     "<th>% of total</th><th>hits</th><th>bubble</th></tr>");
	for (size_t i = 0; i < jv_len(cl); i++) {
		const jv *c = jv_at(cl, i);
		sb_addf(out, "<tr><td><i class=\"dot\" style=\"background:%s\"></i>",
			html_class_color(str(c, "class")));
		html_esc(out, str(c, "class"));
		sb_adds(out, "</td><td>");
		html_esc(out, str(c, "normalized"));
		sb_addf(out, "</td><td>%.2f</td><td>%.2f</td><td>%lld</td><td>%s</td></tr>",
			jv_num(jv_get(c, "pct_of_stall")),
			jv_num(jv_get(c, "stall_pct_of_latency")),
			(long long)jv_i64(jv_get(c, "hits")),
			jv_is_true(jv_get(c, "is_bubble")) ? "yes" : "");
	}
	html_text(out, "</table><p class=\"note\">", str(st, "denominator"), "</p></section>\n");
}

static void figure(strbuf *out, const char *id, const char *title, const char *svg,
		   const char *note)
{
	sb_addf(out, "<section id=\"%s\"><h2>%s</h2>", id, title);
	if (svg)
		sb_adds(out, svg);
	if (note)
		html_text(out, "<p class=\"note\">", note, "</p>");
}

static void wave_states(strbuf *out, const jv *rep)
{
	const jv *ws = jv_get(rep, "wave_states");
	if (!jv_is_num(jv_get(ws, "exec_pct")))
		return;
	static const char *const keys[] = {"exec_pct", "wait_pct", "stall_pct", "idle_pct"};
	static const char *const names[] = {"exec", "wait", "stall", "idle"};
	static const char *const colors[] = {"#52be80", "#f4d03f", "#d9534f", "#bdc3c7"};
	sb_adds(out, "<h3>Wave states (share of every traced wave's time)</h3><div class=\"bar\">");
	for (size_t i = 0; i < 4; i++)
		sb_addf(
		    out, "<span style=\"width:%.2f%%;background:%s\" title=\"%s %.1f%%\"></span>",
		    jv_num(jv_get(ws, keys[i])), colors[i], names[i], jv_num(jv_get(ws, keys[i])));
	sb_adds(out, "</div><p>");
	for (size_t i = 0; i < 4; i++)
		sb_addf(out, "<i class=\"dot\" style=\"background:%s\"></i>%s %.1f%% &nbsp; ",
			colors[i], names[i], jv_num(jv_get(ws, keys[i])));
	sb_adds(out, "</p>");
}

static void timeline(strbuf *out, const jv *rep, const report_html_in *in)
{
	int nvidia = strcmp(str(rep, "backend"), "nvidia") == 0;
	figure(out, "timeline", nvidia ? "Warp states" : "Wave timeline", in->timeline_svg,
	       in->timeline_note);
	if (nvidia) {
		const jv *cl = jv_get(jv_get(rep, "stall_taxonomy"), "classes");
		sb_adds(out, "<h3>Warp-state samples by stall reason</h3>");
		stacked_bar(out, cl, "class", "stall_pct_of_latency");
	} else {
		wave_states(out, rep);
	}
	sb_adds(out, "</section>\n");
}

static void occ_bar(strbuf *out, const char *label, double v, double max, const char *color)
{
	double w = max > 0 ? 100.0 * v / max : 0;
	sb_addf(out,
		"<tr><td>%s</td><td style=\"width:60%%\"><div class=\"bar\"><span "
		"style=\"width:%.1f%%;background:%s\"></span></div></td><td>%.2f</td></tr>",
		label, w > 100 ? 100 : w, color, v);
}

static void occupancy(strbuf *out, const jv *rep)
{
	const jv *o = jv_get(rep, "occupancy"), *th = jv_get(o, "theoretical");
	const jv *ob = jv_get(o, "observed");
	int nvidia = strcmp(str(rep, "backend"), "nvidia") == 0;
	const char *unit = nvidia ? "warps per scheduler" : "waves per SIMD";
	double max = jv_num(jv_get(th, "max_waves_per_simd"));
	sb_addf(out, "<section id=\"occupancy\"><h2>Occupancy (%s)</h2><table class=\"grid\">",
		unit);
	double t = jv_num(jv_get(th, "waves_per_simd"));
	double m = jv_num(jv_get(jv_get(ob, "per_simd"), "mean"));
	if (max <= 0)
		max = t > m ? t : m;
	if (max > 0)
		occ_bar(out, "hardware maximum", max, max, "#d5d8dc");
	if (jv_is_num(jv_get(th, "waves_per_simd")))
		occ_bar(out, "theoretical", t, max, "#5dade2");
	if (jv_is_num(jv_get(jv_get(ob, "per_simd"), "mean")))
		occ_bar(out, "observed (mean)", m, max, "#2e86c1");
	sb_adds(out, "</table>");
	if (*str(th, "limiter"))
		html_text(out, "<p>limited by <b>", str(th, "limiter"), "</b></p>");
	if (jv_type_of(th) != JV_OBJECT)
		sb_adds(out,
			"<p class=\"note\">No theoretical occupancy: the kernel's resources or "
			"architecture are unknown (see the missing inputs below).</p>");
	const char *notes[] = {str(o, "note"), str(o, "disagreement")};
	for (size_t i = 0; i < 2; i++)
		if (*notes[i])
			html_text(out, "<p class=\"note\">", notes[i], "</p>");
	sb_adds(out, "</section>\n");
}

static void footer(strbuf *out, const jv *rep, const report_html_in *in)
{
	sb_adds(out, "<footer>");
	const jv *miss = jv_get(rep, "missing");
	if (jv_len(miss)) {
		sb_adds(out, "<p>Inputs not used:</p><ul>");
		for (size_t i = 0; i < jv_len(miss); i++)
			html_text(out, "<li>", jv_string(jv_at(miss, i)), "</li>");
		sb_adds(out, "</ul>");
	}
	html_text(out, "<p>Reproduce: <code>", str(rep, "repro"),
		  "</code></p><p>Written by flyprof ");
	html_esc(out, in->version);
	sb_adds(out, "; report.json holds every figure on this page.</p></footer>");
}

void report_html_write(strbuf *out, const report_html_in *in)
{
	const jv *rep = in->report;
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		     "<meta name=\"viewport\" content=\"width=device-width\"><title>flyprof: ");
	html_esc(out, str(rep, "kernel"));
	sb_addf(out, "</title><style>%s</style></head><body>\n", css);
	summary(out, rep);
	sb_adds(out, "<div class=\"top\"><div id=\"source-panel\" class=\"panel\" "
		     "style=\"overflow:hidden;padding:0\">");
	report_html_source(out, in->source);
	sb_adds(out, "</div>");
	findings(out, rep, in->source);
	sb_adds(out, "</div>\n");
	classes(out, rep);
	figure(out, "flame", "Flame graph (stall by source line and class)", in->flame_svg,
	       in->flame_note);
	sb_adds(out, "</section>\n");
	timeline(out, rep, in);
	occupancy(out, rep);
	figure(out, "roofline", "Roofline", in->roofline_svg, in->roofline_note);
	sb_adds(out, "</section>\n");
	footer(out, rep, in);
	sb_addf(out, "<script>%s</script></body></html>\n", script);
}
