/* The integer fast paths of the ATT scanner (read/amd/att_fastint.h) against a byte-at-a-time
 * reference of the JSON integer grammar, on random rows and lists and on every single-byte
 * mutation of them: the fast path may decline (NULL) but never accepts what the reference
 * rejects, never gives another value, and does take the ordinary short rows it exists for. */
#include "t.h"

#include "read/amd/att_fastint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A JSON integer without sign at b[*p], at most 18 digits: its value, or -1. */
static int64_t ref_int(const char *b, size_t len, size_t *p)
{
	size_t st = *p;
	int64_t v = 0;
	while (*p < len && b[*p] >= '0' && b[*p] <= '9' && *p - st < 19)
		v = v * 10 + (b[(*p)++] - '0');
	if (*p == st || *p - st > 18 || (b[st] == '0' && *p - st > 1))
		return -1;
	return v;
}

/* "[i,...,i]" with exactly n integers: 1 and the values and the end, or 0. */
static int ref_row(const char *b, size_t len, int n, int64_t *v, size_t *end)
{
	size_t p = 0;
	if (len < 1 || b[p++] != '[')
		return 0;
	for (int i = 0; i < n; i++) {
		if ((v[i] = ref_int(b, len, &p)) < 0 || p >= len || b[p] != (i + 1 < n ? ',' : ']'))
			return 0;
		p++;
	}
	*end = p;
	return 1;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned m)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % m);
}

/* Writes a random integer of 1..maxd digits (no leading zero) at b. */
static size_t put_int(char *b, unsigned maxd)
{
	unsigned d = 1 + rnd(maxd);
	for (unsigned k = 0; k < d; k++)
		b[k] = (char)('0' + (k == 0 && d > 1 ? 1 + rnd(9) : rnd(10)));
	return d;
}

/* Buffers are padded with spaces so the fast path may look ahead; `room` is the padding. */
static void check_row(const char *b, size_t len, size_t room, int n, int must_take)
{
	int64_t want[8], got[8];
	size_t end = 0;
	int ok = ref_row(b, len, n, want, &end);
	const char *q = att_fast_row(b, b + len + room, got, n);
	if (!ok) {
		if (q)
			t_fail(__FILE__, __LINE__, "fast row accepted %.*s", (int)len, b);
		return;
	}
	if (!q) {
		if (must_take && ATT_FAST_ENABLED)
			t_fail(__FILE__, __LINE__, "fast row declined %.*s", (int)len, b);
		return;
	}
	CHECK_INT(q - b, end);
	for (int i = 0; i < n; i++)
		if (got[i] != want[i])
			t_fail(__FILE__, __LINE__, "%.*s: number %d is %lld, expected %lld",
			       (int)len, b, i, (long long)got[i], (long long)want[i]);
}

TEST(att_fast_row_matches_reference_and_mutations)
{
	static const char bytes[] = " -0,]x.e[9\n";
	char b[160];
	for (int it = 0; it < 20000; it++) {
		int n = it % 3 == 0 ? 2 : 5;
		unsigned maxd = it % 4 == 0 ? 18 : 6;
		size_t L = 0;
		b[L++] = '[';
		for (int i = 0; i < n; i++) {
			L += put_int(b + L, i == 0 ? maxd : 3);
			b[L++] = i + 1 < n ? ',' : ']';
		}
		memset(b + L, ' ', sizeof b - L);
		/* Short rows of short numbers are what the fast path is for: it must take them. */
		check_row(b, L, 80, n, maxd == 6);
		char m[160];
		memcpy(m, b, sizeof m);
		size_t at = rnd((unsigned)L);
		m[at] = bytes[rnd(sizeof bytes - 1)];
		check_row(m, L, 80, n, 0);
		/* Too close to the end of the buffer: declined, never read past it. */
		CHECK(att_fast_row(b, b + L, (int64_t[8]){0}, n) == NULL);
	}
}

/* The list path against the reference: every stored value and the returned position. */
static void check_list(const char *b, size_t len, size_t room)
{
	int64_t got[512];
	size_t k = 0;
	const char *q = att_fast_list(b, b + len + room, got, 512, &k);
	if (!q) {
		CHECK_INT(k, 0);
		return;
	}
	size_t p = 0;
	for (size_t i = 0; i < k; i++) {
		int64_t v = ref_int(b, len, &p);
		if (v < 0 || v != got[i] || p >= len || (b[p] != ',' && b[p] != ']')) {
			t_fail(__FILE__, __LINE__, "list %.*s: element %zu is %lld", (int)len, b, i,
			       (long long)got[i]);
			return;
		}
		if (i + 1 < k) {
			if (b[p] != ',') {
				t_fail(__FILE__, __LINE__, "list %.*s: read past ']'", (int)len, b);
				return;
			}
			p++;
		}
	}
	CHECK_INT(q - b, p);
}

TEST(att_fast_list_matches_reference_and_mutations)
{
	static const char bytes[] = " -0,]x.e[9\n";
	char b[2000];
	for (int it = 0; it < 4000; it++) {
		size_t L = 0;
		int count = 1 + (int)rnd(150);
		for (int i = 0; i < count; i++) {
			L += put_int(b + L, it % 5 == 0 ? 18 : 8);
			b[L++] = i + 1 < count ? ',' : ']';
		}
		memset(b + L, ' ', sizeof b - L);
		check_list(b, L, 80);
		char m[2000];
		memcpy(m, b, sizeof m);
		for (int k = 0; k < 3; k++)
			m[rnd((unsigned)L)] = bytes[rnd(sizeof bytes - 1)];
		check_list(m, L, 80);
	}
	/* A long list of short numbers is read in windows, up to its ']'. */
	size_t L = 0;
	for (int i = 0; i < 300; i++)
		L += (size_t)sprintf(b + L, "%d%c", i, i + 1 < 300 ? ',' : ']');
	memset(b + L, ' ', 100);
	int64_t v[512];
	size_t k = 0;
	const char *q = att_fast_list(b, b + L + 100, v, 512, &k);
	if (ATT_FAST_ENABLED) {
		CHECK(q != NULL && *q == ']');
		CHECK_INT(k, 300);
		CHECK_INT(v[299], 299);
	}
}
