#include "read/amd/att_occupancy.h"

#include "base/xalloc.h"
#include "read/amd/att_fastint.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

static int is_number_key(const char *k)
{
	if (!*k || strlen(k) > 9)
		return 0;
	for (const char *p = k; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int read_row(att_scan *s, int64_t se, att_occupancy *o)
{
	static const char *what[6] = {"an integer (time)", "an integer (cu)",
				      "an integer (simd)", "an integer (slot)",
				      "0 or 1 (start)",	   "an integer (kernel index)"};
	int64_t v[6] = {0, 0, 0, 0, 0, -1};
	if (att_scan_expect(s, '[', "an event [time, cu, simd, slot, start, kernel]"))
		return -1;
	int first = 1, col = 0, more;
	while ((more = att_scan_next(s, ']', &first)) == 1) {
		if (col < 6) {
			size_t at = s->pos;
			if (att_scan_i64(s, &v[col], what[col]))
				return -1;
			if (col == 4 && v[4] != 0 && v[4] != 1) {
				s->pos = at;
				return att_scan_fail(s, what[4]);
			}
		} else if (att_scan_skip(s)) {
			return -1;
		}
		col++;
	}
	if (more < 0)
		return -1;
	if (col < 5) {
		s->pos--;
		return att_scan_fail(s, "at least 5 columns [time, cu, simd, slot, start]");
	}
	o->v = xgrow(o->v, &o->cap, o->n + 1, sizeof *o->v);
	o->v[o->n++] = (att_occ_event){v[0], v[1], v[2], v[5], (int32_t)se, (int32_t)v[4]};
	return 0;
}

#define OCC_BATCH 32

typedef const char *(*fast_rows_fn)(const char *p, const char *end, int n, int64_t *v,
				    size_t max_rows, size_t *k);

/* Rows of exactly six integers, start 0 or 1, taken from the scanner's fast path; 0 when the
 * next rows are anything else (then read_row reads one, reporting what is wrong). */
static inline __attribute__((always_inline)) size_t
quick_rows_with(fast_rows_fn fast_rows, att_scan *s, int first, int64_t se, att_occupancy *o)
{
	const char *p = s->buf + s->pos, *end = s->buf + s->len;
	if (p >= end || *p != (first ? '[' : ','))
		return 0;
	int64_t v[OCC_BATCH * 6];
	size_t k = 0;
	const char *q = fast_rows(first ? p : p + 1, end, 6, v, OCC_BATCH, &k);
	if (!q)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (v[6 * i + 4] != 0 && v[6 * i + 4] != 1)
			return 0;
	o->v = xgrow(o->v, &o->cap, o->n + k, sizeof *o->v);
	for (size_t i = 0; i < k; i++) {
		const int64_t *r = v + 6 * i;
		o->v[o->n++] = (att_occ_event){r[0], r[1], r[2], r[5], (int32_t)se, (int32_t)r[4]};
	}
	s->pos = (size_t)(q - s->buf);
	return k;
}

ATT_FAST_CLONES static size_t quick_rows_any(att_scan *s, int first, int64_t se, att_occupancy *o)
{
	return quick_rows_with(att_fast_rows, s, first, se, o);
}

#if ATT_FAST_AVX2
/* The same with the shuffle row path for rows of 6, on a CPU with AVX2 (the generic 64-byte
 * windows cost ~300 instructions a row here). */
ATT_FAST_AVX2_FN static size_t quick_rows_avx2(att_scan *s, int first, int64_t se, att_occupancy *o)
{
	return quick_rows_with(att_fast_rows_avx2, s, first, se, o);
}
#endif

static size_t quick_rows(att_scan *s, int first, int64_t se, att_occupancy *o)
{
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		return quick_rows_avx2(s, first, se, o);
#endif
	return quick_rows_any(s, first, se, o);
}

/* The shortest row is "[0,0,0,0,0]," (12 bytes). */
#define OCC_MIN_ROW 12

static int read_se(att_scan *s, int64_t se, att_occupancy *o)
{
	if (att_scan_expect(s, '[', "an array of events"))
		return -1;
	/* Room for every row the rest of the file can hold, reserved once (in huge pages when
	 * large): only the pages the rows touch cost, where growing by doubling copied the array
	 * at every step into fresh pages. */
	if (!o->cap) {
		size_t rows = (s->len - s->pos) / OCC_MIN_ROW + 1, bytes = 0;
		free(o->v);
		o->v = xmalloc_huge(rows * sizeof *o->v, &bytes);
		o->cap = bytes / sizeof *o->v;
	}
	int first = 1, more;
	for (;;) {
		if (quick_rows(s, first, se, o)) {
			first = 0;
			continue;
		}
		if ((more = att_scan_next(s, ']', &first)) != 1)
			return more;
		if (read_row(s, se, o))
			return -1;
	}
}

typedef struct occ_ctx {
	att_occupancy *o;
	strbuf tmp;
} occ_ctx;

/* "dispatches": {"<kernel index>": "<name>", ...}; members of any other shape are skipped. */
static int dispatch_member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	occ_ctx *c = ctx;
	att_occupancy *o = c->o;
	if (!is_number_key(k) || att_scan_peek(s) != '"')
		return att_scan_skip(s);
	int64_t idx = strtoll(k, NULL, 10);
	if (att_scan_str(s, &c->tmp, "a kernel name"))
		return -1;
	size_t cap = o->cap_kernels;
	o->kernel_idx = xgrow(o->kernel_idx, &cap, o->n_kernels + 1, sizeof *o->kernel_idx);
	o->kernel_name =
	    xgrow(o->kernel_name, &o->cap_kernels, o->n_kernels + 1, sizeof *o->kernel_name);
	o->kernel_idx[o->n_kernels] = idx;
	o->kernel_name[o->n_kernels++] = xstrdup(sb_str(&c->tmp));
	return 0;
}

static int member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	occ_ctx *c = ctx;
	if (is_number_key(k))
		return read_se(s, strtoll(k, NULL, 10), c->o);
	if (strcmp(k, "dispatches") == 0 && att_scan_peek(s) == '{')
		return att_scan_object(s, "an object {\"<kernel index>\": \"<name>\"}", scratch,
				       dispatch_member, c);
	if (strcmp(k, "version") == 0 && att_scan_peek(s) == '"') {
		if (att_scan_str(s, &c->tmp, "a string"))
			return -1;
		free(c->o->version);
		c->o->version = xstrdup(sb_str(&c->tmp));
		return 0;
	}
	return att_scan_skip(s);
}

/* from_file: read the file at name (buf and len unused). */
static int doc(const char *name, int from_file, const char *buf, size_t len, att_occupancy *o,
	       fp_err *e)
{
	memset(o, 0, sizeof *o);
	occ_ctx c = {o, STRBUF_INIT};
	int rc =
	    att_scan_doc(name, from_file, buf, len, "an object (occupancy.json)", member, &c, e);
	sb_release(&c.tmp);
	if (rc)
		att_occupancy_release(o);
	return rc;
}

int att_occupancy_parse(const char *buf, size_t len, const char *name, att_occupancy *o, fp_err *e)
{
	return doc(name, 0, buf, len, o, e);
}

int att_occupancy_read(const char *path, att_occupancy *o, fp_err *e)
{
	return doc(path, 1, NULL, 0, o, e);
}

void att_occupancy_release(att_occupancy *o)
{
	for (size_t i = 0; i < o->n_kernels; i++)
		free(o->kernel_name[i]);
	free(o->kernel_name);
	free(o->kernel_idx);
	free(o->v);
	free(o->version);
	memset(o, 0, sizeof *o);
}
