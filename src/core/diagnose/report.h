/* The report document (report.json) and what derives from it: headlines.json and the compact
 * envelope data. REPORT.md (src/out/report_md.h) and SARIF (src/out/sarif.h) render the same
 * document, so every output says the same thing.
 *
 * report.json keys: schema, kernel, arch, bundle_kind, dispatch, backend ("amd" | "nvidia"),
 * unit ("cycles" | "samples"), headline, bound (bound.h),
 * totals, stall_taxonomy {denominator, classes[{rank, class, normalized, stall, pct_of_stall,
 * stall_pct_of_latency, is_bubble}], normalized}, occupancy {theoretical, observed,
 * disagreement, note}, wave_states, kernel_traits (kernel_traits.h), entry_buckets
 * (evidence_loc.h), isa_facts, launch_geometry, wave_facts, roofline, exposed_stall
 * (docs/diagnosis.md; null when unknown), recommendations (recommend.h), why_rank_1, not_fired,
 * ranking_rule, signals, evidence_hotspots, lines, waits, variation, counters, tile,
 * sources, missing, repro; NVIDIA adds ncu_rules (ncu_findings.h).
 * Ownership: report_build returns an owned tree; the inputs stay the caller's. */
#ifndef FLYPROF_CORE_REPORT_H
#define FLYPROF_CORE_REPORT_H

#include "base/json/jv.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/rules.h"
#include "model/profile.h"

/* A class whose share of totals.stall is at least this many % is flagged is_bubble. */
#define REPORT_BUBBLE_PCT 5.0

typedef struct report_inputs {
	/* the ranked stall profile the bubbles object was written from, or NULL: the profile is
	 * read back from the bubbles object (profile_from_json). report_build reads only the
	 * profile: the traits without a trace, the bound and the rule signals (rule_signals.h),
	 * the recommendations' evidence (recommend.h), the headline, the taxonomy, and the
	 * sections bubbles.json has in the same shape (dispatch, totals, normalized, wave_states,
	 * the first 5 hotspots, lines and waits), written by the bubbles writer (profile.h) */
	const stall_profile *profile;
	const jv *bubbles;   /* the bubbles object: required when profile is NULL */
	const jv *counters;  /* counters.json or NULL */
	const jv *occupancy; /* {"theoretical": {...}|null, "observed": {...}|null} or NULL */
	const jv *variation; /* class shares of other dispatches of the capture, or NULL */
	const jv *tile;	     /* tile.json or NULL */
	const jv *missing;   /* array of strings: inputs that were absent, or NULL */
	const jv *sources;   /* where the .py lines came from (codeobj_fill_sources), or NULL */
	/* kernel_traits_from_trace, or NULL: from the profile's mix (kernel_traits_from_profile) */
	const kernel_traits *traits;
	const jv *entry_buckets; /* evloc_scan_trace (evidence_loc.h), or NULL: no bucket known */
	/* {isa_facts, launch_geometry, wave_facts, roofline, exposed_stall} (docs/diagnosis.md),
	 * any key absent, or NULL: copied to report.json under the same keys and read by the
	 * fact signals (rule_signals.h) */
	const jv *facts;
	const jv *ncu_findings; /* NVIDIA: ncu_findings.h's result, or NULL */
	const char *kernel, *arch, *bundle_kind, *repro;
} report_inputs;

/* The words for the unit of a report's (or a bubbles object's) numbers, from its "unit" key:
 * AMD ATT traces count cycles, NVIDIA Nsight Compute warp-state samples (absent = cycles).
 * Static strings. */
typedef struct report_words {
	int samples;	     /* 1 for NVIDIA samples */
	const char *unit;    /* "cycles" | "samples" */
	const char *stall;   /* "stall cycles" | "stall samples" */
	const char *latency; /* "wave latency" | "warp-state samples" (what totals.latency is) */
	const char *gain_of; /* "latency" | "all warp-state samples" (gain denominator) */
	const char *totals;  /* totals.latency in words, for "denominator" fields */
} report_words;
void report_words_of(const jv *doc, report_words *w);
/* The same words for a profile's unit. */
void report_words_for(prof_unit u, report_words *w);

/* Builds report.json. Never fails (absent inputs are listed under "missing"). */
jv *report_build(const report_inputs *in, const rules *r);
/* headlines.json: a few one-line findings an agent can branch on. */
jv *report_headlines(const jv *report);
/* The compact envelope data: headline, bound, the top `top` recommendations (short form),
 * counts, and the paths filled in by the caller. */
jv *report_summary(const jv *report, int top);

#endif
