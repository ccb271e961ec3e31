/* The tile advisor (formulas in tile.h). */
#include "core/hw/tile.h"

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/hw/dtype.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VGPR_OVERHEAD 16 /* addresses, loop counters, LDS offsets: the prior tool's figure */

static int64_t ceil_div(int64_t a, int64_t b)
{
	return b > 0 ? (a + b - 1) / b : 0;
}

static int bad_shape(fp_err *e, const char *text, const char *why)
{
	fp_fail(e, ERR_BAD_ARGS, "--shape '%s': %s (expected M,N[,K][,dtype], e.g. 4096,4096,4096)",
		text, why);
	fp_err_extra(e, "option", jv_str("shape"));
	return -1;
}

int tile_parse_shape(const char *text, tile_problem *p, const char **dtype_out, fp_err *e)
{
	int64_t dims[3] = {0, 0, 0};
	int nd = 0;
	*dtype_out = NULL;
	if (!text || !*text)
		return bad_shape(e, text ? text : "", "empty");
	char *copy = xstrdup(text);
	/* "4096x4096x512": an x between digits separates dimensions ("mxfp4" keeps its x). */
	for (char *c = copy + 1; *c; c++)
		if ((*c == 'x' || *c == 'X') && isdigit((unsigned char)c[-1]) &&
		    isdigit((unsigned char)c[1]))
			*c = ',';
	int rc = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*dtype_out) {
			rc = bad_shape(e, text, "nothing may follow the dtype");
		} else if (isdigit((unsigned char)tok[0])) {
			char *end;
			errno = 0;
			long long v = strtoll(tok, &end, 10);
			if (*end || errno || v <= 0 || v > (1LL << 40))
				rc = bad_shape(e, text,
					       "dimensions are positive integers up to 2^40");
			else if (nd == 3)
				rc = bad_shape(e, text, "at most three dimensions");
			else
				dims[nd++] = v;
		} else if (!(*dtype_out = dtype_canon(tok))) {
			rc = bad_shape(e, text, "unknown token (not a number or a dtype)");
		}
	}
	free(copy);
	if (rc == 0 && nd < 2)
		rc = bad_shape(e, text, "M and N are required");
	if (rc == 0) {
		p->m = dims[0];
		p->n = dims[1];
		p->k = dims[2];
	}
	return rc;
}

const char *tile_default_out_dtype(const char *dtype)
{
	if (!dtype)
		return "bf16";
	if (!strcmp(dtype, "fp8") || !strcmp(dtype, "fp6") || !strcmp(dtype, "fp4") ||
	    !strcmp(dtype, "int8"))
		return "bf16";
	return dtype;
}

/* Intensities of tile.h. K unknown: the K-independent limit of tile_ai (output traffic
 * amortised to nothing) and no problem_ai. */
static void intensity(const tile_problem *p, tile_eval *t, double b, double b_out)
{
	double bm = t->bm, bn = t->bn;
	if (p->k > 0) {
		double k = (double)p->k;
		t->tile_ai = 2 * bm * bn * k / ((bm + bn) * k * b + bm * bn * b_out);
	} else {
		t->tile_ai = 2 * bm * bn / ((bm + bn) * b);
	}
	if (p->m > 0 && p->n > 0 && p->k > 0) {
		double m = (double)p->m, n = (double)p->n, k = (double)p->k;
		t->problem_ai = 2 * m * n * k / ((m * k + k * n) * b + m * n * b_out);
	}
	if (t->tile_ai >= t->ridge)
		t->regime = "compute-bound";
	else if (t->problem_ai > 0 && t->problem_ai < t->ridge)
		t->regime = "memory-bound";
	else if (t->problem_ai > 0)
		t->regime = "cache-dependent";
	else
		t->regime = "tile-below-ridge"; /* K unknown: only the no-reuse bound is known */
}

static void grid(const soc_spec *s, const tile_problem *p, tile_eval *t)
{
	t->balance = 1;
	t->grid_verdict = "unknown";
	if (p->m <= 0 || p->n <= 0)
		return;
	t->tiles = ceil_div(p->m, t->bm) * ceil_div(p->n, t->bn);
	t->rounds = ceil_div(t->tiles, s->cus);
	t->tail_tiles = t->tiles % s->cus;
	t->balance = (double)t->tiles / ((double)t->rounds * s->cus);
	if (t->tiles < s->cus) {
		t->grid_verdict = "underfilled";
		if (p->k > 0) {
			int64_t f = ceil_div(s->cus, t->tiles);
			int64_t kmax = p->k / (t->bk > 0 ? t->bk : 1);
			t->split_k_hint = (int)(f < kmax ? f : kmax);
			if (t->split_k_hint < 2)
				t->split_k_hint = 0;
		}
	} else {
		t->grid_verdict = t->balance >= 0.95 ? "balanced" : "tail";
	}
}

static void resources(const soc_spec *s, const tile_problem *p, tile_eval *t, double b)
{
	int64_t elems = (int64_t)t->bm * t->bk + (int64_t)t->bk * t->bn;
	t->lds_bytes = (int64_t)ceil((double)elems * b * t->buffers);
	t->lds_alloc = occ_lds_alloc(s, t->lds_bytes);
	t->lds_ok = t->lds_bytes <= s->lds_max_per_wg;
	t->vgpr_acc = (int)ceil_div((int64_t)t->bm * t->bn, p->wg_size);
	t->vgpr_operand = (int)ceil((double)elems * b / 4.0 / p->wg_size);
	t->vgpr_overhead = VGPR_OVERHEAD;
	t->vgpr_total = t->vgpr_acc + t->vgpr_operand + t->vgpr_overhead;
	trace_resources r = {0};
	if (s->vendor == SOC_AMD) {
		r.vgpr = t->vgpr_operand + t->vgpr_overhead;
		r.agpr = t->vgpr_acc;
	} else {
		r.vgpr = t->vgpr_total;
		r.agpr = 0;
	}
	r.sgpr = -1;
	r.lds_bytes = t->lds_bytes;
	r.wg_size = p->wg_size;
	r.wave_size = s->wave_size;
	r.source = "tile_model";
	occ_theoretical(s, &r, &t->occ);
}

int tile_evaluate(const soc_spec *s, const tile_problem *p, int bm, int bn, int bk, tile_eval *t,
		  fp_err *e)
{
	memset(t, 0, sizeof *t);
	const soc_rate *rate = soc_matrix_rate(s, p->dtype);
	if (!rate) {
		fp_fail(e, ERR_BAD_ARGS, "%s (%s) has no %s matrix unit", s->product, s->arch,
			p->dtype);
		jv *av = jv_array();
		for (size_t i = 0; i < s->n_matrix; i++)
			jv_push(av, jv_str(s->matrix[i].dtype));
		fp_err_extra(e, "available", av);
		return -1;
	}
	t->bm = bm;
	t->bn = bn;
	t->bk = bk;
	t->buffers = p->buffers;
	t->ridge = soc_ridge(s, rate);
	double b = dtype_bytes(p->dtype), b_out = dtype_bytes(p->out_dtype);
	resources(s, p, t, b);
	intensity(p, t, b, b_out);
	grid(s, p, t);
	double ai_share = t->ridge > 0 ? fmin(1.0, t->tile_ai / t->ridge) : 1.0;
	t->score =
	    100 * (0.40 * t->balance + 0.35 * ai_share + 0.25 * fmin(1.0, t->occ.wgs_per_cu / 2.0));
	if (!t->lds_ok)
		t->rejected = "LDS over the per-workgroup maximum";
	else if (t->occ.wgs_per_cu < 1)
		t->rejected = "not even one workgroup fits";
	else if (rate->peak_k && bk < rate->peak_k)
		t->rejected = "BK below the K of the peak-rate matrix instruction";
	else if (p->k > 0 && bk > p->k)
		t->rejected = "BK larger than the problem's K";
	return 0;
}

static int cmp_eval(const void *pa, const void *pb)
{
	const tile_eval *a = pa, *b = pb;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	long long sa = (long long)a->bm * a->bn, sb = (long long)b->bm * b->bn;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->bk != b->bk)
		return a->bk < b->bk ? -1 : 1;
	return a->bm < b->bm ? -1 : a->bm > b->bm;
}

int tile_recommend(const soc_spec *s, const tile_problem *p, tile_eval *out, int max_out,
		   int *n_considered, fp_err *e)
{
	static const int mn[] = {32, 64, 128, 256};
	static const int ks[] = {16, 32, 64, 128, 256};
	enum { N_ALL = 4 * 4 * 5 };
	tile_eval *all = xcalloc(N_ALL, sizeof *all);
	int kept = 0, seen = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			for (int k = 0; k < 5; k++) {
				tile_eval t;
				if (tile_evaluate(s, p, mn[i], mn[j], ks[k], &t, e) < 0) {
					free(all);
					return -1;
				}
				seen++;
				if (!t.rejected)
					all[kept++] = t;
			}
	qsort(all, (size_t)kept, sizeof *all, cmp_eval);
	int n = kept < max_out ? kept : max_out;
	memcpy(out, all, (size_t)n * sizeof *out);
	free(all);
	if (n_considered)
		*n_considered = seen;
	return n;
}

jv *tile_eval_json(const tile_eval *t)
{
	jv *o = jv_object();
	jv *tile = jv_set(o, "tile", jv_object());
	jv_set_int(tile, "BM", t->bm);
	jv_set_int(tile, "BN", t->bn);
	jv_set_int(tile, "BK", t->bk);
	jv_set_int(tile, "buffers", t->buffers);
	jv *lds = jv_set(o, "lds", jv_object());
	jv_set_int(lds, "bytes", t->lds_bytes);
	jv_set_int(lds, "allocated_bytes", t->lds_alloc);
	jv_set_bool(lds, "fits", t->lds_ok);
	jv *v = jv_set(o, "vgpr_estimate", jv_object());
	jv_set_int(v, "accumulators", t->vgpr_acc);
	jv_set_int(v, "operands", t->vgpr_operand);
	jv_set_int(v, "overhead", t->vgpr_overhead);
	jv_set_int(v, "total_per_thread", t->vgpr_total);
	jv_set(o, "occupancy", occ_to_json(&t->occ));
	jv *rf = jv_set(o, "roofline", jv_object());
	jv_set_round(rf, "tile_ai_flop_per_byte", t->tile_ai, 2);
	if (t->problem_ai > 0)
		jv_set_round(rf, "problem_ai_flop_per_byte", t->problem_ai, 2);
	else
		jv_set(rf, "problem_ai_flop_per_byte", jv_null());
	jv_set_round(rf, "ridge_flop_per_byte", t->ridge, 2);
	jv_set_str(rf, "regime", t->regime);
	jv *g = jv_set(o, "grid", jv_object());
	jv_set_str(g, "verdict", t->grid_verdict);
	if (t->tiles > 0) {
		jv_set_int(g, "tiles", t->tiles);
		jv_set_int(g, "rounds_per_cu", t->rounds);
		jv_set_int(g, "tail_tiles", t->tail_tiles);
		jv_set_round(g, "balance_pct_of_cu_time", 100 * t->balance, 1);
		if (t->split_k_hint)
			jv_set_int(g, "split_k_to_fill", t->split_k_hint);
	}
	jv_set_round(o, "score", t->score, 2);
	if (t->rejected)
		jv_set_str(o, "rejected", t->rejected);
	return o;
}

jv *tile_eval_summary_json(const tile_eval *t)
{
	jv *o = jv_object();
	jv_set(o, "tile", jv_strf("%dx%dx%d", t->bm, t->bn, t->bk));
	jv_set_int(o, "lds_allocated_bytes", t->lds_alloc);
	jv_set_int(o, "vgpr_total_per_thread", t->vgpr_total);
	jv_set_int(o, "waves_per_cu", t->occ.subgroups_per_cu);
	jv_set_str(o, "limiter", t->occ.limiter ? t->occ.limiter : "");
	jv_set_round(o, "tile_ai_flop_per_byte", t->tile_ai, 2);
	jv_set_str(o, "regime", t->regime);
	jv_set_str(o, "grid", t->grid_verdict);
	jv_set_round(o, "score", t->score, 2);
	return o;
}
