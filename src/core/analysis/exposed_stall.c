/* Exposed stall of the waves of one SIMD (exposed_stall.h), swept block by block.
 *
 * A group whose waves are each in order (a record starts no earlier than the previous one's last
 * event: every corpus wave but a handful) has at most one stalled record a wave at any time, so
 * at most as many as waves overlap; with at most EXPOSED_MAX_STALLED of them the result is a
 * sum over cycles that needs no merge: the window is cut into blocks of EXPOSED_BLOCK cycles,
 * and per block the live waves' issue and stall intervals are added as +1/-1 at their clipped
 * ends, a prefix sum classifies each cycle (issue, exposed, empty) and accumulates phi, the
 * share one stalled record gets from the block's start to each cycle (EXPOSED_UNIT / k for an
 * exposed cycle with k stalled records), and a stall interval's share is phi at its end minus
 * phi at its start. Every buffer is one block long and reused, so the sweep neither faults
 * pages nor misses cache as the global event sort did. Each wave's order, span and summed stall
 * are taken by exposed_wave (exposed_wave.c), which the pass (wave_facts.c) calls as soon as it has
 * parsed the wave, while its records are in cache; it also keeps them for the group in 16 bytes a
 * record (struct exposed_rec: the pass itself keeps none, so report's memory grows with a SIMD's
 * records by 16 bytes each, not 40), and the sweep, which comes once the group's last wave is
 * parsed, reads each kept record once. Groups with a wave out of order (malformed files) or
 * with values past 32 bits (kept as they are), and windows of many cycles a record, take the
 * event merge of exposed_events.c, which gives the same figures where both apply. */
#include "core/analysis/exposed_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

const uint32_t exposed_units_per_share[EXPOSED_MAX_STALLED + 1] = {
    0,
    EXPOSED_UNIT / 1,
    EXPOSED_UNIT / 2,
    EXPOSED_UNIT / 3,
    EXPOSED_UNIT / 4,
    EXPOSED_UNIT / 5,
    EXPOSED_UNIT / 6,
    EXPOSED_UNIT / 7,
    EXPOSED_UNIT / 8,
    EXPOSED_UNIT / 9,
    EXPOSED_UNIT / 10,
    EXPOSED_UNIT / 11,
    EXPOSED_UNIT / 12,
    EXPOSED_UNIT / 13,
    EXPOSED_UNIT / 14,
    EXPOSED_UNIT / 15,
    EXPOSED_UNIT / 16,
};

void exposed_init(exposed_acc *a, const trace_dispatch *d)
{
	memset(a, 0, sizeof *a);
	a->d = d;
	line_index_init(&a->lines, d);
	a->line_exposed = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *a->line_exposed);
	a->line_stall = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *a->line_stall);
	/* an instruction index and its flag in 32 bits: code.json is bounded far below 2^30 rows
	 * (FLYPROF_LIMIT_ATT); should it not be, every line is looked up in lines instead */
	a->n_code = d->n_insts < ((size_t)1 << 30) ? a->lines.n : 0;
	a->code = xmalloc((a->n_code ? a->n_code : 1) * sizeof *a->code);
	for (size_t l = 0; l < a->n_code; l++)
		a->code[l] = l && a->lines.inst[l] >= 0 ? (int32_t)(a->lines.inst[l] << 1) : -1;
}

void exposed_flag(exposed_acc *a, const char *flag)
{
	a->flag = flag;
	for (size_t l = 0; l < a->n_code; l++)
		if (a->code[l] >= 0)
			a->code[l] = (a->code[l] & ~1) | (flag[a->code[l] >> 1] != 0);
}

void exposed_release(exposed_acc *a)
{
	struct exposed_scratch *x = a->scratch;
	if (x) {
		free(x->in_order);
		free(x->first);
		free(x->ends);
		free(x->order);
		free(x->pos);
		free(x->live);
		free(x->facts);
		free(x->recs);
		free(x->stall64);
		free(x->full);
		free(x->expand);
		free(x->views);
		free(x->delta);
		free(x->pieces);
		free(x->phi);
		exposed_events_release(x->ev);
		free(x);
	}
	free(a->line_exposed);
	free(a->line_stall);
	free(a->line_nowin);
	free(a->code);
	line_index_release(&a->lines);
	memset(a, 0, sizeof *a);
}

struct exposed_scratch *exposed_scratch_for(exposed_acc *a, size_t n)
{
	if (!a->scratch) {
		a->scratch = xcalloc(1, sizeof *a->scratch);
		a->scratch->delta = xcalloc(EXPOSED_BLOCK + 1, sizeof *a->scratch->delta);
		a->scratch->phi = xmalloc((EXPOSED_BLOCK + 1) * sizeof *a->scratch->phi);
	}
	struct exposed_scratch *x = a->scratch;
	if (n > x->cap_w) {
		size_t cap = n > 2 * x->cap_w ? n : 2 * x->cap_w;
		x->in_order = xrealloc(x->in_order, cap * sizeof *x->in_order);
		x->first = xrealloc(x->first, cap * sizeof *x->first);
		x->ends = xrealloc(x->ends, cap * sizeof *x->ends);
		x->order = xrealloc(x->order, cap * sizeof *x->order);
		x->pos = xrealloc(x->pos, cap * sizeof *x->pos);
		x->live = xrealloc(x->live, cap * sizeof *x->live);
		x->facts = xrealloc(x->facts, cap * sizeof *x->facts);
		x->cap_w = cap;
	}
	return x;
}

void exposed_store_reset(exposed_acc *a)
{
	struct exposed_scratch *x = exposed_scratch_for(a, 0);
	x->n_recs = x->n_full = 0;
}

/* The most cycles a record the block sweep takes a group with (exposed_group): about where the
 * two ways cost the same. */
#define EXPOSED_CYCLES_PER_RECORD 64

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return (a > b) - (a < b);
}

static int order_cmp(const void *pa, const void *pb, void *arg)
{
	const int64_t *first = arg;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	if (first[x] != first[y])
		return first[x] < first[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* The most waves whose [first, end) overlap at one time: ends[0..n) are sorted in place, order
 * is by first. */
static size_t max_overlap(const size_t *order, const int64_t *first, int64_t *ends, size_t n)
{
	qsort(ends, n, sizeof *ends, cmp_i64);
	size_t most = 0, now = 0, j = 0;
	for (size_t i = 0; i < n; i++) {
		while (j < n && ends[j] <= first[order[i]])
			j++, now--;
		now++;
		most = now > most ? now : most;
	}
	return most;
}

/* [b, e) clipped to the block [b0, b0 + len), as offsets [i0, i1); 0 when nothing is left. */
static inline int clip(int64_t b, int64_t e, int64_t b0, int64_t len, int64_t *i0, int64_t *i1)
{
	*i0 = b > b0 ? b - b0 : 0;
	*i1 = e - b0 < len ? e - b0 : len;
	return *i0 < *i1;
}

/* A stall interval's part in a block: cycles [i0, i1) of it, the record's instruction. */
struct exposed_piece {
	uint32_t i0, i1;
	int32_t inst;
};

static struct exposed_piece *piece_push(struct exposed_scratch *x)
{
	if (x->n_pieces == x->cap_pieces) {
		x->cap_pieces = x->cap_pieces ? 2 * x->cap_pieces : 1024;
		x->pieces = xrealloc(x->pieces, x->cap_pieces * sizeof *x->pieces);
	}
	return &x->pieces[x->n_pieces++];
}

/* The first of records [from, to) of a wave in order not done by b1: the last one with events,
 * if its last event is past b1 (records before it end before it starts). */
static const struct exposed_rec *
first_undone(const struct exposed_rec *from, const struct exposed_rec *to, int64_t base, int64_t b1)
{
	for (const struct exposed_rec *in = to; in > from; in--) {
		int64_t st = in[-1].st > 0 ? in[-1].st : 0;
		int64_t ext = in[-1].dur > st ? in[-1].dur : st;
		if (ext > 0)
			return trace_add(base, in[-1].t) + ext > b1 ? in - 1 : to;
	}
	return to;
}

/* An issue run [r0, r1) cut to the block [0, len) into delta (nothing when r1 is INT64_MIN: no
 * run yet, or when nothing is left). */
static inline void run_add(uint32_t *delta, int64_t r0, int64_t r1, int64_t len)
{
	int64_t i0 = r0 > 0 ? r0 : 0, i1 = r1 < len ? r1 : len;
	if (i0 < i1) {
		delta[i0]++;
		delta[i1]--;
	}
}

/* One wave's records from in on that start before the block's end, in a group whose times are
 * all far from the int64 limits (group_blocks' `tame`): each record's time relative to the
 * block's start is then the wave's begin relative to it plus the kept time, exactly, and the
 * intervals are cut to the block with plain compares. Returns the first record not started. */
static const struct exposed_rec *wave_block_tame(struct exposed_scratch *x,
						 const struct exposed_rec *in,
						 const struct exposed_rec *end, int64_t off,
						 int64_t len)
{
	uint32_t *delta = x->delta;
	/* The wave's issue intervals that follow one another without a gap (three records in four
	 * on the corpus issue right where the one before stopped) are added as one run [r0, r1):
	 * the cycles' prefix sums, all the sweep reads of delta, are the same. */
	int64_t r0 = 0, r1 = INT64_MIN;
	for (; in < end; in++) {
		const int64_t rel = off + in->t, dur = in->dur;
		if (rel >= len)
			break;
		const int64_t st = in->st > 0 ? in->st : 0;
		if (st > 0) {
			int64_t i0 = rel > 0 ? rel : 0, i1 = rel + st < len ? rel + st : len;
			if (i0 < i1) {
				delta[i0] += EXPOSED_STALL_ONE;
				delta[i1] -= EXPOSED_STALL_ONE;
				*piece_push(x) =
				    (struct exposed_piece){(uint32_t)i0, (uint32_t)i1, in->inst};
			}
		}
		if (dur > st) {
			if (rel + st == r1) {
				r1 = rel + dur;
				continue;
			}
			run_add(delta, r0, r1, len);
			r0 = rel + st, r1 = rel + dur;
		}
	}
	run_add(delta, r0, r1, len);
	return in;
}

/* Adds the live waves' intervals in [b0, b0 + len) to x->delta and their stall intervals' parts
 * to x->pieces; moves each wave past the records done by the block's end, dropping the waves
 * done (at their end or at a record past the window's end hi). The waves are in order
 * (exposed_wave checked them); tame: every time of the group is far from the int64 limits
 * (wave_block_tame). */
static void block_intervals(struct exposed_scratch *x, const wave_group *g, size_t *n_live,
			    int64_t b0, int64_t len, int64_t hi, int tame)
{
	int64_t b1 = b0 + len;
	x->n_pieces = 0;
	for (size_t j = 0; j < *n_live;) {
		size_t w = x->live[j];
		const int64_t base = g->waves[w].begin;
		const struct exposed_rec *end = x->recs + x->cur[w].at + x->cur[w].n;
		const struct exposed_rec *in = x->pos[w];
		if (tame)
			in = wave_block_tame(x, in, end, base - b0, len);
		for (; !tame && in < end && trace_add(base, in->t) < b1; in++) {
			int64_t time = trace_add(base, in->t), st = in->st > 0 ? in->st : 0, i0, i1;
			if (st > 0 && clip(time, time + st, b0, len, &i0, &i1)) {
				x->delta[i0] += EXPOSED_STALL_ONE;
				x->delta[i1] -= EXPOSED_STALL_ONE;
				*piece_push(x) =
				    (struct exposed_piece){(uint32_t)i0, (uint32_t)i1, in->inst};
			}
			if (in->dur > st && clip(time + st, time + in->dur, b0, len, &i0, &i1)) {
				x->delta[i0]++;
				x->delta[i1]--;
			}
		}
		const struct exposed_rec *done = first_undone(x->pos[w], in, base, b1);
		while (done < end && done->st <= 0 && done->dur <= 0)
			done++; /* no events: no block need start at it */
		x->pos[w] = done;
		if (done == end || trace_add(base, done->t) >= hi)
			x->live[j] = x->live[--*n_live];
		else
			j++;
	}
}

/* Classifies the block's cycles (exposed_cycles) and gives its stall pieces their shares: phi
 * at the end minus phi at the start. Returns the block's issue and exposed cycles. */
static void block_sums(exposed_acc *a, struct exposed_scratch *x, int64_t len, int64_t *issue,
		       int64_t *exposed)
{
	uint64_t sum = exposed_cycles(x->delta, x->phi, len, 1);
	*issue += (int64_t)(sum / EXPOSED_CYCLE_ISSUE);
	*exposed +=
	    (int64_t)(sum / EXPOSED_CYCLE_EXPOSED % (EXPOSED_CYCLE_ISSUE / EXPOSED_CYCLE_EXPOSED));
	const uint32_t *phi = x->phi;
	for (size_t k = 0; k < x->n_pieces; k++) {
		const struct exposed_piece *p = &x->pieces[k];
		exposed_fx share = phi[p->i1] - phi[p->i0];
		if (p->inst < 0)
			a->unknown_exposed += share;
		else
			a->line_exposed[p->inst] += share;
	}
}

/* The block sweep of a group whose waves are in order (the file's head comment); order holds
 * its n waves with events by first record. */
static void group_blocks(exposed_acc *a, const wave_group *g, int64_t lo, int64_t hi, size_t n)
{
	/* A record's time is its wave's begin plus a kept value below 2^31 in size, its events
	 * end below 2^32 later: with every begin and end within 2^61 of 0 each difference the
	 * sweep takes is exact in int64 (wave_block_tame); else it keeps to wrapping sums. */
	const int64_t far = (int64_t)1 << 61;
	int tame = 1;
	for (size_t w = 0; w < g->n; w++)
		tame &= g->waves[w].begin > -far && g->waves[w].begin < far &&
			g->waves[w].end > -far && g->waves[w].end < far;
	struct exposed_scratch *x = a->scratch;
	size_t next = 0, n_live = 0;
	int64_t issue = 0, exposed = 0;
	for (size_t w = 0; w < g->n; w++)
		x->pos[w] = x->recs + x->cur[w].at;
	int64_t b0 = n ? x->first[x->order[0]] : hi;
	b0 = b0 > lo ? b0 : lo;
	while (b0 < hi) {
		int64_t len = hi - b0 > EXPOSED_BLOCK ? EXPOSED_BLOCK : hi - b0, b1 = b0 + len;
		while (next < n && x->first[x->order[next]] < b1)
			x->live[n_live++] = x->order[next++];
		block_intervals(x, g, &n_live, b0, len, hi, tame);
		block_sums(a, x, len, &issue, &exposed);
		/* the next block starts where the next record does, or right here */
		int64_t nb = next < n ? x->first[x->order[next]] : INT64_MAX;
		for (size_t j = 0; j < n_live; j++) {
			size_t w = x->live[j];
			int64_t t = trace_add(g->waves[w].begin, x->pos[w]->t);
			nb = t < nb ? t : nb;
		}
		if (nb == INT64_MAX)
			break;
		b0 = nb > b1 ? nb : b1;
	}
	a->issue += issue;
	a->exposed += exposed;
	a->empty += trace_sub(hi, lo) - issue - exposed;
}

/* At most the cycles the block sweep would walk: those of [lo, hi) that the waves' spans
 * cover, bounded by the window and by the sum of the spans (ends[k] is order[k]'s: call before
 * order is sorted). */
static uint64_t swept_cycles(const struct exposed_scratch *x, size_t n, int64_t lo, int64_t hi)
{
	uint64_t sum = 0, window = (uint64_t)hi - (uint64_t)lo;
	for (size_t k = 0; k < n && sum < window; k++) {
		int64_t b = x->first[x->order[k]], e = x->ends[k];
		b = b < lo ? lo : b > hi ? hi : b;
		e = e < lo ? lo : e > hi ? hi : e;
		sum += e > b ? (uint64_t)e - (uint64_t)b : 0;
	}
	return sum < window ? sum : window;
}

/* g with its waves' records as exposed_wave kept them, as records again (the compact ones
 * expanded: the same values, and a line that names the same instruction: its own), for the
 * event merge and unsum_stall. */
static wave_group group_view(const exposed_acc *a, struct exposed_scratch *x, const wave_group *g,
			     const exposed_wave_facts *f)
{
	size_t n_exp = 0;
	for (size_t w = 0; w < g->n; w++)
		n_exp += f[w].compact ? f[w].n : 0;
	x->expand = xgrow(x->expand, &x->cap_expand, n_exp + 1, sizeof *x->expand);
	x->views = xgrow(x->views, &x->cap_views, g->n, sizeof *x->views);
	size_t off = 0;
	for (size_t w = 0; w < g->n; w++) {
		att_wave *v = &x->views[w];
		*v = g->waves[w];
		v->n_insts = v->cap_insts = f[w].n;
		if (!f[w].compact) {
			v->insts = x->full + f[w].at;
			continue;
		}
		v->insts = x->expand + off;
		for (size_t k = 0; k < f[w].n; k++) {
			const struct exposed_rec *r = &x->recs[f[w].at + k];
			int64_t line = r->inst >= 0 ? a->d->insts[r->inst].code_line : 0;
			x->expand[off + k] = (att_wave_inst){trace_add(g->waves[w].begin, r->t), 0,
							     r->st, r->dur, line};
		}
		off += f[w].n;
	}
	return (wave_group){g->se, g->cu, g->simd, x->views, g->n, g->pos};
}

/* Notes g's records' stall, which exposed_wave added, as that of a SIMD without a window, to be
 * taken out of the sums (exposed_line_stall; exact: the sums are unsigned, so adding and
 * subtracting the same values gives the bytes before). */
static void unsum_stall(exposed_acc *a, const wave_group *g)
{
	for (size_t w = 0; w < g->n; w++)
		for (size_t k = 0; k < g->waves[w].n_insts; k++) {
			const att_wave_inst *in = &g->waves[w].insts[k];
			if (in->stall <= 0)
				continue;
			long i = exposed_inst_of(a, in);
			if (i < 0) {
				a->unknown_nowin += (uint64_t)in->stall;
				continue;
			}
			if (!a->line_nowin)
				a->line_nowin = xcalloc(a->d->n_insts ? a->d->n_insts : 1,
							sizeof *a->line_nowin);
			a->line_nowin[i] += (uint64_t)in->stall;
		}
}

void exposed_group_facts(exposed_acc *a, const wave_group *g, const exposed_wave_facts *f)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t records = 0;
	for (size_t w = 0; w < g->n; w++) {
		lo = g->waves[w].begin < lo ? g->waves[w].begin : lo;
		hi = g->waves[w].end > hi ? g->waves[w].end : hi;
		records += f[w].n;
	}
	struct exposed_scratch *x = exposed_scratch_for(a, g->n);
	exposed_flush_stall64(a, x); /* the group's waves' stall: the sums are whole again */
	if (!g->n || hi <= lo) {
		wave_group v = group_view(a, x, g, f);
		unsum_stall(a, &v); /* no window: the SIMD adds nothing */
		return;
	}
	x->cur = f;
	size_t n = 0;
	int in_order = 1;
	for (size_t w = 0; w < g->n; w++) {
		x->in_order[w] = f[w].in_order;
		in_order &= f[w].in_order & f[w].compact;
		x->first[w] = f[w].first;
		if (f[w].events) {
			x->ends[n] = f[w].end;
			x->order[n++] = w;
		}
	}
	/* The sweep costs about 8 instructions a cycle and 70 a record, the merge about 450 a
	 * record (callgrind, corpus moe_gemm): a window with few records in many cycles (long
	 * stalls; the corpus has 4 to 44 cycles a record) takes the merge, whose cost does not
	 * grow with the cycles. Waves out of order (malformed files) take the merge too. */
	int sparse =
	    in_order && swept_cycles(x, n, lo, hi) / EXPOSED_CYCLES_PER_RECORD > records + 1;
	if (in_order && !sparse) {
		qsort_r(x->order, n, sizeof *x->order, order_cmp, x->first);
		if (max_overlap(x->order, x->first, x->ends, n) > EXPOSED_MAX_STALLED)
			in_order = 0;
	}
	if (in_order && !sparse) {
		group_blocks(a, g, lo, hi, n);
	} else {
		wave_group v = group_view(a, x, g, f);
		exposed_events_group(a, &v, lo, hi);
	}
	x->cur = NULL;
	a->window = trace_add(a->window, trace_sub(hi, lo));
	a->simds++;
}

void exposed_group(exposed_acc *a, const wave_group *g)
{
	struct exposed_scratch *x = exposed_scratch_for(a, g->n);
	exposed_store_reset(a);
	for (size_t w = 0; w < g->n; w++)
		exposed_wave(a, &g->waves[w], &x->facts[w]);
	exposed_group_facts(a, g, x->facts);
}

void exposed_merge(exposed_acc *dst, const exposed_acc *src)
{
	dst->simds += src->simds;
	dst->window += src->window;
	dst->issue += src->issue;
	dst->empty += src->empty;
	dst->exposed += src->exposed;
	dst->unknown_exposed += src->unknown_exposed;
	dst->unknown_stall += src->unknown_stall;
	dst->unknown_nowin += src->unknown_nowin;
	for (size_t i = 0; i < dst->d->n_insts; i++) {
		dst->line_exposed[i] += src->line_exposed[i];
		dst->line_stall[i] += src->line_stall[i];
	}
	if (src->line_nowin) {
		if (!dst->line_nowin)
			dst->line_nowin =
			    xcalloc(dst->d->n_insts ? dst->d->n_insts : 1, sizeof *dst->line_nowin);
		for (size_t i = 0; i < dst->d->n_insts; i++)
			dst->line_nowin[i] += src->line_nowin[i];
	}
}

void exposed_class_sums(const exposed_acc *a, exposed_fx exposed[TAX__COUNT],
			exposed_fx stall[TAX__COUNT])
{
	memset(exposed, 0, TAX__COUNT * sizeof *exposed);
	memset(stall, 0, TAX__COUNT * sizeof *stall);
	for (size_t i = 0; i < a->d->n_insts; i++) {
		int c = tax_class_of_inst(a->d, (long)i);
		exposed[c] += a->line_exposed[i];
		stall[c] += exposed_line_stall(a, i);
	}
	exposed[TAX_OTHER] += a->unknown_exposed;
	stall[TAX_OTHER] += a->unknown_stall - a->unknown_nowin;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* Units to cycles, once, for the output. */
static double cycles_of(exposed_fx units)
{
	return (double)units / EXPOSED_UNIT;
}

/* Descending by exposed stall, ties by instruction index (the order the stable sort of the
 * float sums gave equal values). */
static int line_desc(const void *pa, const void *pb, void *arg)
{
	const exposed_fx *v = arg;
	long a = *(const long *)pa, b = *(const long *)pb;
	if (v[a] != v[b])
		return v[b] > v[a] ? 1 : -1;
	return (a > b) - (a < b);
}

jv *exposed_to_json(const exposed_acc *a, size_t top_lines)
{
	jv *o = jv_object();
	jv_set_int(o, "simds", (int64_t)a->simds);
	jv_set_int(o, "window_cycles", a->window);
	jv_set_int(o, "issue_cycles", a->issue);
	jv_set_round(o, "exposed_cycles", (double)a->exposed, 0);
	jv_set_int(o, "empty_cycles", a->empty);
	jv_set_round(o, "exposed_pct_of_simd_time", pct((double)a->exposed, (double)a->window), 2);
	exposed_fx cls_exposed[TAX__COUNT], cls_stall[TAX__COUNT];
	exposed_class_sums(a, cls_exposed, cls_stall);
	jv *cls = jv_set(o, "classes", jv_array());
	for (int c = 0; c < TAX__COUNT; c++) {
		if (!cls_stall[c] && !cls_exposed[c])
			continue;
		double stall = (double)cls_stall[c], exposed = cycles_of(cls_exposed[c]);
		jv *e = jv_push(cls, jv_object());
		jv_set_str(e, "class", tax_class_name((tax_class)c));
		jv_set_round(e, "stall", stall, 0);
		jv_set_round(e, "exposed", exposed, 1);
		jv_set_round(e, "exposed_pct_of_stall", pct(exposed, stall), 2);
		jv_set_round(e, "exposed_pct_of_simd_time", pct(exposed, (double)a->window), 2);
	}
	size_t n = a->d->n_insts;
	long *idx = xcalloc(n ? n : 1, sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = (long)i;
	qsort_r(idx, n, sizeof *idx, line_desc, a->line_exposed);
	jv *lines = jv_set(o, "lines", jv_array());
	for (size_t k = 0; k < n && k < top_lines && a->line_exposed[idx[k]]; k++) {
		const trace_inst *t = &a->d->insts[idx[k]];
		jv *e = jv_push(lines, jv_object());
		jv_set_int(e, "code_line", t->code_line);
		jv_set_str(e, "isa", t->isa ? t->isa : "");
		jv_set_str(e, "source", t->source ? t->source : "");
		jv_set_str(e, "class", tax_class_name((tax_class)tax_class_of_inst(a->d, idx[k])));
		jv_set_round(e, "stall", (double)exposed_line_stall(a, (size_t)idx[k]), 0);
		jv_set_round(e, "exposed", cycles_of(a->line_exposed[idx[k]]), 1);
	}
	free(idx);
	jv_set_str(
	    o, "definition",
	    "per SIMD, waves merged: a cycle in which no wave issued (time + stall to time + "
	    "duration) while some were stalled (time to time + stall) is exposed, split "
	    "equally between the stalled waves' classes and lines; window = first wave "
	    "begin to last wave end per SIMD, summed over traced SIMDs");
	return o;
}
