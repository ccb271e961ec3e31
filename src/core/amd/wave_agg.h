/* wave_agg: every wave file of a dispatch, parsed in parallel and folded into per-instruction
 * and per-dispatch accumulators (memory stays proportional to the code size and the number of
 * distinct wait/producer pairs, never to the number of records).
 *
 * Per instruction line it recomputes the code.json metrics from the waves with the decoder
 * tool's semantics (docs/facts-rocprofv3.md#metric-semantics: per wave, in file order, prev_end =
 * wave.begin; records on line 0 (unmapped pc) are skipped; Hit += 1, Latency += duration, Stall +=
 * stall, Idle += max(time - prev_end, 0), prev_end = max(prev_end, time + duration)), counts the
 * decoder categories seen, and counts the waves whose waitcnt lists name each (wait, producer)
 * pair. Per dispatch it sums timeline cycles per wave state and records the traced CUs.
 *
 * Determinism: files are handed to one worker per core (pthreads) from a shared counter; all
 * merged quantities are sums, pair lists are sorted, detail rows are ordered by file, and when
 * several files are malformed the error of the first one in name order is returned. So output
 * never depends on thread timing.
 *
 * hooks (may be NULL) add work to the same pass (wave_pass.h): the workers then claim whole
 * (SE, SIMD) groups of files instead of single files. */
#ifndef FLYPROF_CORE_WAVE_AGG_H
#define FLYPROF_CORE_WAVE_AGG_H

#include "base/err.h"
#include "base/fileio.h"
#include "core/amd/wave_pass.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

#define WAVE_N_CATS   14 /* decoder categories 0..12, plus 13 for anything larger */
#define WAVE_N_STATES 6

typedef struct wave_line {
	int64_t hits, latency, stall, idle;
	int64_t wait_waves; /* waves whose waitcnt list has an entry for this (wait) line */
	uint32_t cats[WAVE_N_CATS];
} wave_line;

typedef struct wave_pair {
	int64_t wait_line, producer_line;
	int64_t waves; /* waves in which this wait named this producer */
} wave_pair;

typedef struct wave_detail {
	size_t file; /* index into files[] */
	int64_t hits, latency, stall, idle;
} wave_detail;

typedef struct wave_cu {
	int64_t se, cu;
} wave_cu;

typedef struct wave_agg {
	char **files; /* wave file names, sorted (the strings are the listing's) */
	size_t n_files;
	size_t n_lines; /* lines[] covers code lines 0 .. n_lines-1 */
	wave_line *lines;
	int64_t records, unmapped_records, unknown_line_records;
	int64_t state_cycles[WAVE_N_STATES]; /* state >= 5 counted in [5] */
	int64_t timeline_cycles;	     /* sum of all timeline durations */
	int64_t wave_cycles;		     /* sum of (end - begin) */
	int64_t bytes;			     /* bytes of wave files read */
	wave_pair *pairs;		     /* sorted by (wait_line, producer_line) */
	size_t n_pairs;
	wave_detail *detail; /* per wave, for detail_line, waves that executed it */
	size_t n_detail;
	wave_cu *cus; /* traced (se, cu), sorted, unique */
	size_t n_cus;
	int threads;	   /* workers used */
	file_listing *own; /* the listing wave_agg_run made itself, or NULL */
} wave_agg;

/* Reads every se*_sm*_sl*_wv*.json of dir. Lines are sized from d (max code_line + 1, capped
 * at 8 x instructions + 65536 against absurd indices; beyond it records count as unknown).
 * threads <= 0: one per online core. detail_line < 0: no per-wave detail. On failure (the
 * first malformed file in name order: BAD_INPUT; or INTERRUPTED after SIGINT/SIGTERM, which
 * the workers check between files) *out holds nothing to release. */
int wave_agg_run(const char *dir, const trace_dispatch *d, int threads, int64_t detail_line,
		 const wave_pass_hooks *hooks, wave_agg *out, fp_err *e);
/* The same over the directory of a listing the caller made (names->dir), walked here if nobody
 * asked it before: a command that already listed the dispatch directory (to detect the backend,
 * to count its waves) does not list it again. out->files are the listing's strings: release
 * out before the listing. The listing's failure is this one's (as file_list_dir reports it). */
int wave_agg_run_listed(file_listing *names, const trace_dispatch *d, int threads,
			int64_t detail_line, const wave_pass_hooks *hooks, wave_agg *out,
			fp_err *e);
void wave_agg_release(wave_agg *a);

#endif
