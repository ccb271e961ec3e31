/* The REPORT.md writer (report_md.h). One function per section. */
#include "out/report_md.h"

#include "core/diagnose/report.h"

#include "base/version.h"
#include "base/json/json_write.h"

#include <stdio.h>
#include <string.h>

static const char *s_or(const jv *v, const char *dflt)
{
	const char *s = jv_string(v);
	return s && *s ? s : dflt;
}

/* A table cell: pipes escaped, newlines flattened. */
static void cell(strbuf *o, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			sb_adds(o, "\\|");
		else if (*s == '\n')
			sb_addc(o, ' ');
		else
			sb_addc(o, *s);
	}
}

static void num(strbuf *o, const jv *v, int digits)
{
	if (!jv_is_num(v)) {
		sb_adds(o, "n/a");
		return;
	}
	int64_t i;
	if (jv_int_ok(v, &i))
		sb_addf(o, "%lld", (long long)i);
	else
		sb_addf(o, "%.*f", digits, jv_num(v));
}

static void section_title(strbuf *o, const jv *r)
{
	const jv *d = jv_get(r, "dispatch");
	sb_addf(o, "# %s on %s: flyprof report\n\n", s_or(jv_get(r, "kernel"), "kernel"),
		s_or(jv_get(r, "arch"), "unknown arch"));
	sb_addf(o, "_flyprof %s; dispatch %s (%s, tag %s) from a %s input; selection: %s_\n\n",
		FLYPROF_VERSION, s_or(jv_get(d, "id"), "?"), s_or(jv_get(d, "dir"), "?"),
		s_or(jv_get(d, "tag"), "-"), s_or(jv_get(r, "bundle_kind"), "?"),
		s_or(jv_get(d, "selection"), "n/a"));
}

static void section_headline(strbuf *o, const jv *r)
{
	sb_adds(o, "## 1. Headline\n\n");
	sb_addf(o, "**%s**\n\n", s_or(jv_get(r, "headline"), ""));
	const jv *miss = jv_get(r, "missing");
	for (size_t i = 0; i < jv_len(miss); i++)
		sb_addf(o, "%s %s\n",
			i ? "-"
			  : "Missing inputs (the report is built without "
			    "them):\n\n-",
			s_or(jv_at(miss, i), "?"));
	if (jv_len(miss))
		sb_addc(o, '\n');
}

static void section_workload(strbuf *o, const jv *r)
{
	const jv *t = jv_get(r, "totals");
	report_words w;
	report_words_of(r, &w);
	sb_adds(o, "## 2. Workload and tile\n\n");
	if (w.samples)
		sb_adds(o, "| warps launched | static instructions | executed instructions | hits "
			   "(warp-level) | warp-state samples | stall samples | idle (n/a) |\n"
			   "|---|---|---|---|---|---|---|\n| ");
	else
		sb_adds(o, "| traced waves | static instructions | executed instructions | hits | "
			   "latency cycles | stall cycles | idle cycles |\n"
			   "|---|---|---|---|---|---|---|\n| ");
	static const char *const k[] = {
	    "waves", "instructions", "executed_instructions", "hits", "latency", "stall", "idle"};
	for (size_t i = 0; i < 7; i++) {
		num(o, jv_get(t, k[i]), 0);
		sb_adds(o, i < 6 ? " | " : " |\n\n");
	}
	const jv *tile = jv_get(r, "tile");
	const jv *rec = jv_get(tile, "recommended") ? jv_get(tile, "recommended") : tile;
	if (jv_type_of(rec) == JV_OBJECT) {
		sb_adds(o, "Tile (tile.json): ");
		strbuf js = STRBUF_INIT;
		json_write(&js, rec, 0);
		sb_addf(o, "`%s`\n\n", sb_str(&js));
		sb_release(&js);
	} else
		sb_adds(o,
			"No tile.json in this bundle: run `flyprof tile --shape M,N,K --dtype D` "
			"for the tile advisor's figures.\n\n");
}

static void occupancy_md(strbuf *o, const jv *occ)
{
	const jv *th = jv_get(occ, "theoretical");
	const jv *ob = jv_get(occ, "observed");
	sb_adds(o,
		"| occupancy | waves per SIMD | waves per CU | limited by |\n|---|---|---|---|\n");
	sb_adds(o, "| theoretical (min over limits) | ");
	num(o, jv_get(th, "waves_per_simd"), 0);
	sb_adds(o, " | ");
	num(o, jv_get(th, "waves_per_cu"), 0);
	sb_addf(o, " | %s |\n", s_or(jv_get(th, "limiter"), "n/a"));
	sb_adds(o, "| observed peak (occupancy.json) | ");
	num(o, jv_get(jv_get(ob, "per_simd"), "peak"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(jv_get(ob, "per_cu"), "peak"), 2);
	sb_adds(o, " | |\n| observed time-weighted mean | ");
	num(o, jv_get(jv_get(ob, "per_simd"), "mean"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(jv_get(ob, "per_cu"), "mean"), 2);
	sb_adds(o, " | |\n\n");
	const jv *lims = jv_get(th, "limits");
	for (size_t i = 0; i < jv_len(lims); i++) {
		const jv *l = jv_at(lims, i);
		sb_addf(o, "%s `%s`: %s\n",
			i ? "-" : "Limits (workgroups per CU each allows):\n\n-",
			s_or(jv_get(l, "name"), "?"), s_or(jv_get(l, "detail"), ""));
	}
	if (jv_len(lims))
		sb_addc(o, '\n');
	sb_addf(o, "%s\n\n", s_or(jv_get(occ, "note"), ""));
}

/* NVIDIA: warps per SM, as the details export's Occupancy section gives them; the flyprof
 * model (soc.json) is the cross-check. Every % names its denominator. */
static void occupancy_md_nvidia(strbuf *o, const jv *occ)
{
	const jv *nt = jv_get(occ, "details_export");
	const jv *ob = jv_get(occ, "observed");
	const jv *md = jv_get(occ, "theoretical");
	const jv *max = jv_get(md, "max_waves_per_cu");
	sb_adds(o, "| occupancy (Nsight Compute details export) | warps per SM | % of the SM's "
		   "maximum warps");
	if (jv_is_num(max))
		sb_addf(o, " (%g)", jv_num(max));
	sb_adds(o, " | warps per scheduler | limited by |\n|---|---|---|---|---|\n"
		   "| theoretical (Theoretical Active Warps per SM) | ");
	num(o, jv_get(nt, "waves_per_cu"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(nt, "pct_of_max_waves"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(nt, "waves_per_simd"), 2);
	sb_addf(o, " | %s |\n| achieved mean (Achieved Active Warps Per SM) | ",
		s_or(jv_get(nt, "limiter"), "n/a"));
	num(o, jv_get(jv_get(ob, "per_cu"), "mean"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(ob, "achieved_pct_of_max_warps"), 2);
	sb_adds(o, " | ");
	num(o, jv_get(jv_get(ob, "per_simd"), "mean"), 2);
	sb_adds(o, " | |\n\n");
	const jv *bl = jv_get(nt, "block_limits");
	for (size_t i = 0; jv_type_of(bl) == JV_OBJECT && i < jv_len(bl); i++) {
		sb_addf(o, "%s `%s`: ",
			i ? ","
			  : "Block limits (blocks per SM each allows; ncu's Block "
			    "Limit metrics):",
			jv_key_at(bl, i));
		num(o, jv_value_at(bl, i), 0);
	}
	if (jv_type_of(bl) == JV_OBJECT && jv_len(bl))
		sb_adds(o, ".\n\n");
	if (jv_is_num(jv_get(md, "waves_per_cu")))
		sb_addf(o,
			"flyprof's own model (soc.json) from the same resources: %g warps per SM, "
			"limited by `%s`.\n\n",
			jv_num(jv_get(md, "waves_per_cu")), s_or(jv_get(md, "limiter"), "n/a"));
	sb_addf(o, "%s\n\n", s_or(jv_get(occ, "note"), ""));
	sb_adds(o, "More detail: the Occupancy section of the details export (`ncu -i "
		   "<report>.ncu-rep --page details`): the block limits, and the Nsight "
		   "Compute UI's occupancy graphs of warps per SM against registers, shared memory "
		   "and block size.\n\n");
}

static int is_nvidia(const jv *r)
{
	return strcmp(s_or(jv_get(r, "backend"), ""), "nvidia") == 0;
}

static void section_roofline(strbuf *o, const jv *r)
{
	const jv *b = jv_get(r, "bound");
	sb_adds(o, "## 3. Roofline and occupancy\n\n");
	sb_addf(o, "- Bound: **%s** (basis: %s, confidence: %s", s_or(jv_get(b, "bound"), "?"),
		s_or(jv_get(b, "basis"), "?"), s_or(jv_get(b, "confidence"), "?"));
	const jv *cal = jv_get(b, "calibrated");
	if (jv_type_of(cal) == JV_BOOL)
		sb_addf(o, ", HBM figures calibrated: %s", jv_is_true(cal) ? "yes" : "no");
	sb_addf(o, ")\n- Why: %s\n", s_or(jv_get(b, "why"), ""));
	if (is_nvidia(r))
		sb_adds(o, "- Measured throughputs: the details export's GPU Speed Of Light "
			   "Throughput and Memory Workload Analysis sections (`ncu -i "
			   "<report>.ncu-rep --page details`); `flyprof counters` is for AMD "
			   "(rocprofv3) only.\n");
	else if (strcmp(s_or(jv_get(b, "basis"), ""), "counters") != 0)
		sb_adds(o,
			"- Run `flyprof counters` for a counter-based roofline (L2 hit rate, MFMA "
			"share, calibrated HBM traffic).\n");
	sb_addc(o, '\n');
	if (is_nvidia(r))
		occupancy_md_nvidia(o, jv_get(r, "occupancy"));
	else
		occupancy_md(o, jv_get(r, "occupancy"));
}

static void section_taxonomy(strbuf *o, const jv *r)
{
	const jv *t = jv_get(r, "totals");
	const jv *tx = jv_get(r, "stall_taxonomy");
	sb_adds(o, "## 4. Stall taxonomy\n\n");
	double lat = jv_num(jv_get(t, "latency"));
	report_words w;
	report_words_of(r, &w);
	if (w.samples)
		sb_addf(o,
			"Stall samples are %.1f%% of all warp-state samples (%.0f of %.0f Nsight "
			"Compute samples; the rest are samples in which the warp issued). Samples, "
			"not cycles.\n\n",
			lat > 0 ? 100 * jv_num(jv_get(t, "stall")) / lat : 0,
			jv_num(jv_get(t, "stall")), lat);
	else
		sb_addf(o,
			"Stall cycles are %.1f%% of total wave latency (%.0f of %.0f cycles summed "
			"over the traced waves); idle cycles %.1f%% of it.\n\n",
			lat > 0 ? 100 * jv_num(jv_get(t, "stall")) / lat : 0,
			jv_num(jv_get(t, "stall")), lat,
			lat > 0 ? 100 * jv_num(jv_get(t, "idle")) / lat : 0);
	sb_addf(o,
		"| rank | class | normalised class | %s | %% of total stall | %% of %s | bubble "
		"(>= 5%% of stall) |\n|---|---|---|---|---|---|---|\n",
		w.stall, w.samples ? "all samples" : "total latency");
	const jv *cls = jv_get(tx, "classes");
	for (size_t i = 0; i < jv_len(cls); i++) {
		const jv *c = jv_at(cls, i);
		sb_addf(o, "| %zu | %s | %s | ", i + 1, s_or(jv_get(c, "class"), "?"),
			s_or(jv_get(c, "normalized"), ""));
		num(o, jv_get(c, "stall"), 0);
		sb_addf(o, " | %.2f | %.2f | %s |\n", jv_num(jv_get(c, "pct_of_stall")),
			jv_num(jv_get(c, "stall_pct_of_latency")),
			jv_is_true(jv_get(c, "is_bubble")) ? "yes" : "");
	}
	sb_addc(o, '\n');
}

static void producers_md(strbuf *o, const jv *prods, const char *indent)
{
	for (size_t i = 0; i < jv_len(prods) && i < 3; i++) {
		const jv *p = jv_at(prods, i);
		sb_addf(o, "%s- waits on %s `", indent, s_or(jv_get(p, "type"), "?"));
		cell(o, s_or(jv_get(p, "isa"), "?"));
		sb_addf(o, "` at %s (seen by ", s_or(jv_get(p, "source"), "no source line"));
		num(o, jv_get(p, "waves"), 0);
		sb_adds(o, " waves)\n");
	}
}

static int is_true(const jv *v)
{
	return jv_is_true(v);
}

static const char *bucket_mark(const jv *item)
{
	if (is_true(jv_get(item, "entry_bucket")))
		return " (kernel-entry bucket)";
	return is_true(jv_get(item, "library_frame")) ? " (library frame: not the kernel's code)"
						      : "";
}

static void section_evidence(strbuf *o, const jv *r)
{
	sb_adds(o, "## 5. ISA <-> source evidence\n\n");
	const jv *hs = jv_get(r, "evidence_hotspots");
	if (!jv_len(hs)) {
		sb_adds(o, "No hotspots in the trace.\n\n");
		return;
	}
	report_words words;
	report_words_of(r, &words);
	sb_addf(o,
		"| # | source line | ISA | class | %s | %% of total stall |\n"
		"|---|---|---|---|---|---|\n",
		words.stall);
	for (size_t i = 0; i < jv_len(hs); i++) {
		const jv *h = jv_at(hs, i);
		sb_addf(o, "| %zu | %s%s | `", i + 1, s_or(jv_get(h, "source"), "(no source line)"),
			bucket_mark(h));
		cell(o, s_or(jv_get(h, "isa"), "?"));
		sb_addf(o, "` | %s | ", s_or(jv_get(h, "class"), "?"));
		num(o, jv_get(h, "stall"), 0);
		sb_adds(o, " | ");
		num(o, jv_get(h, "pct_of_stall"), 2);
		sb_adds(o, " |\n");
	}
	sb_addc(o, '\n');
	const jv *ws = jv_get(r, "waits");
	for (size_t i = 0; i < jv_len(ws); i++) {
		const jv *w = jv_at(ws, i);
		sb_addf(o, "- `%s` at %s%s stalls ", s_or(jv_get(w, "isa"), "?"),
			s_or(jv_get(w, "source"), "no source line"), bucket_mark(w));
		num(o, jv_get(w, "stall"), 0);
		if (jv_len(jv_get(w, "producers"))) {
			sb_addf(o, " %s:\n", words.unit);
			producers_md(o, jv_get(w, "producers"), "  ");
		} else
			sb_addf(o, " %s (no producer known%s)\n", words.unit,
				words.samples ? ": Nsight Compute does not record it" : "");
	}
	if (jv_len(ws))
		sb_addc(o, '\n');
}

/* An Nsight Compute finding (ncu_findings.h): the metric facts it fired on and the
 * instruction that carries the defect. */
static void rec_facts(strbuf *o, const jv *ev)
{
	const jv *facts = jv_get(ev, "facts");
	sb_adds(o, "- **Evidence (Nsight Compute counters):**");
	for (size_t i = 0; i < jv_len(facts); i++) {
		const jv *f = jv_at(facts, i);
		sb_addf(o, "%s %s = ", i ? ";" : "", s_or(jv_get(f, "metric"), "?"));
		num(o, jv_get(f, "value"), 2);
		sb_addf(o, " (%s)", s_or(jv_get(f, "where"), "?"));
	}
	sb_adds(o, "\n");
	const jv *h = jv_get(ev, "hotspot");
	sb_addf(o, "- **Where:** `");
	cell(o, s_or(jv_get(h, "isa"), "?"));
	sb_addf(o, "` at %s **%s** (%s, ", s_or(jv_get(h, "address"), "?"),
		s_or(jv_get(h, "source"), "no source line"), s_or(jv_get(h, "source_kind"), "?"));
	num(o, jv_get(h, "samples"), 0);
	sb_adds(o, " warp-state samples at the instruction)\n");
}

static void rec_evidence(strbuf *o, const jv *ev, const report_words *w)
{
	if (jv_get(ev, "facts")) {
		rec_facts(o, ev);
		return;
	}
	sb_addf(o, "- **Evidence:** `%s` = ", s_or(jv_get(ev, "signal"), "?"));
	const jv *v = jv_get(ev, "value");
	if (jv_string(v))
		sb_adds(o, jv_string(v));
	else
		num(o, v, 2);
	sb_addf(o, " (fires when %s ", s_or(jv_get(ev, "op"), "?"));
	if (jv_string(jv_get(ev, "threshold")))
		sb_adds(o, jv_string(jv_get(ev, "threshold")));
	else
		num(o, jv_get(ev, "threshold"), 2);
	sb_adds(o, ")");
	const jv *conds = jv_get(ev, "conditions");
	for (size_t i = 0; i < jv_len(conds); i++) {
		const jv *c = jv_at(conds, i);
		sb_addf(o, "; `%s` = ", s_or(jv_get(c, "signal"), "?"));
		if (jv_string(jv_get(c, "value")))
			sb_adds(o, jv_string(jv_get(c, "value")));
		else
			num(o, jv_get(c, "value"), 2);
	}
	sb_adds(o, "\n");
	const jv *h = jv_get(ev, "hotspot");
	if (jv_type_of(h) == JV_OBJECT) {
		sb_addf(o, "- **Hot instruction:** `");
		cell(o, s_or(jv_get(h, "isa"), "?"));
		sb_addf(o, "` at **%s** (code line ", s_or(jv_get(h, "source"), "no source line"));
		num(o, jv_get(h, "code_line"), 0);
		sb_adds(o, "), ");
		num(o, jv_get(h, "stall"), 0);
		sb_addf(o, " %s = %.1f%% of this class's stall\n", w->stall,
			jv_num(jv_get(h, "pct_of_class_stall")));
		if (jv_string(jv_get(h, "source_note")))
			sb_addf(o, "  - %s: %s\n",
				strcmp(s_or(jv_get(h, "source_kind"), ""), "library_frame") == 0
				    ? "library frame"
				    : "kernel-entry bucket",
				jv_string(jv_get(h, "source_note")));
	}
	const jv *a = jv_get(ev, "actionable");
	if (jv_type_of(a) == JV_OBJECT) {
		sb_addf(o, "- **Act on:** **%s** (`", s_or(jv_get(a, "source"), "?"));
		cell(o, s_or(jv_get(a, "isa"), "?"));
		sb_addf(o, "`): %s\n", s_or(jv_get(a, "basis"), ""));
	}
	producers_md(o, jv_get(ev, "waits_on"), "  ");
	const jv *th = jv_get(ev, "theoretical");
	const jv *lims = jv_get(th, "limits");
	for (size_t i = 0; i < jv_len(lims); i++)
		if (strcmp(s_or(jv_get(jv_at(lims, i), "name"), ""),
			   s_or(jv_get(th, "limiter"), "-")) == 0)
			sb_addf(o, "- **Binding limit:** `%s`: %s\n",
				s_or(jv_get(th, "limiter"), "?"),
				s_or(jv_get(jv_at(lims, i), "detail"), ""));
	if (jv_string(jv_get(ev, "none_reason")))
		sb_addf(o, "- **No .py:line evidence because:** %s\n",
			jv_string(jv_get(ev, "none_reason")));
}

static void rec_md(strbuf *o, const jv *r, const report_words *w)
{
	const jv *k = jv_get(r, "knob");
	const jv *g = jv_get(r, "gain");
	sb_addf(o, "### %lld. %s: `%s`\n\n", (long long)jv_i64(jv_get(r, "rank")),
		s_or(jv_get(r, "class"), "?"), s_or(jv_get(r, "rule"), "?"));
	if (jv_string(jv_get(r, "title")))
		sb_addf(o, "%s.\n\n", jv_string(jv_get(r, "title")));
	rec_evidence(o, jv_get(r, "evidence"), w);
	sb_addf(o, "- **Knob:** `%s` (%s): `%s`\n", s_or(jv_get(k, "id"), "?"),
		s_or(jv_get(k, "kind"), "?"), s_or(jv_get(k, "api"), "?"));
	sb_addf(o, "- **Change:** %s\n", s_or(jv_get(r, "change"), ""));
	sb_addf(o, "- **Expected:** %s\n", s_or(jv_get(r, "expected"), ""));
	const char *gk = s_or(jv_get(g, "kind"), "");
	sb_addf(o, "- **Gain (%s):** at most %.1f%% of %s. Basis: %s\n",
		strcmp(gk, "upper_bound") == 0		   ? "upper bound"
		: strcmp(gk, "ncu_estimated_speedup") == 0 ? "Nsight Compute's estimated speedup"
							   : "upper-bound estimate",
		jv_num(jv_get(g, "upper_bound_pct")), s_or(jv_get(g, "denominator"), "?"),
		s_or(jv_get(g, "basis"), ""));
	sb_addf(o, "- **Confidence:** %s", s_or(jv_get(r, "confidence"), "?"));
	if (strcmp(s_or(jv_get(r, "confidence"), ""), s_or(jv_get(r, "rule_confidence"), "")) != 0)
		sb_addf(o, " (rule: %s; %s)", s_or(jv_get(r, "rule_confidence"), "?"),
			s_or(jv_get(r, "confidence_basis"), ""));
	sb_addf(o, "; applies when the bound is: %s\n", s_or(jv_get(r, "gate"), "any"));
	sb_addf(o, "- **Verify:** %s\n\n", s_or(jv_get(r, "verify"), ""));
}

static void section_opportunities(strbuf *o, const jv *r)
{
	sb_adds(o, "## 6. Ranked opportunities\n\n");
	sb_addf(o, "Ranking: %s.\n\n", s_or(jv_get(r, "ranking_rule"), ""));
	sb_addf(o, "Rank 1: %s.\n\n", s_or(jv_get(r, "why_rank_1"), "n/a"));
	const jv *recs = jv_get(r, "recommendations");
	if (!jv_len(recs))
		sb_adds(o, "No rule fired: no bubble class reached a rule's threshold.\n\n");
	report_words w;
	report_words_of(r, &w);
	for (size_t i = 0; i < jv_len(recs); i++)
		rec_md(o, jv_at(recs, i), &w);
	const jv *nf = jv_get(r, "not_fired");
	for (size_t i = 0; i < jv_len(nf); i++) {
		const jv *n = jv_at(nf, i);
		const char *st = s_or(jv_get(n, "status"), "");
		int gated = strcmp(st, "gated") == 0;
		sb_addf(o, "%s `%s` (%s): ", i ? "-" : "Rules not applied:\n\n-",
			s_or(jv_get(n, "rule"), "?"), s_or(jv_get(n, "class"), "?"));
		if (strcmp(st, "not_applicable") == 0) {
			const jv *held = jv_get(n, "signal_held");
			sb_addf(o, "not for this kind of kernel (knob `%s`): %s%s\n",
				s_or(jv_get(n, "knob"), "?"), s_or(jv_get(n, "reason"), "?"),
				jv_is_true(held) ? " (its signal held)" : "");
		} else if (gated)
			sb_addf(o, "gated out: the bound is %s, the rule applies to %s\n",
				s_or(jv_get(n, "bound"), "?"), s_or(jv_get(n, "gate"), "?"));
		else
			sb_addf(o, "signal `%s` unavailable\n", s_or(jv_get(n, "missing"), "?"));
	}
	if (jv_len(nf))
		sb_addc(o, '\n');
	const jv *nr = jv_get(r, "ncu_rules");
	if (jv_len(nr))
		sb_adds(
		    o,
		    "Nsight Compute's own rule results with an estimated speedup of 5% or more:\n\n"
		    "| rule | section | estimated speedup % | flyprof |\n|---|---|---|---|\n");
	for (size_t i = 0; i < jv_len(nr); i++) {
		const jv *x = jv_at(nr, i);
		sb_addf(o, "| %s | %s | ", s_or(jv_get(x, "rule"), "?"),
			s_or(jv_get(x, "section"), ""));
		num(o, jv_get(x, "estimated_speedup_pct"), 2);
		if (jv_string(jv_get(x, "finding")))
			sb_addf(o, " | finding `%s` |\n", jv_string(jv_get(x, "finding")));
		else
			sb_addf(o, " | %s |\n", s_or(jv_get(x, "status"), ""));
	}
	if (jv_len(nr))
		sb_addc(o, '\n');
}

static void section_verify(strbuf *o, const jv *r)
{
	const jv *recs = jv_get(r, "recommendations");
	sb_adds(o, "## 7. Verification plan\n\n");
	for (size_t i = 0; i < jv_len(recs) && i < 3; i++)
		sb_addf(o, "%zu. After `%s`: %s\n", i + 1,
			s_or(jv_get(jv_at(recs, i), "rule"), "?"),
			s_or(jv_get(jv_at(recs, i), "verify"), ""));
	sb_adds(o,
		"\nThen re-capture into a new bundle and compare: `flyprof diff --before "
		"<this bundle> --after <new bundle> --gate 2` (exit 1 with REGRESSION when the "
		"rank-1 bubble or the total stall grew by more than 2 points beyond noise).\n\n");
}

static void section_counters(strbuf *o, const jv *r)
{
	sb_adds(o, "## 8. Raw counters\n\n");
	const jv *c = jv_get(r, "counters");
	if (jv_type_of(c) == JV_NULL && is_nvidia(r))
		sb_adds(o, "(none in this report: on NVIDIA the measured metrics are the details "
			   "export's sections, `ncu -i <report>.ncu-rep --page details`)\n\n");
	else if (jv_type_of(c) == JV_NULL)
		sb_adds(o, "(none: counters.json is absent; `flyprof counters` produces it)\n\n");
	else {
		strbuf js = STRBUF_INIT;
		json_write(&js, c, 2);
		sb_addf(o, "```json\n%s\n```\n\n", sb_str(&js));
		sb_release(&js);
	}
	const jv *v = jv_get(r, "variation");
	if (jv_type_of(v) != JV_NULL) {
		sb_adds(o, "Run-to-run variation between dispatches of this capture: max spread ");
		num(o, jv_get(v, "max_spread_pp"), 2);
		sb_adds(o, " points of total stall (the noise floor `diff` uses).\n\n");
	}
}

static void section_repro(strbuf *o, const jv *r)
{
	sb_adds(o, "## 9. Repro\n\n```sh\n");
	sb_addf(o, "%s\n```\n", s_or(jv_get(r, "repro"), "flyprof report --bundle <dir>"));
}

void report_md_write(strbuf *out, const jv *report)
{
	section_title(out, report);
	section_headline(out, report);
	section_workload(out, report);
	section_roofline(out, report);
	section_taxonomy(out, report);
	section_evidence(out, report);
	section_opportunities(out, report);
	section_verify(out, report);
	section_counters(out, report);
	section_repro(out, report);
}
