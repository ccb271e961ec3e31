/* bubbles: the stall taxonomy of one ATT dispatch (the `bubbles` command and bubbles.json).
 *
 * Input: the dispatch's code.json (trace_dispatch) and its directory (wave files, occupancy,
 * wstates, realtime, filenames). Output: the object described in docs/bubbles.md — dispatch,
 * totals (exactly the sums over code.json), classes (native AMD class + normalised class),
 * normalized, mix, hotspots, lines, waits (producer attribution and split), occupancy
 * (observed, theoretical), wave_states, wave_check (the code.json numbers recomputed from the
 * wave files), clock, and detail when asked for.
 *
 * Missing optional files (occupancy, wstates, realtime, filenames) add a warning string to
 * `warnings` and the matching section says "available": false; malformed ones are BAD_INPUT. */
#ifndef FLYPROF_CORE_BUBBLES_H
#define FLYPROF_CORE_BUBBLES_H

#include "base/err.h"
#include "base/json/jv.h"
#include "core/amd/dispatch_select.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* (Named bubbles_params, not bubbles_opts: that name is the option table of src/cmd/bubbles.c.) */
typedef struct bubbles_params {
	size_t top;	     /* length of hotspots, lines, waits; 0 = everything */
	int64_t detail_line; /* --detail CODE_LINE, or -1 */
	int threads;	     /* wave-file workers; 0 = one per online core */
} bubbles_params;

/* How many items each ranked list had before it was cut to `top`. */
typedef struct bubbles_counts {
	size_t hotspots, lines, waits;
} bubbles_counts;

/* Computes the bubbles object for trace d (read by att_code_read from choice->dir; choice may
 * be NULL, then d->dir is analysed and the selection fields are null). The
 * instruction classes are written back into d->insts[].klass/category. *out is owned by the
 * caller. counts may be NULL. --detail of a line that is not an instruction is NO_MATCH with
 * error.available (executed lines). Returns 0 or -1 with e set. */
int bubbles_compute(trace_dispatch *d, const dispatch_choice *choice, const bubbles_params *o,
		    jv **out, bubbles_counts *counts, jv *warnings, fp_err *e);

#endif
