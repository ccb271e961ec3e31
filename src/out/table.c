#include "out/table.h"

#include "base/json/json_write.h"
#include "out/table_views.h"

#include <stdio.h>
#include <string.h>

static void indent(strbuf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		sb_adds(out, "  ");
}

static void scalar(strbuf *out, const jv *v)
{
	if (jv_type_of(v) == JV_STRING)
		sb_add(out, jv_string(v), jv_len(v));
	else
		json_write(out, v, 0);
}

static int is_scalar(const jv *v)
{
	return !v || (jv_type_of(v) != JV_ARRAY && jv_type_of(v) != JV_OBJECT);
}

/* An array whose items are objects holding only scalars renders as columns. */
static int is_flat_table(const jv *arr)
{
	if (jv_len(arr) == 0)
		return 0;
	for (size_t i = 0; i < jv_len(arr); i++) {
		const jv *o = jv_at(arr, i);
		if (jv_type_of(o) != JV_OBJECT)
			return 0;
		for (size_t k = 0; k < jv_len(o); k++)
			if (!is_scalar(jv_value_at(o, k)))
				return 0;
	}
	return 1;
}

static size_t cell_width(const jv *v)
{
	strbuf sb = STRBUF_INIT;
	scalar(&sb, v);
	size_t w = sb.len;
	sb_release(&sb);
	return w;
}

static void cell(strbuf *out, const jv *v, size_t width)
{
	size_t n0 = out->len;
	scalar(out, v);
	for (size_t n = out->len - n0; n < width; n++)
		sb_addc(out, ' ');
}

/* The full tree's columns: every row, every cell whole (the keys of the first row). */
static void render_table(strbuf *out, const jv *arr, int depth)
{
	const jv *first = jv_at(arr, 0);
	size_t ncol = jv_len(first);
	size_t width[64] = {0};
	if (ncol > 64)
		ncol = 64;
	for (size_t c = 0; c < ncol; c++) {
		width[c] = strlen(jv_key_at(first, c));
		for (size_t r = 0; r < jv_len(arr); r++) {
			size_t w = cell_width(jv_get(jv_at(arr, r), jv_key_at(first, c)));
			if (w > width[c])
				width[c] = w;
		}
	}
	indent(out, depth);
	for (size_t c = 0; c < ncol; c++) {
		jv *k = jv_str(jv_key_at(first, c));
		cell(out, k, c + 1 < ncol ? width[c] + 2 : 0);
		jv_free(k);
	}
	sb_addc(out, '\n');
	for (size_t r = 0; r < jv_len(arr); r++) {
		indent(out, depth);
		for (size_t c = 0; c < ncol; c++)
			cell(out, jv_get(jv_at(arr, r), jv_key_at(first, c)),
			     c + 1 < ncol ? width[c] + 2 : 0);
		sb_addc(out, '\n');
	}
}

static void render(strbuf *out, const jv *v, int depth);

static void render_entry(strbuf *out, const char *key, const jv *v, int depth)
{
	indent(out, depth);
	if (key)
		sb_addf(out, "%s:", key);
	else
		sb_adds(out, "-");
	if (is_scalar(v) || jv_len(v) == 0) {
		sb_addc(out, ' ');
		scalar(out, v);
		sb_addc(out, '\n');
		return;
	}
	sb_addc(out, '\n');
	render(out, v, depth + 1);
}

static void render(strbuf *out, const jv *v, int depth)
{
	if (jv_type_of(v) == JV_OBJECT) {
		for (size_t i = 0; i < jv_len(v); i++)
			render_entry(out, jv_key_at(v, i), jv_value_at(v, i), depth);
	} else if (jv_type_of(v) == JV_ARRAY) {
		if (is_flat_table(v)) {
			render_table(out, v, depth);
			return;
		}
		for (size_t i = 0; i < jv_len(v); i++)
			render_entry(out, NULL, jv_at(v, i), depth);
	}
}

/* A command without a view of its own: the tree, fitted to the width (long lists cut at
 * FIT_ROWS, flat lists as column tables, long values wrapped). */
#define FIT_ROWS 25

static void fit(tf *t, const jv *v, int depth);

static void fit_entry(tf *t, const char *key, const jv *v, int depth)
{
	char label[128];
	snprintf(label, sizeof label, key ? "%s:" : "-", key);
	if (is_scalar(v) || jv_len(v) == 0) {
		strbuf sb = STRBUF_INIT;
		scalar(&sb, v);
		tf_para(t, 2 * depth, label, sb.len ? sb_str(&sb) : "\"\"");
		sb_release(&sb);
		return;
	}
	tf_para(t, 2 * depth, NULL, label);
	fit(t, v, depth + 1);
}

static void fit_table(tf *t, const jv *arr, int depth)
{
	const jv *first = jv_at(arr, 0);
	tf_table tb;
	size_t ncol = jv_len(first) < TF_MAX_COLS ? jv_len(first) : TF_MAX_COLS;
	tf_table_init(&tb, (int)ncol - 1, 0);
	for (size_t c = 0; c < ncol; c++)
		tf_table_col(&tb, jv_key_at(first, c), jv_is_num(jv_value_at(first, c)));
	for (size_t r = 0; r < jv_len(arr) && r < FIT_ROWS; r++) {
		strbuf cells[TF_MAX_COLS];
		const char *row[TF_MAX_COLS];
		for (size_t c = 0; c < ncol; c++) {
			sb_init(&cells[c]);
			scalar(&cells[c], jv_get(jv_at(arr, r), jv_key_at(first, c)));
			row[c] = sb_str(&cells[c]);
		}
		tf_table_row(&tb, row);
		for (size_t c = 0; c < ncol; c++)
			sb_release(&cells[c]);
	}
	tf_table_emit(t, &tb, 2 * depth);
}

static void fit(tf *t, const jv *v, int depth)
{
	if (jv_type_of(v) == JV_OBJECT) {
		for (size_t i = 0; i < jv_len(v); i++)
			fit_entry(t, jv_key_at(v, i), jv_value_at(v, i), depth);
		return;
	}
	if (jv_type_of(v) != JV_ARRAY)
		return;
	if (is_flat_table(v))
		fit_table(t, v, depth);
	else
		for (size_t i = 0; i < jv_len(v) && i < FIT_ROWS; i++)
			fit_entry(t, NULL, jv_at(v, i), depth);
	if (jv_len(v) > FIT_ROWS) {
		char more[64];
		snprintf(more, sizeof more, "... (+%zu more: --full)", jv_len(v) - FIT_ROWS);
		tf_para(t, 2 * depth, NULL, more);
	}
}

typedef void (*view_fn)(tf *t, const jv *data);

static const struct {
	const char *command;
	view_fn fn;
} views[] = {
    {"bubbles", tv_bubbles}, {"map", tv_map},	{"report", tv_report}, {"diff", tv_diff},
    {"bundle", tv_bundle},   {"tile", tv_tile}, {"doctor", tv_doctor}, {"list", tv_list},
};

static view_fn view_of(const char *cmd)
{
	for (size_t i = 0; cmd && i < sizeof views / sizeof views[0]; i++)
		if (strcmp(views[i].command, cmd) == 0)
			return views[i].fn;
	return NULL;
}

/* An error's extra keys: scalars and lists of scalars on one wrapped line each. */
static void error_extra(tf *t, const char *key, const jv *v)
{
	strbuf sb = STRBUF_INIT;
	if (jv_type_of(v) == JV_ARRAY && !is_flat_table(v)) {
		for (size_t i = 0; i < jv_len(v); i++) {
			if (i)
				sb_adds(&sb, ", ");
			scalar(&sb, jv_at(v, i));
		}
	} else {
		scalar(&sb, v);
	}
	char label[128];
	snprintf(label, sizeof label, "%s:", key);
	tf_para(t, 2, label, sb_str(&sb));
	sb_release(&sb);
}

static void render_error(tf *t, const char *cmd, const jv *err)
{
	char label[256];
	snprintf(label, sizeof label, "error%s%s: [%s]", cmd ? " " : "", cmd ? cmd : "",
		 jv_string(jv_get(err, "code")));
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s (exit %lld)", jv_string(jv_get(err, "message")),
		(long long)jv_i64(jv_get(err, "exitCode")));
	tf_para(t, 0, label, sb_str(&sb));
	sb_release(&sb);
	tf_para(t, 2, "help:", jv_string(jv_get(err, "help")));
	for (size_t i = 0; err && i < jv_len(err); i++) {
		const char *k = jv_key_at(err, i);
		if (strcmp(k, "code") && strcmp(k, "exitCode") && strcmp(k, "message") &&
		    strcmp(k, "help"))
			error_extra(t, k, jv_value_at(err, i));
	}
}

/* Warnings, and what each list of the view left out with the flag that shows it. */
static void footer(tf *t, const jv *env, int full)
{
	const jv *w = jv_get(env, "warnings");
	if (jv_len(w))
		sb_addc(t->out, '\n');
	for (size_t i = 0; i < jv_len(w); i++)
		tf_para(t, 2, "warning:", jv_string(jv_at(w, i)));
	const jv *tr = jv_get(env, "truncated");
	for (size_t i = 0; jv_type_of(tr) == JV_OBJECT && i < jv_len(tr); i++) {
		const jv *x = jv_value_at(tr, i);
		char line[256];
		snprintf(line, sizeof line, "%s: %lld of %lld in the envelope (%s)",
			 jv_key_at(tr, i), (long long)jv_i64(jv_get(x, "shown")),
			 (long long)jv_i64(jv_get(x, "total")),
			 jv_string(jv_get(x, "more")) ? jv_string(jv_get(x, "more")) : "--all");
		tf_para(t, 2, "cut:", line);
	}
	if (!full && jv_get(env, "data"))
		tf_para(t, 2, "more:", "--full shows every field, -f json is the agents' form");
}

void table_render(strbuf *out, const jv *env, int width, int full)
{
	tf t = {out, width > 20 ? width : 20};
	const char *cmd = jv_string(jv_get(env, "command"));
	const jv *ok = jv_get(env, "ok");
	const jv *data = jv_get(env, "data");
	if (!jv_is_true(ok)) {
		render_error(&t, cmd, jv_get(env, "error"));
		footer(&t, env, full);
		return;
	}
	view_fn fn = view_of(cmd);
	if (fn && data && !full) {
		fn(&t, data);
	} else if (data && !full && jv_string(jv_get(data, "headline"))) {
		/* no view of its own, but a headline: that is the answer, so it leads */
		char label[64];
		snprintf(label, sizeof label, "%s:", cmd ? cmd : "ok");
		tf_para(&t, 0, label, jv_string(jv_get(data, "headline")));
		jv *rest = jv_copy(data);
		jv_free(jv_take(rest, "headline"));
		fit(&t, rest, 1);
		jv_free(rest);
	} else if (data && !full) {
		tf_para(&t, 0, NULL, cmd ? cmd : "ok");
		fit(&t, data, 1);
	} else {
		sb_addf(out, "ok %s\n", cmd ? cmd : "");
		const char *b = jv_string(jv_get(env, "bundle"));
		if (b)
			sb_addf(out, "  bundle: %s\n", b);
		if (data)
			render(out, data, 1);
	}
	footer(&t, env, full);
}
