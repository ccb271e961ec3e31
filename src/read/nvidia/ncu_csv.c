/* RFC 4180 reader for Nsight Compute CSV exports (ncu_csv.h). One pass over the buffer; the
 * unquoted values go into one block of len + 2 bytes (a value never grows when unquoted, and
 * each field costs at most one NUL beyond the separator it consumed), so field pointers stay
 * stable while the field and row arrays grow. */
#include "read/nvidia/ncu_csv.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
	const char *b;
	size_t len, pos;
	ncu_csv *c;
	size_t text_len;
	size_t n_fields, cap_fields;
	size_t *row_first; /* index of each row's first field */
	size_t cap_rows;
	fp_err *e;
} parser;

/* 1-based line and column of a byte offset (CR, LF and CRLF each end one line). */
static void line_col(const char *b, size_t len, size_t off, int64_t *line, int64_t *col)
{
	int64_t l = 1;
	size_t start = 0;
	for (size_t i = 0; i < off && i < len; i++) {
		if (b[i] == '\n' || (b[i] == '\r' && !(i + 1 < len && b[i + 1] == '\n'))) {
			l++;
			start = i + 1;
		}
	}
	*line = l;
	*col = (int64_t)(off - start) + 1;
}

static int fail(parser *p, size_t off, const char *expected, const char *msg)
{
	int64_t line, col;
	line_col(p->b, p->len, off, &line, &col);
	return fp_fail_input_lc(p->e, p->c->name, (int64_t)off, line, col, expected, "%s", msg);
}

static void add_field(parser *p, size_t text_start, size_t off)
{
	if (p->n_fields == p->cap_fields) {
		p->cap_fields = p->cap_fields ? 2 * p->cap_fields : 256;
		p->c->fields = xrealloc(p->c->fields, p->cap_fields * sizeof *p->c->fields);
		p->c->offs = xrealloc(p->c->offs, p->cap_fields * sizeof *p->c->offs);
	}
	p->c->text[p->text_len++] = '\0';
	p->c->fields[p->n_fields] = p->c->text + text_start;
	p->c->offs[p->n_fields++] = (int64_t)off;
}

/* 1 if the quote at b[i] ends a quoted field. ncu writes source text without doubling its
 * quotes (`other=-float("inf")` arrives as is), so a quote ends the field only when a field
 * or record boundary follows: a line end, the end of input, or a ',' that is followed by a
 * line end, the end, '"', ',' or a non-blank character (", " inside source text is not a
 * boundary: ncu puts no blank after its separators). */
static int is_closer(const char *b, size_t len, size_t i)
{
	if (i + 1 >= len || b[i + 1] == '\n' || b[i + 1] == '\r')
		return 1;
	if (b[i + 1] != ',')
		return 0;
	return i + 2 >= len || (b[i + 2] != ' ' && b[i + 2] != '\t');
}

static int quoted_field(parser *p)
{
	const char *b = p->b;
	size_t start = p->pos;
	for (p->pos++;; p->pos++) {
		if (p->pos >= p->len)
			return fail(p, start, "a closing quote", "unterminated quoted field");
		char ch = b[p->pos];
		if (ch == '\0')
			return fail(p, p->pos, "text without NUL bytes", "NUL byte in CSV");
		if (ch == '"') {
			if (is_closer(b, p->len, p->pos))
				break;
			/* "" is an escaped quote (RFC 4180) unless its second half closes */
			if (p->pos + 1 < p->len && b[p->pos + 1] == '"' &&
			    !is_closer(b, p->len, p->pos + 1))
				p->pos++;
		}
		p->c->text[p->text_len++] = ch;
	}
	p->pos++;
	return 0;
}

/* Reads one field at p->pos into the text block; stops before the separator. */
static int read_field(parser *p)
{
	size_t start = p->pos, t0 = p->text_len;
	if (p->pos < p->len && p->b[p->pos] == '"') {
		if (quoted_field(p))
			return -1;
	} else {
		for (; p->pos < p->len; p->pos++) {
			char ch = p->b[p->pos];
			if (ch == ',' || ch == '\n' || ch == '\r')
				break;
			if (ch == '\0')
				return fail(p, p->pos, "text without NUL bytes", "NUL byte in CSV");
			p->c->text[p->text_len++] = ch; /* a '"' here is taken literally */
		}
	}
	add_field(p, t0, start);
	return 0;
}

/* Lines are counted as the records are walked (line_col per row would be quadratic). */
static int parse_all(parser *p)
{
	const char *b = p->b;
	int64_t line = 1;
	while (p->pos < p->len) {
		if (b[p->pos] == '\n' || b[p->pos] == '\r') { /* empty line */
			if (b[p->pos] == '\r' && p->pos + 1 < p->len && b[p->pos + 1] == '\n')
				p->pos++;
			p->pos++;
			line++;
			continue;
		}
		size_t first = p->n_fields, start = p->pos;
		for (;;) {
			if (read_field(p))
				return -1;
			if (p->pos < p->len && b[p->pos] == ',') {
				p->pos++; /* "a," at the end of input: read_field adds the empty one
					   */
				continue;
			}
			break;
		}
		if (p->c->n_rows == p->cap_rows) {
			p->cap_rows = p->cap_rows ? 2 * p->cap_rows : 64;
			p->c->rows = xrealloc(p->c->rows, p->cap_rows * sizeof *p->c->rows);
			p->row_first = xrealloc(p->row_first, p->cap_rows * sizeof *p->row_first);
		}
		p->c->rows[p->c->n_rows].line = line;
		p->row_first[p->c->n_rows++] = first;
		for (size_t i = start; i < p->pos; i++) /* line breaks inside quoted fields */
			if (b[i] == '\n' || (b[i] == '\r' && !(i + 1 < p->len && b[i + 1] == '\n')))
				line++;
		if (p->pos < p->len) {
			if (b[p->pos] == '\r' && p->pos + 1 < p->len && b[p->pos + 1] == '\n')
				p->pos++;
			p->pos++;
			line++;
		}
	}
	return 0;
}

int ncu_csv_parse(const char *buf, size_t len, const char *name, ncu_csv *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	out->name = xstrdup(name ? name : "<csv>");
	out->text = xmalloc(len + 2);
	out->src = xmalloc(len + 1);
	if (len)
		memcpy(out->src, buf, len);
	out->src[len] = '\0';
	out->src_len = len;
	parser p = {.b = buf, .len = len, .c = out, .e = e};
	int rc = parse_all(&p);
	if (rc == 0) {
		for (size_t r = 0; r < out->n_rows; r++) {
			size_t first = p.row_first[r];
			size_t end = r + 1 < out->n_rows ? p.row_first[r + 1] : p.n_fields;
			out->rows[r].f = out->fields + first;
			out->rows[r].off = out->offs + first;
			out->rows[r].n = end - first;
		}
	}
	free(p.row_first);
	if (rc) {
		ncu_csv_release(out);
		return -1;
	}
	return 0;
}

int ncu_csv_walk(const char *buf, size_t len, const char *name,
		 int (*walk)(const ncu_csv *c, void *arg, fp_err *e), void *arg, fp_err *e)
{
	ncu_csv c;
	if (ncu_csv_parse(buf, len, name, &c, e))
		return -1;
	int rc = walk(&c, arg, e);
	ncu_csv_release(&c);
	return rc;
}

int ncu_csv_read_file(const char *path, ncu_csv *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CSV, &len, e);
	if (!buf)
		return -1;
	int rc = ncu_csv_parse(buf, len, path, out, e);
	free(buf);
	return rc;
}

void ncu_csv_release(ncu_csv *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->rows);
	free(c->text);
	free(c->fields);
	free(c->offs);
	free(c->src);
	memset(c, 0, sizeof *c);
}

long ncu_csv_col(const ncu_csv_row *row, const char *name)
{
	for (size_t i = 0; i < row->n; i++)
		if (strcmp(row->f[i], name) == 0)
			return (long)i;
	return -1;
}

const char *ncu_csv_get(const ncu_csv_row *row, size_t i)
{
	return i < row->n ? row->f[i] : "";
}

int ncu_csv_fail_at(const ncu_csv *c, const ncu_csv_row *row, size_t i, fp_err *e,
		    const char *expected, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t off = 0;
	if (i < row->n)
		off = (size_t)row->off[i];
	else if (row->n)
		off = (size_t)row->off[row->n - 1];
	int64_t line = row->line, col = -1;
	if (c->src)
		line_col(c->src, c->src_len, off, &line, &col);
	return fp_fail_input_lc(e, c->name, (int64_t)off, line, col, expected, "%s", msg);
}

int ncu_csv_count(const ncu_csv *c, const ncu_csv_row *row, size_t i, int64_t *out, fp_err *e)
{
	const char *s = ncu_csv_get(row, i);
	int64_t v = 0;
	int digits = 0;
	for (; *s; s++) {
		if (*s == ',' && digits)
			continue;
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return ncu_csv_fail_at(c, row, i, e, "a non-negative integer",
					       "field %zu is not a count: \"%.40s\"", i + 1,
					       ncu_csv_get(row, i));
		v = v * 10 + (*s - '0');
		digits++;
	}
	if (!digits)
		return ncu_csv_fail_at(c, row, i, e, "a non-negative integer",
				       "field %zu is empty where a count was expected", i + 1);
	*out = v;
	return 0;
}

int ncu_csv_number(const char *s, double *out)
{
	char buf[64];
	size_t n = 0;
	const char *p = s;
	if (*p == '-' || *p == '+')
		buf[n++] = *p++;
	int digits = 0;
	for (; *p && n + 1 < sizeof buf; p++) {
		if (*p >= '0' && *p <= '9') {
			buf[n++] = *p;
			digits++;
		} else if (*p == ',' && digits) {
			continue;
		} else {
			break;
		}
	}
	if (!digits)
		return 0;
	for (; *p && n + 1 < sizeof buf; p++) { /* fraction and exponent: strtod checks them */
		if (!(isdigit((unsigned char)*p) || *p == '.' || *p == 'e' || *p == 'E' ||
		      *p == '+' || *p == '-'))
			return 0;
		buf[n++] = *p;
	}
	if (*p)
		return 0;
	buf[n] = '\0';
	char *end = NULL;
	double v = strtod(buf, &end);
	if (!end || *end || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}
