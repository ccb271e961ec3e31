/* Wave-state shares (docs/architecture.md#decision-wave-states). The shares come from the wave
 * timelines (wave_agg): state cycles summed over every traced wave, divided by the sum of all
 * timeline cycles (the named denominator). wstates<k>.json, when present, is cross-checked: its
 * time integral (waves in state k x cycles) must equal the timeline cycles of state k; a difference
 * is a warning. A missing wstates file is reported in "wstates" (and warned about only when the
 * timelines do have cycles in that state). Malformed wstates files are BAD_INPUT. */
#ifndef FLYPROF_CORE_WAVE_STATES_H
#define FLYPROF_CORE_WAVE_STATES_H

#include "base/err.h"
#include "base/json/jv.h"
#include "core/amd/wave_agg.h"

/* Returns the wave_states object, or NULL with e set (BAD_INPUT). */
jv *wave_states_build(const wave_agg *a, const char *dir, jv *warnings, fp_err *e);

#endif
