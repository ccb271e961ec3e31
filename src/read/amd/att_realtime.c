#include "read/amd/att_realtime.h"

#include "base/xalloc.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

static int read_pairs(att_scan *s, att_rt_se *se)
{
	if (att_scan_expect(s, '[', "an array of [shader_clock, realtime_clock]"))
		return -1;
	int first = 1, more;
	while ((more = att_scan_next(s, ']', &first)) == 1) {
		int64_t g, r;
		int f2 = 1, m2;
		if (att_scan_expect(s, '[', "a pair [shader_clock, realtime_clock]") ||
		    att_scan_i64(s, &g, "an integer (shader clock)") ||
		    att_scan_expect(s, ',', NULL) ||
		    att_scan_i64(s, &r, "an integer (realtime clock)"))
			return -1;
		f2 = 0;
		while ((m2 = att_scan_next(s, ']', &f2)) == 1)
			if (att_scan_skip(s))
				return -1;
		if (m2 < 0)
			return -1;
		if (se->n_pairs == 0) {
			se->first_gfx = g;
			se->first_rt = r;
		}
		se->last_gfx = g;
		se->last_rt = r;
		se->n_pairs++;
	}
	return more;
}

static int metadata_member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	att_realtime *r = ctx;
	if (strcmp(k, "frequency") != 0)
		return att_scan_skip(s);
	size_t at = s->pos;
	if (att_scan_i64(s, &r->frequency, "an integer (frequency, Hz)"))
		return -1;
	if (r->frequency <= 0) {
		s->pos = at;
		return att_scan_fail(s, "a positive frequency");
	}
	return 0;
}

static int is_se_key(const char *k)
{
	if (strncmp(k, "SE", 2) != 0 || !k[2] || strlen(k) > 11)
		return 0;
	for (const char *p = k + 2; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	att_realtime *r = ctx;
	if (strcmp(k, "metadata") == 0)
		return att_scan_object(s, "an object (metadata)", scratch, metadata_member, r);
	if (!is_se_key(k))
		return att_scan_skip(s);
	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	att_rt_se *se = &r->v[r->n++];
	memset(se, 0, sizeof *se);
	se->se = strtoll(k + 2, NULL, 10);
	return read_pairs(s, se);
}

/* from_file: read the file at name (buf and len unused). */
static int doc(const char *name, int from_file, const char *buf, size_t len, att_realtime *r,
	       fp_err *e)
{
	memset(r, 0, sizeof *r);
	r->frequency = 100000000;
	int rc = att_scan_doc(name, from_file, buf, len, "an object (realtime.json)", member, r, e);
	if (rc)
		att_realtime_release(r);
	return rc;
}

int att_realtime_parse(const char *buf, size_t len, const char *name, att_realtime *r, fp_err *e)
{
	return doc(name, 0, buf, len, r, e);
}

int att_realtime_read(const char *path, att_realtime *r, fp_err *e)
{
	return doc(path, 1, NULL, 0, r, e);
}

void att_realtime_release(att_realtime *r)
{
	free(r->v);
	memset(r, 0, sizeof *r);
}
