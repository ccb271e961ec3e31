/* Kernel traits: what kind of kernel a trace shows, so that rules (rules.h "applies_to") only
 * recommend knobs of the kernel's own family. A preshuffle-GEMM builder parameter (lds_stage,
 * use_async_copy, preload) means nothing to a streaming row reduction (docs/facts-flydsl.md#knobs:
 * knobs belong to kernel families).
 *
 * The traits are a struct whose fields say what they hold on both vendors; each yes/no trait is
 * tri-state (yes, no, unknown). kernel_trait_table is the one place that maps a field to its
 * external name: the name rules.json's applies_to uses and the key report.json's kernel_traits
 * object carries (the names predate NVIDIA and stay as they are):
 *   has_mfma         has_matrix_ops: any executed matrix instruction. AMD v_mfma / v_smfma;
 *                    NVIDIA tensor-core SASS (HMMA, HGMMA, IMMA, DMMA, QMMA, OMMA, UTC*MMA)
 *   has_lds_traffic  has_shared_mem_traffic: any executed LDS / shared-memory access. AMD ds_*
 *                    other than the cross-lane ds_swizzle / ds_permute / ds_bpermute, which move
 *                    no LDS data; NVIDIA LDS, STS, LDSM, ATOMS
 *   has_lds_dma      has_shared_mem_dma: any executed global->LDS load (buffer_load /
 *                    global_load ... lds); not judged from SASS (unknown)
 *   has_loop         has_loop: a backward branch executed at least KERNEL_TRAITS_LOOP_MIN times
 *                    per wave (its hits / the hits of the kernel's first instruction): a
 *                    runtime loop; not judged from SASS (unknown)
 *   kind             "matrix" (has_matrix_ops) or "streaming" (none); unknown when that is
 *   backend          vendor: "amd" or "nvidia" (the stall profile's vendor: bubbles
 *                    "backend", absent = amd)
 *   language         "flydsl", "triton" or "cuda": the knob vocabulary that fits. AMD traces
 *                    are FlyDSL kernels; on NVIDIA the extension of the source files that
 *                    hold most stall in the profile's lines (bubbles.lines): .py = Triton,
 *                    .cu/.cuh = CUDA; unknown when no line has either (then rules of both
 *                    languages apply)
 * report.json adds "evidence" (the hit counts behind them; on NVIDIA matrix_latency, the samples
 * on tensor-core instructions, which the bound verdict reads) and "basis" (what they were
 * computed from), then backend, language and "platform_basis".
 *
 * From a trace every trait is known. From a stall profile alone (no trace: one read back from a
 * hand-made fixture or an old bundle's bubbles object) has_matrix_ops and has_shared_mem_traffic
 * come from the dynamic mix (the mfma and lds_issue classes' executed instructions,
 * profile_mix_hits); has_shared_mem_dma and has_loop are unknown, and a rule that
 * names an unknown trait still applies (absence of evidence does not suppress advice).
 * Nothing here fails; kernel_traits owns nothing. */
#ifndef FLYPROF_CORE_KERNEL_TRAITS_H
#define FLYPROF_CORE_KERNEL_TRAITS_H

#include "base/json/jv.h"
#include "model/classes.h"
#include "model/profile.h"
#include "model/trace.h"

#include <stdint.h>

/* Iterations per wave from which a backward branch counts as a loop. */
#define KERNEL_TRAITS_LOOP_MIN 2.0

typedef enum { TRI_UNKNOWN = -1, TRI_NO = 0, TRI_YES = 1 } tristate;

typedef enum { LANG_UNKNOWN, LANG_FLYDSL, LANG_TRITON, LANG_CUDA } kernel_language;

/* What the traits were computed from. */
typedef enum { TRAITS_FROM_MIX, TRAITS_FROM_TRACE, TRAITS_FROM_SASS } traits_basis;

/* The hit counts behind the traits; which are meaningful depends on the basis. */
typedef struct traits_evidence {
	int64_t matrix_hits, shared_hits;	   /* trace and SASS */
	int64_t matrix_latency;			   /* SASS: samples on tensor-core instructions */
	int64_t shared_dma_hits, loop_branch_hits; /* trace */
	int64_t entry_hits;			   /* trace: the first instruction's hits */
	double loop_iterations_per_wave;	   /* trace */
	double mix_matrix, mix_lds_issue;	   /* mix: mix.dynamic mfma and lds_issue */
} traits_evidence;

typedef struct kernel_traits {
	tristate has_matrix_ops, has_shared_mem_traffic, has_shared_mem_dma, has_loop;
	traits_basis basis;
	traits_evidence evidence;
	/* Set by kernel_traits_add_platform; until then backend and language are unknown. */
	int platform_known;
	vendor_id vendor;
	kernel_language language;
} kernel_traits;

/* A trait's value as rules compare it: unknown, a boolean or a (static) string. */
typedef enum { TRAIT_UNKNOWN, TRAIT_BOOL, TRAIT_STR } trait_kind;
typedef struct trait_value {
	trait_kind kind;
	int b;
	const char *s;
} trait_value;

/* One row per trait: its external name, how to read it, the values a rule may ask for. */
typedef struct kernel_trait_def {
	const char *name; /* rules.json applies_to and report.json kernel_traits key */
	trait_value (*get)(const kernel_traits *t);
	const char *const *allowed; /* allowed strings, NULL terminated; NULL: any bool / string */
	const char *values;	    /* the allowed values in words (for errors) */
	int platform;		    /* set by kernel_traits_add_platform */
} kernel_trait_def;

/* NULL-terminated (name == NULL). */
extern const kernel_trait_def kernel_trait_table[];

/* Every trait unknown, basis mix, no platform. */
void kernel_traits_init(kernel_traits *t);
void kernel_traits_from_trace(const trace_dispatch *d, kernel_traits *t);
void kernel_traits_from_profile(const stall_profile *p, kernel_traits *t);
/* Sets vendor and language from the profile (its vendor, the sources of its lines). */
void kernel_traits_add_platform(kernel_traits *t, const stall_profile *p);
/* The report.json kernel_traits object (owned by the caller). */
jv *kernel_traits_to_jv(const kernel_traits *t);

/* The row of trait `name`, or NULL. */
const kernel_trait_def *kernel_trait_find(const char *name);
int kernel_trait_known(const char *name);
/* The value of trait `name` of t (unknown for an unknown name or t NULL). */
trait_value kernel_trait_get(const kernel_traits *t, const char *name);
/* 1 when both are known and equal (same kind and value). */
int trait_value_equal(trait_value a, trait_value b);
/* 1 when `v` is an allowed value of trait `name` (backend: amd|nvidia; language:
 * flydsl|triton|cuda; other traits: any boolean or string); kernel_trait_values says which,
 * for errors. */
int kernel_trait_value_ok(const char *name, trait_value v);
const char *kernel_trait_values(const char *name);

#endif
