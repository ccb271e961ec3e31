/* Terminal views of the trace commands: bubbles (where the stall goes) and map (which source
 * lines carry it). */
#include "out/table_views.h"

#include <stdio.h>
#include <string.h>

static const char *str(const jv *o, const char *k)
{
	const char *s = jv_string(jv_get(o, k));
	return s ? s : "-";
}

/* "softmax_kernel_0 on gfx950, dispatch 13 (the only non-empty dispatch of 1), 2056 waves" */
static void dispatch_line(tf *t, const jv *data)
{
	const jv *d = jv_get(data, "dispatch");
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, str(d, "kernel"));
	if (jv_string(jv_get(d, "arch")))
		sb_addf(&sb, " on %s", str(d, "arch"));
	if (jv_string(jv_get(d, "id")) && *str(d, "id"))
		sb_addf(&sb, ", dispatch %s", str(d, "id"));
	if (jv_string(jv_get(d, "selection")))
		sb_addf(&sb, " (%s)", str(d, "selection"));
	const jv *waves = jv_get(jv_get(data, "totals"), "waves");
	const char *unit = jv_string(jv_get(data, "unit"));
	if (jv_is_num(waves))
		sb_addf(&sb, ", %lld %s", (long long)jv_i64(waves),
			unit && !strcmp(unit, "samples") ? "warps" : "waves");
	tf_para(t, 2, "kernel:", sb_str(&sb));
	sb_release(&sb);
}

static const jv *largest_bubble(const jv *classes)
{
	const jv *best = NULL;
	for (size_t i = 0; i < jv_len(classes); i++) {
		const jv *c = jv_at(classes, i);
		if (!best ||
		    jv_num(jv_get(c, "pct_of_stall")) > jv_num(jv_get(best, "pct_of_stall")))
			best = c;
	}
	return best;
}

static int in_samples(const jv *data)
{
	const char *u = jv_string(jv_get(data, "unit"));
	return u && strcmp(u, "samples") == 0;
}

static void classes_table(tf *t, const jv *classes, int samples)
{
	tf_title(t, "stall classes (%% of stall %s)", samples ? "samples" : "cycles");
	tf_table tb;
	tf_table_init(&tb, 5, 1);
	tf_table_cols(&tb, (const tf_col[]){{"class", TF_LEFT},
					    {"stall", TF_RIGHT},
					    {"latency", TF_RIGHT},
					    {samples ? "samples" : "cycles", TF_RIGHT},
					    {"hits", TF_RIGHT},
					    {"hottest at", TF_LEFT},
					    {NULL, 0}});
	size_t shown = 0, rest = 0;
	double rest_pct = 0;
	for (size_t i = 0; i < jv_len(classes); i++) {
		const jv *c = jv_at(classes, i);
		if (shown == TV_ROWS || jv_num(jv_get(c, "pct_of_stall")) < 1) {
			rest++, rest_pct += jv_num(jv_get(c, "pct_of_stall"));
			continue;
		}
		char a[32], b[32], d[32], e[32];
		const char *row[] = {
		    str(c, "class"),
		    tf_pct(a, jv_get(c, "pct_of_stall")),
		    tf_pct(b, jv_get(c, "pct_of_latency")),
		    tf_count(d, jv_get(c, "stall")),
		    tf_count(e, jv_get(c, "hits")),
		    tf_base(jv_string(jv_get(jv_at(jv_get(c, "top"), 0), "source")))};
		tf_table_row(&tb, row);
		shown++;
	}
	tf_table_emit(t, &tb, 2);
	if (rest) {
		char line[96];
		snprintf(line, sizeof line, "(%zu smaller classes: %.1f%% of stall together)", rest,
			 rest_pct);
		tf_para(t, 2, NULL, line);
	}
}

static void hotspots_table(tf *t, const jv *hot, const char *what)
{
	if (!jv_len(hot))
		return;
	tf_title(t, "%s", what);
	tf_table tb;
	tf_table_init(&tb, 4, 0);
	tf_table_cols(&tb, (const tf_col[]){{"#", TF_RIGHT},
					    {"stall", TF_RIGHT},
					    {"class", TF_LEFT},
					    {"source", TF_LEFT},
					    {"isa", TF_LEFT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(hot) && i < TV_ROWS; i++) {
		const jv *h = jv_at(hot, i);
		char a[32], b[32];
		const char *row[] = {tf_count(a, jv_get(h, "rank")),
				     tf_pct(b, jv_get(h, "pct_of_stall")), str(h, "class"),
				     tf_base(jv_string(jv_get(h, "source"))), str(h, "isa")};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}

static void waits_table(tf *t, const jv *waits)
{
	if (!jv_len(waits))
		return;
	tf_title(t, "waits and what they wait for");
	tf_table tb;
	tf_table_init(&tb, 4, 0);
	tf_table_cols(&tb, (const tf_col[]){{"stall", TF_RIGHT},
					    {"isa", TF_LEFT},
					    {"source", TF_LEFT},
					    {"producers", TF_RIGHT},
					    {"first producer", TF_LEFT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(waits) && i < TV_ROWS / 2; i++) {
		const jv *w = jv_at(waits, i), *p = jv_get(w, "producers");
		char a[32], b[32], c[128];
		const jv *p0 = jv_at(p, 0);
		snprintf(b, sizeof b, jv_len(p) ? "%zu" : "-", jv_len(p));
		snprintf(c, sizeof c, "%s %s", tf_base(jv_string(jv_get(p0, "source"))),
			 p0 ? str(p0, "isa") : "");
		const char *row[] = {tf_pct(a, jv_get(w, "pct_of_stall")), str(w, "isa"),
				     tf_base(jv_string(jv_get(w, "source"))), b, p0 ? c : "-"};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}

static void occupancy_lines(tf *t, const jv *data)
{
	const jv *ob = jv_get(jv_get(data, "occupancy"), "observed");
	const jv *ps = jv_get(ob, "per_simd");
	char line[256];
	if (jv_is_num(jv_get(ps, "mean"))) {
		int n = snprintf(line, sizeof line, "mean %.1f", jv_num(jv_get(ps, "mean")));
		if (jv_is_num(jv_get(ps, "peak")))
			n += snprintf(line + n, sizeof line - (size_t)n, ", peak %lld",
				      (long long)jv_i64(jv_get(ps, "peak")));
		snprintf(line + n, sizeof line - (size_t)n, " resident %s (observed)",
			 in_samples(data) ? "warps per scheduler" : "waves per SIMD");
		tf_para(t, 2, "occupancy:", line);
	}
	const jv *ws = jv_get(data, "wave_states");
	if (jv_is_num(jv_get(ws, "exec_pct"))) {
		snprintf(line, sizeof line,
			 "exec %.1f%%, wait %.1f%%, stall %.1f%%, idle %.1f%% of wave time",
			 jv_num(jv_get(ws, "exec_pct")), jv_num(jv_get(ws, "wait_pct")),
			 jv_num(jv_get(ws, "stall_pct")), jv_num(jv_get(ws, "idle_pct")));
		tf_para(t, 2, "wave states:", line);
	}
}

void tv_bubbles(tf *t, const jv *data)
{
	const jv *classes = jv_get(data, "classes");
	const jv *top = largest_bubble(classes);
	const jv *tot = jv_get(data, "totals");
	strbuf sb = STRBUF_INIT;
	int samples = in_samples(data);
	if (jv_is_num(jv_get(tot, "stall_pct_of_latency")))
		sb_addf(&sb, "stall is %.1f%% of %s; ", jv_num(jv_get(tot, "stall_pct_of_latency")),
			samples ? "warp-state samples" : "wave latency");
	if (top) {
		sb_addf(&sb, "largest bubble %s = %.1f%% of stall", str(top, "class"),
			jv_num(jv_get(top, "pct_of_stall")));
		const jv *h = jv_at(jv_get(top, "top"), 0);
		if (h)
			sb_addf(&sb, ", hottest at %s (%s)",
				tf_base(jv_string(jv_get(h, "source"))), str(h, "isa"));
	} else {
		sb_adds(&sb, "no stall classes");
	}
	tf_para(t, 0, "bubbles:", sb_str(&sb));
	sb_release(&sb);
	dispatch_line(t, data);
	tf_para(t, 2, "next:", "`flyprof report` turns these bubbles into the change to make");
	if (jv_len(classes))
		classes_table(t, classes, samples);
	hotspots_table(t, jv_get(data, "hotspots"),
		       samples ? "hot instructions (% of stall samples)"
			       : "hot instructions (% of stall cycles)");
	waits_table(t, jv_get(data, "waits"));
	tf_para(t, 2, "note:", jv_string(jv_get(data, "waits_note")));
	sb_addc(t->out, '\n');
	occupancy_lines(t, data);
	tf_para(t, 2, "artifact:", jv_string(jv_get(data, "artifact")));
	tf_para(t, 2, "timeline:", jv_string(jv_get(jv_get(data, "timeline"), "path")));
}

static void lines_table(tf *t, const jv *lines)
{
	tf_title(t, "source lines (%% of stall)");
	tf_table tb;
	tf_table_init(&tb, 0, 1);
	tf_table_cols(&tb, (const tf_col[]){{"line", TF_LEFT},
					    {"stall", TF_RIGHT},
					    {"latency", TF_RIGHT},
					    {"instructions", TF_RIGHT},
					    {"note", TF_LEFT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(lines) && i < TV_ROWS; i++) {
		const jv *l = jv_at(lines, i);
		char a[32], b[32], c[32];
		const jv *eb = jv_get(l, "entry_bucket");
		const char *row[] = {
		    tf_base(jv_string(jv_get(l, "source"))), tf_pct(a, jv_get(l, "pct_of_stall")),
		    tf_pct(b, jv_get(l, "pct_of_latency")), tf_count(c, jv_get(l, "instructions")),
		    jv_is_true(eb) ? "entry bucket" : ""};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}

/* The hottest instruction's source snippet, its hot line marked. */
static void snippet(tf *t, const jv *hot)
{
	const jv *sn = jv_get(hot, "snippet");
	const jv *lines = jv_get(sn, "lines");
	if (!jv_len(lines))
		return;
	tf_title(t, "at %s", tf_base(jv_string(jv_get(hot, "source"))));
	for (size_t i = 0; i < jv_len(lines); i++) {
		const jv *l = jv_at(lines, i), *h = jv_get(l, "hot");
		char label[40];
		snprintf(label, sizeof label, "%s%5lld |", jv_is_true(h) ? ">" : " ",
			 (long long)jv_i64(jv_get(l, "n")));
		const char *text = jv_string(jv_get(l, "text"));
		/* code keeps its indentation: cut at the width instead of wrapping */
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "  %s %s", label, text ? text : "");
		size_t keep = sb.len, cols = tf_cols(sb.buf, sb.len);
		while (cols > (size_t)t->width && keep)
			if (((unsigned char)sb.buf[--keep] & 0xC0) != 0x80)
				cols--;
		sb_add(t->out, sb.buf, keep);
		sb_addc(t->out, '\n');
		sb_release(&sb);
	}
}

void tv_map(tf *t, const jv *data)
{
	const jv *lines = jv_get(data, "lines");
	const jv *l0 = jv_at(lines, 0);
	const jv *by = jv_get(jv_get(data, "mapped"), "by_stall");
	strbuf sb = STRBUF_INIT;
	if (l0)
		sb_addf(&sb, "hottest line %s = %.1f%% of stall", tf_base(str(l0, "source")),
			jv_num(jv_get(l0, "pct_of_stall")));
	else
		sb_adds(&sb, "no instruction maps to a source line");
	if (jv_is_num(jv_get(by, "pct")))
		sb_addf(&sb, "; %.1f%% of stall cycles map to source", jv_num(jv_get(by, "pct")));
	tf_para(t, 0, "map:", sb_str(&sb));
	sb_release(&sb);
	dispatch_line(t, data);
	if (l0)
		tf_para(t, 2, "file:", jv_string(jv_get(l0, "file")));
	/* a query for one instruction answers with its source and snippet only */
	if (jv_get(data, "snippet") && !lines) {
		tf_para(t, 2, "source:", jv_string(jv_get(data, "source")));
		snippet(t, data);
		return;
	}
	if (jv_len(lines))
		lines_table(t, lines);
	const jv *hot = jv_get(data, "hotspots");
	if (jv_len(hot))
		snippet(t, jv_at(hot, 0));
	hotspots_table(t, hot, "hot instructions (% of stall)");
	const jv *eb = jv_get(data, "entry_buckets");
	if (jv_len(eb)) {
		char line[256];
		snprintf(line, sizeof line,
			 "%s holds %.1f%% of stall: the kernel's entry line, which also collects "
			 "code without a source location of its own (prologue, compiler code)",
			 tf_base(str(jv_at(eb, 0), "source")),
			 jv_num(jv_get(jv_at(eb, 0), "pct_of_stall")));
		sb_addc(t->out, '\n');
		tf_para(t, 2, "entry bucket:", line);
	}
}
