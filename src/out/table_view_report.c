/* Terminal views of the diagnosis commands: report (the change to make), diff (did it help)
 * and bundle (what was kept). */
#include "out/table_views.h"

#include <stdio.h>
#include <string.h>

static const char *str(const jv *o, const char *k)
{
	const char *s = jv_string(jv_get(o, k));
	return s ? s : "-";
}

static void bound_line(tf *t, const jv *b)
{
	if (!jv_string(jv_get(b, "bound")))
		return;
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s (%s, %s confidence)", str(b, "bound"), str(b, "basis"),
		str(b, "confidence"));
	if (jv_string(jv_get(b, "why")))
		sb_addf(&sb, ": %s", str(b, "why"));
	tf_para(t, 2, "bound:", sb_str(&sb));
	sb_release(&sb);
}

/* One recommendation: what to change, where, and what it may gain. */
static void recommendation(tf *t, const jv *r)
{
	char head[512];
	snprintf(head, sizeof head,
		 "%s for %s (%.1f%% of stall): gain <= %.1f%% (upper bound), %s "
		 "confidence",
		 str(r, "knob"), str(r, "class"), jv_num(jv_get(r, "class_pct_of_stall")),
		 jv_num(jv_get(r, "gain_upper_bound_pct_of_latency")), str(r, "confidence"));
	char label[16];
	snprintf(label, sizeof label, "%lld.", (long long)jv_i64(jv_get(r, "rank")));
	sb_addc(t->out, '\n');
	tf_para(t, 2, label, head);
	int ind = 2 + (int)strlen(label) + 1;
	tf_para(t, ind, "change:", jv_string(jv_get(r, "change")));
	const char *api = jv_string(jv_get(r, "api"));
	if (api)
		tf_para(t, ind, "api:", api);
	const char *src = jv_string(jv_get(r, "source"));
	if (!src)
		src = jv_string(jv_get(r, "entry_bucket_source"));
	if (src || jv_string(jv_get(r, "isa"))) {
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s%s%s", src ? tf_base(src) : "", src ? "  " : "", str(r, "isa"));
		tf_para(t, ind, "where:", sb_str(&sb));
		sb_release(&sb);
	}
}

void tv_report(tf *t, const jv *data)
{
	tf_para(t, 0, "report:", jv_string(jv_get(data, "headline")));
	const jv *d = jv_get(data, "dispatch");
	strbuf k = STRBUF_INIT;
	sb_adds(&k, str(data, "kernel"));
	if (jv_string(jv_get(d, "arch")))
		sb_addf(&k, " on %s", str(d, "arch"));
	sb_addf(&k, ", dispatch %s", str(d, "id"));
	if (jv_string(jv_get(data, "kernel_kind")))
		sb_addf(&k, ", %s kernel", str(data, "kernel_kind"));
	tf_para(t, 2, "kernel:", sb_str(&k));
	sb_release(&k);
	bound_line(t, jv_get(data, "bound"));
	const jv *recs = jv_get(data, "recommendations");
	if (!jv_len(recs))
		tf_para(t, 2, "change:", "no rule fired: nothing to recommend from this trace");
	for (size_t i = 0; i < jv_len(recs) && i < 3; i++)
		recommendation(t, jv_at(recs, i));
	if (jv_len(recs) > 3) {
		tf_title(t, "further recommendations");
		tf_table tb;
		tf_table_init(&tb, 4, 1);
		tf_table_cols(&tb, (const tf_col[]){{"#", TF_RIGHT},
						    {"gain<=", TF_RIGHT},
						    {"knob", TF_LEFT},
						    {"class", TF_LEFT},
						    {"where", TF_LEFT},
						    {NULL, 0}});
		for (size_t i = 3; i < jv_len(recs) && i < 3 + TV_ROWS; i++) {
			const jv *r = jv_at(recs, i);
			char a[32], b[32];
			const char *src = jv_string(jv_get(r, "source"));
			const char *row[] = {
			    tf_count(a, jv_get(r, "rank")),
			    tf_pct(b, jv_get(r, "gain_upper_bound_pct_of_latency")), str(r, "knob"),
			    str(r, "class"), src ? tf_base(src) : str(r, "isa")};
			tf_table_row(&tb, row);
		}
		tf_table_emit(t, &tb, 2);
	}
	/* data.missing repeats as warnings, which the footer shows */
	const jv *arts = jv_get(data, "artifacts");
	sb_addc(t->out, '\n');
	tf_para(t, 2, "REPORT.md:", jv_string(jv_get(arts, "report_md")));
	tf_para(t, 2, "REPORT.html:", jv_string(jv_get(arts, "report_html")));
	tf_para(t, 2, "roofline:", jv_string(jv_get(arts, "roofline_svg")));
	tf_para(t, 2, "SARIF:", jv_string(jv_get(arts, "sarif")));
	tf_para(t, 2, "note:", jv_string(jv_get(arts, "note")));
}

void tv_diff(tf *t, const jv *data)
{
	tf_para(t, 0, "diff:", jv_string(jv_get(data, "headline")));
	const jv *b = jv_get(data, "before_input"), *a = jv_get(data, "after_input");
	char line[512];
	snprintf(line, sizeof line, "%s (%s)", str(b, "path"), str(b, "source"));
	tf_para(t, 2, "before:", line);
	snprintf(line, sizeof line, "%s (%s)", str(a, "path"), str(a, "source"));
	tf_para(t, 2, "after: ", line);
	const jv *g = jv_get(data, "gate");
	if (jv_type_of(g) == JV_OBJECT) {
		const jv *fl = jv_get(g, "failed");
		snprintf(line, sizeof line, "%s at %.2f pp", jv_is_true(fl) ? "FAILED" : "passed",
			 jv_num(jv_get(g, "threshold_pp")));
		tf_para(t, 2, "gate:", line);
		for (size_t i = 0; i < jv_len(jv_get(g, "reasons")); i++)
			tf_para(t, 4, "-", jv_string(jv_at(jv_get(g, "reasons"), i)));
	}
	tf_para(t, 2, "noise:", jv_string(jv_get(jv_get(data, "noise"), "basis")));
	const jv *cls = jv_get(data, "classes");
	if (!jv_len(cls))
		return;
	tf_title(t, "stall classes (%% of each side's stall cycles; pp = percentage points)");
	tf_table tb;
	tf_table_init(&tb, 0, 0);
	tf_table_cols(&tb, (const tf_col[]){{"class", TF_LEFT},
					    {"before", TF_RIGHT},
					    {"after", TF_RIGHT},
					    {"delta pp", TF_RIGHT},
					    {NULL, 0}});
	for (size_t i = 0; i < jv_len(cls) && i < TV_ROWS; i++) {
		const jv *c = jv_at(cls, i);
		char x[32], y[32], z[32];
		snprintf(z, sizeof z, "%+.2f", jv_num(jv_get(c, "delta_pp")));
		const char *row[] = {str(c, "class"),
				     tf_pct(x, jv_get(jv_get(c, "before"), "pct_of_stall")),
				     tf_pct(y, jv_get(jv_get(c, "after"), "pct_of_stall")), z};
		tf_table_row(&tb, row);
	}
	tf_table_emit(t, &tb, 2);
}

void tv_bundle(tf *t, const jv *data)
{
	const jv *arts = jv_get(data, "artifacts");
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s kept as a self-contained bundle (%zu artifacts", str(data, "kernel"),
		jv_len(arts));
	const jv *f = jv_get(data, "files");
	if (jv_is_num(jv_get(f, "trace")))
		sb_addf(&sb, ", %lld trace files", (long long)jv_i64(jv_get(f, "trace")));
	sb_adds(&sb, ")");
	tf_para(t, 0, "bundle:", sb_str(&sb));
	sb_release(&sb);
	tf_para(t, 2, "headline:", jv_string(jv_get(data, "headline")));
	tf_para(t, 2, "REPORT.md:", jv_string(jv_get(data, "report_md")));
	const jv *next = jv_get(data, "next");
	for (size_t i = 0; i < jv_len(next); i++)
		tf_para(t, 2, "next:", jv_string(jv_at(next, i)));
}
