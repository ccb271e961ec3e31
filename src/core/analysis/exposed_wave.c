/* One wave's records for exposed stall and the wave facts (exposed_stall.h exposed_wave), read
 * once while the pass has just parsed them: the records kept for the group, compact (struct
 * exposed_rec) when every value fits 32 bits, else as they are (x->full); each record's
 * instruction, looked up once, for the kept record and the wave facts' counts; the summed stall
 * (which does not depend on the way the group is swept: every stalled record's stall is added
 * once); and the order check the block sweep relies on.
 *
 * It runs once for every record of a trace (1.4 million on the corpus softmax) and was half of
 * exposed stall's instructions as a scalar loop (about 65 a record). The AVX2 form reads four
 * records a step: their fields from five loads and a few blends, the instructions from one
 * gather of the code table, the order check as one compare against the records' ends moved
 * over by one, the compact records in two stores; only the stall sums stay scalar (a scatter
 * with conflicts). A step with anything unusual (a record without events, a line past the code
 * table) is done record by record by the scalar step instead, so both forms give the same
 * result on any input (tests/unit/test_exposed_wave.c checks them against each other). */
#include "core/analysis/exposed_int.h"

#include "base/xalloc.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define EXPOSED_WAVE_AVX2 1
#include <immintrin.h>
#else
#define EXPOSED_WAVE_AVX2 0
#endif

void exposed_flush_stall64(exposed_acc *a, struct exposed_scratch *x)
{
	if (!x->n_stall64)
		return;
	for (size_t i = 0; i < a->d->n_insts; i++)
		a->line_stall[i] += x->stall64[i];
	memset(x->stall64, 0, a->d->n_insts * sizeof *x->stall64);
	x->n_stall64 = 0;
}

/* What the loop carries from record to record. */
struct wave_run {
	uint64_t over; /* the kept values + 2^31, or-ed: all fit 32 bits when below 2^32 */
	int64_t prev;  /* the last event's time so far (INT64_MIN before the first) */
	int64_t mapped, flagged, latency;
	int ok;
	exposed_fx unknown;
	uint64_t *stall64;	/* the scratch's 64-bit sums, for stalls below 2^31 */
	exposed_fx *line_stall; /* the accumulator's, for the others */
};

#define HALF ((uint64_t)1 << 31)

/* A record's stall under its instruction c (exposed_code_of; c < 0: on no known line). */
static inline void add_stall(struct wave_run *s, int32_t c, int64_t st)
{
	if (c < 0)
		s->unknown += (uint64_t)st;
	else if ((uint64_t)st < HALF) /* 2^32 of them at most before a flush: exact */
		s->stall64[c >> 1] += (uint64_t)st;
	else
		s->line_stall[c >> 1] += (uint64_t)st;
}

/* One record. The time is kept as time - begin modulo 2^64 and read back as begin + that,
 * modulo 2^64 (trace_add): the same time whatever the difference was, so only the kept value
 * need fit. */
static inline void wave_step(struct wave_run *s, const att_wave_inst *in, struct exposed_rec *r,
			     int32_t c, uint64_t begin)
{
	const int64_t time = in->time, stall = in->stall, dur = in->duration;
	const int64_t st = stall > 0 ? stall : 0;
	s->latency = trace_add(s->latency, dur > 0 ? dur : 0);
	uint64_t rel = (uint64_t)time - begin;
	s->over |= (rel + HALF) | ((uint64_t)stall + HALF) | ((uint64_t)dur + HALF);
	*r = (struct exposed_rec){(int32_t)rel, (int32_t)stall, (int32_t)dur, c >> 1};
	s->mapped += c >= 0;
	s->flagged += c >= 0 && (c & 1);
	add_stall(s, c, st);
	/* the record's events span [time, time + ext); none when ext <= 0 */
	int64_t ext = dur > st ? dur : st;
	if (ext > 0) {
		/* a time past INT64_MAX (a hostile file: the wrapped sum is below time, ext being
		 * positive) takes the event merge, so that the sweep's intervals of one wave never
		 * overlap (EXPOSED_STALL_ONE). While the wave is in order, last >= time >= prev:
		 * prev is the latest event so far (once out of order, prev no longer matters) */
		int64_t last = trace_add(time, ext);
		s->ok &= (last >= time) & (time >= s->prev);
		s->prev = last;
	}
}

static size_t run_scalar(const exposed_acc *a, struct wave_run *s, const att_wave_inst *in,
			 struct exposed_rec *r, size_t k, size_t n, uint64_t begin)
{
	for (; k < n; k++)
		wave_step(s, &in[k], &r[k], exposed_code_of(a, in[k].line), begin);
	return k;
}

#if EXPOSED_WAVE_AVX2
/* Signed 64-bit max of two vectors (AVX2 has none). */
__attribute__((target("avx2"))) static inline __m256i max64(__m256i x, __m256i y)
{
	return _mm256_blendv_epi8(y, x, _mm256_cmpgt_epi64(x, y));
}

/* Records [k, n) four at a time; returns where it stopped (fewer than four left). */
__attribute__((target("avx2"))) static size_t run_avx2(const exposed_acc *a, struct wave_run *s,
						       const att_wave_inst *in,
						       struct exposed_rec *r, size_t k, size_t n,
						       uint64_t begin)
{
	_Static_assert(sizeof(att_wave_inst) == 40 && offsetof(att_wave_inst, time) == 0 &&
			   offsetof(att_wave_inst, stall) == 16 &&
			   offsetof(att_wave_inst, duration) == 24 &&
			   offsetof(att_wave_inst, line) == 32,
		       "att_wave_inst is five int64: time, category, stall, duration, line");
	_Static_assert(sizeof(struct exposed_rec) == 16, "exposed_rec is four int32");
	const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi64x((int64_t)HALF);
	const __m256i vbegin = _mm256_set1_epi64x((int64_t)begin);
	const __m256i n_code = _mm256_set1_epi64x((int64_t)a->n_code);
	__m256i over = zero, lat = zero;
	for (; k + 4 <= n; k += 4) {
		/* records k..k+3 are 20 int64: q[5j + f] is field f of record j */
		const __m256i *p = (const __m256i *)&in[k];
		__m256i y0 = _mm256_loadu_si256(p), y1 = _mm256_loadu_si256(p + 1);
		__m256i y2 = _mm256_loadu_si256(p + 2), y3 = _mm256_loadu_si256(p + 3);
		__m256i y4 = _mm256_loadu_si256(p + 4);
		/* time: q0 q5 q10 q15 = y0[0] y1[1] y2[2] y3[3]; line: q4 q9 q14 q19 = y1[0] y2[1]
		 * y3[2] y4[3]; stall: q2 q7 q12 q17 = y0[2] y1[3] y3[0] y4[1]; duration: q3 q8 q13
		 * q18 = y0[3] y2[0] y3[1] y4[2] (blend masks in 32-bit lanes, two a qword) */
		__m256i time = _mm256_blend_epi32(_mm256_blend_epi32(y0, y1, 0x0C),
						  _mm256_blend_epi32(y2, y3, 0xC0), 0xF0);
		__m256i line = _mm256_blend_epi32(_mm256_blend_epi32(y1, y2, 0x0C),
						  _mm256_blend_epi32(y3, y4, 0xC0), 0xF0);
		/* y3[0] y4[1] y0[2] y1[3], then its halves swapped */
		__m256i stall = _mm256_permute4x64_epi64(
		    _mm256_blend_epi32(_mm256_blend_epi32(y3, y4, 0x0C),
				       _mm256_blend_epi32(y0, y1, 0xC0), 0xF0),
		    0x4E);
		/* y2[0] y3[1] y4[2] y0[3], then turned by one lane */
		__m256i dur = _mm256_permute4x64_epi64(
		    _mm256_blend_epi32(_mm256_blend_epi32(y2, y3, 0x0C),
				       _mm256_blend_epi32(y4, y0, 0xC0), 0xF0),
		    0x93);
		__m256i st = _mm256_and_si256(stall, _mm256_cmpgt_epi64(stall, zero));
		__m256i ext = max64(dur, st);
		/* lines in the table: 0 <= line < n_code; others of line <= 0 are on no line */
		__m256i in_tab = _mm256_andnot_si256(_mm256_cmpgt_epi64(zero, line),
						     _mm256_cmpgt_epi64(n_code, line));
		__m256i past = _mm256_andnot_si256(in_tab, _mm256_cmpgt_epi64(line, zero));
		if (!_mm256_testz_si256(past, past) ||
		    _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(ext, zero))) != 0xF) {
			/* a line past the table, or a record without events: one by one */
			for (size_t j = 0; j < 4; j++)
				wave_step(s, &in[k + j], &r[k + j],
					  exposed_code_of(a, in[k + j].line), begin);
			continue;
		}
		__m128i c = _mm256_mask_i64gather_epi32(
		    _mm_set1_epi32(-1), (const int *)a->code, line,
		    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
			in_tab, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))),
		    4);
		lat = _mm256_add_epi64(
		    lat, _mm256_and_si256(dur, _mm256_cmpgt_epi64(dur, zero))); /* wrapping */
		__m256i rel = _mm256_sub_epi64(time, vbegin);
		over = _mm256_or_si256(
		    over, _mm256_or_si256(_mm256_add_epi64(rel, half),
					  _mm256_or_si256(_mm256_add_epi64(stall, half),
							  _mm256_add_epi64(dur, half))));
		/* the kept records: {rel, stall} and {dur, inst} as the low halves of qwords */
		__m256i inst = _mm256_cvtepi32_epi64(_mm_srai_epi32(c, 1));
		__m256i ts = _mm256_blend_epi32(rel, _mm256_slli_epi64(stall, 32), 0xAA);
		__m256i di = _mm256_blend_epi32(dur, _mm256_slli_epi64(inst, 32), 0xAA);
		__m256i lo = _mm256_unpacklo_epi64(ts, di), hi = _mm256_unpackhi_epi64(ts, di);
		_mm256_storeu_si256((__m256i *)&r[k], _mm256_permute2x128_si256(lo, hi, 0x20));
		_mm256_storeu_si256((__m256i *)&r[k + 2], _mm256_permute2x128_si256(lo, hi, 0x31));
		/* the order: each record's time at or after the previous one's last event, and no
		 * last event wrapped past INT64_MAX */
		__m256i last = _mm256_add_epi64(time, ext);
		__m256i before = _mm256_blend_epi32(_mm256_permute4x64_epi64(last, 0x90),
						    _mm256_set1_epi64x(s->prev), 0x03);
		__m256i bad = _mm256_or_si256(_mm256_cmpgt_epi64(time, last),
					      _mm256_cmpgt_epi64(before, time));
		s->ok &= _mm256_testz_si256(bad, bad);
		s->prev = _mm256_extract_epi64(last, 3);
		/* the counts and the stall sums, lane by lane */
		unsigned known = (unsigned)_mm_movemask_ps(
		    _mm_castsi128_ps(_mm_cmpgt_epi32(c, _mm_set1_epi32(-1))));
		unsigned flag = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(c, 31)));
		s->mapped += __builtin_popcount(known);
		s->flagged += __builtin_popcount(known & flag);
		/* only the stalled ones (a quarter of the corpus's records) add anything */
		unsigned stalled =
		    (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(st, zero)));
		if (stalled) {
			int32_t cs[4];
			int64_t sts[4];
			_mm_storeu_si128((__m128i *)cs, c);
			_mm256_storeu_si256((__m256i *)sts, st);
			for (; stalled; stalled &= stalled - 1) {
				int j = __builtin_ctz(stalled);
				add_stall(s, cs[j], sts[j]);
			}
		}
	}
	int64_t l[4];
	uint64_t o[4];
	_mm256_storeu_si256((__m256i *)l, lat);
	_mm256_storeu_si256((__m256i *)o, over);
	for (int j = 0; j < 4; j++) {
		s->latency = trace_add(s->latency, l[j]);
		s->over |= o[j];
	}
	return k;
}
#endif

void exposed_wave_simd(exposed_acc *a, const att_wave *w, exposed_wave_facts *f, int simd)
{
	struct exposed_scratch *x = exposed_scratch_for(a, 0);
	size_t n = w->n_insts;
	/* one more than needed: never a null array, even for a group of waves without records.
	 * Written once, in order, and large (a SIMD's records): whole huge pages past 256 KB,
	 * where each fresh 4 KB page would fault on its own (xgrow_huge) */
	x->recs = xgrow_huge(x->recs, &x->cap_recs, x->n_recs + n + 1, sizeof *x->recs);
	struct exposed_rec *r = x->recs + x->n_recs;
	const att_wave_inst *in = w->insts;
	size_t k0 = 0;
	while (k0 < n && in[k0].stall <= 0 && in[k0].duration <= 0)
		k0++; /* no events (nor stall) */
	/* a stall below 2^31 goes to the 64-bit sums, flushed before 2^32 records are in them */
	if (x->n_stall64 + n >= ((size_t)1 << 32))
		exposed_flush_stall64(a, x);
	if (!x->stall64)
		x->stall64 = xcalloc(a->d->n_insts ? a->d->n_insts : 1, sizeof *x->stall64);
	x->n_stall64 += n;
	struct wave_run s = {0, INT64_MIN, 0, 0, 0, 1, 0, x->stall64, a->line_stall};
	size_t k = 0;
	const uint64_t begin = (uint64_t)w->begin;
#if EXPOSED_WAVE_AVX2
	if (simd && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		k = run_avx2(a, &s, in, r, k, n, begin);
#endif
	(void)simd;
	run_scalar(a, &s, in, r, k, n, begin);
	a->unknown_stall += s.unknown;
	f->events = (uint8_t)(k0 < n);
	f->in_order = (uint8_t)s.ok;
	f->first = k0 < n ? in[k0].time : 0;
	f->end = k0 < n ? s.prev : 0;
	f->n = n;
	f->mapped = s.mapped;
	f->flagged = s.flagged;
	f->latency = s.latency;
	f->compact = s.over >> 32 == 0;
	if (f->compact) {
		f->at = x->n_recs;
		x->n_recs += n;
		return;
	}
	x->full = xgrow(x->full, &x->cap_full, x->n_full + n + 1, sizeof *x->full);
	if (n)
		memcpy(x->full + x->n_full, w->insts, n * sizeof *x->full);
	f->at = x->n_full;
	x->n_full += n;
}

void exposed_wave(exposed_acc *a, const att_wave *w, exposed_wave_facts *f)
{
	exposed_wave_simd(a, w, f, 1);
}
