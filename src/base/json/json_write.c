#include "base/json/json_write.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of a valid UTF-8 sequence at s (n bytes left), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) {
		len = 2;
		min = 0x80;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		min = 0x800;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		min = 0x10000;
		c &= 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return len;
}

void json_write_string(strbuf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	sb_addc(out, '"');
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, (char)c);
			i++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n':
				sb_adds(out, "\\n");
				break;
			case '\t':
				sb_adds(out, "\\t");
				break;
			case '\r':
				sb_adds(out, "\\r");
				break;
			default:
				sb_addf(out, "\\u%04x", c);
			}
			i++;
		} else if (c < 0x80) {
			size_t j = i;
			while (j < n && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
				j++;
			sb_add(out, s + i, j - i);
			i = j;
		} else {
			size_t l = utf8_len(s + i, n - i);
			if (l == 0) {
				sb_adds(out, "\\ufffd");
				i++;
			} else {
				sb_add(out, s + i, l);
				i += l;
			}
		}
	}
	sb_addc(out, '"');
}

/* json_write_double's definition: the shortest of 15..17 significant digits ("%.*g") that reads
 * back exactly. Used outside the range double_exact takes. */
static void double_by_printf(strbuf *out, double d)
{
	char buf[64];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	sb_adds(out, buf);
}

typedef unsigned __int128 u128;

/* 10^0 .. 10^22 (10^22 < 2^74), the scales double_exact multiplies by. */
#define P19 ((u128)10000000000000000000u)
static const u128 pow10_tab[23] = {1,
				   10,
				   100,
				   1000,
				   10000,
				   100000,
				   1000000,
				   10000000,
				   100000000,
				   1000000000,
				   10000000000,
				   100000000000,
				   1000000000000,
				   10000000000000,
				   100000000000000,
				   1000000000000000,
				   10000000000000000,
				   100000000000000000,
				   1000000000000000000,
				   P19,
				   P19 * 10,
				   P19 * 100,
				   P19 * 1000};

static u128 pow10_u128(int s)
{
	return pow10_tab[s];
}

/* d = m * 2^q with 1e-4 <= d < 1e14 (so q in [-66, -6]): c = d * 10^s rounded to an integer, the
 * way printf rounds (to nearest, ties to even), for s in [0, 21] (m * 10^s < 2^53 * 2^70). */
static uint64_t scaled_round(uint64_t m, int q, int s)
{
	u128 v = (u128)m * pow10_u128(s);
	int sh = -q;
	u128 c = v >> sh, rest = v - (c << sh), half = (u128)1 << (sh - 1);
	if (rest > half || (rest == half && (c & 1)))
		c++;
	return (uint64_t)c;
}

/* Whether 10^x <= m * 2^q, for -4 <= x <= 14 and q in [-66, -6]: exact in 128 bits. */
static int pow10_at_most(int x, uint64_t m, int q)
{
	if (x >= 0)
		return pow10_u128(x) << -q <= (u128)m;
	return (u128)1 << -q <= (u128)m * pow10_u128(-x);
}

/* Whether c / 10^s reads back as d = m * 2^q (strtod rounds to the nearest double, ties to
 * even): |c / 10^s - d| within half the gap to d's neighbours, the gap below d a half of the
 * one above when m is 2^52 (d a power of 2). Exact: both sides times 10^s * 2^-q are
 * integers below 2^124. */
static int reads_back(uint64_t c, int s, uint64_t m, int q)
{
	u128 a = (u128)c << -q, b = (u128)m * pow10_u128(s), ten = pow10_u128(s);
	if (a >= b) /* above d: within half the upper gap (10^s / 2) */
		return 2 * (a - b) < ten || (2 * (a - b) == ten && !(m & 1));
	if (m == (uint64_t)1 << 52) /* below a power of 2: the gap is half as wide */
		return 4 * (b - a) < ten || (4 * (b - a) == ten && !(m & 1));
	return 2 * (b - a) < ten || (2 * (b - a) == ten && !(m & 1));
}

/* The text "%.*g" (prec significant digits) gives d > 0 in [1e-4, 1e14): prec digits c and the
 * decimal exponent x of the rounded value (-4 <= x < prec: %g's fixed notation), trailing
 * zeros of the fraction dropped and no point without a fraction. Returns its length in buf. */
static size_t fixed_text(char *buf, uint64_t c, int x, int prec)
{
	char dig[20];
	for (int i = prec - 1; i >= 0; i--, c /= 10)
		dig[i] = (char)('0' + c % 10);
	int last = prec - 1; /* the last digit kept: trailing zeros of the fraction go */
	while (last > x && last > 0 && dig[last] == '0')
		last--;
	size_t n = 0;
	if (x < 0) {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = -1; i > x; i--)
			buf[n++] = '0';
		for (int i = 0; i <= last; i++)
			buf[n++] = dig[i];
		return n;
	}
	for (int i = 0; i <= last; i++) {
		if (i == x + 1)
			buf[n++] = '.';
		buf[n++] = dig[i];
	}
	return n;
}

/* json_write_double for 1e-4 <= |d| < 1e14, without printf or strtod: each precision's digits
 * are d's exact value rounded in 128-bit integers, and the read-back test compares exactly;
 * the text is the one printf and strtod give (tests/unit/test_json_double.c checks them
 * against each other). A timeline writes doubles by the million (the corpus softmax's: 1.3M),
 * and printf with strtod was most of its time (bench/RESULTS.md). */
static int double_exact(strbuf *out, double d)
{
	double a = fabs(d);
	if (!(a >= 1e-4 && a < 1e14))
		return -1;
	int e2;
	double fr = frexp(a, &e2); /* a = fr * 2^e2, fr in [0.5, 1) */
	uint64_t m = (uint64_t)ldexp(fr, 53);
	int q = e2 - 53;
	/* x: the decimal exponent of a, exactly (log10's estimate can be one off next to a power
	 * of 10); %g's exponent is that of the value rounded, one more where it rounds up to the
	 * next power */
	int x = (int)floor((e2 - 1) * 0.30102999566398120); /* a >= 2^(e2-1): x or one below */
	while (x > -4 && !pow10_at_most(x, m, q))
		x--;
	while (x < 13 && pow10_at_most(x + 1, m, q))
		x++;
	for (int prec = 15; prec <= 17; prec++) {
		uint64_t lo = (uint64_t)pow10_u128(prec - 1);
		uint64_t c = scaled_round(m, q, prec - 1 - x);
		int xr = x;
		if (c == 10 * lo) /* rounded up to 10^prec: one digit to the left */
			c = lo, xr++;
		if (c < lo || c >= 10 * lo || xr >= prec)
			return -1; /* not expected for a in range: printf decides */
		if (prec < 17 && !reads_back(c, prec - 1 - xr, m, q))
			continue;
		char buf[48];
		size_t n = 0;
		if (d < 0)
			buf[n++] = '-';
		n += fixed_text(buf + n, c, xr, prec);
		sb_add(out, buf, n);
		return 0;
	}
	return -1; /* not reached: 17 digits always read back */
}

void json_write_double(strbuf *out, double d)
{
	if (!isfinite(d)) {
		sb_adds(out, "null");
		return;
	}
	/* Shortest of 15..17 significant digits that reads back exactly. */
	if (double_exact(out, d) != 0)
		double_by_printf(out, d);
	/* Keep a double recognisable as one ("2.0", not "2") only where it matters to nobody:
	 * JSON has one number type, so integral doubles print as integers. */
}

/* The decimal digits of u, least significant first, into end's left; returns where they start. */
static char *digits_left(char *end, uint64_t u)
{
	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	return end;
}

void json_write_i64(strbuf *out, int64_t v)
{
	char buf[24], *end = buf + sizeof buf;
	/* the magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64 */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char *p = digits_left(end, u);
	if (v < 0)
		*--p = '-';
	sb_add(out, p, (size_t)(end - p));
}

static void newline(strbuf *out, int indent, int depth)
{
	if (!indent)
		return;
	sb_addc(out, '\n');
	for (int i = 0; i < indent * depth; i++)
		sb_addc(out, ' ');
}

static void write_value(strbuf *out, const jv *v, int indent, int depth)
{
	size_t n = 0;
	switch (jv_type_of(v)) {
	case JV_NULL:
		sb_adds(out, "null");
		break;
	case JV_BOOL:
		sb_adds(out, jv_is_true(v) ? "true" : "false");
		break;
	case JV_INT:
		json_write_i64(out, jv_i64(v));
		break;
	case JV_UINT:
		sb_addf(out, "%llu", (unsigned long long)jv_u64(v));
		break;
	case JV_DOUBLE:
		json_write_double(out, jv_num(v));
		break;
	case JV_STRING:
		json_write_string(out, jv_string(v), jv_len(v));
		break;
	case JV_ARRAY:
		n = jv_len(v);
		if (n == 0) {
			sb_adds(out, "[]");
			break;
		}
		sb_addc(out, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				sb_addc(out, ',');
			newline(out, indent, depth + 1);
			write_value(out, jv_at(v, i), indent, depth + 1);
		}
		newline(out, indent, depth);
		sb_addc(out, ']');
		break;
	case JV_OBJECT:
		n = jv_len(v);
		if (n == 0) {
			sb_adds(out, "{}");
			break;
		}
		sb_addc(out, '{');
		for (size_t i = 0; i < n; i++) {
			const char *k = jv_key_at(v, i);
			if (i)
				sb_addc(out, ',');
			newline(out, indent, depth + 1);
			json_write_string(out, k, strlen(k));
			sb_adds(out, indent ? ": " : ":");
			write_value(out, jv_value_at(v, i), indent, depth + 1);
		}
		newline(out, indent, depth);
		sb_addc(out, '}');
		break;
	}
}

void json_write(strbuf *out, const jv *v, int indent)
{
	write_value(out, v, indent, 0);
}
