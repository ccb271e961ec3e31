#include "read/amd/att_wstates.h"

#include "base/xalloc.h"
#include "read/amd/att_fastint.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

/* Integers of an array without whitespace ("1,2,3]") in one tight loop, starting at p (an
 * element). Returns the position after the last integer it stored (at its ',' or ']'), or
 * `none` when it stored nothing; anything unusual is left to the general path. */
ATT_FAST_CLONES static size_t quick_ints(const char *b, size_t p, size_t none, size_t len,
					 int64_t *v, size_t *n, size_t cap)
{
	size_t last = none, k = 0;
	/* Whole 32-byte windows first (att_fastint.h), then byte by byte near the end or at
	 * anything the window path leaves alone. */
	const char *q = att_fast_list(b + p, b + len, v + *n, cap - *n, &k);
	if (q) {
		*n += k;
		last = (size_t)(q - b);
		if (b[last] == ']')
			return last;
		p = last + 1;
	}
	while (*n < cap && p < len) {
		size_t st = p;
		uint64_t x = 0;
		while (p < len && (unsigned)(b[p] - '0') < 10 && p - st < 18)
			x = x * 10 + (unsigned)(b[p++] - '0');
		if (p == st || p >= len || (b[st] == '0' && p - st > 1) ||
		    (b[p] != ',' && b[p] != ']'))
			return last;
		v[(*n)++] = (int64_t)x;
		last = p;
		if (b[p] == ']')
			return last;
		p++;
	}
	return last;
}

ATT_FAST_CLONES static int read_ints(att_scan *s, int64_t **v, size_t *n, const char *what,
				     int monotone)
{
	/* At most one integer per two bytes: reserve that once (only touched pages cost). */
	size_t cap = (s->len - s->pos) / 2 + 1;
	*v = xreallocarray(*v, cap, sizeof **v);
	*n = 0;
	if (att_scan_expect(s, '[', "an array of integers"))
		return -1;
	int first = 1, more;
	for (;;) {
		size_t before = *n;
		if (first || (s->pos < s->len && s->buf[s->pos] == ','))
			s->pos = quick_ints(s->buf, s->pos + !first, s->pos, s->len, *v, n, cap);
		if (*n > before)
			first = 0;
		more = att_scan_next(s, ']', &first);
		if (more != 1)
			break;
		if (*n == cap)
			*v = xgrow(*v, &cap, *n + 1, sizeof **v);
		if (att_scan_i64(s, &(*v)[*n], what))
			return -1;
		(*n)++;
	}
	if (more < 0)
		return -1;
	/* The reservation handed back: the next array is then placed right after this one, in
	 * pages already touched rather than fresh ones. */
	*v = xreallocarray(*v, *n ? *n : 1, sizeof **v);
	for (size_t i = 1; monotone && i < *n; i++)
		if ((*v)[i] < (*v)[i - 1]) {
			s->pos--; /* at the closing ']' */
			return att_scan_fail(s, "time values that never decrease");
		}
	return 0;
}

int att_wstates_parse(const char *buf, size_t len, const char *name, att_wstates *w, fp_err *e)
{
	memset(w, 0, sizeof *w);
	att_scan s;
	att_scan_init(&s, buf, len, name, e);
	strbuf key = STRBUF_INIT;
	const char *k;
	size_t nt = 0, nc = 0;
	int first = 1, more, rc = -1;
	if (att_scan_expect(&s, '{', "an object (wstates)"))
		goto out;
	while ((more = att_scan_next(&s, '}', &first)) == 1) {
		if (att_scan_key(&s, &key, &k))
			goto out;
		int r;
		if (strcmp(k, "time") == 0) {
			free(w->time);
			w->time = NULL;
			r = read_ints(&s, &w->time, &nt, "an integer (time)", 1);
		} else if (strcmp(k, "state") == 0) {
			free(w->count);
			w->count = NULL;
			r = read_ints(&s, &w->count, &nc, "an integer (wave count)", 0);
		} else {
			r = att_scan_skip(&s);
		}
		if (r)
			goto out;
	}
	if (more < 0)
		goto out;
	if (nt != nc) {
		s.pos--;
		att_scan_fail(&s, "\"time\" and \"state\" arrays of the same length");
		goto out;
	}
	if (att_scan_end(&s))
		goto out;
	w->n = nt;
	rc = 0;
out:
	sb_release(&key);
	if (rc)
		att_wstates_release(w);
	return rc;
}

int att_wstates_read(const char *path, att_wstates *w, fp_err *e)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	memset(w, 0, sizeof *w);
	int rc = att_read_file(path, &buf, &cap, &len, e);
	if (rc == 0)
		rc = att_wstates_parse(buf, len, path, w, e);
	free(buf);
	return rc;
}

void att_wstates_release(att_wstates *w)
{
	free(w->time);
	free(w->count);
	memset(w, 0, sizeof *w);
}

int64_t att_wstates_integral(const att_wstates *w, int64_t *peak)
{
	int64_t sum = 0, mx = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (w->count[i] > mx)
			mx = w->count[i];
		if (i + 1 < w->n)
			sum = (int64_t)((uint64_t)sum +
					(uint64_t)w->count[i] *
					    ((uint64_t)w->time[i + 1] - (uint64_t)w->time[i]));
	}
	if (peak)
		*peak = mx;
	return sum;
}
