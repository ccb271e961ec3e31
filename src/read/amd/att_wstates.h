/* Reader of wstates<k>.json (docs/facts-rocprofv3.md#wstates-json): {"name", "time": [t...],
 * "state": [n...]} — a step function: from time[i] on, state[i] traced waves are in state k. The
 * two arrays must have the same length; time must not decrease. Unknown keys are skipped. Malformed
 * input is BAD_INPUT with file and byte offset. */
#ifndef FLYPROF_READ_ATT_WSTATES_H
#define FLYPROF_READ_ATT_WSTATES_H

#include "base/err.h"
#include "read/amd/att_reader.h"

#include <stddef.h>
#include <stdint.h>

typedef struct att_wstates {
	int64_t *time, *count;
	size_t n;
} att_wstates;

ATT_READER_DECLARE(att_wstates);
/* Time integral sum(count[i] * (time[i+1] - time[i])) in wave-cycles, and the peak count. */
int64_t att_wstates_integral(const att_wstates *w, int64_t *peak);
/* att_wstates_read then att_wstates_integral, with what they give (the same figures, the same
 * errors), keeping one of the two arrays instead of both: the other is folded into the
 * integral as it is read (a wstates file holds ~100,000 of each; a document that is not plainly
 * well formed is read by att_wstates_parse instead, which answers it). */
int att_wstates_read_integral(const char *path, int64_t *integral, int64_t *peak, fp_err *e);
/* The same over a document in memory (att_wstates_parse, then att_wstates_integral). */
int att_wstates_parse_integral(const char *buf, size_t len, const char *name, int64_t *integral,
			       int64_t *peak, fp_err *e);

#endif
