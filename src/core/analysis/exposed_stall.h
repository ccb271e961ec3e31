/* Exposed stall: the part of a stall that costs wall time (docs/diagnosis.md).
 *
 * Summed stall adds every wave's stall cycles, although while one wave stalls another wave of
 * the same SIMD may issue and hide it. Merging the waves of one SIMD (a wave_group, handed over
 * by the AMD wave pass: core/amd/wave_pass.h) gives, cycle by cycle, whether any wave issued (a
 * record issues from time + stall to time + duration) and which waves were stalled (from time to
 * time + stall, on their instruction's class and line).
 * A cycle of the SIMD's window (first wave begin to last wave end) is
 *   issue     some wave issued;
 *   exposed   no wave issued and at least one was stalled: the cycle is split equally between
 *             the stalled waves' classes and lines (exposed stall);
 *   empty     no wave issued or stalled (gaps between instructions, no resident wave).
 * Per class and line: summed stall beside exposed stall.
 *
 * Exact and order-independent: an exposed cycle split between k stalled records gives each a
 * share n/k; shares are kept as integers in units of 1/EXPOSED_UNIT cycle, EXPOSED_UNIT =
 * lcm(1..16), so every share with k <= 16 is exact and sums do not depend on the order the
 * groups (or the events within one) are added in: accumulators filled by different threads
 * merge (exposed_merge) to the bytes of one filled alone. Only at JSON time are they divided
 * into doubles. Ownership: the accumulator owns its arrays; exposed_release frees them.
 *
 * The sums are kept per line (instruction) and, for records on no known line, in one sum: the
 * pass that fills them runs before the instructions have their classes (wave_facts.h), so the
 * sums per class are made from the lines' when asked for (exposed_class_sums, exposed_to_json),
 * with the classes as they are then. */
#ifndef FLYPROF_CORE_ANALYSIS_EXPOSED_STALL_H
#define FLYPROF_CORE_ANALYSIS_EXPOSED_STALL_H

#include "base/json/jv.h"
#include "core/amd/wave_pass.h"
#include "core/analysis/line_index.h"
#include "model/taxonomy.h"
#include "model/trace.h"

/* lcm(1..16): a SIMD holds at most 16 waves (RDNA; CDNA 8 to 10), so at most 16 records are
 * stalled at once on real hardware, and 1/k of a cycle is a whole number of units for k <= 16. */
#define EXPOSED_UNIT 720720

/* A share of cycles in units of 1/EXPOSED_UNIT. 128 bits because the bound must hold for any
 * input: a segment is at most 2^64 cycles, so a share is below 2^64 * 2^20 = 2^84 units, and a
 * sum of shares never exceeds the summed windows (one per SIMD group, each below 2^64 cycles,
 * fewer than 2^32 groups: one wave file at least each) times EXPOSED_UNIT: below 2^116. */
__extension__ typedef unsigned __int128 exposed_fx;

typedef struct exposed_acc {
	const trace_dispatch *d;
	line_index lines;
	/* code line -> instruction index << 1 | its flag (exposed_flag), -1 for none (line 0
	 * included: a record on line 0 is on no known line); lines beyond are looked up in lines */
	int32_t *code;
	size_t n_code;
	const char *flag; /* per instruction (exposed_flag), NULL: none; borrowed */
	size_t simds;
	int64_t window, issue, empty, exposed;
	exposed_fx unknown_exposed;	       /* units, records on no known line */
	exposed_fx unknown_stall;	       /* whole cycles (128 bits: no overflow either) */
	exposed_fx *line_exposed, *line_stall; /* the same, indexed like d->insts */
	/* Summed stall of SIMDs without a window (their waves' begin and end equal: malformed
	 * files), which add nothing: line_stall and unknown_stall hold every record's stall, as
	 * the wave facts want it, and these are taken out of them (exposed_line_stall). NULL until
	 * such a SIMD comes. */
	exposed_fx unknown_nowin;
	exposed_fx *line_nowin;
	struct exposed_scratch *scratch; /* exposed_group's buffers, kept across groups */
} exposed_acc;

void exposed_init(exposed_acc *a, const trace_dispatch *d);
/* Marks instructions (flag[i] nonzero, one per d->insts; borrowed, must outlive a) whose
 * records exposed_wave counts in exposed_wave_facts.flagged: report's wave facts count VMEM
 * stores in the same loop over a wave's records. */
void exposed_flag(exposed_acc *a, const char *flag);
void exposed_release(exposed_acc *a);
/* Instruction i's summed stall, of the SIMDs with a window. */
static inline exposed_fx exposed_line_stall(const exposed_acc *a, size_t i)
{
	return a->line_stall[i] - (a->line_nowin ? a->line_nowin[i] : 0);
}
/* What exposed_group_facts needs of one wave, worked out by exposed_wave, and what the wave
 * facts need of it (wave_facts.h), counted in the same loop. */
typedef struct exposed_wave_facts {
	int64_t first, end; /* its first record's time and its last event's (if events) */
	uint8_t events;	    /* some record has a stall or an issue */
	uint8_t in_order;   /* every record starts no earlier than the previous ones' last event,
			       and no event is past INT64_MAX */
	uint8_t compact;    /* its records are kept in 16 bytes each (exposed_int.h) */
	size_t at, n;	    /* where they are kept, how many */
	int64_t mapped;	    /* records on a known line (an instruction of d) */
	int64_t flagged;    /* of those, records of a flagged instruction (exposed_flag) */
	int64_t latency;    /* the records' positive durations, summed (wrapping: trace_add) */
} exposed_wave_facts;

/* Before a group's first wave: drops the records kept for the previous group. */
void exposed_store_reset(exposed_acc *a);
/* One wave, in a pass that reads it before its group is complete (wave_pass.h on_wave), while
 * its records are in cache: sums its records' stall into a, keeps its records for the group
 * (compact: the pass itself need not keep them) and fills f, all in one loop over the
 * records. */
void exposed_wave(exposed_acc *a, const att_wave *w, exposed_wave_facts *f);
/* Adds one SIMD's cycles and exposed shares (each share under its record's line, or unknown);
 * f[k] is what exposed_wave gave for g->waves[k] since the last exposed_store_reset (its stall
 * is summed and its records kept already: of g's waves only their place is read). Its buffers
 * are the accumulator's: separate accumulators may be filled from separate threads. Cost: a
 * sweep of the cycles the waves cover in blocks of 4,096 (a few instructions a cycle) or, for
 * malformed groups (records out of order, more than 16 waves at once) and windows of more than
 * 64 cycles a record, a merge of the waves' events. */
void exposed_group_facts(exposed_acc *a, const wave_group *g, const exposed_wave_facts *f);
/* Both: exposed_wave for each of g's waves, then exposed_group_facts. */
void exposed_group(exposed_acc *a, const wave_group *g);
/* Adds src's sums into dst; both initialised for the same dispatch. Groups added to several
 * accumulators then merged give exactly what adding them all to one gives, in any order. */
void exposed_merge(exposed_acc *dst, const exposed_acc *src);
/* The sums per class, with the classes of a->d's instructions now: each class's lines', and the
 * unknown lines' under other. */
void exposed_class_sums(const exposed_acc *a, exposed_fx exposed[TAX__COUNT],
			exposed_fx stall[TAX__COUNT]);
/* The exposed_stall object of report.json (top `top_lines` lines by exposed stall). */
jv *exposed_to_json(const exposed_acc *a, size_t top_lines);

#endif
