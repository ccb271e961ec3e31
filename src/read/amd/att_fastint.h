/* att_fastint: the fast path for the integer-only shapes that make up almost every byte of an
 * ATT trace: rows "[int,int,...]" of the wave files and long lists "int,int,...]" of the
 * wstates files.
 *
 * Why it exists: a digit-at-a-time loop (x = x * 10 + d) is one multiply-add chain per byte,
 * about 5 cycles a byte, which made the scanner the largest cost of `bubbles` (bench/RESULTS.md).
 * Here 32 bytes are classified at once (SSE2 on x86-64, one comparison per byte class), the
 * number boundaries come out of bit masks, and each number of up to 8 digits is converted with
 * three multiplies on one 64-bit word (SWAR), so the numbers of a row do not wait on each other.
 * On CPUs with AVX2 (chosen at run time, att_fast_have_avx2) a whole row goes further: one byte
 * shuffle, picked by the row's pattern of separators from tables built at start-up
 * (att_fastint.c), right-aligns the digits of all its numbers into fixed lanes, and two or three
 * multiply-adds convert them together (att_fast_rows56_avx2 for the instruction rows,
 * att_fast_rows_avx2 for rows of 2, att_fast_list_avx2 for lists): ~72 instructions an
 * instruction row against ~260 (callgrind, corpus softmax), 2.4x the scanner's speed.
 *
 * Contract, as for every fast path of the scanner: it only ever accepts input that the general
 * path (att_scan) accepts with the same values, and returns NULL for anything else (a sign,
 * whitespace, a leading zero, more than 16 digits, a row longer than its window, the last 64
 * bytes of the buffer); the caller then re-reads the same bytes with the general,
 * error-reporting path. So this never decides what is malformed, and never reads past `end`. */
#ifndef FLYPROF_READ_ATT_FASTINT_H
#define FLYPROF_READ_ATT_FASTINT_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The loops that call the fast paths are compiled twice, for baseline x86-64 and for
 * x86-64-v3 (AVX2, BMI1/2, LZCNT), and the loader picks the build the CPU runs (an ifunc): the
 * mask arithmetic is shorter with BMI's shifts and bit scans (about 10% of the wave scanner).
 * tests/unit/test_att_fastint.c checks both builds against the reference. Elsewhere, one
 * plain build. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ATT_FAST_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
#endif
#ifndef ATT_FAST_CLONES
#define ATT_FAST_CLONES
#endif

/* Bytes that must be readable after the start of a window: 32 classified + 16 for the widest
 * number load that starts inside it. */
#define ATT_FAST_SLACK 64

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ATT_FAST_ENABLED 1
#else
#define ATT_FAST_ENABLED 0
#endif

/* The row path of att_fast_rows56_avx2 below uses AVX2 byte shuffles, which the target_clones
 * build above cannot hold (its "default" clone would have to compile them too): it is a
 * separate function for AVX2 + BMI1/2 that the readers choose at run time
 * (att_fast_have_avx2). The features are named one by one, not as "x86-64-v3", because clang
 * (make fuzz) does not know that name in __builtin_cpu_supports. */
#if defined(__x86_64__) && defined(__GNUC__) && ATT_FAST_ENABLED
#define ATT_FAST_AVX2	 1
#define ATT_FAST_AVX2_FN __attribute__((target("avx2,bmi,bmi2,popcnt")))
#include <immintrin.h>
#else
#define ATT_FAST_AVX2 0
#endif

/* Masks of one 32-byte window: bit i describes byte i. */
typedef struct att_fast_masks {
	uint32_t digit, comma, close, zero;
} att_fast_masks;

static inline att_fast_masks att_fast_classify(const char *p)
{
	att_fast_masks m;
#if defined(__SSE2__)
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	/* '0'..'9' moved to -128..-119, so "is a digit" is one signed compare. */
	const __m128i shift = _mm_set1_epi8((char)(0x80 - '0')), lim = _mm_set1_epi8(-118);
	const __m128i comma = _mm_set1_epi8(','), close = _mm_set1_epi8(']');
	const __m128i zero = _mm_set1_epi8('0');
#define FI_MASK(x)     ((uint32_t)_mm_movemask_epi8(x))
#define FI_PAIR(op, k) (FI_MASK(op(a, k)) | FI_MASK(op(b, k)) << 16)
	m.digit = FI_MASK(_mm_cmplt_epi8(_mm_add_epi8(a, shift), lim)) |
		  FI_MASK(_mm_cmplt_epi8(_mm_add_epi8(b, shift), lim)) << 16;
	m.comma = FI_PAIR(_mm_cmpeq_epi8, comma);
	m.close = FI_PAIR(_mm_cmpeq_epi8, close);
	m.zero = FI_PAIR(_mm_cmpeq_epi8, zero);
#undef FI_PAIR
#undef FI_MASK
#else
	m.digit = m.comma = m.close = m.zero = 0;
	for (int i = 0; i < 32; i++) {
		unsigned char c = (unsigned char)p[i];
		m.digit |= (uint32_t)((unsigned)(c - '0') < 10) << i;
		m.comma |= (uint32_t)(c == ',') << i;
		m.close |= (uint32_t)(c == ']') << i;
		m.zero |= (uint32_t)(c == '0') << i;
	}
#endif
	return m;
}

/* Masks of one 64-byte window (bit i: byte i), for runs of short rows. */
typedef struct att_fast_masks64 {
	uint64_t digit, comma, open, close, zero;
} att_fast_masks64;

static inline __attribute__((always_inline)) att_fast_masks64 att_fast_classify64(const char *p)
{
	att_fast_masks64 m;
#if defined(__SSE2__)
	const __m128i shift = _mm_set1_epi8((char)(0x80 - '0')), lim = _mm_set1_epi8(-118);
	const __m128i comma = _mm_set1_epi8(','), open = _mm_set1_epi8('['),
		      close = _mm_set1_epi8(']'), zero = _mm_set1_epi8('0');
	m.digit = m.comma = m.open = m.close = m.zero = 0;
	for (int k = 0; k < 4; k++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
		int sh = 16 * k;
		m.digit |= (uint64_t)(uint32_t)_mm_movemask_epi8(
			       _mm_cmplt_epi8(_mm_add_epi8(x, shift), lim))
			   << sh;
		m.comma |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, comma)) << sh;
		m.open |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, open)) << sh;
		m.close |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, close)) << sh;
		m.zero |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, zero)) << sh;
	}
#else
	m.digit = m.comma = m.open = m.close = m.zero = 0;
	for (int i = 0; i < 64; i++) {
		unsigned char c = (unsigned char)p[i];
		m.digit |= (uint64_t)((unsigned)(c - '0') < 10) << i;
		m.comma |= (uint64_t)(c == ',') << i;
		m.open |= (uint64_t)(c == '[') << i;
		m.close |= (uint64_t)(c == ']') << i;
		m.zero |= (uint64_t)(c == '0') << i;
	}
#endif
	return m;
}

/* The value of the len (1..8) ASCII digits at q (SWAR; little-endian only). The 8-byte load may
 * run past the digits: those bytes are shifted out before they count. */
static inline __attribute__((always_inline)) uint64_t att_fast_digits8(const char *q, unsigned len)
{
	uint64_t x;
	memcpy(&x, q, 8);
	x -= 0x3030303030303030ull; /* a borrow from a non-digit byte only moves upwards */
	x <<= 8 * (8 - len);	    /* keep the len digits, as the low (leading-zero) end */
	x = x * 10 + (x >> 8);
	x = (((x & 0x000000FF000000FFull) * 0x000F424000000064ull) +
	     (((x >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >>
	    32;
	return x;
}

/* The same for len 1..4 with two multiplies instead of three: most numbers of a trace row are
 * that short (category, stall, duration, line), and per column the branch is predictable. */
static inline __attribute__((always_inline)) uint64_t att_fast_digits4(const char *q, unsigned len)
{
	uint32_t x;
	memcpy(&x, q, 4);
	x -= 0x30303030u;
	x <<= 8 * (4 - len);
	x = x * 10 + (x >> 8);
	return ((x & 0x00FF00FFu) * 0x00640001u) >> 16;
}

/* 1..16 digits at q. */
static inline __attribute__((always_inline)) uint64_t att_fast_digits16(const char *q, unsigned len)
{
	if (len <= 4)
		return att_fast_digits4(q, len);
	if (len <= 8)
		return att_fast_digits8(q, len);
	return att_fast_digits8(q, len - 8) * 100000000u + att_fast_digits8(q + len - 8, 8);
}

/* The n integers of one row whose bytes q[0..e) are digits and commas (ends: a bit at each
 * comma and at e, the ']'; every number non-empty) into row: 1, or 0 when there are not
 * exactly n numbers or one is longer than 16 digits. */
static inline __attribute__((always_inline)) int att_fast_row_ints(const char *q, uint64_t ends,
								   unsigned e, int n, int64_t *row)
{
	unsigned s = 0;
	for (int i = 0; i < n; i++) {
		if (!ends)
			return 0; /* fewer than n numbers */
		unsigned t = (unsigned)__builtin_ctzll(ends);
		if (t - s > 16)
			return 0;
		row[i] = (int64_t)att_fast_digits16(q + s, t - s);
		ends &= ends - 1;
		s = t + 1;
	}
	return s == e + 1; /* not more than n numbers */
}

/* Bytes that must be readable after the start of a 64-byte window of rows. */
#define ATT_FAST_ROWS_SLACK 96

/* A run of rows "[i,...,i],[i,...,i],..." (n <= 8 integers each), p at the first row's '['.
 * Every row that lies wholly inside a 64-byte window is read from that window's masks, so short
 * rows (a wave's timeline, a waitcnt's producers) share one classification. Stores at most
 * max_rows rows (n values each) into v, sets *k, and returns the position after the last
 * stored row's ']' (at the ',' or ']' that follows it), or NULL when none was stored. */
static inline __attribute__((always_inline)) const char *
att_fast_rows(const char *p, const char *end, int n, int64_t *v, size_t max_rows, size_t *k)
{
	*k = 0;
	const char *last = NULL;
#if ATT_FAST_ENABLED
	while (end - p >= ATT_FAST_ROWS_SLACK && *k < max_rows) {
		att_fast_masks64 m = att_fast_classify64(p);
		unsigned r = 0; /* the current row's '[' in the window */
		for (;;) {
			if (r >= 62 || !(m.open >> r & 1) || *k >= max_rows)
				break;
			unsigned o = r + 1; /* the row's first byte */
			uint64_t cl = m.close >> o;
			if (!cl)
				break; /* the row ends in the next window */
			unsigned e = (unsigned)__builtin_ctzll(cl);
			uint64_t valid = (1ull << e) - 1, dg = m.digit >> o;
			uint64_t commas = m.comma >> o & valid, ends = commas | 1ull << e;
			if (((dg | commas) & valid) != valid || (dg << 1 & ends) != ends ||
			    ((1u | commas << 1) & m.zero >> o & dg >> 1))
				return last;
			const char *q = p + o;
			if (!att_fast_row_ints(q, ends, e, n, v + *k * (size_t)n))
				return last;
			(*k)++;
			last = q + e + 1;
			unsigned next = o + e + 1; /* the byte after ']' */
			if (next > 63 || !(m.comma >> next & 1))
				return last; /* the end of the array, or anything unusual */
			r = next + 1;
		}
		if (!last || r == 0)
			break; /* no row ends inside this window: the general path reads it */
		p += r;
	}
#else
	(void)p;
	(void)end;
	(void)n;
	(void)v;
	(void)max_rows;
#endif
	return last;
}

#if ATT_FAST_AVX2
/* Whether this CPU runs the ATT_FAST_AVX2_FN builds. */
static inline int att_fast_have_avx2(void)
{
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	       __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}

/* Tables of att_fastint.c. att_fast_tail16 + L (L = 1..16) is the shuffle that right-aligns the
 * first L bytes of a 16-byte lane (-128: a zero byte). A 5-integer row "[t,a,b,c,d]" is split
 * into t and the tail "a,b,c,d]"; att_fast_row5_id[key] (key: a bit at each comma and at the
 * ']' of the tail, from its first byte) is the id of the tail's shape, 0 when it is not one of
 * 1..4 digits per number within 16 bytes, and att_fast_row5_shuf[id] right-aligns a, b, c, d
 * into four 4-byte lanes. */
#define ATT_FAST_ROW5_KEY_BITS 17
extern const int8_t att_fast_tail16[32];
extern uint8_t att_fast_row5_id[1u << ATT_FAST_ROW5_KEY_BITS];
extern int8_t att_fast_row5_shuf[256][16];

/* The compiler forgets what v holds (a constant kept in a register, not rebuilt). */
#define ATT_FAST_OPAQUE(v) __asm__("" : "+x"(v))

/* Bytes that must be readable after the '[' of a row the AVX2 path reads. */
#define ATT_FAST_ROW5_SLACK 64

/* att_fast_rows for AVX2, with the same contract, for rows of n = 5 (the instruction rows,
 * almost every byte of a trace) or 6 (occupancy.json's [time, cu, simd, slot, start, kernel]),
 * one row at a time: one 32-byte classification at the row gives its ']' and validity, and the
 * digits of the first number (1..16) and the next four (1..4 each) are right-aligned into fixed
 * lanes by one shuffle keyed by the separator pattern (att_fast_row5_shuf) and converted
 * together with multiply-adds, instead of a bit scan and a multiply chain per number; a sixth
 * (1..4 digits) is converted by SWAR. Rows of another shape take the scalar conversion of
 * att_fast_row_ints. n is a constant at every call, so each n gets its own loop. */
ATT_FAST_AVX2_FN static inline __attribute__((always_inline)) const char *
att_fast_rows56_avx2(const char *p, const char *end, int n, int64_t *v, size_t max_rows, size_t *k)
{
	*k = 0;
	if (end - p < ATT_FAST_ROW5_SLACK + 1 || *p != '[' || max_rows == 0)
		return NULL;
	__m256i shift = _mm256_set1_epi8((char)(0x80 - '0')), lim = _mm256_set1_epi8(-118);
	__m256i comma = _mm256_set1_epi8(','), close = _mm256_set1_epi8(']');
	__m256i zero = _mm256_set1_epi8('0');
	const __m256i tens = _mm256_set1_epi16(0x010A); /* bytes 10, 1 */
	const __m256i hundreds = _mm256_set1_epi32(0x00010064);
	const __m128i myriads = _mm_set1_epi32(0x00012710), e8 = _mm_set1_epi64x(100000000);
	/* Held in registers: GCC otherwise rebuilds each broadcast inside the loop. */
	ATT_FAST_OPAQUE(shift);
	ATT_FAST_OPAQUE(lim);
	ATT_FAST_OPAQUE(comma);
	ATT_FAST_OPAQUE(close);
	ATT_FAST_OPAQUE(zero);
	const char *last = NULL, *q = p + 1; /* q: the row's first byte */
	/* The last row start read: ATT_FAST_ROW5_SLACK before the end, and at most max_rows rows
	 * in (a row of n numbers and its ',' take at least 2n + 2 bytes), so the loop counts no
	 * rows. */
	const size_t least = 2 * (size_t)n + 2;
	const char *stop = end - ATT_FAST_ROW5_SLACK;
	if ((size_t)(stop - q) > least * (max_rows - 1))
		stop = q + least * (max_rows - 1);
	int64_t *row = v;
	while (q <= stop) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)q);
		__m256i dgv = _mm256_cmpgt_epi8(lim, _mm256_add_epi8(x, shift));
		__m256i cmv = _mm256_cmpeq_epi8(x, comma);
#define FR_MASK(c) ((uint64_t)(uint32_t)_mm256_movemask_epi8(c))
		uint64_t ok = FR_MASK(_mm256_or_si256(dgv, cmv)); /* digits and commas */
		uint64_t dg = FR_MASK(dgv), cm = FR_MASK(cmv);
		uint64_t cl = FR_MASK(_mm256_cmpeq_epi8(x, close));
		uint64_t zr = FR_MASK(_mm256_cmpeq_epi8(x, zero));
#undef FR_MASK
		/* The ']' from its own mask: the next row's position hangs on this (the loop
		 * runs at the latency of load, compare, mask, bit scan), the checks do not. */
		if (!cl)
			break; /* a row too long for this path */
		unsigned e = (unsigned)__builtin_ctzll(cl);
		uint64_t valid = (1ull << e) - 1;
		uint64_t commas = cm & valid, ends = commas | 1ull << e;
		if ((~ok & valid) || ((1u | commas << 1) & zr & dg >> 1))
			break; /* a byte other than a digit or ',', or a leading zero */
		unsigned p0 = (unsigned)__builtin_ctzll(ends); /* the first number's length */
		/* key: the separators after the next four numbers; with n = 6 exactly one more
		 * follows, the ']', 1..4 digits on */
		uint64_t tail = ends >> (p0 + 1), key = n == 6 ? _pdep_u64(0xF, tail) : tail;
		unsigned id, at5 = 0, len5 = 0;
		if (p0 - 1 < 16 && key < 1u << ATT_FAST_ROW5_KEY_BITS &&
		    (id = att_fast_row5_id[key]) != 0 &&
		    (n == 5 || (at5 = 64 - (unsigned)__builtin_clzll(key), len5 = e - p0 - 1 - at5,
				(tail ^ key) == 1ull << (e - p0 - 1) && len5 - 1 < 4))) {
			/* Low lane: the first number's digits right-aligned in 16 bytes; high lane:
			 * the tail loaded from its first byte, a..d in four 4-byte lanes. */
			__m256i src = _mm256_inserti128_si256(
			    x, _mm_loadu_si128((const __m128i *)(const void *)(q + p0 + 1)), 1);
			__m256i idx = _mm256_inserti128_si256(
			    _mm256_castsi128_si256(_mm_loadu_si128(
				(const __m128i *)(const void *)(att_fast_tail16 + p0))),
			    _mm_load_si128((const __m128i *)(const void *)att_fast_row5_shuf[id]),
			    1);
			/* Zero bytes of the shuffle stay 0 under the saturating subtraction. */
			__m256i d = _mm256_subs_epu8(_mm256_shuffle_epi8(src, idx), zero);
			__m256i q4 = _mm256_madd_epi16(_mm256_maddubs_epi16(d, tens), hundreds);
			__m128i t4 = _mm256_castsi256_si128(q4); /* t in 4 groups of 4 digits */
			__m128i t8 = _mm_madd_epi16(_mm_packus_epi32(t4, t4), myriads);
			/* t = high 8 digits * 10^8 + low 8 digits, in the low 64-bit lane */
			__m128i t = _mm_add_epi64(_mm_mul_epu32(t8, e8), _mm_srli_epi64(t8, 32));
			_mm_storel_epi64((__m128i *)(void *)row, t);
			_mm256_storeu_si256((__m256i *)(void *)(row + 1),
					    _mm256_cvtepu32_epi64(_mm256_extracti128_si256(q4, 1)));
			if (n == 6)
				row[5] = (int64_t)att_fast_digits4(q + p0 + 1 + at5, len5);
		} else if ((dg << 1 & ends) != ends || !att_fast_row_ints(q, ends, e, n, row)) {
			break; /* an empty number, not n numbers, or one over 16 digits */
		}
		row += n;
		last = q + e + 1;
		uint16_t next;
		memcpy(&next, last, 2);
		if (next != (',' | '[' << 8))
			break; /* the end of the array, or anything unusual */
		q += e + 3;
	}
	*k = (size_t)(row - v) / (size_t)n;
	return last;
}
#endif

#if ATT_FAST_AVX2
/* att_fast_row2_shuf[a][e]: for a row "x,y]" whose ',' is at a (1..8) and ']' at e (a + 2..16,
 * y of at most 8 digits), the shuffle that right-aligns the digits of x and y into two 8-byte
 * lanes (-128: a zero byte). Built with the other tables in att_fastint.c. */
extern int8_t att_fast_row2_shuf[9][17][16];

/* att_fast_classify64 with two 32-byte compares per class instead of four 16-byte ones. */
ATT_FAST_AVX2_FN static inline __attribute__((always_inline)) att_fast_masks64
att_fast_classify64_avx2(const char *p)
{
	att_fast_masks64 m;
	const __m256i shift = _mm256_set1_epi8((char)(0x80 - '0')), lim = _mm256_set1_epi8(-118);
	const __m256i comma = _mm256_set1_epi8(','), open = _mm256_set1_epi8('['),
		      close = _mm256_set1_epi8(']'), zero = _mm256_set1_epi8('0');
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
#define FC_MASK(x)     ((uint64_t)(uint32_t)_mm256_movemask_epi8(x))
#define FC_PAIR(op, c) (FC_MASK(op(a, c)) | FC_MASK(op(b, c)) << 32)
	m.digit = FC_MASK(_mm256_cmpgt_epi8(lim, _mm256_add_epi8(a, shift))) |
		  FC_MASK(_mm256_cmpgt_epi8(lim, _mm256_add_epi8(b, shift))) << 32;
	m.comma = FC_PAIR(_mm256_cmpeq_epi8, comma);
	m.open = FC_PAIR(_mm256_cmpeq_epi8, open);
	m.close = FC_PAIR(_mm256_cmpeq_epi8, close);
	m.zero = FC_PAIR(_mm256_cmpeq_epi8, zero);
#undef FC_PAIR
#undef FC_MASK
	return m;
}

/* The rows of 2 of one 64-byte window (m, p at a row's '[') that end in it, all at once when
 * every one of them is "[x,y]" with x, y of 1..8 digits, no leading zero, within 16 bytes, and
 * they are separated by ",[": stores them at *row (advanced; at most up to row_end) and returns
 * the position after the last one's ']', or NULL (nothing stored) for anything else. The
 * structure is checked on the window's masks once, instead of row by row: bytes only digits,
 * ',', '[' and ']'; each comma between two digits (inner) or between "]" and "[" (outer);
 * each '[' but the first after an outer comma, each ']' but the last before one; no "0"
 * before a digit at a number's start; then row by row exactly one inner comma between its
 * '[' and ']' (the three bit sets walked together). */
ATT_FAST_AVX2_FN static inline __attribute__((always_inline)) const char *
att_fast_rows2_window(const char *p, const att_fast_masks64 *m, uint64_t zd, int64_t **rowp,
		      int64_t *row_end, __m128i tens, __m128i hundreds, __m128i myriads,
		      __m128i zero)
{
	if (!m->close)
		return NULL;
	unsigned last = 63 - (unsigned)__builtin_clzll(m->close); /* the last ']' in the window */
	uint64_t in = last == 63 ? ~0ull : (2ull << last) - 1;
	uint64_t dg = m->digit & in, cm = m->comma & in, op = m->open & in, cl = m->close & in;
	uint64_t inner = cm & dg << 1 & dg >> 1, outer = cm & cl << 1 & op >> 1;
	/* (A '[' or ']' next to anything but a digit inside a row fails one of these too: the
	 * comma is neither inner nor outer, or the row has no inner comma.) The ']' check also
	 * makes the '[' and ']' counts equal, so the walk below never scans an empty set. */
	if ((dg | cm | op | cl) != in || cm != (inner | outer) || (op & ~1ull) != outer << 1 ||
	    (cl & ~(1ull << last)) != outer >> 1 || ((op | inner) << 1 & zd) ||
	    (size_t)__builtin_popcountll(cl) * 2 > (size_t)(row_end - *rowp))
		return NULL;
	int64_t *row = *rowp;
	unsigned e = 0;
	while (cl) {
		unsigned o = (unsigned)__builtin_ctzll(op),
			 a = (unsigned)__builtin_ctzll(inner | 1ull << 63);
		e = (unsigned)__builtin_ctzll(cl);
		/* Unless o < a < e (this row's inner comma), one of these wraps to a huge value;
		 * a row with two inner commas leaves the second to the next row, which fails so,
		 * or to the end. */
		unsigned la = a - o - 1, lb = e - a - 1;
		if (((la - 1) | (lb - 1)) >= 8 || e - o - 1 > 16)
			return NULL; /* not one inner comma, or a number over 8 digits */
		const char *q = p + o + 1;
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i idx = _mm_load_si128(
		    (const __m128i *)(const void *)att_fast_row2_shuf[la][e - o - 1]);
		__m128i d = _mm_subs_epu8(_mm_shuffle_epi8(x, idx), zero);
		__m128i q4 = _mm_madd_epi16(_mm_maddubs_epi16(d, tens), hundreds);
		__m128i q8 = _mm_madd_epi16(_mm_packus_epi32(q4, q4), myriads);
		_mm_storeu_si128((__m128i *)(void *)row, _mm_cvtepu32_epi64(q8));
		row += 2;
		op &= op - 1;
		inner &= inner - 1;
		cl &= cl - 1;
	}
	if (inner)
		return NULL; /* the last row had a second inner comma */
	*rowp = row;
	return p + e + 1;
}

/* att_fast_rows for AVX2, with the same contract. The rows of 5 (instructions) and 6
 * (occupancy events) are read by att_fast_rows56_avx2; the rows of 2 (a wave's timeline, a
 * waitcnt's producers) are short, so they keep the 64-byte windows of att_fast_rows, and each row's
 * two numbers are converted by one shuffle (att_fast_row2_shuf) and multiply-adds instead of a
 * multiply chain each. */
ATT_FAST_AVX2_FN static inline const char *
att_fast_rows_avx2(const char *p, const char *end, int n, int64_t *v, size_t max_rows, size_t *k)
{
	if (n == 5)
		return att_fast_rows56_avx2(p, end, 5, v, max_rows, k);
	if (n == 6)
		return att_fast_rows56_avx2(p, end, 6, v, max_rows, k);
	if (n != 2)
		return att_fast_rows(p, end, n, v, max_rows, k);
	*k = 0;
	const char *last = NULL;
	__m128i zero = _mm_set1_epi8('0'), tens = _mm_set1_epi16(0x010A);
	__m128i hundreds = _mm_set1_epi32(0x00010064), myriads = _mm_set1_epi32(0x00012710);
	ATT_FAST_OPAQUE(zero);
	ATT_FAST_OPAQUE(tens);
	ATT_FAST_OPAQUE(hundreds);
	ATT_FAST_OPAQUE(myriads);
	int64_t *row = v, *row_end = v + 2 * max_rows;
	while (end - p >= ATT_FAST_ROWS_SLACK && row < row_end) {
		att_fast_masks64 m = att_fast_classify64_avx2(p);
		/* Per window: bytes that are neither digit nor comma, and "0" before a digit. */
		uint64_t bad = ~(m.digit | m.comma), zd = m.zero & m.digit >> 1;
		if (m.open & 1) {
			/* All rows that end in the window at once, when they are all the common
			 * shape; else row by row below. */
			const char *q = att_fast_rows2_window(p, &m, zd, &row, row_end, tens,
							      hundreds, myriads, zero);
			if (q) {
				last = q;
				if (*q != ',')
					goto done; /* the end of the array, or anything unusual */
				p = q + 1;
				continue;
			}
		}
		unsigned r = 0; /* the current row's '[' in the window */
		for (;;) {
			if (r >= 62 || !(m.open >> r & 1) || row >= row_end)
				break;
			unsigned o = r + 1; /* the row's first byte */
			uint64_t cl = m.close >> o;
			if (!cl)
				break; /* the row ends in the next window */
			unsigned e = (unsigned)__builtin_ctzll(cl);
			uint64_t valid = (1ull << e) - 1;
			uint64_t commas = m.comma >> o & valid;
			if ((bad >> o & valid) || ((1u | commas << 1) & zd >> o))
				goto done; /* a byte other than a digit or ',', or a leading zero */
			const char *q = p + o;
			unsigned a = (unsigned)__builtin_ctzll(commas | 1ull << 63);
			/* One comma (both numbers non-empty), each of 1..8 digits, within 16 bytes.
			 */
			if (a - 1 < 8 && e - a - 2 < 8 && e <= 16 && !(commas & (commas - 1))) {
				__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
				__m128i idx = _mm_load_si128(
				    (const __m128i *)(const void *)att_fast_row2_shuf[a][e]);
				__m128i d = _mm_subs_epu8(_mm_shuffle_epi8(x, idx), zero);
				__m128i q4 = _mm_madd_epi16(_mm_maddubs_epi16(d, tens), hundreds);
				__m128i q8 = _mm_madd_epi16(_mm_packus_epi32(q4, q4), myriads);
				_mm_storeu_si128((__m128i *)(void *)row, _mm_cvtepu32_epi64(q8));
			} else {
				uint64_t ends = commas | 1ull << e, dg = m.digit >> o;
				if ((dg << 1 & ends) != ends ||
				    !att_fast_row_ints(q, ends, e, 2, row))
					goto done; /* an empty number, not 2, or over 16 digits */
			}
			row += 2;
			last = q + e + 1;
			unsigned next = o + e + 1; /* the byte after ']' */
			if (next > 63 || !(m.comma >> next & 1))
				goto done; /* the end of the array, or anything unusual */
			r = next + 1;
		}
		if (!last || r == 0)
			break; /* no row ends inside this window: the general path reads it */
		p += r;
	}
done:
	*k = (size_t)(row - v) / 2;
	return last;
}
#endif

/* As many integers of a list "i,i,...,i]" as fit, p at the first digit of an element: stores
 * them into v (at most cap) and returns the position of the ',' or ']' after the last one
 * stored, or NULL when none could be read here. *n is the count stored. The build for any
 * x86-64; att_fast_list picks att_fast_list_avx2 where the CPU has it. */
static inline const char *att_fast_list_any(const char *p, const char *end, int64_t *v, size_t cap,
					    size_t *n)
{
	*n = 0;
	const char *last = NULL;
#if ATT_FAST_ENABLED
	while (end - p >= ATT_FAST_SLACK && *n + 32 <= cap) {
		att_fast_masks m = att_fast_classify(p);
		/* Numbers that end inside the window; stop at the first ']' or foreign byte. */
		uint32_t other = ~(m.digit | m.comma);
		uint32_t upto = other ? (uint32_t)((1ull << __builtin_ctz(other)) - 1) : ~0u;
		uint64_t ends = m.comma & upto;
		if (other && (m.close >> __builtin_ctz(other) & 1))
			ends |= 1ull
				<< __builtin_ctz(other); /* the closing ']' ends the last one */
		if (!ends || ((uint64_t)m.digit << 1 & ends) != ends ||
		    ((1u | (uint32_t)ends << 1) & m.zero & m.digit >> 1))
			break;
		unsigned s = 0, t = 0;
		while (ends) {
			t = (unsigned)__builtin_ctzll(ends);
			if (t - s > 16)
				return last;
			v[(*n)++] = (int64_t)att_fast_digits16(p + s, t - s);
			last = p + t;
			ends &= ends - 1;
			s = t + 1;
		}
		if (p[t] == ']')
			break;
		p += s;
	}
#else
	(void)p;
	(void)end;
	(void)v;
	(void)cap;
#endif
	return last;
}

#if ATT_FAST_AVX2
/* att_fast_list for AVX2, with the same contract: 64-byte windows; the numbers that end in a
 * window are checked at once on its masks (digits and commas up to the first other byte, which
 * ends the list when it is ']'; no empty number; no leading zero), then converted four at a
 * time by the shuffle of a row's tail (att_fast_row5_id: four numbers of 1..4 digits within 16
 * bytes, a wave state list), else two at a time by the shuffle of a row of 2
 * (att_fast_row2_shuf: 1..8 digits, a list of times), else one by one. */
ATT_FAST_AVX2_FN __attribute__((noinline)) static const char *
att_fast_list_avx2(const char *p, const char *end, int64_t *v, size_t cap, size_t *n)
{
	*n = 0;
	const char *last = NULL;
	__m128i zero = _mm_set1_epi8('0'), tens = _mm_set1_epi16(0x010A);
	__m128i hundreds = _mm_set1_epi32(0x00010064), myriads = _mm_set1_epi32(0x00012710);
	int64_t *out = v;
	while (end - p >= ATT_FAST_ROWS_SLACK && (size_t)(out - v) + 64 <= cap) {
		att_fast_masks64 m = att_fast_classify64_avx2(p);
		uint64_t other = ~(m.digit | m.comma);
		unsigned f =
		    (unsigned)__builtin_ctzll(other | 1ull << 63); /* the first other byte */
		uint64_t sep = m.comma & ((1ull << f) - 1);
		int closed = f < 63 && (m.close >> f & 1);
		if (closed)
			sep |= 1ull << f; /* the ']' ends the last number */
		if (!sep || (m.digit << 1 & sep) != sep ||
		    ((1u | (m.comma & ((1ull << f) - 1)) << 1) & m.zero & m.digit >> 1))
			break; /* an empty number or a leading zero: the general path decides */
		unsigned s = 0, t = 0; /* the current number's first byte; its separator */
		while (sep) {
			uint64_t rel = sep >> s;
			uint64_t r3 = rel & (rel - 1), r4 = r3 & (r3 - 1);
			r4 &= r4 - 1; /* rel without its three lowest bits */
			unsigned t4 = (unsigned)__builtin_ctzll(r4 | 1ull << 63);
			unsigned id;
			if (r4 && t4 <= 16 &&
			    (id = att_fast_row5_id[rel & ((2ull << t4) - 1)]) != 0) {
				__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + s));
				__m128i idx = _mm_load_si128(
				    (const __m128i *)(const void *)att_fast_row5_shuf[id]);
				__m128i d = _mm_subs_epu8(_mm_shuffle_epi8(x, idx), zero);
				__m128i q4 = _mm_madd_epi16(_mm_maddubs_epi16(d, tens), hundreds);
				_mm256_storeu_si256((__m256i *)(void *)out,
						    _mm256_cvtepu32_epi64(q4));
				out += 4;
				t = s + t4;
				sep &= sep - 1;
				sep &= sep - 1;
				sep &= sep - 1;
				sep &= sep - 1;
			} else {
				unsigned a = (unsigned)__builtin_ctzll(rel);
				unsigned b = (unsigned)__builtin_ctzll(r3 | 1ull << 63);
				if (r3 && a - 1 < 8 && b - a - 2 < 8 && b <= 16) {
					__m128i x =
					    _mm_loadu_si128((const __m128i *)(const void *)(p + s));
					__m128i idx = _mm_load_si128((
					    const __m128i *)(const void *)att_fast_row2_shuf[a][b]);
					__m128i d = _mm_subs_epu8(_mm_shuffle_epi8(x, idx), zero);
					__m128i q4 =
					    _mm_madd_epi16(_mm_maddubs_epi16(d, tens), hundreds);
					__m128i q8 =
					    _mm_madd_epi16(_mm_packus_epi32(q4, q4), myriads);
					_mm_storeu_si128((__m128i *)(void *)out,
							 _mm_cvtepu32_epi64(q8));
					out += 2;
					t = s + b;
					sep &= sep - 1;
					sep &= sep - 1;
				} else {
					if (a > 16)
						goto done; /* over 16 digits */
					*out++ = (int64_t)att_fast_digits16(p + s, a);
					t = s + a;
					sep &= sep - 1;
				}
			}
			last = p + t;
			s = t + 1;
		}
		if (p[t] == ']')
			break;
		p += s;
	}
done:
	*n = (size_t)(out - v);
	return last;
}
#endif

/* att_fast_list: att_fast_list_avx2 where the CPU has it, else att_fast_list_any. */
static inline const char *att_fast_list(const char *p, const char *end, int64_t *v, size_t cap,
					size_t *n)
{
#if ATT_FAST_AVX2
	if (att_fast_have_avx2())
		return att_fast_list_avx2(p, end, v, cap, n);
#endif
	return att_fast_list_any(p, end, v, cap, n);
}

#endif
