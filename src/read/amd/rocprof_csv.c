/* rocprof_csv.h: a small RFC 4180 scanner. rocprofv3 quotes every text field and may quote
 * numbers too; kernel names hold commas, parentheses and doubled quotes, so a split on ','
 * is not enough. */
#include "read/amd/rocprof_csv.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
	char **f;
	size_t n, cap;
} row;

static void row_push(row *r, strbuf *field)
{
	r->f = xgrow(r->f, &r->cap, r->n + 1, sizeof *r->f);
	r->f[r->n++] = sb_detach(field);
}

static void row_release(row *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->f[i]);
	free(r->f);
	memset(r, 0, sizeof *r);
}

/* Scans one record starting at *pos; returns 1 with a record, 0 at the end, -1 on error. */
static int scan_record(const char *buf, size_t len, size_t *pos, const char *name, row *out,
		       fp_err *e)
{
	size_t i = *pos;
	if (i >= len)
		return 0;
	strbuf field = STRBUF_INIT;
	for (;;) {
		if (i < len && buf[i] == '"') {
			size_t open = i++;
			for (;;) {
				if (i >= len) {
					sb_release(&field);
					row_release(out);
					return fp_fail_input(e, name, (int64_t)open,
							     "a closing quote",
							     "unterminated quoted field");
				}
				if (buf[i] == '"') {
					if (i + 1 < len && buf[i + 1] == '"') {
						sb_addc(&field, '"');
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (buf[i] == '\0')
					goto nul;
				sb_addc(&field, buf[i++]);
			}
			if (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
				sb_release(&field);
				row_release(out);
				return fp_fail_input(e, name, (int64_t)i, "',' or end of line",
						     "text after a closing quote");
			}
		} else {
			while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
				if (buf[i] == '\0')
					goto nul;
				sb_addc(&field, buf[i++]);
			}
		}
		row_push(out, &field);
		if (i < len && buf[i] == ',') {
			i++;
			continue;
		}
		if (i < len && buf[i] == '\r')
			i++;
		if (i < len && buf[i] == '\n')
			i++;
		*pos = i;
		return 1;
	}
nul:
	sb_release(&field);
	row_release(out);
	return fp_fail_input(e, name, (int64_t)i, "text", "NUL byte in a CSV field");
}

int csv_parse(const char *buf, size_t len, const char *name, csv_table *t, fp_err *e)
{
	memset(t, 0, sizeof *t);
	size_t pos = 0, cap = 0;
	row hdr = {0};
	int rc = scan_record(buf, len, &pos, name, &hdr, e);
	if (rc <= 0)
		return rc;
	t->cols = hdr.f, t->ncols = hdr.n;
	for (;;) {
		size_t start = pos;
		row r = {0};
		rc = scan_record(buf, len, &pos, name, &r, e);
		if (rc < 0) {
			csv_release(t);
			return -1;
		}
		if (rc == 0)
			break;
		if (r.n == 1 && r.f[0][0] == '\0') { /* blank line */
			row_release(&r);
			continue;
		}
		if (r.n > t->ncols) {
			row_release(&r);
			fp_fail_input(e, name, (int64_t)start,
				      "at most as many fields as the header",
				      "row with more fields than the header's %zu", t->ncols);
			csv_release(t);
			return -1;
		}
		while (r.n < t->ncols) {
			strbuf empty = STRBUF_INIT;
			sb_adds(&empty, "");
			row_push(&r, &empty);
		}
		size_t c2 = cap;
		t->rows = xgrow(t->rows, &cap, t->nrows + 1, sizeof *t->rows);
		t->row_offset = xgrow(t->row_offset, &c2, t->nrows + 1, sizeof *t->row_offset);
		t->rows[t->nrows] = r.f;
		t->row_offset[t->nrows++] = (long long)start;
	}
	return 0;
}

int csv_parse_file(const char *path, csv_table *t, fp_err *e)
{
	size_t len = 0;
	memset(t, 0, sizeof *t);
	char *buf = file_read_all(path, &len, e);
	if (!buf)
		return -1;
	int rc = csv_parse(buf, len, path, t, e);
	free(buf);
	return rc;
}

void csv_release(csv_table *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t j = 0; j < t->ncols; j++)
			free(t->rows[i][j]);
		free(t->rows[i]);
	}
	for (size_t j = 0; j < t->ncols; j++)
		free(t->cols[j]);
	free(t->rows);
	free(t->cols);
	free(t->row_offset);
	memset(t, 0, sizeof *t);
}

int csv_col(const csv_table *t, const char *name)
{
	for (size_t j = 0; j < t->ncols; j++)
		if (strcmp(t->cols[j], name) == 0)
			return (int)j;
	return -1;
}

const char *csv_at(const csv_table *t, size_t r, int c)
{
	if (c < 0 || (size_t)c >= t->ncols || r >= t->nrows)
		return "";
	return t->rows[r][c];
}

double csv_num(const csv_table *t, size_t r, int c, int *ok)
{
	const char *s = csv_at(t, r, c);
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	int good = *s && !*end && !errno && isfinite(v);
	if (ok)
		*ok = good;
	return good ? v : 0;
}
