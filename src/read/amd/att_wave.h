/* Reader of one ATT wave file se<SE>_sm<SIMD>_sl<SLOT>_wv<N>.json
 * (docs/facts-rocprofv3.md#wave-files): the hot path of every analysis, so it is a streaming
 * scanner (att_scan), not a DOM.
 *
 * It reads wave.begin/end/cu/id/simd/slot, wave.instructions [[time, category, stall, duration,
 * line], ...] (extra trailing columns skipped), wave.timeline [[state, duration], ...] and
 * wave.waitcnt [[line, [[producer, 0], ...]], ...] (the pair's second element is ignored: it is
 * 0 in every recorded trace). Every other key, at any level, is skipped with its value
 * validated. Malformed input is BAD_INPUT with file, byte offset and what was expected;
 * wave.begin and wave.end are required.
 *
 * Ownership: an att_wave owns its arrays; att_wave_parse reuses them across files (capacity is
 * kept, counts reset), so a worker parses many files with no allocation in steady state. */
#ifndef FLYPROF_READ_ATT_WAVE_H
#define FLYPROF_READ_ATT_WAVE_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>

/* Fields in the order of the row [time, category, stall, duration, line] (and of a timeline
 * row below): the scanner's fast path stores rows straight into the array. */
typedef struct att_wave_inst {
	int64_t time, category, stall, duration, line;
} att_wave_inst;

typedef struct att_wave_state {
	int64_t state, duration;
} att_wave_state;

typedef struct att_wave_wait {
	int64_t wait_line, producer_line;
} att_wave_wait;

typedef struct att_wave {
	int64_t begin, end, cu, id, simd, slot; /* -1 when absent (begin/end are required) */
	att_wave_inst *insts;
	size_t n_insts, cap_insts;
	att_wave_state *timeline;
	size_t n_timeline, cap_timeline;
	att_wave_wait *waits; /* one per (waitcnt entry, producer), in file order */
	size_t n_waits, cap_waits;
} att_wave;

void att_wave_init(att_wave *w);
void att_wave_release(att_wave *w);
/* Parses buf[0..len) (`name` is used in errors) into w. Returns 0 or -1 with e set. */
int att_wave_parse(const char *buf, size_t len, const char *name, att_wave *w, fp_err *e);

#endif
