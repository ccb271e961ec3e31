/* Reader of an ATT dispatch's occupancy.json (docs/facts-rocprofv3.md#occupancy-json): wave
 * start/end events of every CU of each traced shader engine.
 *
 * Keys that are decimal numbers are shader engines holding rows [time, cu, simd, slot, start,
 * kernel_idx, ...] (trailing columns of newer writers are skipped; kernel_idx may be absent; slot
 * must be an integer but is not kept);
 * "dispatches" {"<kernel_idx>": "<kernel name>"} and "version" are kept; "occupancy_fields",
 * "events" and unknown keys are skipped.
 * start must be 0 or 1. Malformed input is BAD_INPUT with file and byte offset. */
#ifndef FLYPROF_READ_ATT_OCCUPANCY_H
#define FLYPROF_READ_ATT_OCCUPANCY_H

#include "base/err.h"
#include "read/amd/att_reader.h"

#include <stddef.h>
#include <stdint.h>

/* 40 bytes an event, tens of thousands of them: the slot column is checked but not kept (no
 * caller reads it), and the SE, a key of at most 9 digits, fits 32 bits. */
typedef struct att_occ_event {
	int64_t time, cu, simd, kernel; /* kernel -1 when absent */
	int32_t se;
	int32_t start; /* 1 wave start, 0 wave end */
} att_occ_event;

typedef struct att_occupancy {
	att_occ_event *v; /* in file order */
	size_t n, cap;
	char *version;	     /* owned, or NULL */
	int64_t *kernel_idx; /* "dispatches": kernel_idx[i] is named kernel_name[i] (owned) */
	char **kernel_name;
	size_t n_kernels, cap_kernels;
} att_occupancy;

/* Events stay in file order: sorting them by time is the caller's (occupancy_observed). */
ATT_READER_DECLARE(att_occupancy);

#endif
