/* Internal to bubbles.c and bubbles_lists.c: the state of one bubbles computation. */
#ifndef FLYPROF_CORE_BUBBLES_INT_H
#define FLYPROF_CORE_BUBBLES_INT_H

#include "core/amd/bubbles.h"
#include "model/taxonomy.h"
#include "core/amd/waits.h"
#include "core/amd/wave_agg.h"

typedef struct bub {
	trace_dispatch *d;
	const bubbles_params *o;
	wave_agg agg;
	int have_waves;
	waits_result waits;
	long *wait_of; /* per instruction: index into waits.v, or -1 */
	int64_t hits, latency, stall, idle;
	size_t n_static, n_executed;
} bub;

/* 100 * part / whole rounded to 2 decimals (0 when whole is 0), as a jv. */
jv *bub_pct(int64_t part, int64_t whole);
/* Cuts a ranked list to o->top (0 = all); returns the total length before the cut. */
size_t bub_cut(jv *list, size_t top);

jv *bub_hotspots(const bub *b, size_t *total);
jv *bub_lines(const bub *b, jv **unmapped, size_t *total);
jv *bub_waits(const bub *b, size_t *total);
/* The --detail object, or NULL with e set (NO_MATCH). */
jv *bub_detail(const bub *b, fp_err *e);
/* NO_MATCH for a --detail line that is not an instruction, checked before any work. */
int bub_check_detail(const trace_dispatch *d, int64_t line, fp_err *e);
/* Sections from the optional files (bubbles_extra.c); NULL / -1 with e set on BAD_INPUT. A
 * missing file adds a warning and an "available": false section. */
jv *bub_occupancy(const bub *b, jv *warnings, fp_err *e);
jv *bub_clock(const bub *b, jv *warnings, fp_err *e);
int bub_filenames(const bub *b, jv *dispatch, jv *warnings, fp_err *e);
/* Producer/wait attribution of one wait as JSON (shared by waits and detail). */
jv *bub_wait_json(const bub *b, const wait_info *w);

#endif
