/* Reader of realtime.json (docs/facts-rocprofv3.md#realtime-json): per shader engine, pairs
 * [shader_clock, realtime_clock]; metadata.frequency is the realtime clock in Hz (100 MHz when
 * absent). Keys "SE<n>" hold the pairs; other keys are skipped. Malformed input is BAD_INPUT. */
#ifndef FLYPROF_READ_ATT_REALTIME_H
#define FLYPROF_READ_ATT_REALTIME_H

#include "base/err.h"
#include "read/amd/att_reader.h"

#include <stddef.h>
#include <stdint.h>

typedef struct att_rt_se {
	int64_t se;
	int64_t first_gfx, first_rt, last_gfx, last_rt;
	size_t n_pairs;
} att_rt_se;

typedef struct att_realtime {
	att_rt_se *v; /* in file order */
	size_t n, cap;
	int64_t frequency;
} att_realtime;

ATT_READER_DECLARE(att_realtime);

#endif
