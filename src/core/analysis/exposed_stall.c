/* Exposed stall by merging the waves of one SIMD (exposed_stall.h). */
#include "core/analysis/exposed_stall.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* 16 bytes, so that sorting moves half of what it did: an instruction index fits 32 bits
 * (code.json is at most FLYPROF_LIMIT_ATT bytes, far fewer than 2^31 rows), a class 8. */
typedef struct ev {
	int64_t t;
	int32_t inst; /* index into d->insts, -1 when the line is unknown */
	uint8_t kind; /* 0 issue, 1 stall */
	int8_t delta; /* +1 start, -1 end */
	uint8_t cls;
} ev;

#define EV_RADIX_BITS 11

/* Bucket sort by the time itself when the window is this small (a counter per cycle). */
#define EV_COUNT_MAX ((uint64_t)1 << 21)

/* Stable LSD radix sort on t - lo, 11 bits a pass. */
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

/* Counts an event at time t (ev_lo <= t) for the counting sort: cnt[t - ev_lo + 1]. */
static inline void count_event(uint32_t *cnt, int64_t ev_lo, int64_t t)
{
	if (cnt)
		cnt[(uint64_t)t - (uint64_t)ev_lo + 1]++;
}

/* Sorts the events by time, events of equal time kept in the order they were made (the order
 * the merge sort of qsort gave, without its compares and moves, which were half of report's
 * time). The events' times span [ev_lo, ev_lo + range]. When that is short (a few hundred
 * thousand cycles a SIMD in the corpus) `cnt` holds one counter per cycle, counted as the
 * events were made (count_event), and each event moves once, the moves of one wave's events
 * going forward through the output, where radix passes scattered them over 2,048 places twice.
 * Without cnt (a long span) the events take the radix sort. Returns the sorted array, which is
 * evs or tmp (both n long). */
static ev *sort_events(ev *evs, ev *tmp, size_t n, uint32_t *cnt, int64_t ev_lo, uint64_t range)
{
	if (n < 2)
		return evs;
	if (!cnt)
		return radix_events(evs, tmp, n, ev_lo, range);
	for (uint64_t k = 1; k <= range + 1; k++)
		cnt[k] += cnt[k - 1];
	for (size_t i = 0; i < n; i++)
		tmp[cnt[(uint64_t)evs[i].t - (uint64_t)ev_lo]++] = evs[i];
	return tmp;
}

void exposed_init(exposed_acc *a, const trace_dispatch *d)
{
	memset(a, 0, sizeof *a);
	a->d = d;
	line_index_init(&a->lines, d);
	a->line_exposed = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *a->line_exposed);
	a->line_stall = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *a->line_stall);
}

void exposed_release(exposed_acc *a)
{
	free(a->line_exposed);
	free(a->line_stall);
	line_index_release(&a->lines);
	memset(a, 0, sizeof *a);
}

static int class_of(const trace_dispatch *d, long i)
{
	if (i < 0)
		return TAX_OTHER;
	int k = d->insts[i].klass;
	return k >= 0 && k < TAX__COUNT ? k : TAX_OTHER;
}

/* The stalled records active now: (inst, class, count), at most one per wave. */
typedef struct active {
	long inst;
	int cls, n;
} active;

static void active_add(active *act, size_t *n, size_t cap, long inst, int cls, int delta)
{
	for (size_t i = 0; i < *n; i++)
		if (act[i].inst == inst && act[i].cls == cls) {
			act[i].n += delta;
			if (act[i].n <= 0)
				act[i] = act[--*n];
			return;
		}
	if (delta > 0 && *n < cap) /* overlapping stalls of one wave (a malformed file) */
		act[(*n)++] = (active){inst, cls, delta};
}

/* units[k]: EXPOSED_UNIT / k, one stalled record's share of a cycle split k ways. */
static const uint32_t units_per_share[17] = {
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

/* n of `total` stalled records' share of len cycles, in units. Exact for total <= 16. More
 * records stalled at once than a SIMD holds waves happens only in a malformed file (overlapping
 * records of one wave); their share is rounded down to a unit (an error below 1/720720 cycle a
 * share), still the same whatever the order of addition. */
static inline exposed_fx share_units(int64_t len, int n, int total)
{
	if (total <= 16)
		return (exposed_fx)(uint64_t)len * (uint64_t)n * units_per_share[total];
	return (exposed_fx)(uint64_t)len * (uint64_t)n * EXPOSED_UNIT / (uint64_t)total;
}

static void segment(exposed_acc *a, int64_t len, int issuing, const active *act, size_t n_act)
{
	if (len <= 0)
		return;
	if (issuing > 0) {
		a->issue += len;
		return;
	}
	int total = 0;
	for (size_t i = 0; i < n_act; i++)
		total += act[i].n;
	if (total <= 0) {
		a->empty += len;
		return;
	}
	a->exposed += len;
	for (size_t i = 0; i < n_act; i++) {
		exposed_fx share = share_units(len, act[i].n, total);
		a->cls_exposed[act[i].cls] += share;
		if (act[i].inst >= 0)
			a->line_exposed[act[i].inst] += share;
	}
}

void exposed_group(exposed_acc *a, const wave_group *g)
{
	size_t n_ev = 0, cap = 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t w = 0; w < g->n; w++) {
		cap += 4 * g->waves[w].n_insts;
		lo = g->waves[w].begin < lo ? g->waves[w].begin : lo;
		hi = g->waves[w].end > hi ? g->waves[w].end : hi;
	}
	if (!g->n || hi <= lo)
		return;
	/* the events' times, for the sort (records can start before their wave's begin) */
	int64_t ev_lo = INT64_MAX, ev_hi = INT64_MIN;
	for (size_t w = 0; w < g->n; w++)
		for (size_t r = 0; r < g->waves[w].n_insts; r++) {
			const att_wave_inst *in = &g->waves[w].insts[r];
			int64_t st = in->stall > 0 ? in->stall : 0;
			if (st > 0 || in->duration > st) {
				int64_t last =
				    in->duration > st ? in->time + in->duration : in->time + st;
				ev_lo = in->time < ev_lo ? in->time : ev_lo;
				ev_hi = last > ev_hi ? last : ev_hi;
			}
		}
	uint64_t range = ev_lo <= ev_hi ? (uint64_t)ev_hi - (uint64_t)ev_lo : 0;
	uint32_t *cnt =
	    ev_lo <= ev_hi && range < EV_COUNT_MAX && range <= 8 * (uint64_t)cap && cap < UINT32_MAX
		? xcalloc(range + 2, sizeof *cnt)
		: NULL;
	ev *evs = xmalloc((cap ? cap : 1) * sizeof *evs);
	for (size_t w = 0; w < g->n; w++)
		for (size_t r = 0; r < g->waves[w].n_insts; r++) {
			const att_wave_inst *in = &g->waves[w].insts[r];
			long i = in->line > 0 ? line_index_find(&a->lines, in->line) : -1;
			int c = class_of(a->d, i);
			int64_t st = in->stall > 0 ? in->stall : 0;
			if (st > 0) {
				a->cls_stall[c] += (uint64_t)st;
				if (i >= 0)
					a->line_stall[i] += (uint64_t)st;
				evs[n_ev++] = (ev){in->time, (int32_t)i, 1, +1, (uint8_t)c};
				evs[n_ev++] = (ev){in->time + st, (int32_t)i, 1, -1, (uint8_t)c};
				count_event(cnt, ev_lo, in->time);
				count_event(cnt, ev_lo, in->time + st);
			}
			if (in->duration > st) {
				evs[n_ev++] = (ev){in->time + st, -1, 0, +1, 0};
				evs[n_ev++] = (ev){in->time + in->duration, -1, 0, -1, 0};
				count_event(cnt, ev_lo, in->time + st);
				count_event(cnt, ev_lo, in->time + in->duration);
			}
		}
	ev *tmp = xmalloc((n_ev ? n_ev : 1) * sizeof *tmp);
	const ev *sorted = sort_events(evs, tmp, n_ev, cnt, ev_lo, range);
	free(cnt);
	active *act = xcalloc(g->n + 1, sizeof *act);
	size_t n_act = 0;
	int issuing = 0;
	int64_t prev = lo;
	for (size_t k = 0; k < n_ev;) {
		int64_t t = sorted[k].t < lo ? lo : sorted[k].t > hi ? hi : sorted[k].t;
		segment(a, t - prev, issuing, act, n_act);
		prev = t > prev ? t : prev;
		for (int64_t now = sorted[k].t; k < n_ev && sorted[k].t == now; k++) {
			if (sorted[k].kind == 0)
				issuing += sorted[k].delta;
			else
				active_add(act, &n_act, g->n + 1, sorted[k].inst, sorted[k].cls,
					   sorted[k].delta);
		}
	}
	segment(a, hi - prev, issuing, act, n_act);
	a->window += hi - lo;
	a->simds++;
	free(act);
	free(tmp);
	free(evs);
}

void exposed_merge(exposed_acc *dst, const exposed_acc *src)
{
	dst->simds += src->simds;
	dst->window += src->window;
	dst->issue += src->issue;
	dst->empty += src->empty;
	dst->exposed += src->exposed;
	for (int c = 0; c < TAX__COUNT; c++) {
		dst->cls_exposed[c] += src->cls_exposed[c];
		dst->cls_stall[c] += src->cls_stall[c];
	}
	for (size_t i = 0; i < dst->d->n_insts; i++) {
		dst->line_exposed[i] += src->line_exposed[i];
		dst->line_stall[i] += src->line_stall[i];
	}
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
	jv *cls = jv_set(o, "classes", jv_array());
	for (int c = 0; c < TAX__COUNT; c++) {
		if (!a->cls_stall[c] && !a->cls_exposed[c])
			continue;
		double stall = (double)a->cls_stall[c], exposed = cycles_of(a->cls_exposed[c]);
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
		jv_set_str(e, "class", tax_class_name((tax_class)class_of(a->d, idx[k])));
		jv_set_round(e, "stall", (double)a->line_stall[idx[k]], 0);
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
