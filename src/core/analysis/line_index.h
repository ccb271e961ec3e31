/* Code line -> instruction index, answering exactly as trace_find_line does, in one array
 * lookup. The wave passes of report (exposed stall, wave facts) look up every record's line;
 * a binary search per record was a tenth of report's time. Lines beyond the table (the absurd
 * indices of a hostile code.json) are answered by trace_find_line itself.
 * Ownership: the index owns its array (line_index_release); it borrows d. */
#ifndef FLYPROF_CORE_ANALYSIS_LINE_INDEX_H
#define FLYPROF_CORE_ANALYSIS_LINE_INDEX_H

#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

typedef struct line_index {
	const trace_dispatch *d;
	long *inst; /* inst[line]: trace_find_line(d, line) */
	size_t n;
} line_index;

void line_index_init(line_index *li, const trace_dispatch *d);
void line_index_release(line_index *li);

static inline long line_index_find(const line_index *li, int64_t line)
{
	if (line >= 0 && (uint64_t)line < li->n)
		return li->inst[line];
	return trace_find_line(li->d, line);
}

#endif
