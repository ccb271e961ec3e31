/* The wave timeline as Chrome trace-event JSON (the format Perfetto and chrome://tracing read):
 * one process per shader engine and CU, one thread (track) per SIMD and wave slot holding a
 * complete ("X") slice per wave with its state segments nested inside, and a companion thread
 * per slot with the issue of the hottest instructions. Every slice carries its exact length in
 * cycles in args.cycles; ts/dur are microseconds on the axis wave_timeline_us describes. */
#ifndef FLYPROF_OUT_TRACE_EVENTS_H
#define FLYPROF_OUT_TRACE_EVENTS_H

#include "base/strbuf.h"
#include "core/amd/wave_timeline.h"

/* Called with the text written so far whenever it passes TRACE_EVENTS_CHUNK bytes, and once at
 * the end: it takes the text out (writes it, and empties out); nonzero stops the writing. An
 * 80 MB timeline (the corpus softmax) so never sits in memory whole. */
typedef int (*trace_events_drain)(strbuf *out, void *ctx);
#define TRACE_EVENTS_CHUNK ((size_t)1 << 20)

/* Writes t's events into out, handing them to drain as they accumulate (drain NULL: all of them
 * stay in out). Returns drain's first nonzero answer, or 0. */
int trace_events_write(strbuf *out, const wave_timeline *t, trace_events_drain drain, void *ctx);

#endif
