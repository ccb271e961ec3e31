/* Reader of realtime.json (docs/facts-rocprofv3.md#realtime-json): per shader engine, pairs
 * [shader_clock, realtime_clock]; metadata.frequency is the realtime clock in Hz (100 MHz when
 * absent). Keys "SE<n>" hold the pairs; other keys are skipped. Malformed input is BAD_INPUT. */
#ifndef FLYPROF_READ_ATT_REALTIME_H
#define FLYPROF_READ_ATT_REALTIME_H

#include "base/err.h"

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

int att_realtime_parse(const char *buf, size_t len, const char *name, att_realtime *r, fp_err *e);
/* Reads path; a missing file is NO_ARTIFACT. */
int att_realtime_read(const char *path, att_realtime *r, fp_err *e);
void att_realtime_release(att_realtime *r);

#endif
