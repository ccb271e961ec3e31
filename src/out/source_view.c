#include "out/source_view.h"

#include "base/xalloc.h"
#include "model/source_loc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sv_row {
	const jv *h; /* the hotspot row (borrowed) */
	size_t file;
	int64_t line, code_line, stall;
} sv_row;

typedef struct sv_file {
	char *path;
	int64_t stall;
	size_t index; /* rank by stall, the anchor's file number */
} sv_file;

typedef struct sv_line {
	size_t file;
	int64_t line, stall, hits;
	size_t first, n; /* rows */
	size_t rank;
} sv_line;

static size_t file_of(sv_file **files, size_t *n, const char *p, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*files)[i].path) == len && memcmp((*files)[i].path, p, len) == 0)
			return i;
	*files = xreallocarray(*files, *n + 1, sizeof **files);
	char *copy = xcalloc(len + 1, 1);
	memcpy(copy, p, len);
	(*files)[*n] = (sv_file){copy, 0, 0};
	return (*n)++;
}

static int cmp_row(const void *a, const void *b)
{
	const sv_row *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->code_line > y->code_line) - (x->code_line < y->code_line);
}

static int cmp_line_stall(const void *a, const void *b)
{
	const sv_line *const *x = a, *const *y = b;
	if ((*x)->stall != (*y)->stall)
		return (*x)->stall > (*y)->stall ? -1 : 1;
	return (*x)->first < (*y)->first ? -1 : 1;
}

static double pct(int64_t part, int64_t total)
{
	return total > 0 ? 100.0 * (double)part / (double)total : 0;
}

/* The waits list's code lines and producers, read out once: every ISA row asks it, and a look
 * through the JSON objects for each was most of the view's time. */
typedef struct sv_waits {
	size_t n;
	int64_t *code_line;
	const jv **producers; /* borrowed */
} sv_waits;

static void waits_index(const jv *waits, sv_waits *w)
{
	w->n = jv_len(waits);
	w->code_line = xcalloc(w->n + 1, sizeof *w->code_line);
	w->producers = xcalloc(w->n + 1, sizeof *w->producers);
	for (size_t i = 0; i < w->n; i++) {
		const jv *x = jv_at(waits, i);
		w->code_line[i] = jv_i64(jv_get(x, "code_line"));
		w->producers[i] = jv_get(x, "producers");
	}
}

/* The producers of the first wait at code_line, in list order (NULL when none). */
static const jv *producers_of(const sv_waits *waits, int64_t code_line)
{
	for (size_t i = 0; i < waits->n; i++)
		if (waits->code_line[i] == code_line)
			return waits->producers[i];
	return NULL;
}

static jv *isa_row(const sv_row *r, const sv_waits *waits, int64_t total)
{
	jv *o = jv_object();
	jv_set_int(o, "code_line", r->code_line);
	jv_set_str(o, "isa", jv_string(jv_get(r->h, "isa")) ? jv_string(jv_get(r->h, "isa")) : "");
	jv_set_str(o, "class",
		   jv_string(jv_get(r->h, "class")) ? jv_string(jv_get(r->h, "class")) : "");
	jv_set_int(o, "stall", r->stall);
	jv_set_round(o, "pct_of_stall", pct(r->stall, total), 2);
	jv_set_int(o, "hits", jv_i64(jv_get(r->h, "hits")));
	const jv *p = producers_of(waits, r->code_line);
	if (jv_len(p)) {
		jv *ps = jv_set(o, "producers", jv_array());
		for (size_t i = 0; i < jv_len(p); i++) {
			const jv *x = jv_at(p, i);
			jv *y = jv_push(ps, jv_object());
			jv_set_int(y, "code_line", jv_i64(jv_get(x, "code_line")));
			jv_set_str(y, "isa",
				   jv_string(jv_get(x, "isa")) ? jv_string(jv_get(x, "isa")) : "");
			jv_set_str(y, "source",
				   jv_string(jv_get(x, "source")) ? jv_string(jv_get(x, "source"))
								  : "");
		}
	}
	return o;
}

static int is_entry(const jv *entry_lines, const char *path, int64_t line)
{
	char buf[64];
	snprintf(buf, sizeof buf, ":%lld", (long long)line);
	size_t pl = strlen(path), bl = strlen(buf);
	for (size_t i = 0; i < jv_len(entry_lines); i++) {
		const char *s = jv_string(jv_at(entry_lines, i));
		if (s && strlen(s) == pl + bl && memcmp(s, path, pl) == 0 &&
		    strcmp(s + pl, buf) == 0)
			return 1;
	}
	return 0;
}

static jv *line_obj(const sv_line *l, const sv_row *rows, const jv *text_arr, const char *path,
		    const sv_waits *waits, const jv *entry_lines, int64_t total)
{
	jv *o = jv_object();
	jv_set_int(o, "n", l->line);
	const char *t = jv_string(jv_at(text_arr, (size_t)(l->line - 1)));
	jv_set(o, "text", t ? jv_str(t) : jv_null());
	jv_set_int(o, "stall", l->stall);
	jv_set_round(o, "pct_of_stall", pct(l->stall, total), 2);
	jv_set_int(o, "hits", l->hits);
	const sv_row *top = NULL;
	for (size_t i = 0; i < l->n; i++)
		if (!top || rows[l->first + i].stall > top->stall)
			top = &rows[l->first + i];
	jv_set_str(o, "class",
		   top && jv_string(jv_get(top->h, "class")) ? jv_string(jv_get(top->h, "class"))
							     : "");
	jv_set_int(o, "rank", (int64_t)l->rank);
	jv_set_bool(o, "entry_bucket", is_entry(entry_lines, path, l->line));
	jv *isa = jv_set(o, "isa", jv_array());
	for (size_t i = 0; i < l->n && i < SV_MAX_ISA_ROWS; i++)
		jv_push(isa, isa_row(&rows[l->first + i], waits, total));
	if (l->n > SV_MAX_ISA_ROWS)
		jv_set_int(o, "isa_more", (int64_t)(l->n - SV_MAX_ISA_ROWS));
	return o;
}

static jv *text_line(int64_t n, const jv *text_arr)
{
	jv *o = jv_object();
	jv_set_int(o, "n", n);
	const char *t = jv_string(jv_at(text_arr, (size_t)(n - 1)));
	jv_set(o, "text", t ? jv_str(t) : jv_null());
	return o;
}

static void gap(jv *lines, int64_t n)
{
	if (n <= 0)
		return;
	jv *g = jv_push(lines, jv_object());
	jv_set_int(g, "gap", n);
}

/* The shown lines of one file: lines[first..first+n) are its costed lines, in line order. */
static jv *file_lines(const sv_line *ls, size_t n, const sv_row *rows, const jv *text_arr,
		      const char *path, const sv_waits *waits, const jv *entry_lines, int context,
		      int64_t total)
{
	jv *out = jv_array();
	int64_t nt = (int64_t)jv_len(text_arr);
	int full = nt > 0 && nt <= SV_FULL_FILE_LINES;
	int64_t shown_to = 0; /* last line written */
	size_t k = 0;
	int64_t last = full ? nt : ls[n - 1].line + context;
	if (ls[n - 1].line > last)
		last = ls[n - 1].line;
	for (int64_t ln = 1; ln <= last; ln++) {
		while (k < n && ls[k].line < ln)
			k++;
		int costed = k < n && ls[k].line == ln;
		int near = costed;
		for (size_t j = k; !near && j < n && ls[j].line <= ln + context; j++)
			near = 1;
		for (size_t j = k; !near && j-- > 0;)
			if (ls[j].line >= ln - context)
				near = 1;
			else
				break;
		int have_text = jv_string(jv_at(text_arr, (size_t)(ln - 1))) != NULL;
		if (!costed && !(full ? have_text : near && have_text))
			continue;
		gap(out, ln - shown_to - 1);
		shown_to = ln;
		jv_push(out, costed
				 ? line_obj(&ls[k], rows, text_arr, path, waits, entry_lines, total)
				 : text_line(ln, text_arr));
	}
	if (full)
		gap(out, nt - shown_to);
	return out;
}

jv *source_view_build(const jv *bubbles, const jv *texts, const jv *entry_lines, int context)
{
	const jv *hot = jv_get(bubbles, "hotspots");
	sv_waits waits;
	waits_index(jv_get(bubbles, "waits"), &waits);
	int64_t total = jv_i64(jv_get(jv_get(bubbles, "totals"), "stall"));
	sv_row *rows = xcalloc(jv_len(hot) + 1, sizeof *rows);
	sv_file *files = NULL;
	size_t nr = 0, nf = 0;
	for (size_t i = 0; i < jv_len(hot); i++) {
		const jv *h = jv_at(hot, i);
		src_frame fr[1];
		if (srcmap_parse_chain(jv_string(jv_get(h, "source")), fr, 1) == 0)
			continue; /* unmapped: no line to show it on */
		rows[nr] = (sv_row){h, file_of(&files, &nf, fr[0].path, fr[0].path_len), fr[0].line,
				    jv_i64(jv_get(h, "code_line")), jv_i64(jv_get(h, "stall"))};
		files[rows[nr].file].stall += rows[nr].stall;
		nr++;
	}
	qsort(rows, nr, sizeof *rows, cmp_row);
	sv_line *ls = xcalloc(nr + 1, sizeof *ls);
	size_t nl = 0;
	for (size_t i = 0; i < nr; i++) {
		if (!nl || ls[nl - 1].file != rows[i].file || ls[nl - 1].line != rows[i].line)
			ls[nl++] = (sv_line){rows[i].file, rows[i].line, 0, 0, i, 0, 0};
		ls[nl - 1].stall += rows[i].stall;
		ls[nl - 1].hits += jv_i64(jv_get(rows[i].h, "hits"));
		ls[nl - 1].n++;
	}
	sv_line **by = xcalloc(nl + 1, sizeof *by);
	for (size_t i = 0; i < nl; i++)
		by[i] = &ls[i];
	qsort(by, nl, sizeof *by, cmp_line_stall);
	for (size_t i = 0; i < nl && i < SV_RANKED_LINES; i++)
		if (by[i]->stall > 0)
			by[i]->rank = i + 1;
	free(by);
	/* files by stall, ties in first-seen order */
	size_t *order = xcalloc(nf + 1, sizeof *order);
	for (size_t i = 0; i < nf; i++)
		order[i] = i;
	for (size_t i = 1; i < nf; i++)
		for (size_t j = i; j > 0 && files[order[j]].stall > files[order[j - 1]].stall;
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1], order[j - 1] = t;
		}
	jv *view = jv_object();
	const char *unit = jv_string(jv_get(bubbles, "unit"));
	jv_set_str(view, "unit", unit ? unit : "cycles");
	jv_set_int(view, "total_stall", total);
	jv *fa = jv_set(view, "files", jv_array());
	for (size_t oi = 0; oi < nf; oi++) {
		size_t f = order[oi];
		size_t first = 0, n = 0;
		while (first < nl && ls[first].file != f)
			first++;
		while (first + n < nl && ls[first + n].file == f)
			n++;
		const jv *text = jv_get(texts, files[f].path);
		jv *fo = jv_push(fa, jv_object());
		jv_set_str(fo, "file", files[f].path);
		jv_set_int(fo, "index", (int64_t)oi);
		jv_set_int(fo, "stall", files[f].stall);
		jv_set_round(fo, "pct_of_stall", pct(files[f].stall, total), 2);
		jv_set_bool(fo, "has_text", jv_len(text) > 0);
		jv_set(fo, "lines",
		       file_lines(&ls[first], n, rows, text, files[f].path, &waits, entry_lines,
				  context, total));
	}
	for (size_t i = 0; i < nf; i++)
		free(files[i].path);
	free(files);
	free(order);
	free(ls);
	free(rows);
	free(waits.code_line);
	free(waits.producers);
	return view;
}

void source_view_anchor(const jv *view, const char *source, char *buf, size_t size)
{
	buf[0] = '\0';
	src_frame fr[1];
	if (!source || srcmap_parse_chain(source, fr, 1) == 0)
		return;
	const jv *fa = jv_get(view, "files");
	for (size_t i = 0; i < jv_len(fa); i++) {
		const jv *f = jv_at(fa, i);
		const char *p = jv_string(jv_get(f, "file"));
		if (!p || strlen(p) != fr[0].path_len || memcmp(p, fr[0].path, fr[0].path_len))
			continue;
		const jv *ls = jv_get(f, "lines");
		for (size_t k = 0; k < jv_len(ls); k++)
			if (jv_i64(jv_get(jv_at(ls, k), "n")) == fr[0].line &&
			    !jv_get(jv_at(ls, k), "gap")) {
				snprintf(buf, size, "L%zu-%lld", i, (long long)fr[0].line);
				return;
			}
	}
}
