/* Internal to exposed_stall.c and exposed_events.c: the two ways one SIMD group is swept, and
 * what they share. exposed_stall.c checks the group's waves (and sums their stall), then sweeps
 * it block by block; exposed_events.c merges the waves' events for the groups that sweep cannot
 * take (waves out of order, more than EXPOSED_MAX_STALLED waves at once: malformed files). */
#ifndef FLYPROF_CORE_ANALYSIS_EXPOSED_INT_H
#define FLYPROF_CORE_ANALYSIS_EXPOSED_INT_H

#include "core/analysis/exposed_stall.h"

#include <stdint.h>

/* At most this many records stalled at once have exact shares (EXPOSED_UNIT = lcm(1..16)). */
#define EXPOSED_MAX_STALLED 16

/* units_per_share[k]: EXPOSED_UNIT / k, one stalled record's share of a cycle split k ways
 * (0 for k = 0). */
extern const uint32_t exposed_units_per_share[EXPOSED_MAX_STALLED + 1];

/* Buffers of exposed_group, kept in the accumulator across groups (grown, never shrunk). */
struct exposed_scratch {
	/* per wave of the group */
	size_t cap_w;
	uint8_t *in_order;	   /* the wave's records are in time order */
	int64_t *first;		   /* its first record's time */
	int64_t *ends;		   /* its last event's time (sorted for the overlap count) */
	size_t *order;		   /* waves with events, by (first, index) */
	const att_wave_inst **pos; /* block sweep: the wave's first record not yet done */
	const att_wave_inst *
	    *seen;    /* block sweep: the records before have had their stall summed */
	size_t *live; /* block sweep: waves begun and not done */
	struct exposed_events_scratch *ev; /* exposed_events.c's own */
	/* block sweep: per-cycle changes and the running share, one block long */
	uint32_t *delta;
	struct exposed_piece *pieces; /* the block's stall intervals (exposed_stall.c) */
	size_t n_pieces, cap_pieces;
	uint32_t *phi;
};

int exposed_class_of(const trace_dispatch *d, long i);
/* The instruction a record's line names (-1 when none). */
static inline long exposed_inst_of(const exposed_acc *a, const att_wave_inst *in)
{
	return in->line > 0 ? line_index_find(&a->lines, in->line) : -1;
}

/* The group's waves' events merged in time order, adding the window [lo, hi)'s issue, exposed
 * and empty cycles and the exposed shares. The caller has summed the records' stall and set
 * scratch->in_order for every wave of g. */
void exposed_events_group(exposed_acc *a, const wave_group *g, int64_t lo, int64_t hi);
void exposed_events_release(struct exposed_events_scratch *x);

#endif
