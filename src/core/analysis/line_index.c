/* Code line -> instruction index (line_index.h). */
#include "core/analysis/line_index.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void line_index_init(line_index *li, const trace_dispatch *d)
{
	memset(li, 0, sizeof *li);
	li->d = d;
	/* d->insts is sorted by code_line (att_code), so the last row has the largest; the table
	 * is capped against absurd indices as wave_agg's is. Rows out of order (which
	 * trace_find_line's binary search does not define an answer for) get no table. */
	int64_t ml = d->n_insts ? d->insts[d->n_insts - 1].code_line : -1;
	for (size_t i = 1; i < d->n_insts && ml >= 0; i++)
		if (d->insts[i].code_line < d->insts[i - 1].code_line)
			ml = -1;
	int64_t cap = 8 * (int64_t)d->n_insts + 65536;
	li->n = ml < 0 ? 0 : (size_t)(ml < cap ? ml + 1 : cap);
	li->inst = xmalloc((li->n ? li->n : 1) * sizeof *li->inst);
	for (size_t l = 0; l < li->n; l++)
		li->inst[l] = -1;
	/* trace_find_line: the first row of the line (lower bound), or the row after it when that
	 * first row is a label sharing its line with the instruction that follows. */
	for (size_t i = d->n_insts; i-- > 0;) {
		int64_t l = d->insts[i].code_line;
		if (l >= 0 && (uint64_t)l < li->n)
			li->inst[l] = (long)i;
	}
	for (size_t l = 0; l < li->n; l++) {
		long i = li->inst[l];
		if (i >= 0 && (size_t)i + 1 < d->n_insts && d->insts[i].is_label &&
		    d->insts[i + 1].code_line == (int64_t)l)
			li->inst[l] = i + 1;
	}
}

void line_index_release(line_index *li)
{
	free(li->inst);
	memset(li, 0, sizeof *li);
}
