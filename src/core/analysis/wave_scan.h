/* The waves of one SIMD (wave_group) for the analyses that take them (exposed stall). They are
 * handed over by the AMD wave pass (core/amd/wave_pass.h), which defines the type: every wave
 * file is read once, in the bubbles pass; there is no separate scan any more. */
#ifndef FLYPROF_CORE_ANALYSIS_WAVE_SCAN_H
#define FLYPROF_CORE_ANALYSIS_WAVE_SCAN_H

#include "core/amd/wave_pass.h"

#endif
