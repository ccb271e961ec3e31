/* Internal to exposed_stall.c, exposed_wave.c, exposed_cycles.c and exposed_events.c: the two
 * ways one SIMD group is swept, and what they share. exposed_wave.c reads each wave as the pass
 * parses it (keeps its records, sums their stall, checks their order); exposed_stall.c then
 * sweeps the group block by block; exposed_events.c merges the waves' events for the groups
 * that sweep cannot take (waves out of order, more than EXPOSED_MAX_STALLED waves at once:
 * malformed files). */
#ifndef FLYPROF_CORE_ANALYSIS_EXPOSED_INT_H
#define FLYPROF_CORE_ANALYSIS_EXPOSED_INT_H

#include "core/analysis/exposed_stall.h"

#include <stdint.h>

/* At most this many records stalled at once have exact shares (EXPOSED_UNIT = lcm(1..16)). */
#define EXPOSED_MAX_STALLED 16

/* Cycles a block: its buffers (4 + 4 bytes a cycle) stay in L1/L2, and a block's phi fits 32 bits
 * (EXPOSED_BLOCK * EXPOSED_UNIT < 2^32). */
#define EXPOSED_BLOCK 4096

/* A block's changes are one array: +-1 for an issue interval, +-EXPOSED_STALL_ONE for a stall
 * interval, so a prefix sum is issuing + stalled * EXPOSED_STALL_ONE. Exact because at most
 * EXPOSED_MAX_STALLED waves overlap in a swept group and a wave in order has at most one issue
 * and one stall interval open at a time: both counts stay below EXPOSED_STALL_ONE. */
#define EXPOSED_STALL_ONE (1u << 16)

/* units_per_share[k]: EXPOSED_UNIT / k, one stalled record's share of a cycle split k ways
 * (0 for k = 0). */
extern const uint32_t exposed_units_per_share[EXPOSED_MAX_STALLED + 1];

/* A record as exposed_wave keeps it for its group, 16 bytes instead of 40 (att_wave_inst): time
 * relative to its wave's begin, stall and duration as they were (each fits 32 bits: else the
 * wave keeps its records as they are), and the instruction its line names (-1: none), looked up
 * once, in exposed_wave, instead of again in the sweep. */
struct exposed_rec {
	int32_t t, st, dur, inst;
};

/* Buffers of exposed_group, kept in the accumulator across groups (grown, never shrunk). */
struct exposed_scratch {
	/* per wave of the group */
	size_t cap_w;
	uint8_t *in_order;		/* the wave's records are in time order */
	int64_t *first;			/* its first record's time */
	int64_t *ends;			/* its last event's time (sorted for the overlap count) */
	size_t *order;			/* waves with events, by (first, index) */
	const struct exposed_rec **pos; /* block sweep: its first record not yet done */
	size_t *live;			/* block sweep: waves begun and not done */
	exposed_wave_facts *facts;	/* exposed_group's, per wave */
	const exposed_wave_facts *cur;	/* exposed_group_facts': the group's */
	/* the records exposed_wave kept since exposed_store_reset: compact, or as they were when
	 * a value does not fit (x->full) */
	struct exposed_rec *recs; /* xgrow_huge: 1.4 MB on the corpus softmax */
	size_t n_recs, cap_recs;
	/* the stall of compact waves' records per instruction, in 64 bits (each below 2^31, fewer
	 * than 2^32 of them summed: exact), added into the accumulator's 128-bit sums at the end of
	 * every group (or sooner, before that bound): one add a record instead of two */
	uint64_t *stall64;
	size_t n_stall64;
	att_wave_inst *full;
	size_t n_full, cap_full;
	/* the event merge's view of a group: its waves, their compact records expanded */
	att_wave_inst *expand;
	size_t cap_expand;
	att_wave *views;
	size_t cap_views;
	struct exposed_events_scratch *ev; /* exposed_events.c's own */
	/* block sweep: per-cycle changes and the running share, one block long */
	uint32_t *delta;
	struct exposed_piece *pieces; /* the block's stall intervals (exposed_stall.c) */
	size_t n_pieces, cap_pieces;
	uint32_t *phi;
};

/* The accumulator's scratch (created on first use), sized for a group of n waves. */
struct exposed_scratch *exposed_scratch_for(exposed_acc *a, size_t n);
/* Adds the scratch's 64-bit stall sums into the accumulator's (exposed_scratch.stall64). */
void exposed_flush_stall64(exposed_acc *a, struct exposed_scratch *x);
/* exposed_wave (exposed_wave.c); simd 0 takes the scalar loop even where AVX2 runs (for the
 * tests). */
void exposed_wave_simd(exposed_acc *a, const att_wave *w, exposed_wave_facts *f, int simd);

/* What exposed_cycles returns for a block: one stalled record's share of the whole block in the
 * low 32 bits, the exposed cycles from bit 32, the issue cycles from bit 48. */
#define EXPOSED_CYCLE_EXPOSED ((uint64_t)1 << 32)
#define EXPOSED_CYCLE_ISSUE   ((uint64_t)1 << 48)

/* The per-cycle pass of one block of len cycles (exposed_cycles.c): d[0..len] holds the block's
 * changes (+-1 issue, +-EXPOSED_STALL_ONE stall), zeroed as they are read; sets phi[k] (k =
 * 0..len) to one stalled record's share of cycles 0..k-1: EXPOSED_UNIT / (records stalled) for
 * each exposed cycle (no issue, some stalled). simd 0 takes the scalar loop even where AVX2
 * runs (for the tests). */
uint64_t exposed_cycles(uint32_t *d, uint32_t *phi, int64_t len, int simd);

/* The instruction a code line names and its flag, as the code table has them: instruction index
 * << 1 | flag (exposed_flag), -1 when none (line 0 and negative lines included). Lines past the
 * table are looked up in the line index. */
static inline int32_t exposed_code_of(const exposed_acc *a, int64_t line)
{
	if ((uint64_t)line < a->n_code) /* a negative line casts above any bound */
		return a->code[line];
	long i = line > 0 ? line_index_find(&a->lines, line) : -1;
	return i < 0 ? -1 : (int32_t)((uint64_t)i << 1 | (a->flag && a->flag[i]));
}

/* The instruction a record's line names (-1 when none). */
static inline long exposed_inst_of(const exposed_acc *a, const att_wave_inst *in)
{
	return exposed_code_of(a, in->line) >> 1;
}

/* The group's waves' events merged in time order, adding the window [lo, hi)'s issue, exposed
 * and empty cycles and the exposed shares. The caller has set scratch->in_order for every wave
 * of g (exposed_wave). */
void exposed_events_group(exposed_acc *a, const wave_group *g, int64_t lo, int64_t hi);
void exposed_events_release(struct exposed_events_scratch *x);

#endif
