/* wave_keep: what report's second look at the wave files needs (records' time, stall, duration
 * and line; the timeline states; the wave's place), kept compactly by the bubbles pass as it
 * parses each file, so that the wave-facts pass (exposed stall, idle waves, REPORT.html's
 * timeline) does not read and parse the file again.
 *
 * Bounded: files are kept while the kept bytes stay under the budget given at init; a file that
 * does not fit, or whose values do not fit the compact form (32-bit times relative to the wave's
 * begin, stalls, durations, lines, states), is simply not kept and is read again later. So a
 * trace of any size costs at most the budget. The pass's own workers keep distinct files, so
 * wave_keep_put is safe from several threads at once; the rest is single-threaded.
 *
 * Ownership: wave_keep owns its names and kept arrays; wave_keep_take hands one file's data
 * over (into an att_wave) and frees it; wave_keep_release frees what is left. */
#ifndef FLYPROF_CORE_AMD_WAVE_KEEP_H
#define FLYPROF_CORE_AMD_WAVE_KEEP_H

#include "read/amd/att_wave.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kept_inst {
	int32_t dt; /* time - wave begin */
	int32_t stall, duration, line;
} kept_inst;

typedef struct kept_state {
	int32_t state, duration;
} kept_state;

typedef struct kept_wave {
	int64_t begin, end, cu, id, simd, slot;
	kept_inst *insts; /* NULL: not kept */
	size_t n_insts;
	kept_state *states;
	size_t n_states;
} kept_wave;

typedef struct wave_keep {
	size_t budget;
	atomic_size_t used;
	char **names; /* the wave files, sorted (strcmp), owned */
	size_t n;
	kept_wave *w; /* indexed like names */
} wave_keep;

void wave_keep_init(wave_keep *k, size_t budget);
void wave_keep_release(wave_keep *k);
/* The files the pass will read, sorted by strcmp (copied). */
void wave_keep_files(wave_keep *k, char *const *names, size_t n);
/* Keeps file i's parsed wave if it fits. */
void wave_keep_put(wave_keep *k, size_t i, const att_wave *w);
/* Fills w (its arrays reused; waitcnt pairs left empty) with the kept data of file `name` and
 * frees that data: 1, or 0 when the file was not kept (read it). */
int wave_keep_take(wave_keep *k, const char *name, att_wave *w);

#endif
