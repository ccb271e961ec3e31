/* exposed_wave's two forms (src/core/analysis/exposed_wave.c), AVX2 and scalar, on random
 * waves: the same facts, kept records and stall sums, whatever the records hold (lines on no
 * instruction, past the code table, negative; records without events; values past 32 bits;
 * records out of order; times that wrap). */
#include "t.h"

#include "base/xalloc.h"
#include "core/analysis/exposed_int.h"
#include "core/analysis/exposed_stall.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Instructions on lines 1..40 but every third, one far past the table (line 2^40), flagged every
 * fifth. */
static void code(trace_dispatch *d, char **flag)
{
	trace_dispatch_init(d);
	for (int64_t l = 1; l <= 40; l++) {
		if (l % 3 == 0)
			continue;
		d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
		trace_inst *t = &d->insts[d->n_insts++];
		memset(t, 0, sizeof *t);
		t->code_line = l;
	}
	d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
	trace_inst *t = &d->insts[d->n_insts++];
	memset(t, 0, sizeof *t);
	t->code_line = (int64_t)1 << 40;
	*flag = xcalloc(d->n_insts, 1);
	for (size_t i = 0; i < d->n_insts; i++)
		(*flag)[i] = i % 5 == 0;
}

/* A wave of n records; `kind` picks what is unusual in it. */
static void wave(att_wave *w, size_t n, int kind, uint64_t *s)
{
	att_wave_init(w);
	w->insts = xcalloc(n + 1, sizeof *w->insts);
	w->n_insts = w->cap_insts = n;
	int64_t t = (int64_t)(rnd(s) % 100000);
	if (kind == 5)
		t = INT64_MAX - 50 * (int64_t)n; /* events run past INT64_MAX */
	w->begin = t - (int64_t)(rnd(s) % 8);
	for (size_t k = 0; k < n; k++) {
		att_wave_inst *in = &w->insts[k];
		uint64_t r = rnd(s);
		in->time = t;
		in->category = (int64_t)(r % 13);
		in->stall = r % 4 == 0 ? (int64_t)(r >> 8) % 300 : 0;
		in->duration = in->stall + 4 * (int64_t)(1 + (r >> 20) % 3);
		in->line = 1 + (int64_t)((r >> 24) % 40);
		if (kind == 1 && r % 7 == 0) /* no events */
			in->stall = 0, in->duration = (r >> 30) % 2 ? 0 : -3;
		if (kind == 2 && r % 6 == 0) /* past the table, unknown, negative, line 0 */
			in->line = (int64_t[]){(int64_t)1 << 40, ((int64_t)1 << 40) + 1, -7, 0,
					       1000000}[(r >> 32) % 5];
		if (kind == 3 && r % 50 == 0) /* past 32 bits */
			in->stall = (int64_t)1 << 33, in->duration = in->stall + 4;
		if (kind == 4 && r % 9 == 0) /* out of order */
			in->time -= 6;
		if (kind == 6 && r % 11 == 0) /* a negative stall, a huge duration */
			in->stall = -5, in->duration = INT64_MAX - 2;
		/* wrapping: kind 5's times run past INT64_MAX */
		t = (int64_t)((uint64_t)t + (uint64_t)(in->duration > 0 ? in->duration : 1));
		if (r % 5 == 0)
			t = (int64_t)((uint64_t)t + (r >> 40) % 9);
	}
	w->end = t;
}

static void same(exposed_acc *x, exposed_acc *y, const exposed_wave_facts *fx,
		 const exposed_wave_facts *fy, const trace_dispatch *d)
{
	CHECK_INT(fx->first, fy->first);
	CHECK_INT(fx->end, fy->end);
	CHECK_INT(fx->events, fy->events);
	CHECK_INT(fx->in_order, fy->in_order);
	CHECK_INT(fx->compact, fy->compact);
	CHECK_INT(fx->at, fy->at);
	CHECK_INT(fx->n, fy->n);
	CHECK_INT(fx->mapped, fy->mapped);
	CHECK_INT(fx->flagged, fy->flagged);
	CHECK_INT(fx->latency, fy->latency);
	struct exposed_scratch *sx = x->scratch, *sy = y->scratch;
	CHECK_INT(sx->n_recs, sy->n_recs);
	CHECK_INT(sx->n_full, sy->n_full);
	CHECK(!memcmp(sx->recs, sy->recs, sx->n_recs * sizeof *sx->recs));
	CHECK(!sx->n_full || !memcmp(sx->full, sy->full, sx->n_full * sizeof *sx->full));
	CHECK(!memcmp(sx->stall64, sy->stall64, d->n_insts * sizeof *sx->stall64));
	CHECK(!memcmp(x->line_stall, y->line_stall, d->n_insts * sizeof *x->line_stall));
	CHECK(x->unknown_stall == y->unknown_stall);
}

TEST(exposed_wave_avx2_equals_scalar)
{
	trace_dispatch d;
	char *flag;
	code(&d, &flag);
	exposed_acc x, y;
	exposed_init(&x, &d);
	exposed_init(&y, &d);
	exposed_flag(&x, flag);
	exposed_flag(&y, flag);
	uint64_t s = 0x9E3779B97F4A7C15ull;
	for (int round = 0; round < 400; round++) {
		att_wave w;
		size_t n = (size_t)(rnd(&s) % 70);
		wave(&w, n, round % 7, &s);
		exposed_wave_facts fx, fy;
		memset(&fx, 0x55, sizeof fx);
		memset(&fy, 0x55, sizeof fy);
		exposed_wave_simd(&x, &w, &fx, 1);
		exposed_wave_simd(&y, &w, &fy, 0);
		same(&x, &y, &fx, &fy, &d);
		if (round % 10 == 9) {
			exposed_store_reset(&x);
			exposed_store_reset(&y);
		}
		att_wave_release(&w);
	}
	exposed_release(&x);
	exposed_release(&y);
	free(flag);
	trace_dispatch_release(&d);
}
