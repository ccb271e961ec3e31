#include "core/amd/occupancy_observed.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SIMDS 16

typedef struct occ_sum {
	int64_t peak_cu, peak_simd;
	long double area, window, simd_window;
	size_t cus;
} occ_sum;

static int cmp_event(const void *x, const void *y)
{
	const att_occ_event *a = x, *b = y;
	if (a->se != b->se)
		return a->se < b->se ? -1 : 1;
	if (a->cu != b->cu)
		return a->cu < b->cu ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->start - b->start; /* ends first */
}

/* Order a before b: cmp_event, then file order (the events' indices). */
static int cmp_at(const void *x, const void *y, void *arg)
{
	const att_occ_event *v = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = cmp_event(&v[a], &v[b]);
	return c ? c : (a > b) - (a < b);
}

/* Insertion sort of the indices ord by cmp_event of their events (stable: an index moves only
 * past greater ones), for orders that are nearly right; gives up after `budget` moves (ord is
 * then a permutation that kept equal events in their order) and returns 0. */
static int insertion_sorted(const att_occ_event *v, size_t *ord, size_t n, size_t budget)
{
	for (size_t i = 1; i < n; i++) {
		if (cmp_event(&v[ord[i - 1]], &v[ord[i]]) <= 0)
			continue;
		size_t x = ord[i], j = i;
		for (; j > 0 && cmp_event(&v[ord[j - 1]], &v[x]) > 0 && budget; j--, budget--)
			ord[j] = ord[j - 1];
		ord[j] = x;
		if (!budget)
			return 0;
	}
	return 1;
}

#define CU_BUCKETS 1024 /* CU numbers the counting sort takes; any other goes to qsort */

/* The events' indices in cmp_event order, events that compare equal in file order. The events
 * stay where they are: an index is 8 bytes where moving the events took a second array of
 * 56-byte copies, whose fresh pages cost more than the sort (a page fault on a virtual machine).
 * The decoder writes each shader engine's rows in time order, CUs interleaved, so a stable
 * counting sort by CU within each run of one SE nearly always leaves them nearly sorted (a start
 * written before an end of the same CU and time), and an insertion sort finishes in linear time
 * (qsort's compares were 3% of `bubbles` on the corpus softmax). Far from sorted, qsort finishes,
 * with file order as the last key. Caller frees. */
static size_t *sort_order(const att_occupancy *o)
{
	const att_occ_event *v = o->v;
	size_t n = o->n;
	size_t *ord = xcalloc(n ? n : 1, sizeof *ord);
	int small = 1;
	for (size_t i = 0; small && i < n; i++)
		small = v[i].cu >= 0 && v[i].cu < CU_BUCKETS;
	if (small) {
		size_t *pos = xmalloc(CU_BUCKETS * sizeof *pos);
		for (size_t a = 0; a < n;) {
			size_t b = a;
			while (b < n && v[b].se == v[a].se)
				b++;
			memset(pos, 0, CU_BUCKETS * sizeof *pos);
			for (size_t i = a; i < b; i++)
				pos[v[i].cu]++;
			size_t sum = a;
			for (size_t c = 0; c < CU_BUCKETS; c++) {
				size_t k = pos[c];
				pos[c] = sum;
				sum += k;
			}
			for (size_t i = a; i < b; i++)
				ord[pos[v[i].cu]++] = i;
			a = b;
		}
		free(pos);
	} else {
		for (size_t i = 0; i < n; i++)
			ord[i] = i;
	}
	if (!insertion_sorted(v, ord, n, 4 * n))
		qsort_r(ord, n, sizeof *ord, cmp_at, (void *)v);
	return ord;
}

static int traced(const wave_cu *cus, size_t n, int64_t se, int64_t cu)
{
	for (size_t i = 0; i < n; i++)
		if (cus[i].se == se && cus[i].cu == cu)
			return 1;
	return 0;
}

/* Walks one CU's events v[ord[a]] .. v[ord[b - 1]]; adds to s; returns the unmatched ends. */
static int64_t walk_cu(const att_occ_event *v, const size_t *ord, size_t a, size_t b, int simds,
		       occ_sum *s)
{
	int64_t n = 0, unmatched = 0, per[MAX_SIMDS] = {0};
	for (size_t i = a; i < b; i++) {
		const att_occ_event *x = &v[ord[i]];
		if (i > a)
			s->area += (long double)n * (long double)(x->time - v[ord[i - 1]].time);
		int64_t sm = x->simd >= 0 && x->simd < MAX_SIMDS ? x->simd : MAX_SIMDS - 1;
		if (x->start) {
			n++;
			per[sm]++;
		} else if (n > 0 && per[sm] > 0) {
			n--;
			per[sm]--;
		} else {
			unmatched++;
		}
		if (n > s->peak_cu)
			s->peak_cu = n;
		if (per[sm] > s->peak_simd)
			s->peak_simd = per[sm];
	}
	long double w = (long double)(v[ord[b - 1]].time - v[ord[a]].time);
	s->window += w;
	s->simd_window += w * simds;
	s->cus++;
	return unmatched;
}

static jv *peak_mean(int64_t peak, long double area, long double window)
{
	jv *o = jv_object();
	jv_set_int(o, "peak", peak);
	jv_set_round(o, "mean", window > 0 ? (double)(area / window) : 0.0, 3);
	return o;
}

static int simd_count(const att_occupancy *o)
{
	int64_t mx = 0;
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i].simd > mx)
			mx = o->v[i].simd;
	return mx + 1 < MAX_SIMDS ? (int)mx + 1 : MAX_SIMDS;
}

static jv *cu_list(const wave_cu *cus, size_t n)
{
	jv *a = jv_array();
	for (size_t i = 0; i < n; i++) {
		jv *c = jv_push(a, jv_object());
		jv_set_int(c, "se", cus[i].se);
		jv_set_int(c, "cu", cus[i].cu);
	}
	return a;
}

/* Drops events of other kernels; returns how many, or -1 when no filter applies. The indices
 * named kernel are found once: each event is then checked by compares, not a strcmp per name
 * (tens of thousands of events). */
static int64_t keep_kernel(att_occupancy *o, const char *kernel)
{
	int64_t *idx = NULL;
	size_t n_idx = 0, cap = 0;
	for (size_t i = 0; kernel && i < o->n_kernels; i++)
		if (strcmp(o->kernel_name[i], kernel) == 0) {
			idx = xgrow(idx, &cap, n_idx + 1, sizeof *idx);
			idx[n_idx++] = o->kernel_idx[i];
		}
	if (!n_idx)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < o->n; i++) {
		int keep = o->v[i].kernel < 0;
		for (size_t j = 0; !keep && j < n_idx; j++)
			keep = o->v[i].kernel == idx[j];
		if (keep)
			o->v[m++] = o->v[i];
	}
	free(idx);
	int64_t dropped = (int64_t)(o->n - m);
	o->n = m;
	return dropped;
}

jv *occupancy_observed(att_occupancy *o, const wave_cu *cus, size_t n_cus, const char *kernel)
{
	int64_t other = keep_kernel(o, kernel);
	size_t *ord = sort_order(o);
	const att_occ_event *v = o->v;
	int simds = simd_count(o);
	occ_sum t = {0}, all = {0};
	int64_t unmatched = 0;
	for (size_t a = 0; a < o->n;) {
		const att_occ_event *first = &v[ord[a]];
		size_t b = a;
		while (b < o->n && v[ord[b]].se == first->se && v[ord[b]].cu == first->cu)
			b++;
		int is_traced = n_cus == 0 || traced(cus, n_cus, first->se, first->cu);
		occ_sum one = {0};
		int64_t u = walk_cu(v, ord, a, b, simds, &one);
		if (is_traced) {
			unmatched += u;
			t.area += one.area;
			t.window += one.window;
			t.simd_window += one.simd_window;
			t.cus++;
			t.peak_cu = one.peak_cu > t.peak_cu ? one.peak_cu : t.peak_cu;
			t.peak_simd = one.peak_simd > t.peak_simd ? one.peak_simd : t.peak_simd;
		}
		all.area += one.area;
		all.window += one.window;
		all.cus++;
		all.peak_cu = one.peak_cu > all.peak_cu ? one.peak_cu : all.peak_cu;
		a = b;
	}
	free(ord);
	jv *r = jv_object();
	jv_set_bool(r, "available", t.cus > 0);
	jv_set_str(r, "source", "occupancy.json");
	jv_set(r, "per_simd", peak_mean(t.peak_simd, t.area, t.simd_window));
	jv_set(r, "per_cu", peak_mean(t.peak_cu, t.area, t.window));
	jv_set(r, "traced_cus", n_cus ? cu_list(cus, n_cus) : jv_str("all"));
	jv_set_int(r, "simds_per_cu", simds);
	jv_set_int(r, "window_cycles", (int64_t)t.window);
	jv *ac = jv_set(r, "all_cus", peak_mean(all.peak_cu, all.area, all.window));
	jv_set_int(ac, "cus", (int64_t)all.cus);
	jv_set_int(r, "events", (int64_t)o->n);
	jv_set_int(r, "unmatched_ends", unmatched);
	jv_set(r, "kernel_filter", other >= 0 ? jv_str(kernel) : jv_null());
	jv_set_int(r, "other_kernel_events", other >= 0 ? other : 0);
	jv_set_str(r, "definition",
		   "resident waves from wave start/end events; mean = time integral / window "
		   "(first to last event of each traced CU); per_simd mean divides by "
		   "simds_per_cu");
	return r;
}
