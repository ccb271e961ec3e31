/* REPORT.md: the report document (src/core/diagnose/report.h) rendered for a kernel engineer:
 * headline; workload and tile; roofline and occupancy; stall taxonomy table; ISA <-> source
 * evidence; ranked opportunities (knob with the exact FlyDSL API, the concrete change, the labelled
 * gain upper bound, confidence); verification plan; raw counters; the exact repro command. Every
 * percentage names its denominator. Pure: reads the tree, appends text. */
#ifndef FLYPROF_OUT_REPORT_MD_H
#define FLYPROF_OUT_REPORT_MD_H

#include "base/json/jv.h"
#include "base/strbuf.h"

void report_md_write(strbuf *out, const jv *report);

#endif
