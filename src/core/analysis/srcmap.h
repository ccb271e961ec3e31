/* Source mapping on the trace model: roll-ups per line and per file, mapped shares, and the
 * entry/prologue bucket flag (docs/map.md is the user-facing description). Parsing and exact
 * matching of locations live in model/source_loc.h.
 *
 * Source strings: "path/file.py:LINE", or an inline chain "inner.py:5 -> kernel.py:23"
 * (frames joined by " -> ", innermost first, the way dwarf_lines.h and llvm-symbolizer list
 * them). A frame splits at its last ':'; LINE must be all digits and > 0, else the frame is
 * not a location.
 *
 * Matching is exact on the line number (`x.py:19` never matches line 192) and by suffix on
 * whole path components (`kernels/x.py` matches `/a/kernels/x.py`, not `/a/mykernels/x.py`).
 *
 * Ownership: srcmap_summary owns its arrays and strings (srcmap_summary_release); frames are
 * borrowed views into the source string they were parsed from. Nothing here fails. */
#ifndef FLYPROF_CORE_SRCMAP_H
#define FLYPROF_CORE_SRCMAP_H

#include "model/source_loc.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Which frame of a chain receives an instruction in roll-ups. */
typedef enum {
	SRCMAP_LEAF,	 /* the innermost frame: what the line table says */
	SRCMAP_CALL_SITE /* the outermost frame: the kernel-level call site */
} srcmap_credit;

typedef struct srcmap_line {
	char *file; /* owned */
	int64_t line;
	size_t instructions;
	int64_t hits, latency, stall, idle;
	int entry_bucket; /* 1 when this line holds a kernel's entry prologue (see srcmap_build) */
} srcmap_line;

typedef struct srcmap_file {
	char *file; /* owned */
	size_t lines, instructions;
	int64_t hits, latency, stall, idle;
} srcmap_file;

typedef struct srcmap_summary {
	size_t instructions;		    /* non-label rows */
	size_t mapped_instructions;	    /* rows with at least one location frame */
	size_t executed_instructions;	    /* rows with hits > 0 */
	size_t mapped_executed;		    /* executed rows with a location */
	int64_t hits, latency, stall, idle; /* over all non-label rows */
	int64_t mapped_hits, mapped_latency, mapped_stall; /* over mapped rows */
	size_t chained_instructions; /* rows whose source is an inline chain (> 1 frame) */
	srcmap_line *lines;	     /* sorted by stall desc, then latency desc, file, line */
	size_t n_lines;
	srcmap_file *files; /* sorted the same way */
	size_t n_files;
} srcmap_summary;

/* Rolls the dispatch's instructions up by line and by file, crediting each to the frame
 * chosen by `credit`, and flags entry buckets.
 *
 * Entry-bucket heuristic: for every kernel (a label row, or the first row), take the first
 * instruction after its label; if its credited line L is shared by a consecutive run of
 * instructions from the entry that contains an `s_load` (the kernarg prologue every AMDGPU
 * kernel starts with), L is flagged. FlyDSL gives that prologue, and every op without a user
 * location, the kernel's decorator line (docs/facts-flydsl.md#entry-bucket), so stall there is
 * "entry/unattributed", not a hotspot of that Python line. */
void srcmap_build(const trace_dispatch *d, srcmap_credit credit, srcmap_summary *out);
void srcmap_summary_release(srcmap_summary *s);
/* The line record of file:line, or NULL. */
const srcmap_line *srcmap_find_line(const srcmap_summary *s, const char *file, int64_t line);

#endif
