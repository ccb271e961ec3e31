/* The annotated-source model behind REPORT.html: the kernel's source files ranked by stall,
 * each shown line with its text, its share of the stall and the ISA rows it owns (class,
 * stall, hits and, for a wait, the instructions it waits for).
 *
 * Inputs are the bubbles object computed with every list complete (hotspots: one row per
 * instruction with cost; waits with producers) and `texts`: an object mapping a source path
 * to an array of its lines (index i = line i+1; null where the text is unknown, as in Nsight
 * Compute exports that list only the lines owning code). A file without text still gets its
 * costed lines, text null. Instructions are credited to their innermost frame.
 *
 * Which lines are shown: every line of a file of at most SV_FULL_FILE_LINES lines whose text
 * is known, else the costed lines with `context` lines around them; a run of hidden lines is
 * one {"gap": N} entry. Output (owned by the caller):
 *   {"unit", "total_stall", "files": [{"file", "index", "stall", "pct_of_stall", "has_text",
 *     "lines": [{"n", "text", "stall", "pct_of_stall", "hits", "class", "rank", "entry_bucket",
 *       "isa": [{"code_line", "isa", "class", "stall", "pct_of_stall", "hits",
 *                "producers": [{"code_line", "isa", "source"}]}], "isa_more"} | {"gap"}]}]}
 * "rank" is the line's place among all lines by stall (1 = hottest), 0 past SV_RANKED_LINES. */
#ifndef FLYPROF_OUT_SOURCE_VIEW_H
#define FLYPROF_OUT_SOURCE_VIEW_H

#include "base/json/jv.h"

#include <stddef.h>

#define SV_FULL_FILE_LINES 1000
#define SV_RANKED_LINES	   20
#define SV_MAX_ISA_ROWS	   64 /* per line; the rest are counted in isa_more */

/* `entry_lines` (may be NULL): "path:LINE" strings of lines flagged as entry buckets. */
jv *source_view_build(const jv *bubbles, const jv *texts, const jv *entry_lines, int context);

/* The anchor id of a source line in REPORT.html ("L<file index>-<line>") for a "path:LINE"
 * source string, from a built view; buf gets "" when the line is not shown. */
void source_view_anchor(const jv *view, const char *source, char *buf, size_t size);

#endif
