/* Work a caller adds to the AMD wave pass (wave_agg_run), so that every wave file is read and
 * parsed once: report's idle waves, exposed stall and REPORT.html's timeline run inside the
 * bubbles pass (src/core/analysis/wave_facts.h fills these hooks).
 *
 * With hooks the pass's workers claim whole (SE, SIMD) groups of files (from the file name)
 * instead of single files. Per file, after folding it, a worker calls on_wave; at the end of a
 * group it calls on_group once per CU among the group's waves (a SIMD index is per CU), in
 * order of first appearance, each with that CU's waves in file name order. Each worker has its
 * own state (worker_begin), so the hooks need no locks; after every worker stopped,
 * worker_end hands each state back, in worker order, to be merged (ok) or dropped (the pass
 * failed). Which worker gets which group depends on timing: what the hooks merge must not
 * depend on the order of groups. */
#ifndef FLYPROF_CORE_AMD_WAVE_PASS_H
#define FLYPROF_CORE_AMD_WAVE_PASS_H

#include "read/amd/att_wave.h"

#include <stddef.h>
#include <stdint.h>

/* The waves of one SIMD (one SE, one CU, one SIMD index), in file name order: their place
 * (begin, end, cu, id, simd, slot) and records (none with places_only); their timeline and
 * waitcnt pairs are not kept (on_wave has them). pos[k] is waves[k]'s `pos` as on_wave had it, so
 * that what a hook worked out of a wave while its records were hot can be found again (NULL in a
 * group not made by the pass). */
typedef struct wave_group {
	int64_t se, cu, simd;
	const att_wave *waves;
	size_t n;
	const size_t *pos;
} wave_group;

typedef struct wave_pass_hooks {
	void *ctx;
	/* A worker's state; called by the worker before its first group. */
	void *(*worker_begin)(void *ctx);
	/* One parsed wave file: its name, `rank`, its place among the pass's wave files in name
	 * (strcmp) order, and `pos`, its place among its (SE, SIMD) group's files, 0.. (w is
	 * valid during the call). */
	void (*on_wave)(void *wk, const char *name, size_t rank, size_t pos, const att_wave *w);
	/* The waves of one SIMD (valid during the call only). */
	void (*on_group)(void *wk, const wave_group *g);
	/* After the pass: merge wk into ctx when ok, and free it either way. */
	void (*worker_end)(void *ctx, void *wk, int ok);
	/* on_group reads the waves' places only (what it needs of their records on_wave kept):
	 * the pass keeps no records (n_insts is 0), so its memory does not grow with a group's
	 * records. */
	int places_only;
} wave_pass_hooks;

#endif
