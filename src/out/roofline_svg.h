/* The roofline picture of a report (report.json `roofline`, docs/report.md): a standalone SVG.
 * With matrix FLOPs and a peak for their dtype it is the classical log-log roofline: the memory
 * roof (HBM bandwidth x arithmetic intensity) up to the ridge, the compute roof after it, and
 * the kernel's achieved point. A kernel without FLOPs (a streaming kernel) has no place on the
 * intensity axis; it gets the bandwidth picture instead: achieved bytes/s against the HBM roof,
 * with the near-roof threshold. Every figure drawn is in the report; the labels say they are
 * estimates when the roofline's kind says so. */
#ifndef FLYPROF_OUT_ROOFLINE_SVG_H
#define FLYPROF_OUT_ROOFLINE_SVG_H

#include "base/json/jv.h"
#include "base/strbuf.h"

/* Appends the SVG of `roofline` for `kernel`; returns 0, or -1 (nothing written) when the
 * object lacks the figures a picture needs (achieved and peak bandwidth). */
int roofline_svg(const jv *roofline, const char *kernel, strbuf *out);

#endif
