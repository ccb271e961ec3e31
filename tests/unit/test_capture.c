/* The AMD capture backend's pure parts: invocation words, the automatic iteration range, the
 * exact kernel regex, counter passes that fit the hardware, derived counter metrics, and the
 * rocprofv3 CSV and recipe readers. */
#include "t.h"

#include "base/json/json_parse.h"
#include "core/backend/capture_amd.h"
#include "core/backend/capture_metrics.h"
#include "read/amd/recipes.h"
#include "read/amd/rocprof_csv.h"

#include <stdlib.h>
#include <string.h>

TEST(capture_split_words)
{
	fp_err e = FP_ERR_INIT;
	size_t n = 0;
	char **w = amd_split_words("A=1 python 'x y.py' \"a\\\"b\" c\\ d $(id) ;|&", &n, &e);
	CHECK(w != NULL);
	CHECK_INT(n, 7);
	CHECK_STR(w[0], "A=1");
	CHECK_STR(w[2], "x y.py");
	CHECK_STR(w[3], "a\"b");
	CHECK_STR(w[4], "c d");
	CHECK_STR(w[5], "$(id)");
	CHECK_STR(w[6], ";|&");
	CHECK(w[7] == NULL);
	amd_words_free(w);
	CHECK(amd_split_words("python 'open", &n, &e) == NULL);
	CHECK_INT(e.code, ERR_BAD_ARGS);
	fp_err_clear(&e);
}

TEST(capture_iter_range_and_regex)
{
	static const struct {
		long long calls;
		const char *want;
	} c[] = {{112, "[6, 8]"}, {14, "[6, 8]"}, {13, "[7, 13]"}, {3, "[2, 3]"},
		 {2, "[2]"},	  {1, "[1]"},	  {0, "[1]"}};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *r = amd_auto_iter_range(c[i].calls);
		CHECK_STR(r, c[i].want);
		free(r);
	}
	char *re = amd_exact_regex("a.b(c)_0");
	CHECK_STR(re, "^a\\.b\\(c\\)_0$");
	free(re);
}

TEST(capture_pmc_passes_fit_limits)
{
	fp_err e = FP_ERR_INIT;
	const char *cs = "[\"SQ_A\",\"SQ_B\",\"SQ_C\",\"TCC_A\",\"TCC_B\",\"TCC_C\",\"SQ_D\"]";
	jv *counters = json_parse(cs, strlen(cs), "t", &e);
	const char *ls = "{\"SQ\":2,\"TCC\":2,\"GRBM\":2}", *ps = "[\"GRBM_GUI_ACTIVE\"]";
	jv *limits = json_parse(ls, strlen(ls), "t", &e);
	jv *per = json_parse(ps, strlen(ps), "t", &e);
	CHECK(limits && per);
	jv *p = amd_pmc_passes(counters, limits, per);
	CHECK_INT(jv_len(p), 2);
	for (size_t i = 0; i < jv_len(p); i++) {
		CHECK_STR(jv_string(jv_at(jv_at(p, i), 0)), "GRBM_GUI_ACTIVE");
		int sq = 0, tcc = 0;
		for (size_t k = 0; k < jv_len(jv_at(p, i)); k++) {
			const char *c = jv_string(jv_at(jv_at(p, i), k));
			sq += strncmp(c, "SQ_", 3) == 0;
			tcc += strncmp(c, "TCC_", 4) == 0;
		}
		CHECK(sq <= 2 && tcc <= 2);
	}
	jv_free(p), jv_free(counters), jv_free(limits), jv_free(per);
}

TEST(capture_counter_metrics)
{
	fp_err e = FP_ERR_INIT;
	const char *raw_s = "{\"GRBM_GUI_ACTIVE\":8000,\"SQ_INSTS_VALU\":300,\"SQ_INSTS_MFMA\":100,"
			    "\"TCC_HIT_sum\":30,\"TCC_MISS_sum\":70,\"TCC_EA0_RDREQ_sum\":100,"
			    "\"TCC_EA0_RDREQ_32B_sum\":10,\"TCC_EA0_RDREQ_64B_sum\":40,"
			    "\"TCC_EA0_RDREQ_128B_sum\":50,\"TCC_EA0_WRREQ_sum\":20,"
			    "\"TCC_EA0_WRREQ_64B_sum\":5,\"SQ_LDS_BANK_CONFLICT\":5,"
			    "\"SQ_LDS_IDX_ACTIVE\":20,\"SQ_WAVES\":64}";
	jv *raw = json_parse(raw_s, strlen(raw_s), "t", &e);
	amd_agent a = {1, 8, 256, 1024, 2400};
	jv *m = amd_counter_metrics(raw, &a, NULL, "bf16", 1000);
	const jv *mem = jv_get(m, "memory");
	/* 32*10 + 64*40 + 128*50 = 9280; writes 32*15 + 64*5 = 800 */
	CHECK_NEAR(jv_num(jv_get(mem, "hbm_read_bytes")), 9280, 0.5);
	CHECK_NEAR(jv_num(jv_get(mem, "hbm_write_bytes")), 800, 0.5);
	CHECK_NEAR(jv_num(jv_get(mem, "achieved_hbm_gbs")), 10.08, 0.05);
	CHECK_NEAR(jv_num(jv_get(mem, "l2_hit_rate")), 30, 0.01);
	CHECK_NEAR(jv_num(jv_get(mem, "partial_32b_frac")), 0.1, 0.001);
	CHECK(t_truth(jv_get(mem, "calibrated")) == 0);
	CHECK(t_is_null(jv_get(mem, "pct_of_hbm_roof"))); /* no SoC: no roof */
	CHECK_NEAR(jv_num(jv_get(jv_get(m, "lds"), "bank_conflict_pct")), 25, 0.01);
	CHECK_NEAR(jv_num(jv_get(jv_get(m, "compute"), "mfma_inst_frac")), 0.25, 0.001);
	CHECK_NEAR(jv_num(jv_get(jv_get(m, "per_xcd"), "gui_active_cycles")), 1000, 0.01);
	jv_free(m);
	/* without topology nothing is normalised, and a missing denominator gives null */
	jv *empty = json_parse("{}", 2, "t", &e);
	m = amd_counter_metrics(empty, NULL, NULL, "bf16", 0);
	CHECK(t_is_null(jv_get(jv_get(m, "memory"), "l2_hit_rate")));
	CHECK(t_truth(jv_get(jv_get(m, "per_xcd"), "normalised")) == 0);
	jv_free(m), jv_free(empty), jv_free(raw);
}

TEST(capture_csv_reader)
{
	fp_err e = FP_ERR_INIT;
	csv_table t;
	const char *s = "\"Name\",\"Calls\"\n\"a, \"\"b\"\"\",3\r\nbare,x\n\n";
	CHECK_INT(csv_parse(s, strlen(s), "t", &t, &e), 0);
	CHECK_INT(t.nrows, 2);
	CHECK_STR(csv_at(&t, 0, 0), "a, \"b\"");
	int ok = 0;
	CHECK_NEAR(csv_num(&t, 0, csv_col(&t, "Calls"), &ok), 3, 0);
	CHECK(ok);
	csv_num(&t, 1, 1, &ok);
	CHECK(!ok);
	csv_release(&t);
	const char *bad = "\"a\",\"b\"\n\"x\ny";
	CHECK_INT(csv_parse(bad, strlen(bad), "t", &t, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 8);
	fp_err_clear(&e);
	const char *wide = "a\n1,2\n";
	CHECK_INT(csv_parse(wide, strlen(wide), "t", &t, &e), -1);
	fp_err_clear(&e);
}

TEST(capture_recipes_registry)
{
	fp_err e = FP_ERR_INIT;
	recipe_set s;
	CHECK_INT(recipes_load(&s, &e), 0);
	CHECK(s.n >= 11);
	const recipe *r = recipes_find(&s, "softmax_kernel", &e);
	CHECK(r && strcmp(r->name, "softmax") == 0);
	CHECK(recipes_find(&s, "rmsnrom", &e) == NULL);
	CHECK_INT(e.code, ERR_KERNEL_NOT_FOUND);
	CHECK_STR(jv_string(jv_at(jv_get(e.extra, "available"), 0)), "rmsnorm");
	fp_err_clear(&e);
	recipe_set_release(&s);
}
