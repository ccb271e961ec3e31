#include "read/amd/att_code.h"

#include "base/fileio.h"
#include "base/xalloc.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

#define CODE_COLUMNS 10

typedef struct code_rows {
	trace_inst *v;
	size_t n, cap;
} code_rows;

/* A Source cell: a string, or null (older writers), read as "". */
static int read_source(att_scan *s, strbuf *tmp, char **out)
{
	if (att_scan_null(s)) {
		*out = xstrdup("");
		return 0;
	}
	if (att_scan_str(s, tmp, "a source string or null (column 3, Source)"))
		return -1;
	*out = xstrdup(sb_str(tmp));
	return 0;
}

static int read_cell(att_scan *s, int col, trace_inst *r, strbuf *tmp)
{
	static const char *what[CODE_COLUMNS] = {
	    "a string (column 0, ISA)",		 NULL,
	    "an integer (column 2, LineNumber)", NULL,
	    "an integer (column 4, Codeobj)",	 "an integer (column 5, Vaddr)",
	    "an integer (column 6, Hit)",	 "an integer (column 7, Latency)",
	    "an integer (column 8, Stall)",	 "an integer (column 9, Idle)"};
	int64_t *ints[CODE_COLUMNS] = {NULL,	  NULL,	    &r->code_line, NULL,      &r->codeobj,
				       &r->vaddr, &r->hits, &r->latency,   &r->stall, &r->idle};
	switch (col) {
	case 0:
		if (att_scan_str(s, tmp, what[0]))
			return -1;
		r->isa = xstrdup(sb_str(tmp));
		return 0;
	case 1:
		return att_scan_skip(s);
	case 3:
		return read_source(s, tmp, &r->source);
	default:
		if (col >= CODE_COLUMNS)
			return att_scan_skip(s);
		return att_scan_i64(s, ints[col], what[col]);
	}
}

static void inst_release(trace_inst *r)
{
	free(r->isa);
	free(r->source);
}

static int read_row(att_scan *s, trace_inst *r, strbuf *tmp)
{
	memset(r, 0, sizeof *r);
	r->category = TRACE_CAT_UNKNOWN;
	r->klass = -1;
	if (att_scan_expect(s, '[', "a row (array of 10 columns)"))
		return -1;
	int first = 1, col = 0, more;
	while ((more = att_scan_next(s, ']', &first)) == 1) {
		if (read_cell(s, col, r, tmp))
			goto fail;
		col++;
	}
	if (more < 0)
		goto fail;
	if (col < CODE_COLUMNS) {
		s->pos--; /* point at the closing ']' */
		att_scan_fail(s, "10 columns in a code.json row");
		goto fail;
	}
	r->is_label = r->isa[0] == ';';
	return 0;
fail:
	inst_release(r);
	memset(r, 0, sizeof *r);
	return -1;
}

static int read_code(att_scan *s, code_rows *rows, strbuf *tmp)
{
	if (att_scan_null(s))
		return 0;
	if (att_scan_expect(s, '[', "an array of rows or null (\"code\")"))
		return -1;
	int first = 1, more;
	while ((more = att_scan_next(s, ']', &first)) == 1) {
		rows->v = xgrow(rows->v, &rows->cap, rows->n + 1, sizeof *rows->v);
		if (read_row(s, &rows->v[rows->n], tmp))
			return -1;
		rows->n++;
	}
	return more;
}

/* Sort by code_line; on a shared line the label comes first, then the lower address. */
static int cmp_inst(const void *a, const void *b)
{
	const trace_inst *x = a, *y = b;
	if (x->code_line != y->code_line)
		return x->code_line < y->code_line ? -1 : 1;
	if (x->is_label != y->is_label)
		return x->is_label ? -1 : 1;
	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	return 0;
}

static int is_sorted(const trace_inst *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_inst(&v[i - 1], &v[i]) > 0)
			return 0;
	return 1;
}

static void adopt_rows(trace_dispatch *d, code_rows *rows)
{
	if (!is_sorted(rows->v, rows->n))
		qsort(rows->v, rows->n, sizeof *rows->v, cmp_inst);
	d->insts = rows->v;
	d->n_insts = rows->n;
	for (size_t i = 0; i < rows->n; i++) {
		if (rows->v[i].is_label) {
			const char *k = rows->v[i].isa + 1;
			while (*k == ' ')
				k++;
			d->kernel = xstrdup(k);
			break;
		}
	}
}

int att_code_parse(const char *buf, size_t len, const char *name, trace_dispatch *d, fp_err *e)
{
	char *dir = d->dir;
	d->dir = NULL;
	trace_dispatch_release(d);
	d->dir = dir;
	att_scan s;
	att_scan_init(&s, buf, len, name, e);
	strbuf key = STRBUF_INIT, tmp = STRBUF_INIT;
	code_rows rows = {NULL, 0, 0};
	int seen_code = 0, rc = -1, first = 1, more;
	const char *k;
	if (att_scan_expect(&s, '{', "an object ({\"code\": [...], ...})"))
		goto out;
	while ((more = att_scan_next(&s, '}', &first)) == 1) {
		if (att_scan_key(&s, &key, &k))
			goto out;
		if (strcmp(k, "code") == 0 && !seen_code) {
			seen_code = 1;
			if (read_code(&s, &rows, &tmp))
				goto out;
		} else if (att_scan_skip(&s)) {
			goto out;
		}
	}
	if (more < 0 || att_scan_end(&s))
		goto out;
	if (!seen_code) {
		s.pos = 0;
		att_scan_fail(&s, "a \"code\" key");
		goto out;
	}
	adopt_rows(d, &rows);
	rows.v = NULL;
	rows.n = 0;
	rc = 0;
out:
	for (size_t i = 0; i < rows.n; i++)
		inst_release(&rows.v[i]);
	free(rows.v);
	sb_release(&key);
	sb_release(&tmp);
	return rc;
}

int att_code_read(const char *dispatch_dir, trace_dispatch *d, fp_err *e)
{
	char *abs = path_abs(dispatch_dir);
	if (!abs)
		return fp_fail(e, ERR_NO_ARTIFACT, "%s: no such dispatch directory", dispatch_dir);
	char *path = path_join(abs, "code.json");
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int rc = att_read_file(path, &buf, &cap, &len, e);
	if (rc == 0) {
		free(d->dir);
		d->dir = abs;
		abs = NULL;
		rc = att_code_parse(buf, len, path, d, e);
	}
	free(buf);
	free(path);
	free(abs);
	return rc;
}
