/* diff: two analyses of a kernel (each a report.json, or a bubbles.json) compared class by
 * class, with a noise model and an optional CI gate. Each side is the stall profile
 * profile_from_json reads from its document (totals, classes, occupancy) plus the three things
 * only a report holds (diff_side).
 *
 * Units: class deltas are percentage points (pp) of each side's totals.stall (pct_of_stall
 * after - before) plus the raw stall-cycle delta; the total-stall delta is in pp of each side's
 * totals.latency (stall_pct_of_latency).
 * Targeted bubble: the class of the BEFORE side's rank-1 recommendation when it is a native
 * class, else the BEFORE side's largest stall class.
 * Noise floor: the run-to-run spread of class shares between dispatches of one capture
 * ("variation".max_spread_pp of either side, the larger), 0 when neither has one (said so).
 * Outcome of a delta d: "unchanged" if d is 0, "improved" if d < -floor, "regressed" if
 * d > floor, else "within_noise" (with floor 0 any change counts); "vanished" when the targeted
 * class has no entry on the after side.
 * Gate PCT: fails when the targeted bubble's pct_of_stall or the total stall_pct_of_latency
 * grew by more than max(PCT, noise floor) points. */
#ifndef FLYPROF_CORE_DIFF_H
#define FLYPROF_CORE_DIFF_H

#include "base/json/jv.h"
#include "model/profile.h"

/* One side: its stall profile (totals, the classes in the document's order, the occupancy
 * section) and what only a report.json holds. */
typedef struct diff_side {
	const stall_profile *p;
	const char *rank1_class; /* the rank-1 recommendation's class, or NULL (borrowed) */
	double spread_pp;	 /* variation.max_spread_pp, -1 when none */
	const char *bound;	 /* bound.bound, or NULL: decided from the profile (borrowed) */
} diff_side;
/* Fills a side from its document (strings borrowed from doc) and its profile (profile_from_json
 * of the same document). */
void diff_side_of(diff_side *s, const jv *doc, const stall_profile *p);
/* Builds the diff object (owned). Never fails: classes absent on one side count as 0. */
jv *diff_build_sides(const diff_side *before, const diff_side *after);
/* Applies the gate to a diff object: returns 1 when it fails and fills *reasons (owned array of
 * strings), 0 when it passes. Also records {"pct", "threshold_pp", "failed", "reasons"} under
 * the diff's "gate" key. */
int diff_gate(jv *diff, double pct, jv **reasons);
/* The variation object from the ranked stall profiles of several dispatches of one capture:
 * per class the spread (max - min) of its share of the stall in pp, and max_spread_pp. NULL
 * when n < 2. */
jv *diff_variation_profiles(const stall_profile *const *profiles, const char *const *ids, size_t n);

#endif
