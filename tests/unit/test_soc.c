/* SoC tables (src/core/hw/soc.c): the embedded data/soc.json against hand-checked values of
 * docs/facts-hardware.md and docs/facts-nvidia.md, lookups and aliases, and rejection of
 * malformed tables. */
#include "t.h"

#include "base/err.h"
#include "core/hw/soc.h"

#include <stdlib.h>
#include <string.h>

static soc_table *load(void)
{
	fp_err e = FP_ERR_INIT;
	soc_table *t = soc_table_load(&e);
	if (!t)
		t_fail(__FILE__, __LINE__, "soc_table_load: %s", e.message ? e.message : "?");
	fp_err_clear(&e);
	return t;
}

TEST(soc_products_and_defaults)
{
	soc_table *t = load();
	if (!t)
		return;
	CHECK_INT(soc_count(t), 7);
	CHECK_STR(soc_lookup(t, "gfx950")->product, "MI350X");
	CHECK_STR(soc_lookup(t, "GFX942")->product, "MI300X");
	CHECK_STR(soc_lookup(t, "gfx942:sramecc+:xnack-")->arch, "gfx942");
	CHECK_STR(soc_lookup(t, "MI355X")->arch, "gfx950");
	CHECK_STR(soc_lookup(t, "mi355x")->product, "MI355X");
	CHECK_STR(soc_lookup(t, "MI325X")->arch, "gfx942");
	CHECK_STR(soc_lookup(t, "sm_90")->product, "H200");
	CHECK_STR(soc_lookup(t, "h100")->product, "H100");
	CHECK_STR(soc_lookup(t, "cdna4")->arch, "gfx950");
	CHECK(soc_lookup(t, "gfx1250") == NULL);
	CHECK(soc_lookup(t, "") == NULL);
	CHECK(soc_lookup(t, ":xnack-") == NULL);
	soc_table_free(t);
}

TEST(soc_per_cu_numbers_match_hardware_md)
{
	soc_table *t = load();
	if (!t)
		return;
	const soc_spec *a = soc_lookup(t, "gfx942"), *b = soc_lookup(t, "gfx950");
	CHECK_INT(a->cus, 304);
	CHECK_INT(b->cus, 256);
	CHECK_INT(a->lds_per_cu, 65536);
	CHECK_INT(b->lds_per_cu, 163840);
	/* The prior tool had both of these wrong: docs/facts-hardware.md#prior-tool-errors. */
	CHECK_INT(a->lds_granule, 512);	   /* 128 dwords */
	CHECK_INT(b->lds_granule, 1280);   /* 320 dwords, not 512 */
	CHECK_INT(a->vgprs_per_lane, 512); /* unified on gfx942 too */
	CHECK_INT(b->vgpr_granule, 8);
	CHECK_INT(a->max_waves_per_simd, 8);
	CHECK_INT(b->max_waves_per_cu, 32);
	CHECK_INT(b->lds_banks, 64);
	CHECK_INT(a->lds_banks, 32);
	CHECK_STR(soc_ref(b, "lds_granule"),
		  "docs/facts-hardware.md#lds LDS allocation granularity 320 dwords = 1280 B [V]");
	CHECK(strstr(soc_ref(b, "cus"), "docs/facts-hardware.md#products") != NULL);
	soc_table_free(t);
}

/* Peaks in TFLOP/s and ridge points from docs/facts-hardware.md#peak-tflops and
 * docs/facts-hardware.md#ridge. */
TEST(soc_peaks_and_ridges)
{
	soc_table *t = load();
	if (!t)
		return;
	struct {
		const char *soc, *dtype;
		int matrix;
		double tflops, ridge;
	} cases[] = {
	    {"MI300X", "bf16", 1, 1307.4, 246.7}, {"MI300X", "fp8", 1, 2614.9, 493.4},
	    {"MI300X", "tf32", 1, 653.7, 0},	  {"MI300X", "fp64", 1, 163.4, 0},
	    {"MI300X", "fp32", 0, 163.4, 0},	  {"MI325X", "bf16", 1, 1307.4, 217.9},
	    {"MI300A", "bf16", 1, 980.6, 185.0},  {"MI350X", "bf16", 1, 2306.9, 288.4},
	    {"MI350X", "fp4", 1, 9227.5, 1153.4}, {"MI355X", "bf16", 1, 2516.6, 314.6},
	    {"MI355X", "fp8", 1, 5033.2, 629.1},  {"MI355X", "fp64", 1, 78.6, 0},
	    {"MI355X", "fp32", 0, 157.3, 0},	  {"H100", "bf16", 1, 989.4, 295.3},
	    {"H100", "fp64", 1, 66.9, 0},	  {"H200", "fp8", 1, 1978.9, 412.3},
	    {"H200", "tf32", 1, 494.7, 0},	  {"H200", "fp32", 0, 66.9, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const soc_spec *s = soc_lookup(t, cases[i].soc);
		const soc_rate *r = cases[i].matrix ? soc_matrix_rate(s, cases[i].dtype)
						    : soc_vector_rate(s, cases[i].dtype);
		CHECK(r != NULL);
		if (!r)
			continue;
		CHECK_NEAR(soc_peak_flops(s, r) / 1e12, cases[i].tflops, 0.06);
		if (cases[i].ridge > 0)
			CHECK_NEAR(soc_ridge(s, r), cases[i].ridge, 0.1);
	}
	/* Units that do not exist (docs/facts-hardware.md#flops-per-clock, #prior-tool-errors). */
	CHECK(soc_matrix_rate(soc_lookup(t, "gfx950"), "tf32") == NULL);
	CHECK(soc_matrix_rate(soc_lookup(t, "gfx942"), "fp4") == NULL);
	CHECK(soc_matrix_rate(soc_lookup(t, "gfx942"), "fp6") == NULL);
	soc_table_free(t);
}

TEST(soc_find_unknown_lists_available)
{
	soc_table *t = load();
	if (!t)
		return;
	fp_err e = FP_ERR_INIT;
	CHECK(soc_find(t, "gfx1100", &e) == NULL);
	CHECK_INT(e.code, ERR_BAD_ARGS);
	const jv *av = jv_get(e.extra, "available");
	CHECK(av && jv_len(av) >= 7);
	CHECK_STR(jv_string(jv_at(av, 0)), "gfx942");
	fp_err_clear(&e);
	soc_table_free(t);
}

/* A minimal valid table with one product; tests break one thing at a time. */
static const char *mini(void)
{
	return "{\"socs\":[{\"arch\":\"gfxT\",\"vendor\":\"amd\",\"family\":\"T\","
	       "\"aliases\":[\"tt\"],"
	       "\"wave_size\":{\"v\":64,\"ref\":\"r\"},\"simds_per_cu\":{\"v\":4,\"ref\":\"r\"},"
	       "\"max_waves_per_simd\":{\"v\":8,\"ref\":\"r\"},"
	       "\"max_waves_per_cu\":{\"v\":32,\"ref\":\"r\"},"
	       "\"max_wg_size\":{\"v\":1024,\"ref\":\"r\"},\"max_wgs_per_cu\":{\"v\":16,\"ref\":"
	       "\"r\"},"
	       "\"vgprs_per_lane\":{\"v\":512,\"ref\":\"r\"},\"max_arch_vgprs\":{\"v\":256,\"ref\":"
	       "\"r\"},"
	       "\"max_agprs\":{\"v\":256,\"ref\":\"r\"},\"vgpr_granule\":{\"v\":8,\"ref\":\"r\"},"
	       "\"agpr_align\":{\"v\":4,\"ref\":\"r\"},\"max_sgprs_per_wave\":{\"v\":102,\"ref\":"
	       "\"r\"},"
	       "\"sgpr_granule\":{\"v\":16,\"ref\":\"r\"},"
	       "\"sgpr_wave_limits\":{\"v\":[[100,8],[200,7]],\"ref\":\"r\"},"
	       "\"lds_per_cu\":{\"v\":65536,\"ref\":\"r\"},\"lds_max_per_wg\":{\"v\":65536,\"ref\":"
	       "\"r\"},"
	       "\"lds_granule\":{\"v\":512,\"ref\":\"r\"},\"lds_reserved_per_wg\":{\"v\":0,\"ref\":"
	       "\"r\"},"
	       "\"lds_banks\":{\"v\":32,\"ref\":\"r\"},\"lds_bank_bytes\":{\"v\":4,\"ref\":\"r\"},"
	       "\"l2_bytes\":{\"v\":0,\"ref\":\"r\"},\"mall_bytes\":{\"v\":0,\"ref\":\"r\"},"
	       "\"matrix_rates\":{\"bf16\":{\"v\":2048,\"ref\":\"r\"}},"
	       "\"vector_rates\":{\"fp32\":{\"v\":256,\"ref\":\"r\"}},"
	       "\"products\":[{\"name\":\"PT\",\"default\":true,\"cus\":{\"v\":10,\"ref\":\"r\"},"
	       "\"xcds\":{\"v\":1,\"ref\":\"r\"},\"clock_mhz\":{\"v\":1000,\"ref\":\"r\"},"
	       "\"hbm_bytes\":{\"v\":0,\"ref\":\"r\"},\"hbm_tbps\":{\"v\":1,\"ref\":\"r\"}}]}]}";
}

/* Parses mini() with `from` replaced by `to`; returns the error code or -1 if it parsed. */
static int parse_edit(const char *from, const char *to, fp_err *e)
{
	const char *m = mini();
	const char *at = strstr(m, from);
	if (!at) {
		t_fail(__FILE__, __LINE__, "edit target '%s' not in the mini table", from);
		return -2;
	}
	size_t n = strlen(m) - strlen(from) + strlen(to) + 1;
	char *buf = malloc(n);
	snprintf(buf, n, "%.*s%s%s", (int)(at - m), m, to, at + strlen(from));
	soc_table *t = soc_table_parse(buf, strlen(buf), "soc-test.json", e);
	free(buf);
	int code = t ? -1 : (int)e->code;
	soc_table_free(t);
	return code;
}

TEST(soc_rejects_malformed_tables)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse_edit("\"PT\"", "\"PT\"", &e), -1); /* the baseline parses */
	fp_err_clear(&e);
	struct {
		const char *from, *to;
	} bad[] = {
	    {"{\"v\":64,\"ref\":\"r\"}", "{\"v\":64}"}, /* a number without a ref */
	    {"{\"v\":64,\"ref\":\"r\"}", "64"},		/* a bare number */
	    {"{\"v\":512,\"ref\":\"r\"},\"max_arch", "{\"v\":\"512\",\"ref\":\"r\"},\"max_arch"},
	    {"{\"v\":8,\"ref\":\"r\"},\"max_waves_per_cu",
	     "{\"v\":0,\"ref\":\"r\"},\"max_waves_per_cu"},
	    {"\"vendor\":\"amd\"", "\"vendor\":\"intel\""},
	    {"\"default\":true", "\"default\":false"},	      /* no default product */
	    {"[[100,8],[200,7]]", "[[200,8],[100,7]]"},	      /* thresholds not ascending */
	    {"\"bf16\":{", "\"bfloat\":{"},		      /* rate key not canonical */
	    {"\"aliases\":[\"tt\"]", "\"aliases\":[\"PT\"]"}, /* alias clashes with a product */
	    {"{\"v\":1024,\"ref\":\"r\"},\"max_wgs", "{\"v\":1024.5,\"ref\":\"r\"},\"max_wgs"},
	    {"\"products\":[", "\"products\":7,\"x\":["},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int code = parse_edit(bad[i].from, bad[i].to, &e);
		if (code != ERR_BAD_RULES)
			t_fail(__FILE__, __LINE__, "case %zu: code %d, expected BAD_RULES", i,
			       code);
		CHECK_STR(jv_string(jv_get(e.extra, "file")), "soc-test.json");
		fp_err_clear(&e);
	}
	/* JSON syntax errors keep the parser's byte offset. */
	soc_table *t = soc_table_parse("{\"socs\": [", 10, "broken.json", &e);
	CHECK(t == NULL);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK(jv_get(e.extra, "offset") != NULL);
	fp_err_clear(&e);
}

/* Traceability (docs/architecture.md#decision-hw-tables): every number of every entry cites an
 * anchor of a facts file under docs/. */
#define HW_FACTS "docs/facts-hardware.md#"
#define NV_FACTS "docs/facts-nvidia.md#"
static int refs_cite_hardware_md(const jv *obj)
{
	int bad = 0;
	for (size_t i = 0; jv_type_of(obj) == JV_OBJECT && i < jv_len(obj); i++) {
		const jv *f = jv_value_at(obj, i);
		if (jv_type_of(f) == JV_OBJECT && jv_get(f, "v")) {
			const char *ref = jv_string(jv_get(f, "ref"));
			if (!ref || (strncmp(ref, HW_FACTS, strlen(HW_FACTS)) != 0 &&
				     strncmp(ref, NV_FACTS, strlen(NV_FACTS)) != 0)) {
				t_fail(__FILE__, __LINE__, "%s: ref '%s'", jv_key_at(obj, i),
				       ref ? ref : "(none)");
				bad++;
			}
		} else if (jv_type_of(f) == JV_OBJECT) {
			bad += refs_cite_hardware_md(f); /* matrix_rates, vector_rates */
		}
	}
	return bad;
}

TEST(soc_every_number_cites_hardware_md)
{
	soc_table *t = load();
	if (!t)
		return;
	for (size_t i = 0; i < soc_count(t); i++) {
		CHECK_INT(refs_cite_hardware_md(soc_at(t, i)->arch_entry), 0);
		CHECK_INT(refs_cite_hardware_md(soc_at(t, i)->product_entry), 0);
	}
	soc_table_free(t);
}
