/* Wave scan: every wave file of a dispatch directory (se<SE>_sm<SIMD>_sl<SLOT>_wv<N>.json),
 * read one SIMD at a time and handed to a callback with all the waves that ran on that SIMD, so
 * analyses that need the waves of one SIMD side by side (exposed stall) or per wave (idle waves)
 * share one pass. Memory is bounded by the largest SIMD group, not the dispatch.
 *
 * Groups are (SE, SIMD) from the file name and the wave's CU; within a group waves are in file
 * name order. A malformed file is BAD_INPUT (its name and offset); files whose names do not
 * match are ignored. */
#ifndef FLYPROF_CORE_ANALYSIS_WAVE_SCAN_H
#define FLYPROF_CORE_ANALYSIS_WAVE_SCAN_H

#include "base/err.h"
#include "core/amd/wave_keep.h"
#include "read/amd/att_wave.h"

#include <stddef.h>
#include <stdint.h>

typedef struct wave_group {
	int64_t se, cu, simd;
	const att_wave *waves;
	size_t n;
} wave_group;

typedef void (*wave_group_fn)(void *ctx, const wave_group *g);
/* One wave file, parsed: its name and its place among the directory's names in strcmp order
 * (`rank`). Called in scan order, before the file's group. */
typedef void (*wave_file_fn)(void *ctx, const char *name, size_t rank, const att_wave *w);

/* Returns 0, or -1 with e set (the directory unreadable, a malformed wave file). */
int wave_scan(const char *dir, wave_group_fn fn, void *ctx, fp_err *e);
/* The same, also handing every parsed file to file_fn (may be NULL); files that `keep` (may be
 * NULL) holds are taken from it instead of read (their waitcnt pairs and categories are not
 * kept: fn and file_fn must not need them). INTERRUPTED after SIGINT/SIGTERM (checked between
 * files). */
int wave_scan_each(const char *dir, wave_keep *keep, wave_group_fn fn, wave_file_fn file_fn,
		   void *ctx, fp_err *e);

#endif
