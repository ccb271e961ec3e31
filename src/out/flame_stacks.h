/* The stacks every flame export of a trace uses (map's folded stacks, speedscope and SVG, and
 * REPORT.html's flame graph): kernel root, the outermost frame's file, each frame from the
 * outermost call site to the innermost line, then the instruction's class; weighted by stall
 * (or latency) cycles. Instructions without a source location sit under "<unmapped>". */
#ifndef FLYPROF_OUT_FLAME_STACKS_H
#define FLYPROF_OUT_FLAME_STACKS_H

#include "model/classes.h"
#include "model/trace.h"
#include "out/flame.h"

/* Adds one sample per instruction of d (labels skipped); classes named in vendor v's table. */
void flame_fill_trace(flame *f, vendor_id v, const trace_dispatch *d, int by_latency);

#endif
