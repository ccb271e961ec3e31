/* Kernel traits: what kind of kernel a trace shows, so that rules (rules.h "applies_to") only
 * recommend knobs of the kernel's own family. A preshuffle-GEMM builder parameter (lds_stage,
 * use_async_copy, preload) means nothing to a streaming row reduction (docs/facts-flydsl.md#knobs:
 * knobs belong to kernel families).
 *
 * Traits (the names rules may use; values are booleans or null when unknown):
 *   has_mfma         any executed v_mfma / v_smfma instruction (matrix-core kernel)
 *   has_lds_traffic  any executed LDS access (ds_* other than the cross-lane ds_swizzle /
 *                    ds_permute / ds_bpermute, which move no LDS data)
 *   has_lds_dma      any executed global->LDS load (buffer_load / global_load ... lds)
 *   has_loop         a backward branch executed at least KERNEL_TRAITS_LOOP_MIN times per wave
 *                    (its hits / the hits of the kernel's first instruction): a runtime loop
 *   kind             "matrix" (has_mfma) or "streaming" (no MFMA)
 *   backend          "amd" or "nvidia": bubbles "backend" (absent = amd)
 *   language         "flydsl", "triton" or "cuda": the knob vocabulary that fits. AMD traces
 *                    are FlyDSL kernels; on NVIDIA the extension of the source files that
 *                    hold most stall in bubbles.lines: .py = Triton, .cu/.cuh = CUDA; null
 *                    when no line has either (then rules of both languages apply)
 * On NVIDIA (trace unit "samples") has_mfma means any executed tensor-core instruction
 * (SASS HMMA, HGMMA, IMMA, DMMA, QMMA, OMMA, UTC*MMA), has_lds_traffic any shared-memory access
 * (LDS, STS, LDSM, ATOMS), and the evidence carries matrix_latency (the samples on tensor-core
 * instructions) which the bound verdict reads; has_loop is not judged from SASS (null).
 * plus "evidence" (the hit counts behind them) and "basis" (what they were computed from).
 *
 * From a trace every trait is known. From a `bubbles` object alone (no trace: a hand-made
 * fixture, an old bundle) has_mfma and has_lds_traffic come from mix.dynamic (the mfma and
 * lds_issue classes); has_lds_dma and has_loop are null, and a rule that names an unknown trait
 * still applies (absence of evidence does not suppress advice).
 * Ownership: the returned objects are owned by the caller. Nothing here fails. */
#ifndef FLYPROF_CORE_KERNEL_TRAITS_H
#define FLYPROF_CORE_KERNEL_TRAITS_H

#include "base/json/jv.h"
#include "model/trace.h"

/* Iterations per wave from which a backward branch counts as a loop. */
#define KERNEL_TRAITS_LOOP_MIN 2.0

/* The trait names rules may use, NULL terminated. */
extern const char *const kernel_trait_names[];
int kernel_trait_known(const char *name);

jv *kernel_traits_from_trace(const trace_dispatch *d);
jv *kernel_traits_from_bubbles(const jv *bubbles);
/* Sets "backend" and "language" on a traits object from the bubbles object. */
void kernel_traits_add_platform(jv *traits, const jv *bubbles);
/* 1 when `v` is an allowed value of trait `name` (backend: amd|nvidia; language:
 * flydsl|triton|cuda; other traits: any); kernel_trait_values says which, for errors. */
int kernel_trait_value_ok(const char *name, const jv *v);
const char *kernel_trait_values(const char *name);

#endif
