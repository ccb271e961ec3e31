/* A picture of the wave timeline for REPORT.html: the wave slots of the busiest traced CU
 * (the one with the most waves) as rows, every wave a bar of its state segments (exec, wait,
 * stall, idle) over the CU's time span, with a time axis and a legend. One CU keeps the page
 * small and readable; `bubbles --timeline` writes every slot of every CU for Perfetto. */
#ifndef FLYPROF_OUT_TIMELINE_SVG_H
#define FLYPROF_OUT_TIMELINE_SVG_H

#include "base/strbuf.h"
#include "core/amd/wave_timeline.h"

/* Appends the SVG; nothing when the timeline has no wave. */
void timeline_svg(const wave_timeline *t, strbuf *out);

#endif
