/* Observed occupancy from occupancy.json (docs/architecture.md#decision-occupancy; definition in
 * docs/bubbles.md).
 *
 * Events are grouped per (SE, CU) and walked in time order (at equal times, ends before
 * starts, so a wave replaced in the same cycle is not counted twice). A CU's window runs from
 * its first to its last event. Resident waves n(t) = starts - ends so far, never below 0 (an
 * end without a start — a wave resident before the trace began — is counted in
 * unmatched_ends and ignored).
 *   per_cu.peak   max n(t) over the traced CUs;
 *   per_cu.mean   sum over traced CUs of the integral of n(t) dt / sum of their windows;
 *   per_simd.*    the same per (SE, CU, SIMD) with the CU's window, mean divided over every
 *                 SIMD of the CU (SIMDs counted as max simd index seen in the file + 1).
 * "Traced CUs" are the (SE, CU) pairs that have wave files; with none, every CU in the file.
 * all_cus repeats per_cu over every CU of the traced SEs (a wider view of the same trace).
 * Only waves of the analysed kernel count: events whose kernel index "dispatches" names as
 * `kernel` (events of other kernels are counted in other_kernel_events); when no index carries
 * that name (or kernel is NULL), every event counts and kernel_filter is null. */
#ifndef FLYPROF_CORE_OCCUPANCY_OBSERVED_H
#define FLYPROF_CORE_OCCUPANCY_OBSERVED_H

#include "base/json/jv.h"
#include "read/amd/att_occupancy.h"
#include "core/amd/wave_agg.h"

/* Builds the "observed" object from the events (which it filters in place, keeping their
 * order: the walk goes through a sorted index). */
jv *occupancy_observed(att_occupancy *o, const wave_cu *cus, size_t n_cus, const char *kernel);

#endif
