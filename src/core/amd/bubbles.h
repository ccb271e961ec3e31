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
#include "core/backend/backend.h"
#include "model/profile.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Fills *p (initialised here; profile_release after, also on failure) with the stall profile
 * of trace d: classes written back into d->insts[].klass/category, the parts, waits, totals and
 * the AMD sections (occupancy, wave_states, wave_check, clock, detail). Unranked. names (may be
 * NULL): a listing the caller made of the dispatch directory, read instead of listing it again
 * when it is of that directory. */
int amd_profile_fill(trace_dispatch *d, const dispatch_choice *choice, file_listing *names,
		     const bubbles_params *o, stall_profile *p, jv *warnings, fp_err *e);
/* amd_profile_fill, profile_rank and profile_to_json in one. */
int bubbles_compute(trace_dispatch *d, const dispatch_choice *choice, const bubbles_params *o,
		    jv **out, bubbles_counts *counts, jv *warnings, fp_err *e);

#endif
