/* Internal to bubbles*.c: the state of one AMD profile fill. */
#ifndef FLYPROF_CORE_BUBBLES_INT_H
#define FLYPROF_CORE_BUBBLES_INT_H

#include "core/amd/bubbles.h"
#include "core/amd/waits.h"
#include "core/amd/wave_agg.h"
#include "model/profile.h"
#include "model/taxonomy.h"

typedef struct bub {
	trace_dispatch *d;
	const bubbles_params *o;
	wave_agg agg;
	int have_waves;
	waits_result waits;
	long *wait_of;	  /* per instruction: index into waits.v, or -1 */
	stall_profile *p; /* being filled */
} bub;

/* The --detail object, or NULL with e set (NO_MATCH). */
jv *bub_detail(const bub *b, fp_err *e);
/* NO_MATCH for a --detail line that is not an instruction, checked before any work. */
int bub_check_detail(const trace_dispatch *d, int64_t line, fp_err *e);
/* Sections from the optional files (bubbles_extra.c); NULL / -1 with e set on BAD_INPUT. A
 * missing file adds a warning and an "available": false section. */
jv *bub_occupancy(const bub *b, jv *warnings, fp_err *e);
jv *bub_clock(const bub *b, jv *warnings, fp_err *e);
int bub_filenames(const bub *b, stall_profile *p, jv *warnings, fp_err *e);

#endif
