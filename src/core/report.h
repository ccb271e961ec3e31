/* The report document (report.json) and what derives from it: headlines.json and the compact
 * envelope data. REPORT.md (src/out/report_md.h) and SARIF (src/out/sarif.h) render the same
 * document, so every output says the same thing.
 *
 * report.json keys: schema, kernel, arch, bundle_kind, dispatch, headline, bound (bound.h),
 * totals, stall_taxonomy {denominator, classes[{rank, class, normalized, stall, pct_of_stall,
 * stall_pct_of_latency, is_bubble}], normalized}, occupancy {theoretical, observed,
 * disagreement, note}, wave_states, recommendations (recommend.h), why_rank_1, not_fired,
 * ranking_rule, signals, evidence_hotspots, lines, waits, variation, counters, tile,
 * sources, missing, repro.
 * Ownership: report_build returns an owned tree; the inputs stay the caller's. */
#ifndef FLYPROF_CORE_REPORT_H
#define FLYPROF_CORE_REPORT_H

#include "../base/jv.h"
#include "rules.h"

/* A class whose share of totals.stall is at least this many % is flagged is_bubble. */
#define REPORT_BUBBLE_PCT 5.0

typedef struct report_inputs {
	const jv *bubbles;   /* the bubbles object (required) */
	const jv *counters;  /* counters.json or NULL */
	const jv *occupancy; /* {"theoretical": {...}|null, "observed": {...}|null} or NULL */
	const jv *variation; /* class shares of other dispatches of the capture, or NULL */
	const jv *tile;	     /* tile.json or NULL */
	const jv *missing;   /* array of strings: inputs that were absent, or NULL */
	const jv *sources;   /* where the .py lines came from (codeobj_fill_sources), or NULL */
	const char *kernel, *arch, *bundle_kind, *repro;
} report_inputs;

/* Builds report.json. Never fails (absent inputs are listed under "missing"). */
jv *report_build(const report_inputs *in, const rules *r);
/* headlines.json: a few one-line findings an agent can branch on. */
jv *report_headlines(const jv *report);
/* The compact envelope data: headline, bound, the top `top` recommendations (short form),
 * counts, and the paths filled in by the caller. */
jv *report_summary(const jv *report, int top);

#endif
