/* Reader of wstates<k>.json (docs/facts-rocprofv3.md#wstates-json): {"name", "time": [t...],
 * "state": [n...]} — a step function: from time[i] on, state[i] traced waves are in state k. The
 * two arrays must have the same length; time must not decrease. Unknown keys are skipped. Malformed
 * input is BAD_INPUT with file and byte offset. */
#ifndef FLYPROF_READ_ATT_WSTATES_H
#define FLYPROF_READ_ATT_WSTATES_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct att_wstates {
	int64_t *time, *count;
	size_t n;
} att_wstates;

int att_wstates_parse(const char *buf, size_t len, const char *name, att_wstates *w, fp_err *e);
/* Reads path; a missing file is NO_ARTIFACT. */
int att_wstates_read(const char *path, att_wstates *w, fp_err *e);
void att_wstates_release(att_wstates *w);
/* Time integral sum(count[i] * (time[i+1] - time[i])) in wave-cycles, and the peak count. */
int64_t att_wstates_integral(const att_wstates *w, int64_t *peak);

#endif
