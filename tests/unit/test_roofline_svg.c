/* The roofline picture: the classical roofline when the report has FLOPs and a peak, the
 * bandwidth picture for a kernel without FLOPs, nothing without the figures. */
#include "t.h"

#include "base/json/json_parse.h"
#include "out/roofline_svg.h"

static jv *parse(const char *s)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(s, strlen(s), "test", &e);
	CHECK(v != NULL);
	fp_err_clear(&e);
	return v;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

TEST(roofline_svg_streaming_kernel_gets_the_bandwidth_picture)
{
	/* docs/report.md's vec_add: 122.9 MB in 18.4 us = 6.67 TB/s of 8 TB/s */
	jv *r = parse("{\"kind\":\"estimate\",\"achieved_tbps\":6.671,\"hbm_peak_tbps\":8,"
		      "\"pct_of_hbm_peak\":83.4,\"verdict\":\"near_hbm_roof\",\"flops\":0,"
		      "\"arithmetic_intensity\":0,\"peak_flops\":null}");
	strbuf sb = STRBUF_INIT;
	CHECK_INT(roofline_svg(r, "vec_add<&>", &sb), 0);
	const char *s = sb_str(&sb);
	CHECK(strncmp(s, "<svg ", 5) == 0 && strstr(s, "</svg>") != NULL);
	CHECK(strstr(s, "achieved 6.67 TB/s = 83.4% of peak") != NULL);
	CHECK(strstr(s, "near_hbm_roof") != NULL);
	CHECK(strstr(s, "vec_add&lt;&amp;&gt;") != NULL); /* the kernel name is escaped */
	CHECK(strstr(s, "estimate") != NULL);
	CHECK_INT(count(s, "<circle"), 0);
	sb_release(&sb);
	jv_free(r);
}

TEST(roofline_svg_classical_roofline)
{
	/* 64 FLOP/B on a 2.3 PFLOP/s, 8 TB/s part: ridge 288 FLOP/B, attainable 512 TFLOP/s */
	jv *r = parse("{\"kind\":\"estimate\",\"achieved_tbps\":4,\"hbm_peak_tbps\":8,"
		      "\"pct_of_hbm_peak\":50,\"flops\":1e12,\"arithmetic_intensity\":64,"
		      "\"peak_flops\":2.3069e15,\"attainable_flops\":5.12e14,"
		      "\"achieved_flops\":2.56e14,\"pct_of_attainable_flops\":50}");
	strbuf sb = STRBUF_INIT;
	CHECK_INT(roofline_svg(r, "gemm", &sb), 0);
	const char *s = sb_str(&sb);
	CHECK_INT(count(s, "<circle"), 1);
	CHECK(strstr(s, "compute roof 2306.9 TFLOP/s") != NULL);
	CHECK(strstr(s, "ridge 288.4 FLOP/B") != NULL);
	CHECK(strstr(s, "256.00 TFLOP/s, 50.0% of attainable") != NULL);
	sb_release(&sb);
	jv_free(r);
}

TEST(roofline_svg_needs_the_figures)
{
	strbuf sb = STRBUF_INIT;
	CHECK_INT(roofline_svg(NULL, "k", &sb), -1);
	jv *r = parse("{\"kind\":\"estimate\",\"achieved_tbps\":null,\"hbm_peak_tbps\":8}");
	CHECK_INT(roofline_svg(r, "k", &sb), -1);
	CHECK_INT(sb.len, 0);
	jv_free(r);
	sb_release(&sb);
}
