/* ncu_bubbles / ncu_bundle: the bubbles object from Nsight Compute exports, checked on the
 * hand-written fixture (values computed by hand in the comments) and on the recorded H200
 * samples (FLYPROF_SAMPLES) against sums over the classes and ncu's own rule text. */
#include "core/nvidia/ncu_bubbles.h"
#include "t.h"

#include "base/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/ncu/"

static void copy(const char *from, const char *dir, const char *name)
{
	fp_err e = FP_ERR_INIT;
	size_t len;
	char *buf = file_read_all(from, &len, &e);
	char *to = path_join(dir, name);
	CHECK(buf && file_write_atomic(to, buf, len, &e) == 0);
	free(buf);
	free(to);
	fp_err_clear(&e);
}

/* A bundle-like dir holding ncu/ with the fixture under the documented names. */
static const char *fixture_bundle(int with_corr)
{
	const char *b = t_tmpdir();
	char *ncu = path_join(b, "ncu");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(ncu, &e), 0);
	copy(FIX "tiny_sass.csv", ncu, "source_sass.csv");
	if (with_corr)
		copy(FIX "tiny_corr.csv", ncu, "source_correlated.csv");
	copy(FIX "tiny_details.csv", ncu, "details.csv");
	free(ncu);
	return b;
}

static const jv *find_by(const jv *arr, const char *key, const char *val)
{
	for (size_t i = 0; i < jv_len(arr); i++)
		if (jv_string(jv_get(jv_at(arr, i), key)) &&
		    strcmp(jv_string(jv_get(jv_at(arr, i), key)), val) == 0)
			return jv_at(arr, i);
	return NULL;
}

static int64_t geti(const jv *o, const char *k)
{
	return jv_i64(jv_get(o, k));
}

TEST(ncu_bubbles_fixture)
{
	const char *b = fixture_bundle(1);
	CHECK(ncu_bundle_has_exports(b));
	ncu_exports x;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_bundle_find(b, &x, &e), 0);
	CHECK(x.source_sass && x.source_correlated && x.details && !x.report);
	jv *w = jv_array(), *o = NULL;
	ncu_bubbles_params p = {2};
	ncu_bubbles_counts c;
	CHECK_INT(ncu_bubbles_from_exports(&x, &p, &o, &c, w, &e), 0);
	ncu_exports_release(&x);
	if (!o)
		return;
	const jv *t = jv_get(o, "totals");
	CHECK_STR(jv_string(jv_get(o, "unit")), "samples");
	CHECK_INT(geti(t, "instructions"), 4);
	CHECK_INT(geti(t, "executed_instructions"), 3); /* EXIT never ran */
	CHECK_INT(geti(t, "hits"), 192);		/* 3 x 64 */
	CHECK_INT(geti(t, "latency"), 47);		/* 10 + 30 + 7 + 0 */
	CHECK_INT(geti(t, "stall"), 42);		/* 47 - selected (4 + 1) */
	CHECK_INT(geti(t, "issue"), 5);
	CHECK_INT(geti(t, "not_issued"), 31); /* 6 + 20 + 5 */
	CHECK_INT(geti(t, "waves"), 4096);    /* 131,072 threads / 32 */
	CHECK_NEAR(jv_num(jv_get(t, "stall_pct_of_latency")), 89.36, 1e-9); /* 42/47 */
	const jv *cl = jv_get(o, "classes");
	CHECK_STR(jv_string(jv_get(jv_at(cl, 0), "class")), "long_scoreboard");
	CHECK_INT(geti(jv_at(cl, 0), "stall"), 25);
	CHECK_NEAR(jv_num(jv_get(jv_at(cl, 0), "pct_of_stall")), 59.52, 1e-9); /* 25/42 */
	CHECK_INT(geti(find_by(cl, "class", "wait"), "stall"), 10);
	CHECK_INT(geti(find_by(cl, "class", "wait"), "instructions"), 1); /* dominant of 0x1000 */
	CHECK_INT(geti(find_by(cl, "class", "selected"), "stall"), 0);
	CHECK_INT(geti(find_by(cl, "class", "selected"), "latency"), 5);
	CHECK_INT(geti(find_by(cl, "class", "unknown"), "stall"), 1);
	CHECK_STR(jv_string(jv_get(find_by(cl, "class", "barrier"), "normalized")),
		  "synchronization");
	const jv *h = jv_get(o, "hotspots");
	CHECK_INT(jv_len(h), 2);
	CHECK_INT(c.hotspots, 3);
	CHECK_STR(jv_string(jv_get(jv_at(h, 0), "vaddr")), "0x10");
	CHECK_INT(geti(jv_at(h, 0), "stall"), 29);
	CHECK_STR(jv_string(jv_get(jv_at(h, 0), "source")), "/src/k.py:7");
	const jv *l = jv_get(o, "lines");
	CHECK_STR(jv_string(jv_get(jv_at(l, 0), "source")), "/src/k.py:7");
	CHECK_INT(geti(jv_at(l, 0), "stall"), 36); /* 29 + 7 */
	CHECK_INT(geti(jv_at(l, 0), "instructions"), 2);
	CHECK_STR(jv_string(jv_get(jv_at(l, 1), "file")), "/src/lib, v2/helpers.py");
	CHECK_INT(geti(jv_at(l, 1), "line"), 12);
	CHECK_INT(c.lines, 3);
	const jv *wt = jv_get(o, "waits");
	CHECK_INT(c.waits, 2);
	CHECK_INT(geti(jv_get(jv_at(wt, 0), "split"), "memory"), 25);
	CHECK_INT(geti(jv_get(jv_at(wt, 1), "split"), "lds"), 1);
	CHECK_INT(jv_len(jv_get(jv_at(wt, 0), "producers")), 0);
	const jv *th = jv_get(jv_get(o, "occupancy"), "theoretical");
	CHECK_NEAR(jv_num(jv_get(th, "waves_per_simd")), 8, 1e-9); /* 32 warps / 4 */
	CHECK_STR(jv_string(jv_get(th, "limiter")), "registers");  /* tie 8 = 8: first listed */
	CHECK_NEAR(
	    jv_num(jv_get(jv_get(jv_get(jv_get(o, "occupancy"), "observed"), "per_simd"), "mean")),
	    7.5, 1e-9);
	CHECK_STR(jv_string(jv_get(jv_get(o, "dispatch"), "arch")), "sm_90");
	CHECK(jv_len(w) >= 1); /* the unknown stall column */
	jv_free(o);
	jv_free(w);
	fp_err_clear(&e);
}

TEST(ncu_bubbles_without_correlation_and_errors)
{
	const char *b = fixture_bundle(0);
	char *ncu = path_join(b, "ncu");
	jv *w = jv_array(), *o = NULL;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_bubbles_compute(ncu, NULL, &o, NULL, w, &e), 0);
	CHECK_INT(geti(jv_get(o, "unmapped"), "instructions"), 4);
	CHECK_INT(jv_len(jv_get(o, "lines")), 0);
	CHECK(jv_len(w) >= 2); /* no correlated export + unknown column */
	jv_free(o);
	jv_free(w);
	free(ncu);
	/* only the correlated export: it is the table and gives the lines */
	const char *co = t_tmpdir();
	copy(FIX "tiny_corr.csv", co, "source_correlated.csv");
	w = jv_array();
	CHECK_INT(ncu_bubbles_compute(co, NULL, &o, NULL, w, &e), 0);
	CHECK_INT(geti(jv_get(o, "totals"), "latency"), 47);
	CHECK_INT(geti(jv_get(o, "totals"), "stall"), 42);
	CHECK_INT(geti(jv_get(o, "unmapped"), "instructions"), 0);
	CHECK(t_is_null(jv_get(jv_get(o, "occupancy"), "theoretical")));
	jv_free(o);
	jv_free(w);
	const char *empty = t_tmpdir();
	CHECK(!ncu_bundle_has_exports(empty));
	ncu_exports x;
	CHECK_INT(ncu_bundle_find(empty, &x, &e), -1);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	fp_err_clear(&e);
	/* a malformed export is BAD_INPUT naming that file */
	const char *bad = t_tmpdir();
	copy(FIX "bad_count.csv", bad, "source_sass.csv");
	w = jv_array();
	CHECK_INT(ncu_bubbles_compute(bad, NULL, &o, NULL, w, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK(strstr(jv_string(jv_get(e.extra, "file")), "source_sass.csv") != NULL);
	jv_free(w);
	fp_err_clear(&e);
}

static const char *samples(void)
{
	const char *s = getenv("FLYPROF_SAMPLES");
	return s && *s ? s : NULL;
}

static void check_sums(const jv *o)
{
	const jv *t = jv_get(o, "totals");
	int64_t st = 0, lat = 0, nst = 0;
	const jv *cl = jv_get(o, "classes");
	for (size_t i = 0; i < jv_len(cl); i++) {
		st += geti(jv_at(cl, i), "stall");
		lat += geti(jv_at(cl, i), "latency");
		if (i)
			CHECK(geti(jv_at(cl, i), "stall") <= geti(jv_at(cl, i - 1), "stall"));
	}
	const jv *nm = jv_get(o, "normalized");
	for (size_t i = 0; i < jv_len(nm); i++)
		nst += geti(jv_at(nm, i), "stall");
	CHECK_INT(st, geti(t, "stall"));
	CHECK_INT(lat, geti(t, "latency"));
	CHECK_INT(nst, geti(t, "stall"));
}

TEST(ncu_bubbles_samples)
{
	if (!samples())
		SKIP("FLYPROF_SAMPLES is not set (the recorded Nsight Compute samples)");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/ncu-h200", samples());
	ncu_exports x;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_exports_find(dir, NULL, &x, &e), -1); /* cuda_* and triton_* */
	CHECK_INT(e.code, ERR_NO_MATCH);
	CHECK_INT(jv_len(jv_get(e.extra, "available")), 2);
	fp_err_clear(&e);
	CHECK_INT(ncu_exports_find(dir, "cuda", &x, &e), 0);
	jv *w = jv_array(), *o = NULL;
	ncu_bubbles_params p = {10};
	CHECK_INT(ncu_bubbles_from_exports(&x, &p, &o, NULL, w, &e), 0);
	ncu_exports_release(&x);
	if (!o)
		return;
	check_sums(o);
	const jv *t = jv_get(o, "totals");
	CHECK_INT(geti(t, "latency"), 41146); /* Σ All Samples (python csv module) */
	CHECK_INT(geti(t, "stall"), 40096);   /* minus Σ stall_selected = 1050 */
	CHECK_INT(geti(t, "not_issued"), 25657);
	CHECK_INT(geti(t, "executed_instructions"), 128);
	CHECK_INT(geti(t, "waves"), 65536); /* 2,097,152 threads / 32 */
	const jv *c0 = jv_at(jv_get(o, "classes"), 0);
	CHECK_STR(jv_string(jv_get(c0, "class")), "long_scoreboard");
	/* ncu's CPIStall rule: long scoreboard is "about 77.5% of the total average of 40.2
	 * cycles between issuing two instructions"; the samples give 31777 / 41146 = 77.23% */
	CHECK_NEAR(jv_num(jv_get(c0, "pct_of_latency")), 77.23, 1e-9);
	const jv *h0 = jv_at(jv_get(o, "hotspots"), 0);
	CHECK_STR(jv_string(jv_get(h0, "isa")), "FMNMX R0, R5, R0, !PT");
	CHECK_STR(jv_string(jv_get(h0, "source")), "/src/rowsoftmax/k.cu:9");
	CHECK_INT(geti(jv_at(jv_get(o, "lines"), 0), "stall"), 16048);
	CHECK_INT(geti(jv_get(o, "unmapped"), "instructions"), 0);
	CHECK_INT(jv_len(w), 0);
	const jv *cth = jv_get(jv_get(o, "occupancy"), "theoretical");
	CHECK_STR(jv_string(jv_get(cth, "limiter")), "wave_slots"); /* 8 blocks x 8 warps */
	CHECK_INT(geti(jv_get(cth, "model"), "waves_per_cu"), 64);
	jv_free(o);
	jv_free(w);

	CHECK_INT(ncu_exports_find(dir, "triton", &x, &e), 0);
	w = jv_array();
	CHECK_INT(ncu_bubbles_from_exports(&x, &p, &o, NULL, w, &e), 0);
	ncu_exports_release(&x);
	if (!o)
		return;
	check_sums(o);
	t = jv_get(o, "totals");
	CHECK_INT(geti(t, "latency"), 7551);
	CHECK_INT(geti(t, "stall"), 7042);
	CHECK_STR(jv_string(jv_get(jv_at(jv_get(o, "lines"), 0), "source")),
		  "/src/tritonsoftmax/tsm.py:7");
	CHECK_INT(geti(jv_at(jv_get(o, "lines"), 0), "stall"), 3274);
	const jv *th = jv_get(jv_get(o, "occupancy"), "theoretical");
	CHECK_STR(jv_string(jv_get(th, "limiter")), "registers");   /* 48 regs: 5 blocks */
	CHECK_NEAR(jv_num(jv_get(th, "waves_per_simd")), 10, 1e-9); /* 40 warps / 4 */
	/* flyprof's model (48 regs -> 1536 per warp -> 42 warps -> 5 blocks of 8) agrees */
	CHECK_INT(geti(jv_get(th, "model"), "waves_per_cu"), 40);
	CHECK(jv_is_true(jv_get(jv_get(th, "model"), "agrees_with_ncu")));
	jv_free(o);
	jv_free(w);
	fp_err_clear(&e);
}
