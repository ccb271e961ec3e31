/* Exposed stall by merging the events of a SIMD group's waves (exposed_int.h): the way for groups
 * the block sweep of exposed_stall.c cannot take, which only malformed files make (a wave whose
 * records overlap or are out of time order, more than EXPOSED_MAX_STALLED waves at once). It
 * keeps the merge's every detail, the order of events included, as report computed it before
 * the block sweep: a full table of stalled records drops a new one, and which is dropped
 * depends on that order. */
#include "core/analysis/exposed_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One event of a record: an issue or stall interval starting (+1) or ending (-1). 16 bytes. An
 * instruction index fits 32 bits (code.json is at most FLYPROF_LIMIT_ATT bytes, far fewer than
 * 2^31 rows). */
typedef struct ev {
	int64_t t;
	int32_t inst; /* index into d->insts, -1 when the line is unknown */
	uint8_t kind; /* 0 issue, 1 stall */
	int8_t delta; /* +1 start, -1 end */
} ev;

/* One wave's events in time order, events of equal time in the order the wave's records make
 * them (stall start, stall end, issue start, issue end; records in file order). A wave in order
 * is read straight from its records (rec, event `sub` of *rec next); any other wave's events are
 * copied and stable-sorted (e .. eend; rec is NULL). */
typedef struct cursor {
	ev cur; /* the next event */
	const att_wave_inst *rec, *rend;
	const ev *e, *eend;
	unsigned sub;
} cursor;

/* The stalled records active now: (inst, count), at most one per wave. */
typedef struct active {
	long inst;
	int n;
} active;

/* A heap entry: the time of a wave's next event (inline, for the compares) and the wave. */
typedef struct hent {
	int64_t t;
	size_t w;
} hent;

struct exposed_events_scratch {
	cursor *cs;   /* per wave */
	hent *heap;   /* the merge's heap */
	size_t *pend; /* waves not yet in the heap, by first event */
	active *act;  /* cap_w + 1 */
	size_t cap_w;
	ev *evs, *tmp; /* the copies of out-of-order waves */
	size_t cap_ev;
};

void exposed_events_release(struct exposed_events_scratch *x)
{
	if (!x)
		return;
	free(x->cs);
	free(x->heap);
	free(x->pend);
	free(x->act);
	free(x->evs);
	free(x->tmp);
	free(x);
}

#define EV_RADIX_BITS 11

/* Stable LSD radix sort on t - lo, 11 bits a pass. Returns evs or tmp (both n long). */
static ev *radix_events(ev *evs, ev *tmp, size_t n, int64_t lo, uint64_t range)
{
	ev *src = evs, *dst = tmp;
	size_t pos[1u << EV_RADIX_BITS]; /* 16 KB */
	for (unsigned shift = 0; shift < 64 && range >> shift; shift += EV_RADIX_BITS) {
		const uint64_t mask = (1u << EV_RADIX_BITS) - 1;
		memset(pos, 0, sizeof pos);
		for (size_t i = 0; i < n; i++)
			pos[((uint64_t)src[i].t - (uint64_t)lo) >> shift & mask]++;
		size_t sum = 0;
		for (size_t k = 0; k <= mask; k++) {
			size_t c = pos[k];
			pos[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[pos[((uint64_t)src[i].t - (uint64_t)lo) >> shift & mask]++] = src[i];
		ev *t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/* Stable sort of evs[0..n) by time, through tmp. */
static void sort_copy(ev *evs, ev *tmp, size_t n)
{
	if (n < 2)
		return;
	int64_t lo = evs[0].t, hi = evs[0].t;
	for (size_t i = 1; i < n; i++) {
		lo = evs[i].t < lo ? evs[i].t : lo;
		hi = evs[i].t > hi ? evs[i].t : hi;
	}
	ev *got = radix_events(evs, tmp, n, lo, (uint64_t)hi - (uint64_t)lo);
	if (got != evs)
		memcpy(evs, got, n * sizeof *evs);
}

/* The merge's state: the stalled records (act, n_act of them, `total` their summed counts) and
 * how many issue intervals are open. */
typedef struct sweep {
	active *act;
	size_t n_act, cap;
	int total, issuing;
} sweep;

static void active_add(sweep *s, long inst, int delta)
{
	for (size_t i = 0; i < s->n_act; i++)
		if (s->act[i].inst == inst) {
			s->act[i].n += delta;
			s->total += delta;
			if (s->act[i].n <= 0)
				s->act[i] = s->act[--s->n_act];
			return;
		}
	if (delta > 0 && s->n_act < s->cap) { /* overlapping stalls of one wave (malformed) */
		s->act[s->n_act++] = (active){inst, delta};
		s->total += delta;
	}
}

/* n of `total` stalled records' share of len cycles, in units. Exact for total <=
 * EXPOSED_MAX_STALLED; beyond (more records stalled at once than a SIMD holds waves: a
 * malformed file) rounded down to a unit, an error below 1/720720 cycle a share, still the same
 * whatever the order of addition. */
static inline exposed_fx share_units(int64_t len, int n, int total)
{
	if (total <= EXPOSED_MAX_STALLED)
		return (exposed_fx)(uint64_t)len * (uint64_t)n * exposed_units_per_share[total];
	return (exposed_fx)(uint64_t)len * (uint64_t)n * EXPOSED_UNIT / (uint64_t)total;
}

static void segment(exposed_acc *a, int64_t len, const sweep *s)
{
	if (len <= 0)
		return;
	if (s->issuing > 0) {
		a->issue += len;
		return;
	}
	if (s->total <= 0) {
		a->empty += len;
		return;
	}
	a->exposed += len;
	for (size_t i = 0; i < s->n_act; i++) {
		exposed_fx share = share_units(len, s->act[i].n, s->total);
		if (s->act[i].inst >= 0)
			a->line_exposed[s->act[i].inst] += share;
		else
			a->unknown_exposed += share;
	}
}

/* The stall event of a record: its instruction. */
static ev stall_event(const exposed_acc *a, const att_wave_inst *in, int64_t t, int delta)
{
	return (ev){t, (int32_t)exposed_inst_of(a, in), 1, (int8_t)delta};
}

/* A wave in order: after event c->sub - 1 of *c->rec (0..3: stall start, stall end, issue
 * start, issue end, those that exist), the next. */
static int event_next(const exposed_acc *a, cursor *c)
{
	for (; c->rec < c->rend; c->rec++, c->sub = 0) {
		const att_wave_inst *in = c->rec;
		int64_t st = in->stall > 0 ? in->stall : 0;
		switch (c->sub) {
		case 0:
			if (st > 0) {
				c->cur = stall_event(a, in, in->time, +1);
				c->sub = 1;
				return 1;
			}
			c->sub = 2;
			break;
		case 1: /* the stall's end: same instruction */
			c->cur.t = trace_add(in->time, st);
			c->cur.delta = -1;
			c->sub = 2;
			return 1;
		default:
			break;
		}
		if (c->sub == 2 && in->duration > st) {
			c->cur = (ev){trace_add(in->time, st), -1, 0, +1};
			c->sub = 3;
			return 1;
		}
		if (c->sub == 3) {
			c->cur = (ev){trace_add(in->time, in->duration), -1, 0, -1};
			c->sub = 4;
			return 1;
		}
	}
	return 0;
}

/* Steps the cursor to the wave's next event; 0 when there is none. */
static int cursor_next(const exposed_acc *a, cursor *c)
{
	if (c->rec)
		return event_next(a, c);
	if (c->e == c->eend)
		return 0;
	c->cur = *c->e++;
	return 1;
}

/* Copies a wave's events in record order into evs; returns how many. */
static size_t wave_copy(const exposed_acc *a, const att_wave *w, ev *evs)
{
	size_t n = 0;
	for (size_t r = 0; r < w->n_insts; r++) {
		const att_wave_inst *in = &w->insts[r];
		int64_t st = in->stall > 0 ? in->stall : 0;
		if (st > 0) {
			evs[n++] = stall_event(a, in, in->time, +1);
			evs[n++] = stall_event(a, in, trace_add(in->time, st), -1);
		}
		if (in->duration > st) {
			evs[n++] = (ev){trace_add(in->time, st), -1, 0, +1};
			evs[n++] = (ev){trace_add(in->time, in->duration), -1, 0, -1};
		}
	}
	return n;
}

/* The merge takes events by (time, wave index): the order in which a stable sort of all the
 * group's events, made wave by wave, put them. */
static inline int before(hent x, hent y)
{
	return x.t < y.t || (x.t == y.t && x.w < y.w);
}

static void heap_down(hent *h, size_t n)
{
	hent v = h[0];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		if (l + 1 < n && before(h[l + 1], h[l]))
			l++;
		if (!before(h[l], v))
			break;
		h[i] = h[l];
		i = l;
	}
	h[i] = v;
}

static void heap_push(hent *h, size_t *n, hent v)
{
	size_t i = (*n)++;
	while (i > 0 && before(v, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static int pend_cmp(const void *pa, const void *pb, void *arg)
{
	const cursor *cs = arg;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	hent hx = {cs[x].cur.t, x}, hy = {cs[y].cur.t, y};
	return before(hx, hy) ? -1 : before(hy, hx);
}

/* The scratch sized for n waves and n_ev copied events. */
static struct exposed_events_scratch *scratch_for(exposed_acc *a, size_t n, size_t n_ev)
{
	if (!a->scratch->ev)
		a->scratch->ev = xcalloc(1, sizeof *a->scratch->ev);
	struct exposed_events_scratch *x = a->scratch->ev;
	if (n > x->cap_w) {
		size_t cap = n > 2 * x->cap_w ? n : 2 * x->cap_w;
		x->cs = xrealloc(x->cs, cap * sizeof *x->cs);
		x->heap = xrealloc(x->heap, cap * sizeof *x->heap);
		x->pend = xrealloc(x->pend, cap * sizeof *x->pend);
		x->act = xrealloc(x->act, (cap + 1) * sizeof *x->act);
		x->cap_w = cap;
	}
	if (n_ev > x->cap_ev) {
		size_t cap = n_ev > 2 * x->cap_ev ? n_ev : 2 * x->cap_ev;
		free(x->evs);
		free(x->tmp);
		x->evs = xmalloc(cap * sizeof *x->evs);
		x->tmp = xmalloc(cap * sizeof *x->tmp);
		x->cap_ev = cap;
	}
	return x;
}

/* Sets up the cursors of g's waves; returns how many have an event (their indices in pend, by
 * first event). */
static size_t cursors_begin(exposed_acc *a, const wave_group *g)
{
	const uint8_t *in_order = a->scratch->in_order;
	size_t n_copy = 0;
	for (size_t w = 0; w < g->n; w++)
		if (!in_order[w])
			n_copy += 4 * g->waves[w].n_insts;
	struct exposed_events_scratch *x = scratch_for(a, g->n, n_copy);
	size_t n_pend = 0, off = 0;
	for (size_t w = 0; w < g->n; w++) {
		cursor *c = &x->cs[w];
		if (in_order[w]) {
			c->rec = g->waves[w].insts;
			c->rend = c->rec + g->waves[w].n_insts;
			c->sub = 0;
		} else {
			size_t n = wave_copy(a, &g->waves[w], x->evs + off);
			sort_copy(x->evs + off, x->tmp, n);
			c->rec = NULL;
			c->e = x->evs + off;
			c->eend = c->e + n;
			off += n;
		}
		if (cursor_next(a, c))
			x->pend[n_pend++] = w;
	}
	qsort_r(x->pend, n_pend, sizeof *x->pend, pend_cmp, x->cs);
	return n_pend;
}

/* The waves' events merged in time order (a heap over the waves that have begun), each
 * distinct time closing the segment since the previous one. */
void exposed_events_group(exposed_acc *a, const wave_group *g, int64_t lo, int64_t hi)
{
	size_t n_pend = cursors_begin(a, g);
	struct exposed_events_scratch *x = a->scratch->ev;
	cursor *cs = x->cs;
	sweep s = {x->act, 0, g->n + 1, 0, 0};
	hent *heap = x->heap;
	size_t n_heap = 0, next = 0;
	int64_t prev = lo, now = 0;
	int started = 0;
	for (;;) {
		while (next < n_pend) {
			hent p = {cs[x->pend[next]].cur.t, x->pend[next]};
			if (n_heap && !before(p, heap[0]))
				break;
			heap_push(heap, &n_heap, p);
			next++;
		}
		if (!n_heap)
			break;
		cursor *c = &cs[heap[0].w];
		if (!started || c->cur.t != now) {
			/* a new time: the cycles since the previous one had the state so far */
			int64_t t = c->cur.t < lo ? lo : c->cur.t > hi ? hi : c->cur.t;
			segment(a, trace_sub(t, prev), &s);
			prev = t > prev ? t : prev;
			now = c->cur.t;
			started = 1;
		}
		if (c->cur.kind == 0)
			s.issuing += c->cur.delta;
		else
			active_add(&s, c->cur.inst, c->cur.delta);
		if (cursor_next(a, c)) {
			heap[0].t = c->cur.t;
			heap_down(heap, n_heap);
		} else if (--n_heap) {
			heap[0] = heap[n_heap];
			heap_down(heap, n_heap);
		}
	}
	segment(a, trace_sub(hi, prev), &s);
}
