/* REPORT.html: one self-contained page (inline CSS and SVG, one small inline script that
 * scrolls the source panel to the hottest line; no network, no server) written beside
 * REPORT.md by `report`. Sections, each an element with a fixed id the browser test looks for:
 *   summary    the headline, the bound and why
 *   source     the annotated source (report_html_source): heat bar, share, ISA rows per line
 *   findings   the ranked recommendations, each linked to its source line's anchor
 *   classes    the stall class mix
 *   flame      the flame graph (flame_svg)
 *   timeline   the wave timeline (AMD) or the warp-state breakdown (NVIDIA)
 *   occupancy  theoretical vs observed
 *   roofline   the roofline picture when the report has its figures, else why not
 * The page is laid out for a 1280x800 window: summary on top, source and findings side by
 * side below it. */
#ifndef FLYPROF_OUT_REPORT_HTML_H
#define FLYPROF_OUT_REPORT_HTML_H

#include "base/json/jv.h"
#include "base/strbuf.h"

typedef struct report_html_in {
	const jv *report;      /* report.json */
	const jv *source;      /* source_view_build */
	const char *flame_svg; /* NULL: flame_note says why */
	const char *flame_note;
	const char *timeline_svg; /* NULL: timeline_note says why */
	const char *timeline_note;
	const char *roofline_svg; /* NULL: roofline_note says why */
	const char *roofline_note;
	const char *version; /* flyprof version, for the footer */
} report_html_in;

void report_html_write(strbuf *out, const report_html_in *in);
/* The annotated-source section alone (report_html_source.c). */
void report_html_source(strbuf *out, const jv *view);

#endif
