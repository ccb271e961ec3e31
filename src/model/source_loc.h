/* Source locations as both vendors write them: parsing code.json / Nsight Compute Source
 * strings into frames, and exact matching of source-line queries (docs/map.md).
 *
 * Source strings: "path/file.py:LINE", or an inline chain "inner.py:5 -> kernel.py:23"
 * (frames joined by " -> ", innermost first, the way dwarf_lines.h and llvm-symbolizer list
 * them). A frame splits at its last ':'; LINE must be all digits and > 0, else the frame is
 * not a location.
 *
 * Matching is exact on the line number (`x.py:19` never matches line 192) and by suffix on
 * whole path components (`kernels/x.py` matches `/a/kernels/x.py`, not `/a/mykernels/x.py`).
 * Frames are borrowed views into the string they were parsed from. */
#ifndef FLYPROF_MODEL_SOURCE_LOC_H
#define FLYPROF_MODEL_SOURCE_LOC_H

#include <stddef.h>
#include <stdint.h>

/* Longest inline chain kept (deeper frames are dropped from the middle by FlyDSL anyway). */
#define SRCMAP_MAX_FRAMES 16

typedef struct src_frame {
	const char *path; /* borrowed, not NUL-terminated at path_len */
	size_t path_len;
	int64_t line;
} src_frame;

/* Parses one "path:LINE" frame of s[0..n). 0 on success, -1 when it is not a location. */
int srcmap_parse_loc(const char *s, size_t n, src_frame *f);
/* Splits a Source string into its frames (innermost first, as written), skipping pieces that
 * are not locations; returns how many were stored (at most max). */
size_t srcmap_parse_chain(const char *source, src_frame *frames, size_t max);
/* 1 when `query` (NUL-terminated) names path[0..n) by a suffix of whole path components, or
 * when path names query that way (a relative source path against an absolute snapshot).
 * A leading "./" on either side is ignored. Returns the number of components matched
 * (> 0), or 0 for no match. */
int srcmap_path_matches(const char *path, size_t n, const char *query);

typedef struct srcmap_query {
	char *file; /* owned */
	int64_t line;
} srcmap_query;

/* Parses a --source-line argument "FILE:LINE"; -1 when it has no ":LINE" part. */
int srcmap_query_parse(const char *text, srcmap_query *q);
void srcmap_query_release(srcmap_query *q);
/* 1 when any frame of source matches the query exactly (line equal, path suffix match). */
int srcmap_source_matches(const char *source, const srcmap_query *q);

#endif
