#include "out/table.h"

#include "base/json/json_write.h"

#include <string.h>

static void indent(strbuf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		sb_adds(out, "  ");
}

static void scalar(strbuf *out, const jv *v)
{
	if (v && v->type == JV_STRING)
		sb_add(out, v->v.str.s, v->v.str.len);
	else
		json_write(out, v, 0);
}

static int is_scalar(const jv *v)
{
	return !v || (v->type != JV_ARRAY && v->type != JV_OBJECT);
}

/* An array whose items are objects holding only scalars renders as a table. */
static int is_flat_table(const jv *arr)
{
	if (jv_len(arr) == 0)
		return 0;
	for (size_t i = 0; i < jv_len(arr); i++) {
		const jv *o = jv_at(arr, i);
		if (!o || o->type != JV_OBJECT)
			return 0;
		for (size_t k = 0; k < o->v.obj.n; k++)
			if (!is_scalar(o->v.obj.vals[k]))
				return 0;
	}
	return 1;
}

static size_t cell_width(const jv *v)
{
	strbuf sb = STRBUF_INIT;
	scalar(&sb, v);
	size_t w = sb.len > 60 ? 60 : sb.len;
	sb_release(&sb);
	return w;
}

static void cell(strbuf *out, const jv *v, size_t width)
{
	strbuf sb = STRBUF_INIT;
	scalar(&sb, v);
	size_t n = sb.len;
	if (n > 60) {
		sb_add(out, sb.buf, 57);
		sb_adds(out, "...");
		n = 60;
	} else {
		sb_add(out, sb_str(&sb), sb.len);
	}
	for (; n < width; n++)
		sb_addc(out, ' ');
	sb_release(&sb);
}

static void render_table(strbuf *out, const jv *arr, int depth)
{
	const jv *first = jv_at(arr, 0);
	size_t ncol = first->v.obj.n;
	size_t rows = jv_len(arr) < TABLE_MAX_ROWS ? jv_len(arr) : TABLE_MAX_ROWS;
	size_t width[64] = {0};
	if (ncol > 64)
		ncol = 64;
	for (size_t c = 0; c < ncol; c++) {
		width[c] = strlen(first->v.obj.keys[c]);
		for (size_t r = 0; r < rows; r++) {
			size_t w = cell_width(jv_get(jv_at(arr, r), first->v.obj.keys[c]));
			if (w > width[c])
				width[c] = w;
		}
	}
	indent(out, depth);
	for (size_t c = 0; c < ncol; c++) {
		jv *k = jv_str(first->v.obj.keys[c]);
		cell(out, k, c + 1 < ncol ? width[c] + 2 : 0);
		jv_free(k);
	}
	sb_addc(out, '\n');
	for (size_t r = 0; r < rows; r++) {
		indent(out, depth);
		for (size_t c = 0; c < ncol; c++)
			cell(out, jv_get(jv_at(arr, r), first->v.obj.keys[c]),
			     c + 1 < ncol ? width[c] + 2 : 0);
		sb_addc(out, '\n');
	}
	if (jv_len(arr) > rows) {
		indent(out, depth);
		sb_addf(out, "... (+%zu more)\n", jv_len(arr) - rows);
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
	if (v->type == JV_OBJECT) {
		for (size_t i = 0; i < v->v.obj.n; i++)
			render_entry(out, v->v.obj.keys[i], v->v.obj.vals[i], depth);
	} else if (v->type == JV_ARRAY) {
		if (is_flat_table(v)) {
			render_table(out, v, depth);
			return;
		}
		size_t rows = jv_len(v) < TABLE_MAX_ROWS ? jv_len(v) : TABLE_MAX_ROWS;
		for (size_t i = 0; i < rows; i++)
			render_entry(out, NULL, jv_at(v, i), depth);
		if (jv_len(v) > rows) {
			indent(out, depth);
			sb_addf(out, "... (+%zu more)\n", jv_len(v) - rows);
		}
	}
}

void table_render(strbuf *out, const jv *env)
{
	const char *cmd = jv_string(jv_get(env, "command"));
	const jv *ok = jv_get(env, "ok");
	if (ok && ok->v.b) {
		sb_addf(out, "ok %s\n", cmd ? cmd : "");
		const char *b = jv_string(jv_get(env, "bundle"));
		if (b)
			sb_addf(out, "  bundle: %s\n", b);
		const jv *data = jv_get(env, "data");
		if (data)
			render(out, data, 1);
	} else {
		const jv *err = jv_get(env, "error");
		sb_addf(out, "error %s: [%s] %s  (exit %lld)\n", cmd ? cmd : "",
			jv_string(jv_get(err, "code")), jv_string(jv_get(err, "message")),
			(long long)jv_i64(jv_get(err, "exitCode")));
		const char *help = jv_string(jv_get(err, "help"));
		if (help && *help)
			sb_addf(out, "  help: %s\n", help);
		for (size_t i = 0; err && i < err->v.obj.n; i++) {
			const char *k = err->v.obj.keys[i];
			if (strcmp(k, "code") && strcmp(k, "exitCode") && strcmp(k, "message") &&
			    strcmp(k, "help"))
				render_entry(out, k, err->v.obj.vals[i], 1);
		}
	}
	const jv *w = jv_get(env, "warnings");
	for (size_t i = 0; i < jv_len(w); i++)
		sb_addf(out, "  warning: %s\n", jv_string(jv_at(w, i)));
	const jv *t = jv_get(env, "truncated");
	if (t && jv_len(t)) {
		sb_adds(out, "  truncated:\n");
		render(out, t, 2);
	}
}
