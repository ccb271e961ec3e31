/* The per-cycle pass of the block sweep (exposed_int.h): a prefix sum of a block's changes
 * classifies each cycle and accumulates phi. It runs once for every cycle of every SIMD's window
 * (5.8 million on the corpus softmax, 394 million on a generated 300 MB trace of long stalls),
 * a third of exposed_group's instructions in its scalar form; the AVX2 form takes 8 cycles a
 * step with two prefix sums of 3 adds each and the per-split share from two 8-entry permutes,
 * 8 cycles without a change (inside long stalls) with one add from the state before, and 8
 * cycles in each of which some wave issues (most cycles) with one prefix sum and a compare. Both
 * give the same result on any input (tests/unit/test_exposed_stall.c checks them against each
 * other). */
#include "core/analysis/exposed_int.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define EXPOSED_AVX2 1
#include <immintrin.h>
#else
#define EXPOSED_AVX2 0
#endif

/* What one cycle adds, by its split (the records stalled, 0..EXPOSED_MAX_STALLED; SPLIT_ISSUE:
 * some wave issued): one record's share in the low 32 bits, an exposed cycle at bit 32, an issue
 * cycle at bit 48. A block has at most EXPOSED_BLOCK cycles, so no field carries into the next. */
#define SPLIT_ISSUE	 (EXPOSED_MAX_STALLED + 1)
#define EXPOSED_SPLIT(k) (EXPOSED_UNIT / (k) | EXPOSED_CYCLE_EXPOSED)
static const uint64_t cycle_adds[SPLIT_ISSUE + 1] = {
    0,
    EXPOSED_SPLIT(1),
    EXPOSED_SPLIT(2),
    EXPOSED_SPLIT(3),
    EXPOSED_SPLIT(4),
    EXPOSED_SPLIT(5),
    EXPOSED_SPLIT(6),
    EXPOSED_SPLIT(7),
    EXPOSED_SPLIT(8),
    EXPOSED_SPLIT(9),
    EXPOSED_SPLIT(10),
    EXPOSED_SPLIT(11),
    EXPOSED_SPLIT(12),
    EXPOSED_SPLIT(13),
    EXPOSED_SPLIT(14),
    EXPOSED_SPLIT(15),
    EXPOSED_SPLIT(16),
    EXPOSED_CYCLE_ISSUE,
};

/* Cycles [k, len), after v (the prefix sum so far) and sum (the result so far). */
static uint64_t cycles_scalar(uint32_t *d, uint32_t *phi, int64_t k, int64_t len, uint32_t v,
			      uint64_t sum)
{
	for (; k < len; k++) {
		v += d[k]; /* issuing + stalled * EXPOSED_STALL_ONE */
		d[k] = 0;  /* ready for the next block */
		uint32_t stalled = v / EXPOSED_STALL_ONE;
		stalled = stalled > EXPOSED_MAX_STALLED ? EXPOSED_MAX_STALLED : stalled; /* never */
		sum += cycle_adds[v & (EXPOSED_STALL_ONE - 1) ? SPLIT_ISSUE : stalled];
		phi[k + 1] = (uint32_t)sum;
	}
	return sum;
}

#if EXPOSED_AVX2
/* Inclusive prefix sum of 8 lanes. */
__attribute__((target("avx2"))) static inline __m256i prefix8(__m256i x)
{
	x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
	x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
	/* the low half's total (its lane 3) into every lane of the high half */
	__m256i t = _mm256_permute2x128_si256(x, x, 0x08);
	return _mm256_add_epi32(x, _mm256_shuffle_epi32(t, 0xFF));
}

__attribute__((target("avx2,popcnt"))) static uint64_t cycles_avx2(uint32_t *d, uint32_t *phi,
								   int64_t len)
{
	const __m256i zero = _mm256_setzero_si256(), last = _mm256_set1_epi32(7);
	const __m256i low = _mm256_set1_epi32(EXPOSED_STALL_ONE - 1);
	const __m256i most = _mm256_set1_epi32(EXPOSED_MAX_STALLED), seven = last;
	const __m256i units_lo = _mm256_setr_epi32(
	    0, EXPOSED_UNIT / 1, EXPOSED_UNIT / 2, EXPOSED_UNIT / 3, EXPOSED_UNIT / 4,
	    EXPOSED_UNIT / 5, EXPOSED_UNIT / 6, EXPOSED_UNIT / 7);
	const __m256i units_hi = _mm256_setr_epi32(
	    EXPOSED_UNIT / 8, EXPOSED_UNIT / 9, EXPOSED_UNIT / 10, EXPOSED_UNIT / 11,
	    EXPOSED_UNIT / 12, EXPOSED_UNIT / 13, EXPOSED_UNIT / 14, EXPOSED_UNIT / 15);
	const __m256i units_16 = _mm256_set1_epi32(EXPOSED_UNIT / 16);
	const __m256i iota = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8);
	__m256i v = zero, share = zero;
	/* the state after the last cycle so far, for 8 cycles without a change: one record's share
	 * after 1..8 of them, whether they issue, whether they are exposed */
	__m256i run = zero, run8 = zero;
	uint64_t exposed = 0, issue = 0, run_issue = 0, run_exposed = 0;
	int64_t k = 0;
	for (; k + 8 <= len; k += 8) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(d + k));
		if (_mm256_testz_si256(x, x)) { /* long stalls: most steps change nothing */
			_mm256_storeu_si256((__m256i *)(phi + k + 1), _mm256_add_epi32(share, run));
			share =
			    _mm256_add_epi32(share, run8); /* one add on the chain, not a permute */
			issue += run_issue;
			exposed += run_exposed;
			continue;
		}
		_mm256_storeu_si256((__m256i *)(d + k), zero);
		x = _mm256_add_epi32(prefix8(x), v);
		v = _mm256_permutevar8x32_epi32(x, last);
		__m256i idle = _mm256_cmpeq_epi32(_mm256_and_si256(x, low), zero);
		if (_mm256_testz_si256(idle, idle)) {
			/* every cycle issues (9 in 10 of the corpus's): no share, no exposed
			 * cycle, and what 8 cycles without a change after it would add: 8 issue */
			_mm256_storeu_si256((__m256i *)(phi + k + 1), share);
			issue += 8;
			run = run8 = zero;
			run_issue = 8;
			run_exposed = 0;
			continue;
		}
		__m256i stalled = _mm256_min_epu32(_mm256_srli_epi32(x, 16), most);
		__m256i u = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(units_lo, stalled),
					       _mm256_permutevar8x32_epi32(units_hi, stalled),
					       _mm256_cmpgt_epi32(stalled, seven));
		u = _mm256_blendv_epi8(u, units_16, _mm256_cmpeq_epi32(stalled, most));
		u = _mm256_and_si256(u, idle);
		unsigned idle_bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(idle));
		unsigned stalled_bits = (unsigned)_mm256_movemask_ps(
		    _mm256_castsi256_ps(_mm256_cmpgt_epi32(stalled, zero)));
		issue += 8 - (unsigned)__builtin_popcount(idle_bits);
		exposed += (unsigned)__builtin_popcount(idle_bits & stalled_bits);
		run = _mm256_mullo_epi32(_mm256_permutevar8x32_epi32(u, last), iota);
		run8 = _mm256_permutevar8x32_epi32(run, last);
		run_issue = idle_bits >> 7 ? 0 : 8;
		run_exposed = (idle_bits & stalled_bits) >> 7 ? 8 : 0;
		u = _mm256_add_epi32(prefix8(u), share);
		share = _mm256_permutevar8x32_epi32(u, last);
		_mm256_storeu_si256((__m256i *)(phi + k + 1), u);
	}
	uint32_t v_now = (uint32_t)_mm256_cvtsi256_si32(v);
	uint64_t sum = (uint32_t)_mm256_cvtsi256_si32(share) + exposed * EXPOSED_CYCLE_EXPOSED +
		       issue * EXPOSED_CYCLE_ISSUE;
	return cycles_scalar(d, phi, k, len, v_now, sum);
}
#endif

uint64_t exposed_cycles(uint32_t *d, uint32_t *phi, int64_t len, int simd)
{
	uint64_t sum;
	phi[0] = 0;
#if EXPOSED_AVX2
	if (simd && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		sum = cycles_avx2(d, phi, len);
	else
#endif
		sum = cycles_scalar(d, phi, 0, len, 0, 0);
	(void)simd;
	d[len] = 0;
	return sum;
}
