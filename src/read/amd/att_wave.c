#include "read/amd/att_wave.h"

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/amd/att_fastint.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

void att_wave_init(att_wave *w)
{
	memset(w, 0, sizeof *w);
	w->begin = w->end = w->cu = w->id = w->simd = w->slot = -1;
}

void att_wave_release(att_wave *w)
{
	free(w->insts);
	free(w->timeline);
	free(w->waits);
	memset(w, 0, sizeof *w);
}

static inline void ws(att_scan *s)
{
	while (s->pos < s->len) {
		char c = s->buf[s->pos];
		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return;
		s->pos++;
	}
}

/* Consumes c (after whitespace) and returns 1, or returns 0 and consumes nothing. */
static inline int eat(att_scan *s, char c)
{
	ws(s);
	if (s->pos < s->len && s->buf[s->pos] == c) {
		s->pos++;
		return 1;
	}
	return 0;
}

/* The common case (up to 18 digits, no sign oddities) inline; everything else, errors included,
 * goes through att_scan_i64 which re-reads from the same position. */
static inline int fast_i64(att_scan *s, int64_t *out, const char *what)
{
	ws(s);
	const char *b = s->buf;
	size_t p = s->pos, n = s->len, st;
	int neg = 0;
	if (p < n && b[p] == '-') {
		neg = 1;
		p++;
	}
	st = p;
	uint64_t v = 0;
	while (p < n && (unsigned)(b[p] - '0') < 10 && p - st < 18) {
		v = v * 10 + (unsigned)(b[p] - '0');
		p++;
	}
	if (p == st || (b[st] == '0' && p - st > 1) ||
	    (p < n && ((unsigned)(b[p] - '0') < 10 || b[p] == '.' || b[p] == 'e' || b[p] == 'E')))
		return att_scan_i64(s, out, what);
	*out = neg ? -(int64_t)v : (int64_t)v;
	s->pos = p;
	return 0;
}

/* Skips optional trailing columns of a row and its closing ']'. */
static int row_tail(att_scan *s, const char *expected)
{
	for (;;) {
		if (eat(s, ']'))
			return 0;
		if (!eat(s, ','))
			return att_scan_fail(s, expected);
		if (att_scan_skip(s))
			return -1;
	}
}

/* [v0, v1, ..., v(n-1) (, extra...)] */
static int int_row(att_scan *s, int64_t *v, int n, const char *row_what, const char *const *what)
{
	if (!eat(s, '['))
		return att_scan_fail(s, row_what);
	for (int i = 0; i < n; i++) {
		if (i > 0 && !eat(s, ','))
			return att_scan_fail(s, row_what);
		if (fast_i64(s, &v[i], what[i]))
			return -1;
	}
	return row_tail(s, "',' or ']' closing the row");
}

/* The common shape of a row, "[int,int,...]" with exactly n integers and no whitespace, parsed
 * in one tight loop. Returns the position after ']' or NULL when the row is anything else
 * (whitespace, extra columns, long numbers, errors): the caller then re-reads the same row
 * with the general, error-reporting path, so this never decides what is malformed. */
#define QUICK_ROW_MAX (2 + 5 * 20) /* '[' + 5 x (sign, 18 digits, separator) + slack */
#define ROW_BATCH     64	   /* rows taken from att_fast_rows per call */

static inline __attribute__((always_inline)) const char *quick_row(const char *p, const char *end,
								   int64_t *v, int n)
{
	/* Far from the end of the buffer no bounds check is needed inside the row: every loop
	 * below stops within QUICK_ROW_MAX bytes. Near the end, the general path reads it. */
	if (end - p < QUICK_ROW_MAX || *p != '[')
		return NULL;
	p++;
	for (int i = 0; i < n; i++) {
		int neg = *p == '-';
		p += neg;
		const char *st = p;
		uint64_t x = 0;
		while ((unsigned)(*p - '0') < 10 && p - st < 18)
			x = x * 10 + (unsigned)(*p++ - '0');
		if (p == st || (*st == '0' && p - st > 1))
			return NULL;
		v[i] = neg ? -(int64_t)x : (int64_t)x;
		if (*p != (i + 1 < n ? ',' : ']'))
			return NULL;
		p++;
	}
	return p;
}

/* Iterates the rows of an array of n-integer rows: fast path first, general path on anything
 * unusual. Rows are stored straight into *v (n int64 each, *count used, *cap allocated: an
 * array of structs of n int64 fields), grown ROW_BATCH rows ahead of the fast path. The general
 * path requires the first `need` integers of a row (need <= n; the rest of the row is skipped,
 * and its slots are left unset). */
typedef const char *(*fast_rows_fn)(const char *p, const char *end, int n, int64_t *v,
				    size_t max_rows, size_t *k);

static inline __attribute__((always_inline)) int
int_rows_with(fast_rows_fn fast_rows, att_scan *s, int n, int need, const char *row_what,
	      const char *const *what, void **v, size_t *count, size_t *cap)
{
	const size_t row = (size_t)n * sizeof(int64_t);
	const char *end = s->buf + s->len;
	int first = 1, more;
	for (;;) {
		if (*cap < *count + ROW_BATCH)
			*v = xgrow(*v, cap, *count + ROW_BATCH, row);
		int64_t *out = (int64_t *)((char *)*v + *count * row);
		const char *p = s->buf + s->pos;
		if (p < end && *p == (first ? '[' : ',')) {
			const char *r = first ? p : p + 1;
			size_t k = 0;
			const char *q = fast_rows(r, end, n, out, ROW_BATCH, &k);
			if (!q && (q = quick_row(r, end, out, n)) != NULL)
				k = 1;
			if (q) {
				*count += k;
				s->pos = (size_t)(q - s->buf);
				first = 0;
				continue;
			}
		}
		more = att_scan_next(s, ']', &first);
		if (more != 1)
			return more;
		if (int_row(s, out, need, row_what, what))
			return -1;
		(*count)++;
	}
}

static inline __attribute__((always_inline)) int int_rows(att_scan *s, int n, int need,
							  const char *row_what,
							  const char *const *what, void **v,
							  size_t *count, size_t *cap)
{
	return int_rows_with(att_fast_rows, s, n, need, row_what, what, v, count, cap);
}

_Static_assert(sizeof(att_wave_inst) == 5 * sizeof(int64_t), "a row of 5 integers");
_Static_assert(sizeof(att_wave_state) == 2 * sizeof(int64_t), "a row of 2 integers");

static const char *const inst_what[5] = {
    "an integer (instruction time)", "an integer (instruction category)",
    "an integer (instruction stall)", "an integer (instruction duration)",
    "an integer (instruction code line)"};
#define INST_ROW "an instruction [time, category, stall, duration, line]"

ATT_FAST_CLONES static int read_instructions_any(att_scan *s, att_wave *w)
{
	return int_rows(s, 5, 5, INST_ROW, inst_what, (void **)&w->insts, &w->n_insts,
			&w->cap_insts);
}

#if ATT_FAST_AVX2
/* The same with the shuffle row path, on a CPU with AVX2. */
ATT_FAST_AVX2_FN static int read_instructions_avx2(att_scan *s, att_wave *w)
{
	return int_rows_with(att_fast_rows_avx2, s, 5, 5, INST_ROW, inst_what, (void **)&w->insts,
			     &w->n_insts, &w->cap_insts);
}
#endif

static int read_instructions(att_scan *s, att_wave *w)
{
	if (att_scan_expect(s, '[', "an array of instructions"))
		return -1;
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		return read_instructions_avx2(s, w);
#endif
	return read_instructions_any(s, w);
}

static const char *const state_what[2] = {"an integer (state)", "an integer (state duration)"};
#define STATE_ROW "a timeline entry [state, duration]"

ATT_FAST_CLONES static int read_timeline_any(att_scan *s, att_wave *w)
{
	return int_rows(s, 2, 2, STATE_ROW, state_what, (void **)&w->timeline, &w->n_timeline,
			&w->cap_timeline);
}

#if ATT_FAST_AVX2
ATT_FAST_AVX2_FN static int read_timeline_avx2(att_scan *s, att_wave *w)
{
	return int_rows_with(att_fast_rows_avx2, s, 2, 2, STATE_ROW, state_what,
			     (void **)&w->timeline, &w->n_timeline, &w->cap_timeline);
}
#endif

static int read_timeline(att_scan *s, att_wave *w)
{
	if (att_scan_expect(s, '[', "an array of [state, duration]"))
		return -1;
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		return read_timeline_avx2(s, w);
#endif
	return read_timeline_any(s, w);
}

_Static_assert(sizeof(att_wave_wait) == 2 * sizeof(int64_t), "a row of 2 integers");

/* [[producer, 0], ...]: the rows are read into the wait slots as they stand (the second
 * element is not used; only the producer is required), then each becomes (wait_line,
 * producer). */
static const char *const producer_what[1] = {"an integer (producer code line)"};
#define PRODUCER_ROW "a producer [line, 0]"

ATT_FAST_CLONES static int read_producer_rows_any(att_scan *s, att_wave *w)
{
	return int_rows(s, 2, 1, PRODUCER_ROW, producer_what, (void **)&w->waits, &w->n_waits,
			&w->cap_waits);
}

#if ATT_FAST_AVX2
ATT_FAST_AVX2_FN static int read_producer_rows_avx2(att_scan *s, att_wave *w)
{
	return int_rows_with(att_fast_rows_avx2, s, 2, 1, PRODUCER_ROW, producer_what,
			     (void **)&w->waits, &w->n_waits, &w->cap_waits);
}
#endif

static int read_producers(att_scan *s, att_wave *w, int64_t wait_line)
{
	if (att_scan_expect(s, '[', "a list of producers [[line, 0], ...]"))
		return -1;
	size_t from = w->n_waits;
#if ATT_FAST_AVX2
	int rc =
	    att_fast_have_avx2() ? read_producer_rows_avx2(s, w) : read_producer_rows_any(s, w);
#else
	int rc = read_producer_rows_any(s, w);
#endif
	for (size_t i = from; i < w->n_waits; i++) {
		w->waits[i].producer_line = w->waits[i].wait_line;
		w->waits[i].wait_line = wait_line;
	}
	return rc;
}

/* A JSON integer without sign of at most 18 digits at p, far enough from the end of the buffer
 * (the loop stops within 19 bytes): the position after it, or NULL. */
static inline const char *quick_uint(const char *p, int64_t *out)
{
	const char *st = p;
	uint64_t x = 0;
	while ((unsigned)(*p - '0') < 10 && p - st < 18)
		x = x * 10 + (unsigned)(*p++ - '0');
	if (p == st || (*st == '0' && p - st > 1))
		return NULL;
	*out = (int64_t)x;
	return p;
}

#define QUICK_WAIT_ROOM 48 /* bytes a waitcnt header "[line,[" or row "[p,0]," may take */

/* The common shape of a waitcnt entry, "[line,[[p,i],[p,i],...]]" without whitespace, read
 * in one pass instead of a scanner call per bracket (most entries name one producer, so the
 * calls were most of the cost). p at the entry's '['; the producers are stored after the
 * wave's waits and counted only when the whole entry was read. Returns the position after
 * the entry's ']' or NULL when the entry is anything else (the general path re-reads it). */
static const char *quick_wait(const char *p, const char *end, att_wave *w)
{
	int64_t line, prod, second;
	if (end - p < QUICK_WAIT_ROOM || *p != '[' || !(p = quick_uint(p + 1, &line)) ||
	    p[0] != ',' || p[1] != '[')
		return NULL;
	p += 2;
	size_t n = w->n_waits;
	for (;;) {
		if (end - p < QUICK_WAIT_ROOM || *p != '[' || !(p = quick_uint(p + 1, &prod)) ||
		    *p != ',' || !(p = quick_uint(p + 1, &second)) || *p != ']')
			return NULL;
		if (n == w->cap_waits)
			w->waits = xgrow(w->waits, &w->cap_waits, n + 1, sizeof *w->waits);
		w->waits[n].wait_line = line;
		w->waits[n].producer_line = prod;
		n++;
		if (p[1] == ']')
			break;
		if (p[1] != ',')
			return NULL;
		p += 2;
	}
	if (p[2] != ']')
		return NULL;
	w->n_waits = n;
	return p + 3;
}

static int read_waitcnt(att_scan *s, att_wave *w)
{
	if (att_scan_expect(s, '[', "an array of [line, [[producer, 0], ...]]"))
		return -1;
	int first = 1, more;
	for (;;) {
		const char *p = s->buf + s->pos, *end = s->buf + s->len, *q;
		if (p < end && *p == (first ? '[' : ',') &&
		    (q = quick_wait(first ? p : p + 1, end, w)) != NULL) {
			s->pos = (size_t)(q - s->buf);
			first = 0;
			continue;
		}
		if ((more = att_scan_next(s, ']', &first)) != 1)
			break;
		int64_t line;
		if (att_scan_expect(s, '[', "a waitcnt entry [line, [[producer, 0], ...]]") ||
		    fast_i64(s, &line, "an integer (waitcnt code line)") ||
		    att_scan_expect(s, ',', "',' after the waitcnt line") ||
		    read_producers(s, w, line) || row_tail(s, "']' closing the waitcnt entry"))
			return -1;
	}
	return more;
}

static int wave_member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	att_wave *w = ctx;
	int64_t *dst = NULL;
	/* By the first byte, then one comparison (a chain of comparisons per key was ~2% of
	 * `bubbles`: nine keys a file, 2,000 files a dispatch). */
	switch (k[0]) {
	case 'b':
		dst = strcmp(k, "begin") == 0 ? &w->begin : NULL;
		break;
	case 'c':
		dst = strcmp(k, "cu") == 0 ? &w->cu : NULL;
		break;
	case 'e':
		dst = strcmp(k, "end") == 0 ? &w->end : NULL;
		break;
	case 'i':
		if (strcmp(k, "instructions") == 0)
			return read_instructions(s, w);
		dst = strcmp(k, "id") == 0 ? &w->id : NULL;
		break;
	case 's':
		dst = strcmp(k, "simd") == 0 ? &w->simd : strcmp(k, "slot") == 0 ? &w->slot : NULL;
		break;
	case 't':
		if (strcmp(k, "timeline") == 0)
			return read_timeline(s, w);
		break;
	case 'w':
		if (strcmp(k, "waitcnt") == 0)
			return read_waitcnt(s, w);
		break;
	}
	if (dst)
		return att_scan_i64(s, dst, "an integer");
	return att_scan_skip(s);
}

typedef struct wave_doc {
	att_wave *w;
	int seen; /* a "wave" member was read */
} wave_doc;

static int doc_member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	wave_doc *d = ctx;
	if (strcmp(k, "wave") != 0)
		return att_scan_skip(s);
	d->seen = 1;
	return att_scan_object(s, "an object (\"wave\")", scratch, wave_member, d->w);
}

static void reset(att_wave *w)
{
	w->begin = w->end = w->cu = w->id = w->simd = w->slot = -1;
	w->n_insts = w->n_timeline = w->n_waits = 0;
}

int att_wave_parse(const char *buf, size_t len, const char *name, att_wave *w, fp_err *e)
{
	reset(w);
	wave_doc d = {w, 0};
	if (att_scan_doc(name, 0, buf, len, "an object (a wave file)", doc_member, &d, e))
		return -1;
	if (!d.seen || w->begin < 0 || w->end < 0) {
		att_scan s;
		att_scan_init(&s, buf, len, name, e); /* the error is the document's, at byte 0 */
		return att_scan_fail(&s, d.seen ? "wave.begin and wave.end" : "a \"wave\" object");
	}
	return 0;
}
