/* The GPU-free tile advisor for GEMM-like kernels C[M,N] = A[M,K] x B[K,N]
 * (docs/architecture.md#commands `tile`). For a BM x BN output tile with a BK chunk, `buffers` LDS
 * stages and a workgroup of wg_size threads it estimates (all figures are model estimates, labelled
 * as such in JSON):
 *
 *   LDS       (BM*BK + BK*BN) * bytes(dtype) * buffers, rounded to the SoC's allocation
 *             granule (512 B gfx942, 1280 B gfx950, docs/facts-hardware.md#lds)
 *   VGPRs     accumulators ceil(BM*BN / wg_size) (one fp32/i32 per output element per
 *             thread; counted as AGPRs on AMD, docs/facts-hardware.md#prior-tool-errors) + operands
 *             ceil((BM*BK + BK*BN) * bytes / 4 / wg_size) + 16 for addresses and loop state
 *   occupancy occ_theoretical on those resources (SGPRs not modelled)
 *   intensity tile_ai = 2*BM*BN*K / ((BM+BN)*K*b + BM*BN*b_out): FLOP per byte a WG moves
 *             when nothing is reused between WGs; problem_ai = 2*M*N*K / ((M*K+K*N)*b +
 *             M*N*b_out): every byte moved once (perfect reuse)
 *   regime    vs the HBM ridge of the dtype: compute-bound if tile_ai >= ridge, memory-bound
 *             if problem_ai < ridge, otherwise cache-dependent (compute-bound only when the
 *             L2/MALL supplies the reuse between WGs)
 *   grid      tiles = ceil(M/BM)*ceil(N/BN); balance = tiles / (ceil(tiles/CUs) * CUs),
 *             the share of CU time doing work when every tile costs the same; underfilled
 *             when tiles < CUs
 *
 * Score of a candidate (0..100, heuristic, documented in docs/tile.md):
 *   100 * (0.40 * balance + 0.35 * min(1, tile_ai / ridge) + 0.25 * min(1, wgs_per_cu / 2))
 * Candidates that do not fit (LDS over the per-WG maximum, not even one WG resident), use a
 * BK below the dtype's peak-rate MFMA K, or a BK above the problem's K are discarded. */
#ifndef FLYPROF_CORE_TILE_H
#define FLYPROF_CORE_TILE_H

#include "base/err.h"
#include "base/json/jv.h"
#include "core/hw/occupancy.h"
#include "core/hw/soc.h"

#include <stdint.h>

typedef struct tile_problem {
	int64_t m, n, k;       /* 0 = not given */
	const char *dtype;     /* canonical input dtype (static string from dtype_canon) */
	const char *out_dtype; /* canonical output dtype */
	int wg_size;	       /* threads per workgroup assumed (default 256) */
	int buffers;	       /* LDS stages (default 2: double buffering) */
} tile_problem;

typedef struct tile_eval {
	int bm, bn, bk, buffers;
	int64_t lds_bytes, lds_alloc;
	int lds_ok;
	int vgpr_acc, vgpr_operand, vgpr_overhead, vgpr_total;
	occ_result occ;
	double tile_ai, problem_ai, ridge; /* problem_ai 0 when the shape is incomplete */
	/* "compute-bound", "cache-dependent", "memory-bound", or "tile-below-ridge" when K is
	 * unknown and the tile alone does not reach the ridge */
	const char *regime;
	int64_t tiles;	/* 0 when M or N is unknown */
	double balance; /* 1 when M or N is unknown */
	int64_t rounds, tail_tiles;
	const char *grid_verdict; /* "balanced", "tail", "underfilled", "unknown" */
	int split_k_hint;	  /* split-K factor that would fill the CUs (underfilled), else 0 */
	double score;
	const char *rejected; /* why a candidate was discarded, NULL if kept */
} tile_eval;

/* Parses "M,N[,K][,dtype]" (also "MxNxK"). A trailing dtype token is canonicalised into
 * *dtype_out (NULL if none). Malformed text is BAD_ARGS. */
int tile_parse_shape(const char *text, tile_problem *p, const char **dtype_out, fp_err *e);
/* Default output dtype for an input dtype: fp8/fp6/fp4/int8 -> bf16 (low-precision GEMMs
 * usually write a dequantised 16-bit result; override with --out-dtype), others -> itself. */
const char *tile_default_out_dtype(const char *dtype);
/* Evaluates one tile. Fails (BAD_ARGS) only when the SoC has no matrix rate for the dtype. */
int tile_evaluate(const soc_spec *s, const tile_problem *p, int bm, int bn, int bk, tile_eval *out,
		  fp_err *e);
/* Enumerates BM, BN in {32,64,128,256} and BK in {16,...,256}, keeps the ones that fit,
 * sorts by score (then larger BM*BN, then smaller BK) and returns up to max_out of them in
 * out[]; *n_considered receives how many were evaluated. Returns the number kept (0 when
 * nothing fits) or -1 with e filled. */
int tile_recommend(const soc_spec *s, const tile_problem *p, tile_eval *out, int max_out,
		   int *n_considered, fp_err *e);
/* The evaluation as an envelope object. */
jv *tile_eval_json(const tile_eval *t);
/* One line of a candidate list: tile "BMxBNxBK", LDS, waves per CU, limiter, intensity,
 * regime, grid verdict and score. */
jv *tile_eval_summary_json(const tile_eval *t);

#endif
