/* `tile`: recommend BM/BN/BK for a GEMM shape and dtype on a SoC, GPU-free (src/core/hw/tile.h
 * has the model). Writes tile.json only when --out DIR is given or --bundle names a flyprof
 * bundle (or a new directory to create as one); a read-only input gets the envelope only. */
#include "cmd/cmds.h"

#include "base/xalloc.h"
#include "core/bundle/bundle.h"
#include "core/hw/dtype.h"
#include "core/hw/tile.h"

#include <stdlib.h>
#include <string.h>

#define TILE_MAX_CANDIDATES 50

const opt_spec tile_opts[] = {
    {"shape", 0, OPT_STR, "M,N[,K][,dtype]", NULL, NULL, 0,
     "GEMM problem C[M,N] = A[M,K] B[K,N]; without it no grid or problem intensity"},
    {"dtype", 0, OPT_STR, "DTYPE", NULL, NULL, 0,
     "input dtype: fp64 fp32 tf32 fp16 bf16 fp8 fp6 fp4 int8 and spellings such as f16, "
     "e4m3 (default: the --shape dtype, else bf16)"},
    {"out-dtype", 0, OPT_STR, "DTYPE", NULL, NULL, 0,
     "output dtype (default: the input dtype; bf16 for fp8/fp6/fp4/int8)"},
    {"bm", 0, OPT_INT, "N", NULL, NULL, 0, "fix the tile's M extent"},
    {"bn", 0, OPT_INT, "N", NULL, NULL, 0, "fix the tile's N extent"},
    {"bk", 0, OPT_INT, "N", NULL, NULL, 0, "fix the tile's K chunk"},
    {"buffers", 0, OPT_INT, "N", "2", NULL, 0, "LDS stages (2 = double buffering)"},
    {"wg-size", 0, OPT_INT, "N", "256", NULL, 0, "threads per workgroup assumed"},
    {"candidates", 0, OPT_INT, "N", "5", NULL, 0, "how many ranked candidates to list"},
    OPT_END,
};

static int int_opt(cmd_ctx *ctx, const char *name, int64_t dflt, int64_t lo, int64_t hi, int *out)
{
	int64_t v = opts_int(&ctx->opts, name, dflt);
	if (v < lo || v > hi) {
		fp_fail(&ctx->err, ERR_BAD_ARGS, "--%s %lld: must be between %lld and %lld", name,
			(long long)v, (long long)lo, (long long)hi);
		fp_err_extra(&ctx->err, "option", jv_str(name));
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int bad_dtype(cmd_ctx *ctx, const char *opt, const char *given)
{
	fp_fail(&ctx->err, ERR_BAD_ARGS, "--%s '%s': unknown dtype", opt, given);
	jv *av = jv_array();
	for (const char *const *n = dtype_names(); *n; n++)
		jv_push(av, jv_str(*n));
	fp_err_extra(&ctx->err, "available", av);
	return -1;
}

/* Shape, dtypes, buffers and workgroup size into p. */
static int read_problem(cmd_ctx *ctx, tile_problem *p)
{
	memset(p, 0, sizeof *p);
	const char *shape = opts_str(&ctx->opts, "shape");
	const char *shape_dtype = NULL;
	if (shape && tile_parse_shape(shape, p, &shape_dtype, &ctx->err) < 0)
		return -1;
	const char *given = opts_str(&ctx->opts, "dtype");
	p->dtype = given ? dtype_canon(given) : shape_dtype ? shape_dtype : "bf16";
	if (!p->dtype)
		return bad_dtype(ctx, "dtype", given);
	if (given && shape_dtype && strcmp(shape_dtype, p->dtype) != 0)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--dtype %s disagrees with --shape's %s",
			       p->dtype, shape_dtype);
	const char *out = opts_str(&ctx->opts, "out-dtype");
	p->out_dtype = out ? dtype_canon(out) : tile_default_out_dtype(p->dtype);
	if (!p->out_dtype)
		return bad_dtype(ctx, "out-dtype", out);
	if (int_opt(ctx, "buffers", 2, 1, 8, &p->buffers) < 0 ||
	    int_opt(ctx, "wg-size", 256, 32, 1024, &p->wg_size) < 0)
		return -1;
	return 0;
}

static jv *problem_json(const tile_problem *p)
{
	jv *o = jv_object();
	jv_set(o, "M", p->m ? jv_int(p->m) : jv_null());
	jv_set(o, "N", p->n ? jv_int(p->n) : jv_null());
	jv_set(o, "K", p->k ? jv_int(p->k) : jv_null());
	jv_set_str(o, "dtype", p->dtype);
	jv_set_str(o, "out_dtype", p->out_dtype);
	jv_set_int(o, "wg_size", p->wg_size);
	jv_set_int(o, "buffers", p->buffers);
	return o;
}

static jv *soc_json(const soc_spec *s, const char *dtype)
{
	jv *o = soc_to_json(s);
	const soc_rate *r = soc_matrix_rate(s, dtype);
	jv_set_round(o, "peak_matrix_tflops", soc_peak_flops(s, r) / 1e12, 1);
	jv_set_round(o, "ridge_flop_per_byte", soc_ridge(s, r), 2);
	if (r->peak_k)
		jv_set_int(o, "peak_rate_min_bk", r->peak_k);
	jv_set_str(o, "peak_ref", r->ref);
	jv_set_str(o, "lds_granule_ref", soc_ref(s, "lds_granule"));
	jv_set_str(o, "hbm_ref", soc_ref(s, "hbm_tbps"));
	return o;
}

/* Candidates matching the fixed --bm/--bn/--bk, best first, into data. */
static int recommend(cmd_ctx *ctx, const soc_spec *s, const tile_problem *p, int fix[3])
{
	int top;
	if (int_opt(ctx, "candidates", 5, 1, TILE_MAX_CANDIDATES, &top) < 0)
		return -1;
	tile_eval *all = xcalloc(80, sizeof *all);
	int considered = 0;
	int n = tile_recommend(s, p, all, 80, &considered, &ctx->err);
	if (n < 0) {
		free(all);
		return -1;
	}
	jv *cands = jv_array();
	int kept = 0;
	for (int i = 0; i < n; i++) {
		if ((fix[0] && all[i].bm != fix[0]) || (fix[1] && all[i].bn != fix[1]) ||
		    (fix[2] && all[i].bk != fix[2]))
			continue;
		if (kept == 0)
			jv_set(ctx->data, "recommended", tile_eval_json(&all[i]));
		if (kept++ < top)
			jv_push(cands, tile_eval_summary_json(&all[i]));
	}
	free(all);
	if (!kept)
		jv_set(ctx->data, "recommended", jv_null());
	jv_set(ctx->data, "candidates", cands);
	jv_set_int(ctx->data, "considered", considered);
	jv_set_int(ctx->data, "fitting", kept);
	if ((size_t)kept > jv_len(cands))
		ctx_truncated(ctx, "candidates", jv_len(cands), (size_t)kept, "--candidates N");
	if (!kept)
		ctx_warn(ctx, "no candidate tile fits %s with these constraints", s->product);
	return 0;
}

static int evaluate_fixed(cmd_ctx *ctx, const soc_spec *s, const tile_problem *p, int fix[3])
{
	tile_eval t;
	if (tile_evaluate(s, p, fix[0], fix[1], fix[2], &t, &ctx->err) < 0)
		return -1;
	if (t.rejected)
		ctx_warn(ctx, "%dx%dx%d: %s", t.bm, t.bn, t.bk, t.rejected);
	jv_set(ctx->data, "evaluated", tile_eval_json(&t));
	return 0;
}

/* tile.json into --out DIR, or into --bundle when it is (or becomes) a flyprof bundle. */
static int write_artifact(cmd_ctx *ctx)
{
	const char *out = opts_str(&ctx->opts, "out");
	const char *dir = out ? out : opts_str(&ctx->opts, "bundle");
	if (!dir)
		return 0;
	if (!out) {
		bundle probe;
		fp_err pe = FP_ERR_INIT;
		int opened = bundle_open(&probe, dir, &pe) == 0;
		int read_only = opened && probe.kind != BUNDLE_FLYPROF;
		bundle_close(&probe); /* also frees what a failed open left behind */
		fp_err_clear(&pe);
		if (read_only) {
			ctx_warn(ctx,
				 "tile.json not written: %s is a read-only input; use --out DIR",
				 dir);
			return 0;
		}
	}
	bundle *b = xcalloc(1, sizeof *b);
	if (bundle_open_write(b, dir, out ? "output" : "run", &ctx->err) < 0) {
		bundle_close(b);
		free(b);
		return -1;
	}
	ctx->bundle = b;
	ctx_set_bundle_path(ctx, b->dir);
	return bundle_write_json(b, "tile.json", ctx->data, &ctx->err);
}

int cmd_tile(cmd_ctx *ctx)
{
	tile_problem p;
	int fix[3] = {0, 0, 0};
	if (read_problem(ctx, &p) < 0)
		return -1;
	const char *names[3] = {"bm", "bn", "bk"};
	for (int i = 0; i < 3; i++)
		if (opts_given(&ctx->opts, names[i]) &&
		    int_opt(ctx, names[i], 0, 1, 4096, &fix[i]) < 0)
			return -1;
	const char *arch = opts_str(&ctx->opts, "arch");
	if (!arch) {
		arch = "gfx950";
		ctx_warn(ctx, "no --arch given: assuming gfx950 (MI350X)");
	}
	fp_err e = FP_ERR_INIT;
	soc_table *tbl = soc_table_load(&e);
	if (!tbl) {
		fp_err_move(&ctx->err, &e);
		return -1;
	}
	int rc = -1;
	const soc_spec *s = soc_find(tbl, arch, &ctx->err);
	if (s && !soc_matrix_rate(s, p.dtype)) {
		tile_eval dummy;
		tile_evaluate(s, &p, 64, 64, 64, &dummy, &ctx->err); /* fills the typed error */
		s = NULL;
	}
	if (s) {
		if (ctx->positional)
			jv_set_str(ctx->data, "kernel", ctx->positional);
		jv_set(ctx->data, "problem", problem_json(&p));
		jv_set(ctx->data, "soc", soc_json(s, p.dtype));
		jv_set_str(ctx->data, "confidence",
			   "model estimate (heuristic score, docs/tile.md)");
		rc = fix[0] && fix[1] && fix[2] ? evaluate_fixed(ctx, s, &p, fix)
						: recommend(ctx, s, &p, fix);
		if (rc == 0)
			rc = write_artifact(ctx);
	}
	soc_table_free(tbl);
	return rc;
}
