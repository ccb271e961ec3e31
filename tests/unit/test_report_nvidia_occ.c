/* The occupancy section of the report on NVIDIA: warps per SM from the Nsight Compute details
 * export (theoretical from bubbles.occupancy.theoretical, achieved from observed.per_cu.mean),
 * no AMD wording (waves per SIMD) and no `flyprof counters` hint; AMD keeps its own table.
 * Figures are the recorded triton sample's: theoretical 40 warps per SM (62.5% of 64, limited
 * by registers), achieved 37.59 per SM (58.74% of 64), 9.41 per scheduler; 37.59 / 40 = 94%. */
#include "t.h"

#include "base/strbuf.h"
#include "core/diagnose/report.h"
#include "out/report_md.h"
#include "base/json/json_parse.h"
#include "report_fixture.h"

static const char nv_json[] =
    "{\"backend\":\"nvidia\",\"unit\":\"samples\","
    "\"totals\":{\"latency\":1000,\"stall\":900,\"idle\":0,\"hits\":500},"
    "\"classes\":[{\"class\":\"long_scoreboard\",\"normalized\":\"memory_dependency\","
    "\"latency\":600,\"stall\":600,\"top\":[{\"code_line\":24,\"isa\":\"LDG.E R0, [R2]\","
    "\"source\":\"/src/tsm.py:7\",\"stall\":400}]}],"
    "\"occupancy\":{\"theoretical\":{\"waves_per_simd\":10,\"waves_per_cu\":40,"
    "\"pct_of_max_waves\":62.5,\"schedulers_per_sm\":4,\"block_limits\":{\"wave_slots\":8,"
    "\"wg_slots\":32,\"barriers\":32,\"registers\":5,\"lds\":14},\"limiter\":\"registers\"}}}";

static const char occ_json[] =
    "{\"theoretical\":{\"waves_per_cu\":40,\"waves_per_simd\":10,\"max_waves_per_cu\":64,"
    "\"limiter\":\"registers\"},\"observed\":{\"per_simd\":{\"peak\":null,\"mean\":9.41},"
    "\"per_cu\":{\"peak\":null,\"mean\":37.59},\"achieved_pct_of_max_warps\":58.74}}";

static int has(const char *s, const char *sub)
{
	return s && strstr(s, sub) != NULL;
}

static jv *build(const jv *b, const jv *occ)
{
	report_inputs in = {0};
	in.bubbles = b;
	in.occupancy = occ;
	in.kernel = "softmax_kernel";
	return fixture_report(&in);
}

TEST(report_nvidia_occupancy_in_warps_per_sm)
{
	jv *b = fixture_parse(nv_json), *occ = fixture_parse(occ_json);
	CHECK(b && occ);
	jv *rep = build(b, occ);
	const jv *o = jv_get(rep, "occupancy");
	CHECK_NEAR(jv_num(jv_get(jv_get(o, "details_export"), "waves_per_cu")), 40, 1e-9);
	CHECK(t_truth(jv_get(o, "disagreement")) == 0);
	CHECK(has(jv_string(jv_get(o, "note")),
		  "achieved mean 37.59 of theoretical 40 warps per SM (94% of theoretical)"));
	strbuf md = STRBUF_INIT;
	report_md_write(&md, rep);
	const char *s = sb_str(&md);
	CHECK(has(s, "% of the SM's maximum warps (64)"));
	CHECK(has(s, "| theoretical (Theoretical Active Warps per SM) | 40 | 62.50 | 10 | "
		     "registers |"));
	CHECK(has(s, "| achieved mean (Achieved Active Warps Per SM) | 37.59 | 58.74 | 9.41 |"));
	CHECK(has(s, "`registers`: 5"));
	CHECK(has(s, "Occupancy section of the details export"));
	CHECK(!has(s, "waves per SIMD"));
	CHECK(!has(s, "Run `flyprof counters`"));
	jv *h = report_headlines(rep);
	const jv *f = jv_get(h, "findings");
	CHECK(has(jv_string(jv_at(f, jv_len(f) - 1)),
		  "occupancy: 40 warps per SM theoretical (details export), limited by registers"));
	jv_free(h);
	sb_release(&md);
	jv_free(rep);
	jv_free(occ);
	jv_free(b);
}

TEST(report_amd_occupancy_keeps_waves_per_simd)
{
	jv *b = fixture_bubbles();
	jv *occ = fixture_parse(
	    "{\"theoretical\":{\"waves_per_simd\":8,\"waves_per_cu\":32,"
	    "\"limiter\":\"vgpr\"},\"observed\":{\"per_simd\":{\"peak\":2,\"mean\":1.5},"
	    "\"per_cu\":{\"peak\":8,\"mean\":6}}}");
	jv *rep = build(b, occ);
	CHECK(jv_get(jv_get(rep, "occupancy"), "details_export") == NULL);
	strbuf md = STRBUF_INIT;
	report_md_write(&md, rep);
	CHECK(has(sb_str(&md), "| occupancy | waves per SIMD | waves per CU | limited by |"));
	CHECK(has(sb_str(&md), "Run `flyprof counters`"));
	/* 1.5 of 8 waves per SIMD = 18.75%; a peak of 2 never reaches the vgpr limit of 8 */
	CHECK(has(jv_string(jv_get(jv_get(rep, "occupancy"), "note")),
		  "the limiter vgpr does not bind"));
	CHECK(has(jv_string(jv_get(jv_get(rep, "occupancy"), "note")), "(mean 1.50, 19%)"));
	CHECK(t_truth(jv_get(jv_get(rep, "occupancy"), "limiter_binding")) == 0);
	sb_release(&md);
	jv_free(rep);
	jv_free(occ);
	jv_free(b);
}
