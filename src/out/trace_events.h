/* The wave timeline as Chrome trace-event JSON (the format Perfetto and chrome://tracing read):
 * one process per shader engine and CU, one thread (track) per SIMD and wave slot holding a
 * complete ("X") slice per wave with its state segments nested inside, and a companion thread
 * per slot with the issue of the hottest instructions. Every slice carries its exact length in
 * cycles in args.cycles; ts/dur are microseconds on the axis wave_timeline_us describes. */
#ifndef FLYPROF_OUT_TRACE_EVENTS_H
#define FLYPROF_OUT_TRACE_EVENTS_H

#include "base/strbuf.h"
#include "core/amd/wave_timeline.h"

void trace_events_write(strbuf *out, const wave_timeline *t);

#endif
