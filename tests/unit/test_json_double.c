/* json_write_double's integer path (double_exact) against its definition, the shortest of
 * "%.15g", "%.16g" and "%.17g" that strtod reads back, on every kind of double it takes and
 * the ones it hands back to printf; and json_write_i64 against "%lld". */
#include "t.h"

#include "base/json/json_write.h"
#include "base/strbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static void by_definition(char *buf, size_t size, double d)
{
	if (!isfinite(d)) {
		snprintf(buf, size, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* Returns 1 when json_write_double writes d as the definition does (the first mismatch is
 * reported with the value's bits). */
static int same(double d)
{
	char want[64];
	by_definition(want, sizeof want, d);
	strbuf sb = STRBUF_INIT;
	json_write_double(&sb, d);
	int ok = strcmp(sb_str(&sb), want) == 0;
	if (!ok) {
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		t_fail(__FILE__, __LINE__, "%.17g (0x%016" PRIx64 "): wrote %s, want %s", d, bits,
		       sb_str(&sb), want);
	}
	sb_release(&sb);
	return ok;
}

TEST(json_double_random_bits_in_and_out_of_range)
{
	int bad = 0;
	for (int i = 0; i < 200000 && bad < 5; i++) {
		/* exponents around the integer path's range [1e-4, 1e14) (2^-13.3 .. 2^46.5) */
		int e = (int)(next() % 80) - 24;
		double d = ldexp((double)((next() >> 11) | (1ull << 52)), e - 52);
		bad += !same(next() & 1 ? -d : d);
	}
}

TEST(json_double_decimals_rounded_to_a_grid)
{
	/* what the timeline's microseconds and the report's rounded percentages are */
	int bad = 0;
	for (int i = 0; i < 100000 && bad < 5; i++) {
		int places = (int)(next() % 10);
		double k = (double)(next() % 100000000000000ull >> (next() % 40));
		double d = k / pow(10, places),
		       e = k / pow(10, places) - (double)(next() % 1000) / 1e4;
		bad += !same(d) + !same(e) + !same(round(d * 1e4) / 1e4 - round(e * 1e4) / 1e4);
	}
}

TEST(json_double_ties_at_the_15th_and_16th_digit)
{
	/* N / 2^j with an integer part of k digits and k + j = 16 or 17 has exactly that many
	 * significant digits, the last a 5 (N odd): a tie for "%.15g" or "%.16g" */
	int bad = 0;
	for (int k = 1; k <= 13 && bad < 5; k++)
		for (int extra = 16; extra <= 17; extra++) {
			int j = extra - k;
			double lo = pow(10, k - 1), hi = pow(10, k);
			for (int i = 0; i < 2000 && bad < 5; i++) {
				uint64_t span = (uint64_t)ldexp(hi - lo, j);
				uint64_t n = (uint64_t)ldexp(lo, j) + next() % span;
				double d = ldexp((double)(n | 1), -j);
				if (d >= lo && d < hi)
					bad += !same(d);
			}
		}
}

TEST(json_double_edges)
{
	for (int k = -20; k <= 60; k++) { /* powers of 2 (the narrower gap below) and neighbours */
		double p = ldexp(1, k);
		same(p), same(nextafter(p, 0)), same(nextafter(p, INFINITY)), same(-p);
	}
	for (int k = -6; k <= 16; k++) { /* around powers of 10, where the exponent moves */
		double p = pow(10, k);
		double d = p;
		for (int s = 0; s < 40; s++)
			d = nextafter(d, 0), same(d);
		d = p;
		for (int s = 0; s < 40; s++)
			d = nextafter(d, INFINITY), same(d);
		same(p), same(p * 0.99999999999999995), same(p * 9.9999999999999995);
	}
	const double fixed[] = {0.0,   -0.0,	 1e-4,
				-1e-4, 1e14,	 99999999999999.99,
				0.1,   0.2,	 0.30000000000000004,
				1.0,   2.5,	 123456789.125,
				1e300, 1e-300,	 5e-324,
				NAN,   INFINITY, -INFINITY};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		same(fixed[i]);
}

TEST(json_i64_as_printf)
{
	const int64_t fixed[] = {0, 1, -1, 9, 10, -10, INT64_MAX, INT64_MIN, INT64_MIN + 1};
	char want[32];
	for (int i = 0; i < 20000; i++) {
		int64_t v = i < 9 ? fixed[i] : (int64_t)(next() >> (next() % 64));
		if (i >= 9 && (next() & 1))
			v = -v;
		snprintf(want, sizeof want, "%" PRId64, v);
		strbuf sb = STRBUF_INIT;
		json_write_i64(&sb, v);
		if (strcmp(sb_str(&sb), want) != 0) {
			t_fail(__FILE__, __LINE__, "wrote %s, want %s", sb_str(&sb), want);
			i = 20000;
		}
		sb_release(&sb);
	}
}
