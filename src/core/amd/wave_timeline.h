/* The per-wave timeline of one ATT dispatch, for trace viewers (Perfetto, chrome://tracing):
 * every traced wave's state segments (rocprofv3 wave files' `timeline`: IDLE, EXEC, WAIT,
 * STALL) on a track per shader engine / CU / SIMD / slot, and the issue of the instructions of
 * the N hottest code lines on a companion track. Times are shader cycles of each SE; with
 * realtime.json they convert to one common realtime axis (docs/bubbles.md#timeline), without
 * it every SE keeps its own cycle counter and the timeline says so.
 *
 * Ownership: wave_timeline owns its arrays and strings (wave_timeline_release). */
#ifndef FLYPROF_CORE_AMD_WAVE_TIMELINE_H
#define FLYPROF_CORE_AMD_WAVE_TIMELINE_H

#include "base/err.h"
#include "model/trace.h"
#include "read/amd/att_wave.h"

#include <stddef.h>
#include <stdint.h>

typedef struct tl_track {
	int64_t se, cu, simd, slot;
} tl_track;

typedef struct tl_wave {
	size_t track;
	int64_t id, begin, end; /* cycles of the wave's SE */
	const uint8_t *states;	/* its state segments: n_states of them, packed, in t's blocks */
	size_t n_states;
	int64_t states_end; /* where the last segment ends (begin when there is none) */
	size_t first_inst, n_insts;
	size_t rank; /* the wave file's place in name order (wave_timeline_add) */
} tl_wave;

/* One state segment, as tl_states_next gives it. */
typedef struct tl_state {
	int64_t begin, cycles;
	int state; /* rocprofv3 wave state: 1 IDLE, 2 EXEC, 3 WAIT, 4 STALL (0 EMPTY kept too) */
} tl_state;

/* The segments of one wave, in order. They are kept packed (a few bytes each instead of a
 * tl_state's 24: a large trace has more segments than instruction records, and the timeline
 * holds them all): each segment starts where the one before ended, the first at the wave's
 * begin, so only its state and length are stored, mostly as one variable-length integer. */
typedef struct tl_state_iter {
	const uint8_t *p;
	size_t left;
	int64_t at;
} tl_state_iter;

typedef struct tl_inst {
	int64_t begin, cycles, stall;
	size_t hot; /* index into wave_timeline.hot */
} tl_inst;

typedef struct tl_hot_line {
	int64_t code_line;
	char *isa, *source; /* owned */
	int64_t stall;
} tl_hot_line;

/* Converts one SE's cycles to realtime ticks: rt = rt0 + (cycles - gfx0) * ticks_per_cycle. */
typedef struct tl_clock {
	int64_t se, gfx0, rt0;
	double ticks_per_cycle;
} tl_clock;

typedef struct wave_timeline {
	tl_track *tracks;
	size_t n_tracks;
	tl_wave *waves;
	size_t n_waves, cap_waves;
	/* The waves' state segments (tl_wave.states), in blocks that never move: growing one array
	 * copied it at every doubling and touched twice its pages; a merge moves the blocks. */
	uint8_t **blocks;
	size_t n_blocks, cap_blocks;
	size_t block_used, block_cap; /* of the last block */
	size_t n_packed;	      /* bytes of segments in all blocks */
	tl_inst *insts;
	size_t n_insts, cap_insts;
	tl_hot_line *hot;
	size_t n_hot;
	/* hot_at[line] = the code line's index in hot + 1, 0 when it is not hot, for lines 0 ..
	 * n_hot_at - 1 (a record's look-up is one load); NULL when a hot line lies outside
	 * 0 .. 2^20 - 1 (then hot is searched) */
	uint32_t *hot_at;
	size_t n_hot_at;
	tl_clock *clocks; /* one per SE of realtime.json with two distinct pairs */
	size_t n_clocks;
	int64_t rt_frequency; /* realtime clock Hz, 0 without realtime.json */
	char *kernel;	      /* owned, may be NULL */
	int realtime;	      /* every SE with waves has a clock: one realtime axis */
	double origin;	      /* the earliest wave start on that axis */
} wave_timeline;

/* Builds the timeline of dispatch directory `dir` (its code.json gives the hot lines: the
 * `top_lines` instructions with the most stall, and the kernel's name). top_lines 0 is the
 * states alone (REPORT.html's picture): code.json is not read, `kernel` stays NULL. Returns 0
 * or -1 with e set (BAD_INPUT for a malformed wave file or code.json, NO_ARTIFACT when the
 * directory has no wave file). */
int wave_timeline_build(const char *dir, size_t top_lines, wave_timeline *t, fp_err *e);
void wave_timeline_release(wave_timeline *t);
/* Starts reading wave w's state segments; tl_states_next gives them in order: 1 and *s, or 0
 * after the last. */
void tl_states_first(const wave_timeline *t, const tl_wave *w, tl_state_iter *it);
/* One segment at p, in any of its forms, into s's state and cycles; returns the byte after it
 * (tl_states_next reads the short forms itself). */
const uint8_t *tl_state_decode(const uint8_t *p, tl_state *s);
/* Inline: REPORT.html's picture reads every segment of a CU (160 k on the corpus softmax),
 * and the call was a quarter of it. A short segment is cycles << 3 | state (state 0..6) in
 * one or two bytes (wave_timeline.c). */
static inline int tl_states_next(tl_state_iter *it, tl_state *s)
{
	if (!it->left)
		return 0;
	const uint8_t *p = it->p;
	uint64_t u = p[0];
	size_t n = 1;
	if (u & 0x80) {
		u = (u & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
		n = p[1] & 0x80 ? 0 : 2;
	}
	if (n && (u & 7) != 7) {
		s->state = (int)(u & 7);
		s->cycles = (int64_t)(u >> 3);
		it->p = p + n;
	} else {
		it->p = tl_state_decode(p, s);
	}
	s->begin = it->at;
	it->at = trace_add(it->at, s->cycles);
	it->left--;
	return 1;
}

/* The same built from waves another reader parsed (report's bubbles pass): begin reads
 * code.json (the hot lines; not with top_lines 0) and realtime.json; add takes one parsed wave
 * file, in any order, with `rank`, its place among the directory's wave files in strcmp order
 * (names that are not wave files are skipped: returns 0); finish puts the waves in name order, so
 * the result is wave_timeline_build's. begin and finish release t on failure (finish: NO_ARTIFACT
 * when no wave was added). */
int wave_timeline_begin(const char *dir, size_t top_lines, wave_timeline *t, fp_err *e);
int wave_timeline_add(wave_timeline *t, const char *name, size_t rank, const att_wave *w);
int wave_timeline_finish(wave_timeline *t, const char *dir, fp_err *e);
/* For adding from several threads: `part`, an empty timeline with t's hot lines, takes adds of
 * its own; wave_timeline_merge moves its waves into t (any order: finish sorts) and releases
 * it. */
void wave_timeline_part(const wave_timeline *t, wave_timeline *part);
void wave_timeline_merge(wave_timeline *t, wave_timeline *part);
/* The index in t->hot of code line `line` (the first hot line with it), SIZE_MAX when it is
 * not one of them. */
size_t wave_timeline_hot_of(const wave_timeline *t, int64_t line);
/* Microseconds since the earliest wave start for a cycle count of SE `se`, on the realtime
 * axis when a clock exists for that SE, else (cycles - first cycle) / 1000 (1 cycle shown as
 * 1 ns). */
double wave_timeline_us(const wave_timeline *t, int64_t se, int64_t cycles);

#endif
