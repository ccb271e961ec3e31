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

/* Where read_ints puts the integers: all of them in *v (NULL), or a chunk at a time to fn,
 * *v holding one chunk (then the array's own checks are fn's). */
typedef struct ints_fold {
	void (*fn)(void *ctx, const int64_t *v, size_t n);
	void *ctx;
} ints_fold;

#define FOLD_CHUNK 4096

ATT_FAST_CLONES static int read_ints(att_scan *s, int64_t **v, size_t *n, const char *what,
				     int monotone, const ints_fold *fold)
{
	/* At most one integer per two bytes: reserve that once (only touched pages cost; in huge
	 * pages when large). */
	size_t cap = fold ? FOLD_CHUNK : (s->len - s->pos) / 2 + 1, bytes = 0;
	free(*v);
	if (fold)
		*v = xreallocarray(NULL, cap, sizeof **v);
	else if (cap > SIZE_MAX / sizeof **v)
		*v = xreallocarray(NULL, cap, sizeof **v); /* fails as it did */
	else
		*v = xmalloc_huge(cap * sizeof **v, &bytes), cap = bytes / sizeof **v;
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
		if (*n == cap && fold) {
			fold->fn(fold->ctx, *v, *n);
			*n = 0;
		} else if (*n == cap) {
			*v = xgrow(*v, &cap, *n + 1, sizeof **v);
		}
		if (att_scan_i64(s, &(*v)[*n], what))
			return -1;
		(*n)++;
	}
	if (more < 0)
		return -1;
	if (fold) {
		fold->fn(fold->ctx, *v, *n);
		return 0;
	}
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
			r = read_ints(&s, &w->time, &nt, "an integer (time)", 1, NULL);
		} else if (strcmp(k, "state") == 0) {
			free(w->count);
			w->count = NULL;
			r = read_ints(&s, &w->count, &nc, "an integer (wave count)", 0, NULL);
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

/* att_wstates_read_integral's pass: the first of "time" and "state" kept, the other folded into
 * the integral as it is read, chunk by chunk (the same terms in the same order as
 * att_wstates_integral adds them). */
typedef struct ws_stream {
	const int64_t *kept; /* the first array */
	size_t n_kept, i;    /* i: how many of the second array were folded */
	int64_t prev;	     /* the last time folded (time second) */
	uint64_t sum;
	int64_t peak;
	int bad; /* a time decreased */
} ws_stream;

/* time kept, the wave counts folded (in locals: through w the compiler would reload them around
 * every store). More counts than times is a document the full parse answers (bad). */
static void fold_counts(void *ctx, const int64_t *v, size_t n)
{
	ws_stream *w = ctx;
	const int64_t *t = w->kept;
	size_t i = w->i, nt = w->n_kept, k = 0;
	uint64_t sum = w->sum;
	int64_t peak = w->peak;
	for (; k < n && i + 1 < nt; k++, i++) {
		peak = v[k] > peak ? v[k] : peak;
		sum += (uint64_t)v[k] * ((uint64_t)t[i + 1] - (uint64_t)t[i]);
	}
	for (; k < n; k++, i++) /* the last count (no interval after it), or one too many */
		peak = v[k] > peak ? v[k] : peak;
	w->i = i, w->sum = sum, w->peak = peak;
}

/* the wave counts kept, time folded */
static void fold_times(void *ctx, const int64_t *v, size_t n)
{
	ws_stream *w = ctx;
	const int64_t *c = w->kept;
	size_t i = w->i, nc = w->n_kept, k = 0;
	uint64_t sum = w->sum;
	int64_t prev = w->prev;
	int bad = w->bad;
	if (i == 0 && n) /* the first time: no interval before it */
		prev = v[k++], i++;
	/* times k.. pair with counts i - 1..: as many as both have */
	size_t room = nc + 1 > i ? nc + 1 - i : 0;
	size_t m = n - k < room ? n - k : room;
	const int64_t *cv = c + i - 1, *tv = v + k;
	for (size_t j = 0; j < m; j++) {
		bad |= tv[j] < prev;
		sum += (uint64_t)cv[j] * ((uint64_t)tv[j] - (uint64_t)prev);
		prev = tv[j];
	}
	k += m, i += m;
	if (k < n) /* more times than counts */
		bad = 1, i += n - k;
	w->i = i, w->sum = sum, w->prev = prev, w->bad = bad;
}

/* The integral and the peak of a well-formed document with one "time" and one "state": 0, or
 * -1 for anything else (malformed, a key twice, an array missing), which the full parse then
 * answers. */
static int stream_integral(const char *buf, size_t len, const char *name, int64_t *integral,
			   int64_t *peak)
{
	fp_err e = FP_ERR_INIT;
	att_scan s;
	att_scan_init(&s, buf, len, name, &e);
	strbuf key = STRBUF_INIT;
	const char *k;
	int64_t *kept = NULL, *chunk = NULL;
	size_t n_kept = 0, n_chunk = 0;
	int first = 1, more, rc = -1, kept_time = -1, folded = 0;
	ws_stream w;
	memset(&w, 0, sizeof w);
	if (att_scan_expect(&s, '{', "an object (wstates)"))
		goto out;
	while ((more = att_scan_next(&s, '}', &first)) == 1) {
		if (att_scan_key(&s, &key, &k))
			goto out;
		int is_time = strcmp(k, "time") == 0;
		if (!is_time && strcmp(k, "state") != 0) {
			if (att_scan_skip(&s))
				goto out;
			continue;
		}
		if (kept_time < 0) {
			kept_time = is_time;
			if (read_ints(&s, &kept, &n_kept, "", is_time, NULL))
				goto out;
			w.kept = kept;
			w.n_kept = n_kept;
			continue;
		}
		if (folded || is_time == kept_time)
			goto out; /* a key twice: the last one counts, as the full parse has it */
		folded = 1;
		ints_fold f = {is_time ? fold_times : fold_counts, &w};
		if (read_ints(&s, &chunk, &n_chunk, "", 0, &f))
			goto out;
	}
	if (more < 0 || !folded || w.bad || w.i != n_kept || att_scan_end(&s))
		goto out;
	if (kept_time) {
		*peak = w.peak;
	} else {
		*peak = 0;
		for (size_t i = 0; i < n_kept; i++)
			if (kept[i] > *peak)
				*peak = kept[i];
	}
	*integral = (int64_t)w.sum;
	rc = 0;
out:
	free(kept);
	free(chunk);
	sb_release(&key);
	fp_err_clear(&e);
	return rc;
}

int att_wstates_parse_integral(const char *buf, size_t len, const char *name, int64_t *integral,
			       int64_t *peak, fp_err *e)
{
	if (stream_integral(buf, len, name, integral, peak) == 0)
		return 0;
	att_wstates w;
	if (att_wstates_parse(buf, len, name, &w, e))
		return -1;
	*integral = att_wstates_integral(&w, peak);
	att_wstates_release(&w);
	return 0;
}

int att_wstates_read_integral(const char *path, int64_t *integral, int64_t *peak, fp_err *e)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int rc = att_read_file(path, &buf, &cap, &len, e);
	if (rc == 0)
		rc = att_wstates_parse_integral(buf, len, path, integral, peak, e);
	free(buf);
	return rc;
}
