/* kernel_trace.csv reader (kernel_trace_csv.h): a small RFC 4180 record splitter, a header
 * lookup and the resources of one row. */
#include "read/amd/kernel_trace_csv.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KT_MAX_FIELDS 64

/* A field as the record splitter found it: where it lies in the input, quotes and all; its text
 * is made only when asked for (field_text): a search of the trace for one dispatch or one kernel
 * reads one or two of a row's 26 fields. */
typedef struct field {
	size_t off, end; /* [off, end) in the input */
	const char *s;	 /* its text once made (NUL-terminated, in the record's arena), or NULL */
} field;

typedef struct record {
	const char *b; /* the input */
	field f[KT_MAX_FIELDS];
	size_t n;
	size_t raw; /* bytes of the record's fields: their texts fit raw + n bytes */
	strbuf arena;
} record;

static void record_release(record *rec)
{
	sb_release(&rec->arena);
	rec->n = 0;
}

/* Delimiters of an unquoted run: ',' and the line breaks. */
static const unsigned char stops[256] = {[','] = 1, ['\n'] = 1, ['\r'] = 1};

/* Reads one record starting at *pos; returns 1, 0 at end of input, -1 on a bad quote. A quoted
 * field's "" is one quote; text after its closing quote belongs to the field; fields past
 * KT_MAX_FIELDS are read and dropped; the line breaks after a record (any run of CR and LF)
 * are skipped. Only the fields' places are noted here (field_text makes the text). */
static int next_record(const char *b, size_t len, size_t *pos, record *rec, const char *name,
		       fp_err *e)
{
	size_t i = *pos;
	rec->b = b;
	rec->n = rec->raw = 0;
	rec->arena.len = 0;
	if (i >= len)
		return 0;
	for (;;) {
		size_t start = i;
		if (i < len && b[i] == '"') {
			for (i++;;) {
				const char *q = memchr(b + i, '"', len - i);
				if (!q)
					return fp_fail_input(e, name, (int64_t)start,
							     "a closing quote",
							     "unterminated quoted field");
				i = (size_t)(q - b) + 1;
				if (i < len && b[i] == '"') {
					i++; /* "" inside: one quote */
					continue;
				}
				break;
			}
		}
		while (i < len && !stops[(unsigned char)b[i]])
			i++;
		if (rec->n < KT_MAX_FIELDS) {
			rec->f[rec->n++] = (field){start, i, NULL};
			rec->raw += i - start;
		}
		if (i < len && b[i] == ',') {
			i++;
			continue;
		}
		while (i < len && (b[i] == '\r' || b[i] == '\n'))
			i++;
		*pos = i;
		return 1;
	}
}

/* Field k's text: a quoted part unquoted ("" as "), what follows it as it is. Made once per
 * record and field into the arena, which is sized for all of the record's at the first: the
 * texts already made never move. */
static const char *field_text(record *rec, size_t k)
{
	field *f = &rec->f[k];
	if (f->s)
		return f->s;
	if (!rec->arena.len)
		rec->arena.buf = xgrow(rec->arena.buf, &rec->arena.cap, rec->raw + rec->n + 1, 1);
	char *out = rec->arena.buf + rec->arena.len, *o = out;
	const char *b = rec->b;
	size_t i = f->off;
	if (i < f->end && b[i] == '"') /* the splitter found its closing quote before end */
		for (i++; i < f->end; i++) {
			if (b[i] == '"' && i + 1 < f->end && b[i + 1] == '"')
				*o++ = b[i++];
			else if (b[i] == '"')
				break;
			else
				*o++ = b[i];
		}
	if (i < f->end && b[i] == '"')
		i++; /* the closing quote */
	memcpy(o, b + i, f->end - i);
	o += f->end - i;
	*o++ = '\0';
	rec->arena.len += (size_t)(o - out);
	return f->s = out;
}

enum {
	C_NAME,
	C_ID,
	C_VGPR,
	C_AGPR,
	C_SGPR,
	C_LDS,
	C_SCRATCH,
	C_WX,
	C_WY,
	C_WZ,
	C_GX,
	C_GY,
	C_GZ,
	C__N
};
static const char *const col_names[C__N] = {
    "Kernel_Name",    "Dispatch_Id",  "VGPR_Count",	  "Accum_VGPR_Count", "SGPR_Count",
    "LDS_Block_Size", "Scratch_Size", "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z",
    "Grid_Size_X",    "Grid_Size_Y",  "Grid_Size_Z"};

static int header(record *h, int *col, const char *name, fp_err *e)
{
	for (int c = 0; c < C__N; c++) {
		col[c] = -1;
		for (size_t i = 0; i < h->n; i++)
			if (strcmp(field_text(h, i), col_names[c]) == 0)
				col[c] = (int)i;
		if (col[c] < 0)
			return fp_fail_input(e, name, 0, "a kernel-trace header",
					     "kernel-trace CSV header lacks column %s",
					     col_names[c]);
	}
	return 0;
}

static int int_field(record *rec, int c, const char *name, long long *out, fp_err *e)
{
	const char *s = field_text(rec, (size_t)c);
	errno = 0;
	char *end = NULL;
	long long v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v < 0)
		return fp_fail_input(e, name, (int64_t)rec->f[c].off, "a non-negative integer",
				     "bad integer '%.40s' in kernel-trace CSV", s);
	*out = v;
	return 0;
}

static int fill(record *rec, const int *col, const char *name, trace_resources *r, fp_err *e)
{
	long long v[C__N];
	for (int c = C_VGPR; c < C__N; c++)
		if ((size_t)col[c] >= rec->n || int_field(rec, col[c], name, &v[c], e))
			return e->set ? -1
				      : fp_fail_input(e, name, (int64_t)rec->f[0].off, "a full row",
						      "kernel-trace row is short");
	r->vgpr = (int)v[C_VGPR];
	r->agpr = (int)v[C_AGPR];
	r->sgpr = (int)v[C_SGPR];
	r->lds_bytes = v[C_LDS];
	r->scratch_bytes = v[C_SCRATCH];
	r->wg_size = (int)(v[C_WX] * v[C_WY] * v[C_WZ]);
	r->grid_size = v[C_GX] * v[C_GY] * v[C_GZ];
	r->source = "kernel_trace";
	return 1;
}

static int row_matches(record *rec, const int *col, long long id, const char *kernel)
{
	if ((size_t)col[C_ID] >= rec->n || (size_t)col[C_NAME] >= rec->n)
		return 0;
	if (id >= 0)
		return strtoll(field_text(rec, (size_t)col[C_ID]), NULL, 10) == id;
	return kernel && strcmp(field_text(rec, (size_t)col[C_NAME]), kernel) == 0;
}

int ktcsv_resources(const char *buf, size_t len, const char *name, long long dispatch_id,
		    const char *kernel, trace_resources *r, fp_err *e)
{
	record rec = {0};
	size_t pos = 0;
	int col[C__N], rc = next_record(buf, len, &pos, &rec, name, e);
	if (rc <= 0 || header(&rec, col, name, e)) {
		record_release(&rec);
		return rc < 0 || e->set ? -1 : 0;
	}
	/* Two passes: by dispatch id first, then by kernel name. */
	for (int pass = dispatch_id >= 0 ? 0 : 1; pass < 2; pass++) {
		size_t p = pos;
		while ((rc = next_record(buf, len, &p, &rec, name, e)) > 0)
			if (row_matches(&rec, col, pass ? -1 : dispatch_id, kernel)) {
				rc = fill(&rec, col, name, r, e);
				record_release(&rec);
				return rc;
			}
		if (rc < 0)
			break;
	}
	record_release(&rec);
	return rc < 0 ? -1 : 0;
}

int ktcsv_resources_file(const char *path, long long dispatch_id, const char *kernel,
			 trace_resources *r, fp_err *e)
{
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CSV, &len, e);
	if (!buf)
		return -1;
	int rc = ktcsv_resources(buf, len, path, dispatch_id, kernel, r, e);
	free(buf);
	return rc;
}

int ktcsv_agent_arch(const char *buf, size_t len, const char *name, char *out, size_t outsz,
		     fp_err *e)
{
	record rec = {0};
	size_t pos = 0;
	int rc = next_record(buf, len, &pos, &rec, name, e);
	long col = -1;
	for (size_t i = 0; rc > 0 && i < rec.n; i++)
		if (strcmp(field_text(&rec, i), "Name") == 0)
			col = (long)i;
	while (rc > 0 && col >= 0 && (rc = next_record(buf, len, &pos, &rec, name, e)) > 0)
		if ((size_t)col < rec.n && strncmp(field_text(&rec, (size_t)col), "gfx", 3) == 0) {
			snprintf(out, outsz, "%s", field_text(&rec, (size_t)col));
			record_release(&rec);
			return 1;
		}
	record_release(&rec);
	return rc < 0 ? -1 : 0;
}

/* Column index of `col` in the header record, or -1. */
static long column(record *h, const char *col)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(field_text(h, i), col) == 0)
			return (long)i;
	return -1;
}

static long long cell_ll(record *rec, long c)
{
	return c >= 0 && (size_t)c < rec->n ? strtoll(field_text(rec, (size_t)c), NULL, 10) : -1;
}

int ktcsv_durations(const char *buf, size_t len, const char *name, const char *kernel, int64_t grid,
		    int wg, int64_t *ns, size_t cap, size_t *n, fp_err *e)
{
	record rec = {0};
	size_t pos = 0;
	int rc = next_record(buf, len, &pos, &rec, name, e);
	static const char *const cols[] = {
	    "Kernel_Name", "Start_Timestamp",  "End_Timestamp",	   "Grid_Size_X",     "Grid_Size_Y",
	    "Grid_Size_Z", "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z"};
	long c[9];
	for (size_t i = 0; i < 9; i++)
		c[i] = rc > 0 ? column(&rec, cols[i]) : -1;
	int found = 0;
	for (size_t i = 0; i < 3; i++)
		if (c[i] < 0)
			goto out; /* not a kernel trace with timestamps: nothing to read */
	while ((rc = next_record(buf, len, &pos, &rec, name, e)) > 0) {
		if ((size_t)c[0] >= rec.n || !kernel ||
		    strcmp(field_text(&rec, (size_t)c[0]), kernel) != 0)
			continue;
		long long g = cell_ll(&rec, c[3]) * cell_ll(&rec, c[4]) * cell_ll(&rec, c[5]);
		long long w = cell_ll(&rec, c[6]) * cell_ll(&rec, c[7]) * cell_ll(&rec, c[8]);
		long long d = cell_ll(&rec, c[2]) - cell_ll(&rec, c[1]);
		if ((grid > 0 && g != grid) || (wg > 0 && w != wg) || d <= 0)
			continue;
		found++;
		if (*n < cap)
			ns[(*n)++] = d;
	}
out:
	record_release(&rec);
	return rc < 0 ? -1 : found;
}
