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
	uint64_t v = 0; /* 19 digits fit in 64 unsigned bits; the 19th only marks "too long" */
	while (*p < len && b[*p] >= '0' && b[*p] <= '9' && *p - st < 19)
		v = v * 10 + (uint64_t)(b[(*p)++] - '0');
	if (*p == st || *p - st > 18 || (b[st] == '0' && *p - st > 1))
		return -1;
	return (int64_t)v;
}

/* "[i,...,i]" with exactly n integers at b[*p]: 1 (values in v, *p after ']') or 0. */
static int ref_row(const char *b, size_t len, int n, int64_t *v, size_t *p)
{
	if (*p >= len || b[(*p)++] != '[')
		return 0;
	for (int i = 0; i < n; i++) {
		if ((v[i] = ref_int(b, len, p)) < 0 || *p >= len ||
		    b[*p] != (i + 1 < n ? ',' : ']'))
			return 0;
		(*p)++;
	}
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

typedef const char *(*rows_fn)(const char *p, const char *end, int n, int64_t *v, size_t max_rows,
			       size_t *k);

static const char *rows_baseline(const char *p, const char *end, int n, int64_t *v, size_t max_rows,
				 size_t *k)
{
	return att_fast_rows(p, end, n, v, max_rows, k);
}

/* The same source compiled for x86-64-v3, as the readers' loops also are (ATT_FAST_CLONES:
 * the loader picks that build on a CPU that has it). */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define HAVE_ROWS_V3 1
__attribute__((target("arch=x86-64-v3"))) static const char *
rows_v3(const char *p, const char *end, int n, int64_t *v, size_t max_rows, size_t *k)
{
	return att_fast_rows(p, end, n, v, max_rows, k);
}
#endif
#endif

#if ATT_FAST_AVX2
/* The shuffle row paths, which the wave reader takes on an AVX2 CPU (rows of 5 and of 2). */
static const char *rows_avx2(const char *p, const char *end, int n, int64_t *v, size_t max_rows,
			     size_t *k)
{
	return att_fast_rows_avx2(p, end, n, v, max_rows, k);
}
#endif

/* A run of rows checked against the reference: every stored row is a valid row with the same
 * values, rows are separated by ',', and the position returned is after the last one's ']'.
 * Buffers are padded with spaces (room) so the fast path may look ahead. */
static void check_rows_with(rows_fn rows, const char *b, size_t len, size_t room, int n,
			    size_t must_take)
{
	int64_t got[64 * 8], want[8];
	size_t k = 0, p = 0;
	/* Called again after each ',' it stops at, as the wave reader does. */
	const char *q = rows(b, b + len + room, n, got, 64, &k);
	while (q && *q == ',' && k < 64) {
		size_t more = 0;
		const char *q2 = rows(q + 1, b + len + room, n, got + k * (size_t)n, 64 - k, &more);
		if (!q2)
			break;
		q = q2;
		k += more;
	}
	if (!q) {
		CHECK_INT(k, 0);
		if (must_take && ATT_FAST_ENABLED)
			t_fail(__FILE__, __LINE__, "fast rows declined %.*s", (int)len, b);
		return;
	}
	for (size_t r = 0; r < k; r++) {
		if (r > 0 && (p >= len || b[p++] != ',')) {
			t_fail(__FILE__, __LINE__, "%.*s: row %zu not after ','", (int)len, b, r);
			return;
		}
		if (!ref_row(b, len, n, want, &p)) {
			t_fail(__FILE__, __LINE__, "fast rows accepted row %zu of %.*s", r,
			       (int)len, b);
			return;
		}
		for (int i = 0; i < n; i++)
			if (got[r * (size_t)n + (size_t)i] != want[i])
				t_fail(__FILE__, __LINE__,
				       "%.*s: row %zu number %d is %lld, not %lld", (int)len, b, r,
				       i, (long long)got[r * (size_t)n + (size_t)i],
				       (long long)want[i]);
	}
	CHECK_INT(q - b, p);
	if (must_take && ATT_FAST_ENABLED)
		CHECK_INT(k, must_take);
}

/* Both builds of the fast path, where this CPU runs the x86-64-v3 one. */
static void check_rows(const char *b, size_t len, size_t room, int n, size_t must_take)
{
	check_rows_with(rows_baseline, b, len, room, n, must_take);
#ifdef HAVE_ROWS_V3
	if (__builtin_cpu_supports("x86-64-v3"))
		check_rows_with(rows_v3, b, len, room, n, must_take);
#endif
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		check_rows_with(rows_avx2, b, len, room, n, must_take);
#endif
}

TEST(att_fast_rows_match_reference_and_mutations)
{
	static const char bytes[] = " -0,]x.e[9\n";
	char b[1400];
	for (int it = 0; it < 6000; it++) {
		int n = it % 3 == 0 ? 2 : 5;
		unsigned maxd = it % 4 == 0 ? 18 : 6;
		size_t L = 0, rows = 1 + rnd(40);
		for (size_t r = 0; r < rows; r++) {
			b[L++] = '[';
			for (int i = 0; i < n; i++) {
				L += put_int(b + L, i == 0 ? maxd : 3);
				b[L++] = i + 1 < n ? ',' : ']';
			}
			b[L++] = r + 1 < rows ? ',' : ']';
		}
		memset(b + L, ' ', sizeof b - L);
		/* Runs of short rows are what the fast path is for: it must take all of them. */
		check_rows(b, L, 120, n, maxd == 6 ? rows : 0);
		char m[1400];
		memcpy(m, b, sizeof m);
		for (int k = 0; k < 1 + it % 3; k++)
			m[rnd((unsigned)L)] = bytes[rnd(sizeof bytes - 1)];
		check_rows(m, L, 120, n, 0);
		/* Within ATT_FAST_ROWS_SLACK of the end of the buffer: declined, never read past.
		 */
		size_t k = 0;
		int64_t v[64 * 8];
		if (L < ATT_FAST_ROWS_SLACK)
			CHECK(att_fast_rows(b, b + L, n, v, 64, &k) == NULL);
	}
}

/* Writes an integer of exactly d digits (1..20) at b; the first digit is 1..9 unless d is 1,
 * and the others lean to 0 and 9 (the ends of the digit range). */
static size_t put_digits(char *b, unsigned d)
{
	for (unsigned k = 0; k < d; k++) {
		unsigned r = rnd(4);
		char c = (char)('0' + (r == 0 ? 0 : r == 1 ? 9 : rnd(10)));
		b[k] = k == 0 && d > 1 && c == '0' ? (char)('1' + rnd(9)) : c;
	}
	return d;
}

/* A digit count for one column of an instruction row: mostly what a trace holds, often the
 * edges of the shapes the fast paths take (4/5 digits in the short columns; 8, 9, 16, 17 in
 * the first), sometimes anything up to 20. */
static unsigned row_digits(int col)
{
	static const unsigned first[] = {1, 5, 6, 8, 9, 12, 15, 16, 17, 18};
	static const unsigned rest[] = {1, 1, 2, 3, 4, 4, 5, 1};
	unsigned r = rnd(16);
	if (r == 0)
		return 1 + rnd(20);
	return col == 0 ? first[rnd(10)] : rest[rnd(8)];
}

/* Rows of n integers (5: instruction rows, 6: occupancy events) of every length per column
 * (1..20 digits), runs of them and single ones at every offset of a window, then each changed at
 * one byte to something the general path handles differently (a sign, whitespace, a leading
 * zero, an empty or extra number, another separator): every build of the fast path against the
 * reference. Runs of rows that are valid, short enough for one 32-byte classification and of at
 * most 16 digits a number must be taken whole. Then the bad rows, each after a valid row so
 * that the fast path is inside a run when it meets it. */
static void row_shapes(int n, const char *const *bad, size_t n_bad)
{
	static const char bytes[] = " -0,]x.e[9\n\t+";
	char b[1600], m[1600];
	for (int it = 0; it < 20000; it++) {
		size_t L = 0, rows = 1 + rnd(it % 2 ? 3 : 30);
		int take = 1;
		L = rnd(40); /* rows start at any offset of the caller's buffer */
		memset(b, ' ', L);
		size_t at = L;
		for (size_t r = 0; r < rows; r++) {
			size_t row0 = L;
			b[L++] = '[';
			for (int i = 0; i < n; i++) {
				unsigned d = row_digits(i);
				take &= d <= 16;
				L += put_digits(b + L, d);
				b[L++] = i + 1 < n ? ',' : ']';
			}
			take &= L - row0 - 2 <= 31;
			b[L++] = r + 1 < rows ? ',' : ']';
		}
		memset(b + L, ' ', sizeof b - L);
		check_rows(b + at, L - at, 120, n, take ? rows : 0);
		memcpy(m, b, sizeof m);
		size_t where = at + 1 + rnd((unsigned)(L - at - 1));
		int first_digit = (m[where - 1] == ',' || m[where - 1] == '[') && m[where] >= '0' &&
				  m[where] <= '9';
		if (first_digit && rnd(3) == 0) { /* a leading zero: "0" + the number */
			memmove(m + where + 1, b + where, L - where);
			m[where] = '0';
		} else {
			m[where] = bytes[rnd(sizeof bytes - 1)];
		}
		check_rows(m + at, L - at + 1, 120, n, 0);
	}
	char z[256];
	for (size_t i = 0; i < n_bad; i++) {
		int len = snprintf(z, sizeof z,
				   n == 5 ? "[7,6,5,4,3],%s,[1,2,3,4,5]]"
					  : "[7,6,5,4,3,2],%s,[1,2,3,4,5,6]]",
				   bad[i]);
		memset(z + len, ' ', sizeof z - (size_t)len);
		check_rows(z, (size_t)len, 150, n, 0);
	}
}

TEST(att_fast_rows_instruction_shapes)
{
	/* Zero is one digit; "0" followed by a digit is not a number. */
	char z[256];
	memset(z, ' ', sizeof z);
	memcpy(z, "[0,0,0,0,0],[10,0,0,0,0]", 24);
	check_rows(z, 24, 200, 5, 2);
	static const char *const bad[] = {
	    "[,1,2,3,4]",      "[1,,2,3,4]",	  "[1,2,3,4,]",
	    "[1,2,3,4]",       "[1,2,3,4,5,6]",	  "[-1,2,3,4,5]",
	    "[1,-2,3,4,5]",    "[1,2,3,4,5 ]",	  "[ 1,2,3,4,5]",
	    "[1.5,2,3,4,5]",   "[1e5,2,3,4,5]",	  "[1,2,3,4,5",
	    "[01,2,3,4,5]",    "[1,2,3,4,00]",	  "[1,2,03,4,5]",
	    "[1,2,3,4,5,]",    "[,,,,]",	  "[]",
	    "[1,2,3,4,5]]",    "[1,2,3,4,5][",	  "[12345678901234567,1,2,3,4]",
	    "[1,12345,1,1,1]", "[1,1,1,1,12345]", "[1;2,3,4,5]"};
	row_shapes(5, bad, sizeof bad / sizeof *bad);
}

/* The same for rows of 6 (occupancy events, the AVX2 path of att_fast_rows56_avx2): the sixth
 * number is read apart from the shuffle, so its shapes are the edges here. */
TEST(att_fast_rows_occupancy_shapes)
{
	char z[256];
	memset(z, ' ', sizeof z);
	memcpy(z, "[0,0,0,0,0,0],[10,0,0,0,0,9999],[54112,0,3,0,1,1]", 49);
	check_rows(z, 49, 200, 6, 3);
	static const char *const bad[] = {"[,1,2,3,4,5]",
					  "[1,2,3,4,,5]",
					  "[1,2,3,4,5,]",
					  "[1,2,3,4,5]",
					  "[1,2,3,4,5,6,7]",
					  "[1,2,3,4,5,-6]",
					  "[1,2,3,4,5,6 ]",
					  "[1,2,3,4,5 ,6]",
					  "[1,2,3,4,5,6",
					  "[1,2,3,4,5,00]",
					  "[1,2,3,4,5,01]",
					  "[1,2,3,4,05,6]",
					  "[1,2,3,4,5,6]]",
					  "[1,2,3,4,5,6][",
					  "[12345678901234567,1,2,3,4,5]",
					  "[1,12345,1,1,1,1]",
					  "[1,1,1,1,1,12345]",
					  "[1,1,1,1,1,1e5]",
					  "[1,2,3,4,5;6]",
					  "[,,,,,]",
					  "[1,2,3,4,5,6,]",
					  "[1,2,3,4,5,123456789]",
					  "[1,2,3,4,5,6],,[1,2,3,4,5,6]"};
	row_shapes(6, bad, sizeof bad / sizeof *bad);
}

/* Rows of 2 (a timeline's [state, duration], a waitcnt's [producer, 0]) with 1..20 digits per
 * number, at any offset, and each changed at one byte: against the reference. Runs of valid
 * rows with numbers of at most 16 digits must be taken whole. */
TEST(att_fast_rows_pair_shapes)
{
	static const char bytes[] = " -0,]x.e[9\n\t+";
	static const unsigned lens[] = {1, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17};
	char b[1600], m[1600];
	for (int it = 0; it < 20000; it++) {
		size_t rows = 1 + rnd(it % 2 ? 3 : 40);
		int take = 1;
		size_t L = rnd(64), at = L;
		memset(b, ' ', L);
		for (size_t r = 0; r < rows; r++) {
			b[L++] = '[';
			for (int i = 0; i < 2; i++) {
				unsigned d = rnd(8) == 0 ? 1 + rnd(20) : lens[rnd(12)];
				take &= d <= 16;
				L += put_digits(b + L, d);
				b[L++] = i == 0 ? ',' : ']';
			}
			b[L++] = r + 1 < rows ? ',' : ']';
		}
		memset(b + L, ' ', sizeof b - L);
		check_rows(b + at, L - at, 120, 2, take ? rows : 0);
		memcpy(m, b, sizeof m);
		size_t where = at + 1 + rnd((unsigned)(L - at - 1));
		int first_digit = (m[where - 1] == ',' || m[where - 1] == '[') && m[where] >= '0' &&
				  m[where] <= '9';
		if (first_digit && rnd(3) == 0) {
			memmove(m + where + 1, b + where, L - where);
			m[where] = '0';
		} else {
			m[where] = bytes[rnd(sizeof bytes - 1)];
		}
		check_rows(m + at, L - at + 1, 120, 2, 0);
	}
	static const char *const bad[] = {
	    "[,1]",	     "[1,]",	     "[1]",	 "[1,2,3]",
	    "[01,2]",	     "[1,02]",	     "[-1,2]",	 "[1, 2]",
	    "[1,2 ]",	     "[1.0,2]",	     "[1,,2]",	 "[]",
	    "[1,2]]",	     "[1,2][",	     "[1;2]",	 "[123456789,1]",
	    "[1,123456789]", "[0,0],[00,1]", "[1,,2,3]", "[1,2,,3]",
	    "[1,2],,[3,4]",  "[1,2],[3,4],"};
	/* Each inside a long run, after 0..9 valid rows: at every place of a 64-byte window,
	 * with whole windows of valid rows around it (the rows of a window are checked at once). */
	char y[512];
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		for (int before = 0; before < 10; before++) {
			size_t n = 0;
			for (int r = 0; r < before; r++)
				n += (size_t)sprintf(y + n, "[7,6],");
			n += (size_t)sprintf(y + n, "%s", bad[i]);
			for (int r = 0; r < 14; r++)
				n += (size_t)sprintf(y + n, ",[%d,2%d]", r, r);
			y[n++] = ']';
			memset(y + n, ' ', sizeof y - n);
			check_rows(y, n, 150, 2, 0);
		}
}

/* Near the end of the buffer every build declines, and never reads past it: the buffer is
 * allocated to its exact size, so ASan (make asan) sees any byte read beyond. */
TEST(att_fast_rows_stop_before_the_end)
{
	const char *row = "[54164,1,0,4,1],";
	for (size_t L = 16; L < 400; L += 16) {
		char *b = malloc(L);
		for (size_t i = 0; i < L; i += 16)
			memcpy(b + i, row, 16);
		b[L - 1] = ']';
		int64_t v[64 * 8];
		size_t k = 0;
		const char *q = att_fast_rows(b, b + L, 5, v, 64, &k);
		CHECK(q == NULL || (q > b && q < b + L && k > 0 && v[0] == 54164));
#if ATT_FAST_AVX2
		if (att_fast_have_avx2()) {
			q = att_fast_rows_avx2(b, b + L, 5, v, 64, &k);
			CHECK(q == NULL || (q > b && q < b + L && k > 0 && v[0] == 54164));
			if (L > 2 * ATT_FAST_ROW5_SLACK)
				CHECK(q != NULL && k >= (L - ATT_FAST_ROW5_SLACK) / 16);
			if (L <= ATT_FAST_ROW5_SLACK)
				CHECK(q == NULL);
		}
#endif
		free(b);
	}
}

typedef const char *(*list_fn)(const char *p, const char *end, int64_t *v, size_t cap, size_t *n);

static const char *list_baseline(const char *p, const char *end, int64_t *v, size_t cap, size_t *n)
{
	return att_fast_list_any(p, end, v, cap, n);
}

#ifdef HAVE_ROWS_V3
__attribute__((target("arch=x86-64-v3"))) static const char *
list_v3(const char *p, const char *end, int64_t *v, size_t cap, size_t *n)
{
	return att_fast_list_any(p, end, v, cap, n);
}
#endif

#if ATT_FAST_AVX2
static const char *list_avx2(const char *p, const char *end, int64_t *v, size_t cap, size_t *n)
{
	return att_fast_list_avx2(p, end, v, cap, n);
}
#endif

/* The list path against the reference: every stored value and the returned position. */
static void check_list_with(list_fn list, const char *b, size_t len, size_t room)
{
	int64_t got[512];
	size_t k = 0;
	const char *q = list(b, b + len + room, got, 512, &k);
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

static void check_list(const char *b, size_t len, size_t room)
{
	check_list_with(list_baseline, b, len, room);
#ifdef HAVE_ROWS_V3
	if (__builtin_cpu_supports("x86-64-v3"))
		check_list_with(list_v3, b, len, room);
#endif
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		check_list_with(list_avx2, b, len, room);
#endif
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
	/* Lists as a wave state file holds them (numbers of 1..2 digits, 5..6, or any length),
	 * with a number's first digit made '0' or a byte changed: against the reference. */
	for (int it = 0; it < 6000; it++) {
		size_t L = 0;
		int count = 1 + (int)rnd(300), kind = it % 3;
		for (int i = 0; i < count; i++) {
			unsigned d = kind == 0 ? 1 + rnd(2) : kind == 1 ? 5 + rnd(2) : 1 + rnd(18);
			L += put_digits(b + L, d);
			int more = i + 1 < count && L < 1700; /* b holds 2000 bytes */
			b[L++] = more ? ',' : ']';
			if (!more)
				break;
		}
		memset(b + L, ' ', sizeof b - L);
		check_list(b, L, 120);
		char m[2000];
		memcpy(m, b, sizeof m);
		size_t where = rnd((unsigned)L);
		if (rnd(2) && (where == 0 || m[where - 1] == ',') && m[where + 1] >= '0' &&
		    m[where + 1] <= '9')
			m[where] = '0';
		else
			m[where] = bytes[rnd(sizeof bytes - 1)];
		check_list(m, L, 120);
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
