/* Exposed stall: the part of a stall that costs wall time (docs/diagnosis.md).
 *
 * Summed stall adds every wave's stall cycles, although while one wave stalls another wave of
 * the same SIMD may issue and hide it. Merging the waves of one SIMD (wave_scan.h) gives, cycle
 * by cycle, whether any wave issued (a record issues from time + stall to time + duration) and
 * which waves were stalled (from time to time + stall, on their instruction's class and line).
 * A cycle of the SIMD's window (first wave begin to last wave end) is
 *   issue     some wave issued;
 *   exposed   no wave issued and at least one was stalled: the cycle is split equally between
 *             the stalled waves' classes and lines (exposed stall);
 *   empty     no wave issued or stalled (gaps between instructions, no resident wave).
 * Per class and line: summed stall beside exposed stall. Ownership: the accumulator owns its
 * arrays; exposed_release frees them. */
#ifndef FLYPROF_CORE_ANALYSIS_EXPOSED_STALL_H
#define FLYPROF_CORE_ANALYSIS_EXPOSED_STALL_H

#include "base/json/jv.h"
#include "core/analysis/line_index.h"
#include "core/analysis/wave_scan.h"
#include "model/taxonomy.h"
#include "model/trace.h"

typedef struct exposed_acc {
	const trace_dispatch *d;
	line_index lines;
	size_t simds;
	int64_t window, issue, empty;
	double exposed;
	double cls_exposed[TAX__COUNT], cls_stall[TAX__COUNT];
	double *line_exposed, *line_stall; /* indexed like d->insts */
} exposed_acc;

void exposed_init(exposed_acc *a, const trace_dispatch *d);
void exposed_release(exposed_acc *a);
/* Adds one SIMD's waves. */
void exposed_group(exposed_acc *a, const wave_group *g);
/* The exposed_stall object of report.json (top `top_lines` lines by exposed stall). */
jv *exposed_to_json(const exposed_acc *a, size_t top_lines);

#endif
