/* `report`'s REPORT.html: gathers what the page shows beyond report.json (the source text
 * from the capture, the flame graph and wave timeline of the trace, the roofline picture when
 * report.json has its figures, also written as roofline.svg) and writes the page into the
 * artifact bundle. Source text comes from the dispatch's snapshots (rocprofv3 copies of
 * the source files) or from the Nsight Compute correlated export (the lines it lists); a
 * missing text costs the text, not the page. */
#ifndef FLYPROF_CMD_REPORT_HTML_OUT_H
#define FLYPROF_CMD_REPORT_HTML_OUT_H

#include "cmd/analysis_input.h"
#include "core/analysis/wave_facts.h"

/* `bubbles` is the bubbles object with complete lists (hotspots, waits); `tl` the wave timeline
 * the bubbles pass built (or why it could not), or NULL / not attempted: then the wave files
 * are read here. Sets arts.report_html (and arts.roofline_svg). 0 or -1 with ctx->err set (only
 * when the write fails). */
int report_html_emit(cmd_ctx *ctx, analysis_input *in, const jv *rep, const jv *bubbles,
		     const wave_pass_timeline *tl, jv *arts);

/* The capture's source text of every file the hotspots name: an object path -> array of
 * lines (index = line - 1; null where unknown). Also the SARIF snippets' source. */
jv *report_source_texts(cmd_ctx *ctx, analysis_input *in, const jv *bubbles);

#endif
