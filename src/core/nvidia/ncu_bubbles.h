/* The NVIDIA backend's stall analysis: a stall profile (model/profile.h) from Nsight Compute
 * exports (docs/nvidia.md), ranked and written by the same code as the AMD one, so bubbles.json
 * has the keys of the shared contract (docs/bubbles.md).
 *
 * Unit: warp-state SAMPLES, not cycles ("unit": "samples" at the top and in totals). Per SASS
 * instruction: latency = all warp-state samples at its PC, stall = samples in a stall reason
 * (all minus "selected"), hits = Instructions Executed (warp level), idle = 0 (ncu has no
 * such measure), not_issued = samples taken while the scheduler issued nothing. Classes are
 * the stall reasons (classes.h) with their normalised classes; an instruction's own class is
 * its dominant stall reason. waits lists the instructions stalled on a scoreboard dependency;
 * the producer instructions are unknown on NVIDIA (ncu does not record them), so producers is
 * empty and the split is by reason (long_scoreboard + imc_miss -> memory, short_scoreboard ->
 * lds). occupancy comes from the details export (achieved as observed, theoretical with ncu's
 * block limits); wave_states is not available.
 *
 * Missing optional exports (correlated source, details) add warnings and leave the matching
 * parts empty/null; malformed ones are BAD_INPUT. */
#ifndef FLYPROF_CORE_NCU_BUBBLES_H
#define FLYPROF_CORE_NCU_BUBBLES_H

#include "base/err.h"
#include "base/json/jv.h"
#include "read/nvidia/ncu_exports.h"
#include "model/profile.h"
#include "model/trace.h"
#include "read/nvidia/ncu_details.h"
#include "read/nvidia/ncu_source.h"

#include <stddef.h>

typedef struct ncu_bubbles_params {
	size_t top; /* length of hotspots, lines, waits; 0 = everything */
} ncu_bubbles_params;

/* How many items each ranked list had before the cut (same meaning as bubbles_counts). */
typedef struct ncu_bubbles_counts {
	size_t hotspots, lines, waits;
} ncu_bubbles_counts;

/* The exports of one capture, loaded: the source table (instructions and per-reason samples),
 * the details when present. */
typedef struct ncu_model {
	ncu_source src;
	ncu_details det;
	int has_details;
} ncu_model;

/* Loads the exports (warnings may be NULL). On failure *m holds nothing to release. */
int ncu_model_load(const ncu_exports *x, ncu_model *m, jv *warnings, fp_err *e);
void ncu_model_release(ncu_model *m);
/* Moves the model's instructions into *out (with the kernel, arch and resources of the details
 * export): the trace `map` and `report` read. The per-reason samples stay in m, parallel to
 * out->insts. */
void ncu_model_take_trace(ncu_model *m, trace_dispatch *out);
/* Fills *p (initialised here) from the model's samples over trace t (the model's own trace, or
 * the one taken from it): classes written into t->insts[].klass. p borrows t. */
void ncu_profile_fill(const ncu_model *m, const ncu_exports *x, trace_dispatch *t, stall_profile *p,
		      jv *warnings);

/* Loads, fills, ranks and writes the bubbles object. *out is owned by the caller; counts may
 * be NULL; warnings (an array) gets strings. Returns 0 or -1 with e set. */
int ncu_bubbles_from_exports(const ncu_exports *x, const ncu_bubbles_params *p, jv **out,
			     ncu_bubbles_counts *counts, jv *warnings, fp_err *e);
/* The same for the exports found in ncu_dir (ncu_exports_find with no prefix), e.g.
 * <bundle>/ncu. */
int ncu_bubbles_compute(const char *ncu_dir, const ncu_bubbles_params *p, jv **out,
			ncu_bubbles_counts *counts, jv *warnings, fp_err *e);
/* Loads the instructions of the exports into a trace model (isa, source, hits/latency/stall
 * in samples, classes unset), with the kernel, arch and resources from the details export
 * when present. *out is initialised here and owned by the caller (trace_dispatch_release). */
int ncu_trace_load(const ncu_exports *x, trace_dispatch *out, fp_err *e);

#endif
