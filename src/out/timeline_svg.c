#include "out/timeline_svg.h"

#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_W	  1100.0 /* drawing width of the time axis, px */
#define TL_LABEL  80.0	 /* left margin for the slot labels */
#define TL_ROW	  10.0	 /* row pitch */
#define TL_MIN_PX 0.25	 /* a column less covered than this by any state stays empty */

static const char *state_color(int s)
{
	switch (s) {
	case 2:
		return "#52be80"; /* EXEC */
	case 3:
		return "#f4d03f"; /* WAIT */
	case 4:
		return "#d9534f"; /* STALL */
	case 1:
		return "#bdc3c7"; /* IDLE */
	default:
		return NULL;
	}
}

/* Writes v in decimal at b, returns the end: the rects are thousands of small integers, which
 * sb_addf formats at a few thousand instructions each (half of the picture's time). */
static char *put_uint(char *b, unsigned long long v)
{
	char t[24];
	size_t n = 0;
	do {
		t[sizeof t - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(b, t + sizeof t - n, n);
	return b + n;
}

/* One rect of a row's run: "M<x> <y>h<w>v<h>h-<w>z", whole pixels, built in place and added
 * with one call (a dozen calls a rect were a tenth of the picture's instructions). */
static void add_rect(strbuf *sb, size_t x, size_t y, size_t w, size_t h)
{
	char b[5 * 24 + 8], *p = b;
	*p++ = 'M';
	p = put_uint(p, x);
	*p++ = ' ';
	p = put_uint(p, y);
	*p++ = 'h';
	p = put_uint(p, w);
	*p++ = 'v';
	p = put_uint(p, h);
	*p++ = 'h';
	*p++ = '-';
	p = put_uint(p, w);
	*p++ = 'z';
	sb_add(sb, b, (size_t)(p - b));
}

/* Spreads one segment [x0, x1) (pixels) over the columns it covers, each getting the part of
 * it that falls inside. Most segments lie inside one column: that case is taken first, with
 * the same arithmetic as the general loop (the sums, and so the picture, stay bit for bit). */
static void spread(double *acc, size_t ncol, int state, double x0, double x1)
{
	if (!(x0 < (double)ncol)) /* also a NaN: the loop below would not run either */
		return;
	int64_t c = x0 < 0 ? 0 : (int64_t)x0; /* 0 <= x0 < ncol: exact, as (size_t)x0 was */
	double dc = (double)c;
	if (x1 <= dc + 1) {
		double lo = x0 > dc ? x0 : dc;
		if (dc < x1 && x1 > lo)
			acc[(size_t)c * 5 + (size_t)state] += x1 - lo;
		return;
	}
	for (; c < (int64_t)ncol && (dc = (double)c) < x1; c++) {
		double lo = x0 > dc ? x0 : dc;
		double hi = x1 < dc + 1 ? x1 : dc + 1;
		if (hi > lo)
			acc[(size_t)c * 5 + (size_t)state] += hi - lo;
	}
}

static int same_cu(const tl_track *a, const tl_track *b)
{
	return a->se == b->se && a->cu == b->cu;
}

/* Rows: the tracks of the CU with the most waves, in (simd, slot) order; returns the count. */
static size_t pick_rows(const wave_timeline *t, size_t *rows)
{
	size_t *per = xcalloc(t->n_tracks + 1, sizeof *per);
	for (size_t i = 0; i < t->n_waves; i++)
		per[t->waves[i].track]++;
	size_t best = 0, best_n = 0;
	for (size_t i = 0; i < t->n_tracks; i++) {
		size_t n = 0;
		for (size_t j = 0; j < t->n_tracks; j++)
			if (same_cu(&t->tracks[i], &t->tracks[j]))
				n += per[j];
		if (n > best_n)
			best = i, best_n = n;
	}
	free(per);
	size_t k = 0;
	for (size_t j = 0; j < t->n_tracks; j++)
		if (same_cu(&t->tracks[best], &t->tracks[j]))
			rows[k++] = j;
	for (size_t i = 1; i < k; i++) /* insertion sort: a CU has a few dozen slots */
		for (size_t j = i; j > 0; j--) {
			const tl_track *a = &t->tracks[rows[j - 1]], *b = &t->tracks[rows[j]];
			if (a->simd < b->simd || (a->simd == b->simd && a->slot <= b->slot))
				break;
			size_t x = rows[j];
			rows[j] = rows[j - 1], rows[j - 1] = x;
		}
	return k;
}

void timeline_svg(const wave_timeline *t, strbuf *out)
{
	if (!t->n_waves)
		return;
	size_t *rows = xcalloc(t->n_tracks + 1, sizeof *rows);
	size_t nr = pick_rows(t, rows);
	size_t *row_of = xcalloc(t->n_tracks + 1, sizeof *row_of);
	for (size_t i = 0; i < t->n_tracks; i++)
		row_of[i] = SIZE_MAX;
	for (size_t i = 0; i < nr; i++)
		row_of[rows[i]] = i;
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	size_t waves = 0;
	for (size_t i = 0; i < t->n_waves; i++) {
		const tl_wave *w = &t->waves[i];
		if (row_of[w->track] == SIZE_MAX)
			continue;
		waves++;
		if (w->begin < t0)
			t0 = w->begin;
		if (w->end > t1)
			t1 = w->end;
	}
	double span = t1 > t0 ? (double)(t1 - t0) : 1;
	double sx = TL_W / span, h = 30 + nr * TL_ROW + 40;
	const tl_track *cu = &t->tracks[rows[0]];
	sb_addf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"10\">"
		"<text x=\"0\" y=\"12\" font-size=\"12\">SE %lld CU %lld: %zu waves on %zu slots, "
		"%lld cycles</text>",
		TL_LABEL + TL_W + 10, h, TL_LABEL + TL_W + 10, h, (long long)cu->se,
		(long long)cu->cu, waves, nr, (long long)(t1 - t0));
	for (size_t r = 0; r < nr; r++) {
		const tl_track *k = &t->tracks[rows[r]];
		sb_addf(out, "<text x=\"0\" y=\"%.1f\" fill=\"#5b6470\">simd %lld slot %lld</text>",
			30 + r * TL_ROW + 8, (long long)k->simd, (long long)k->slot);
	}
	/* Each row is drawn at pixel resolution: every column takes the state that holds most of
	 * its cycles, and runs of one state become one rect (the page stays small whatever the
	 * number of state segments). */
	size_t ncol = (size_t)TL_W;
	double *acc = xcalloc(ncol * 5, sizeof *acc);
	/* the drawn waves by row, each row's in wave order (a counting sort: the sums below add
	 * in that order), instead of a look at every wave for every row */
	size_t *first = xcalloc(nr + 1, sizeof *first),
	       *by_row = xcalloc(waves + 1, sizeof *by_row);
	for (size_t i = 0; i < t->n_waves; i++)
		if (row_of[t->waves[i].track] != SIZE_MAX)
			first[row_of[t->waves[i].track] + 1]++;
	for (size_t r = 0; r < nr; r++)
		first[r + 1] += first[r];
	size_t *fill = xcalloc(nr + 1, sizeof *fill);
	for (size_t i = 0; i < t->n_waves; i++) {
		size_t r = row_of[t->waves[i].track];
		if (r != SIZE_MAX)
			by_row[first[r] + fill[r]++] = i;
	}
	free(fill);
	strbuf runs[5] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	for (size_t r = 0; r < nr; r++) {
		memset(acc, 0, ncol * 5 * sizeof *acc);
		for (size_t j = first[r]; j < first[r + 1]; j++) {
			const tl_wave *w = &t->waves[by_row[j]];
			tl_state_iter it;
			tl_state seg;
			tl_states_first(t, w, &it);
			while (tl_states_next(&it, &seg)) {
				const tl_state *st = &seg;
				if (st->state < 1 || st->state > 4 || st->cycles <= 0)
					continue;
				double x0 = (double)(st->begin - t0) * sx,
				       x1 = x0 + (double)st->cycles * sx;
				spread(acc, ncol, st->state, x0, x1);
			}
		}
		double y = 30 + r * TL_ROW;
		size_t c = 0;
		while (c < ncol) {
			int best = 0;
			for (int k = 1; k <= 4; k++)
				if (acc[c * 5 + (size_t)k] > acc[c * 5 + (size_t)best] &&
				    acc[c * 5 + (size_t)k] >= TL_MIN_PX)
					best = k;
			size_t e = c + 1;
			while (e < ncol) {
				int b2 = 0;
				for (int k = 1; k <= 4; k++)
					if (acc[e * 5 + (size_t)k] > acc[e * 5 + (size_t)b2] &&
					    acc[e * 5 + (size_t)k] >= TL_MIN_PX)
						b2 = k;
				if (b2 != best)
					break;
				e++;
			}
			if (best)
				/* whole, positive pixels: what %.0f printed */
				add_rect(&runs[best], (size_t)(TL_LABEL + (double)c), (size_t)y,
					 e - c, (size_t)(TL_ROW - 2));
			c = e;
		}
		for (int k = 1; k <= 4; k++) {
			if (runs[k].len) {
				sb_adds(out, "<path fill=\"");
				sb_adds(out, state_color(k));
				sb_adds(out, "\" d=\"");
				sb_add(out, runs[k].buf, runs[k].len);
				sb_adds(out, "\"/>");
			}
			sb_reset(&runs[k]);
		}
	}
	for (int k = 0; k <= 4; k++)
		sb_release(&runs[k]);
	free(acc);
	free(first);
	free(by_row);
	double ya = 30 + nr * TL_ROW + 12;
	for (int i = 0; i <= 4; i++) {
		double x = TL_LABEL + TL_W * i / 4;
		sb_addf(out,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"28\" y2=\"%.1f\" stroke=\"#ccc\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>",
			x, x, ya - 8, x, ya + 2, span * i / 4);
	}
	static const int legend[] = {2, 3, 4, 1};
	static const char *const names[] = {"exec", "wait", "stall", "idle"};
	for (int i = 0; i < 4; i++)
		sb_addf(out,
			"<rect x=\"%.0f\" y=\"%.1f\" width=\"10\" height=\"8\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"%.1f\">%s</text>",
			TL_LABEL + i * 70.0, ya + 10, state_color(legend[i]),
			TL_LABEL + i * 70.0 + 14, ya + 18, names[i]);
	sb_addf(out,
		"<text x=\"%.0f\" y=\"%.1f\" fill=\"#5b6470\">cycles since the first wave "
		"start on this CU</text></svg>",
		TL_LABEL + 300, ya + 18);
	free(rows);
	free(row_of);
}
