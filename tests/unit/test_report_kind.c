/* Kernel-kind gating of knobs (rules "applies_to", kernel_traits.h) and the kernel-entry
 * bucket in recommendation evidence (evidence_loc.h): a GEMM-only knob is never recommended for
 * a kernel without MFMA; a hot line that is the entry bucket is flagged and the actionable line
 * comes from the wait's producers or the hottest off-bucket instruction, or is honestly absent. */
#include "t.h"

#include "base/xalloc.h"
#include "core/amd/bubbles.h"
#include "core/diagnose/evidence_loc.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/report.h"
#include "out/sarif.h"
#include "read/amd/att_code.h"
#include "report_fixture.h"

#include <stdlib.h>

/* Knobs that only exist in GEMM / attention builders or only make sense around MFMA. */
static const char *const gemm_only[] = {"lds_stage",	       "use_async_copy", "preload",
					"sched_group_barrier", "s_setprio",	 "mfma_atom",
					"buffer_copy_lds",     "async_lds_load", NULL};

static int is_gemm_only(const char *knob)
{
	for (size_t i = 0; gemm_only[i]; i++)
		if (knob && strcmp(knob, gemm_only[i]) == 0)
			return 1;
	return 0;
}

/* 1 for a JSON true, 0 for false, -1 for anything else (absent, null): never crashes when a
 * checked field is missing. */
static int truth(const jv *v)
{
	return jv_type_of(v) == JV_BOOL ? jv_is_true(v) : -1;
}

static jv *build(const jv *b, const kernel_traits *traits, const jv *buckets)
{
	report_inputs in = {0};
	in.bubbles = b;
	in.traits = traits;
	in.entry_buckets = buckets;
	in.kernel = "rmsnorm_kernel_0";
	return fixture_report(&in);
}

/* The fixture as a kernel without MFMA: no mfma class, no mfma in the instruction mix. */
static jv *streaming_fixture(void)
{
	jv *b = fixture_bubbles();
	fixture_set_stall(b, "mfma", 0);
	jv *cls = jv_get(b, "classes");
	jv_free(jv_take(jv_at(cls, 4), "top"));
	jv_set(jv_at(cls, 4), "top", jv_array());
	jv_free(jv_take(jv_get(jv_get(b, "mix"), "dynamic"), "mfma"));
	return b;
}

static const jv *not_fired_of(const jv *rep, const char *id)
{
	const jv *nf = jv_get(rep, "not_fired");
	for (size_t i = 0; i < jv_len(nf); i++)
		if (strcmp(jv_string(jv_get(jv_at(nf, i), "rule")), id) == 0)
			return jv_at(nf, i);
	return NULL;
}

TEST(report_kind_shipped_gemm_knobs_are_gated_on_mfma)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	kernel_traits streaming;
	kernel_traits_init(&streaming);
	streaming.has_matrix_ops = TRI_NO; /* kind streaming */
	size_t gated = 0;
	for (size_t i = 0; i < r.n; i++) {
		if (!is_gemm_only(r.v[i].knob))
			continue;
		char why[160];
		/* every rule naming a GEMM-only knob must refuse a kernel without MFMA */
		CHECK_INT(rule_applies(&r.v[i], &streaming, why, sizeof why), 0);
		CHECK(strstr(why, "has_mfma = true") != NULL);
		gated++;
	}
	CHECK(gated >= 6);
	rules_release(&r);
}

TEST(report_kind_streaming_fixture_gets_streaming_knobs)
{
	jv *b = streaming_fixture();
	jv *rep = build(b, NULL, NULL); /* traits derived from the bubbles mix */
	const jv *t = jv_get(rep, "kernel_traits");
	CHECK(t_truth(jv_get(t, "has_mfma")) == 0);
	CHECK_STR(jv_string(jv_get(t, "kind")), "streaming");
	const jv *recs = jv_get(rep, "recommendations");
	CHECK(jv_len(recs) >= 2);
	for (size_t i = 0; i < jv_len(recs); i++)
		CHECK(!is_gemm_only(jv_string(jv_get(jv_get(jv_at(recs, i), "knob"), "id"))));
	/* vmem_wait 3000 of 5700 stall: rank 1 is its in-flight rule (priority 1.0), then the
	 * occupancy-by-block-size rule (0.8); both 30% of latency */
	CHECK_STR(jv_string(jv_get(jv_at(recs, 0), "rule")), "vmem_wait_inflight");
	CHECK_STR(jv_string(jv_get(jv_get(jv_at(recs, 0), "knob"), "kind")), "kernel_constant");
	CHECK_STR(jv_string(jv_get(jv_at(recs, 1), "rule")), "vmem_wait_occupancy_streaming");
	CHECK(strstr(jv_string(jv_get(rep, "why_rank_1")), "addresses the largest bubble class "
							   "vmem_wait") != NULL);
	const jv *n = not_fired_of(rep, "vmem_wait_pipeline");
	CHECK(n != NULL);
	CHECK_STR(jv_string(jv_get(n, "status")), "not_applicable");
	CHECK_STR(jv_string(jv_get(n, "reason")),
		  "needs has_mfma = true; this kernel has has_mfma = false");
	CHECK(t_truth(jv_get(n, "signal_held")) == 1);
	/* lds_wait has no streaming rule here: its reduction rule needs LDS traffic (the mix has
	 * no lds_issue), its GEMM rule needs MFMA */
	CHECK_STR(jv_string(jv_get(not_fired_of(rep, "lds_wait_reduction"), "status")),
		  "not_applicable");
	CHECK_STR(jv_string(jv_get(not_fired_of(rep, "lds_wait_preload"), "status")),
		  "not_applicable");
	jv_free(rep);
	/* the same bubbles with MFMA traits get the GEMM pipelining knob at rank 1 */
	kernel_traits matrix;
	kernel_traits_init(&matrix);
	matrix.has_matrix_ops = matrix.has_shared_mem_traffic = TRI_YES;
	rep = build(b, &matrix, NULL);
	CHECK_STR(jv_string(jv_get(jv_at(jv_get(rep, "recommendations"), 0), "rule")),
		  "vmem_wait_pipeline");
	const jv *kt = jv_get(rep, "kernel_traits");
	CHECK(truth(jv_get(kt, "has_mfma")) == 1);
	CHECK(truth(jv_get(kt, "has_lds_traffic")) == 1);
	CHECK(jv_get(kt, "has_loop") && jv_type_of(jv_get(kt, "has_loop")) == JV_NULL);
	CHECK_STR(jv_string(jv_get(kt, "kind")), "matrix");
	CHECK_STR(jv_string(jv_get(kt, "backend")), "amd");
	jv_free(rep);
	jv_free(b);
}

TEST(report_kind_rules_applies_to_is_validated)
{
	static const char knobs[] =
	    "{\"kinds\":{\"primitive\":\"p\"},\"knobs\":[{\"id\":\"k\",\"kind\":\"primitive\","
	    "\"api\":\"a\",\"effect\":\"e\"}]}";
	static const char tmpl[] =
	    "{\"rules\": [\n {\"id\": \"a\", \"class\": \"valu\",\n  \"signal\": {\"field\": "
	    "\"valu.pct_of_stall\", \"op\": \">\", \"threshold\": 10},\n  \"applies_to\": %s,\n"
	    "  \"knob\": \"k\", \"change\": \"c\", \"expected\": \"x\", \"verify\": \"v\", "
	    "\"confidence\": \"high\", \"priority\": 1}]}";
	char text[1024];
	rules r;
	fp_err e = FP_ERR_INIT;
	snprintf(text, sizeof text, tmpl, "{\"has_mfmaa\": true}");
	CHECK_INT(
	    rules_parse(&r, text, strlen(text), "rules.json", knobs, strlen(knobs), "k.json", &e),
	    -1);
	CHECK_INT(e.code, ERR_BAD_RULES);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/applies_to/has_mfmaa");
	CHECK_INT(jv_i64(jv_get(e.extra, "line")), 4);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), strstr(text, "true}") - text);
	fp_err_clear(&e);
	snprintf(text, sizeof text, tmpl, "{\"has_loop\": 1}");
	CHECK_INT(
	    rules_parse(&r, text, strlen(text), "rules.json", knobs, strlen(knobs), "k.json", &e),
	    -1);
	CHECK_STR(jv_string(jv_get(e.extra, "pointer")), "/rules/0/applies_to/has_loop");
	fp_err_clear(&e);
	snprintf(text, sizeof text, tmpl, "{\"has_loop\": true, \"kind\": \"streaming\"}");
	CHECK_INT(
	    rules_parse(&r, text, strlen(text), "rules.json", knobs, strlen(knobs), "k.json", &e),
	    0);
	char why[160];
	kernel_traits t;
	kernel_traits_init(&t);
	t.has_loop = TRI_YES;
	t.has_matrix_ops = TRI_YES; /* kind matrix */
	CHECK_INT(rule_applies(&r.v[0], &t, why, sizeof why), 0);
	CHECK_STR(why, "needs kind = streaming; this kernel has kind = matrix");
	/* an unknown trait never excludes a rule */
	t.has_loop = TRI_UNKNOWN;
	t.has_matrix_ops = TRI_NO; /* kind streaming */
	CHECK_INT(rule_applies(&r.v[0], &t, why, sizeof why), 1);
	t.has_matrix_ops = TRI_UNKNOWN; /* kind unknown too */
	CHECK_INT(rule_applies(&r.v[0], &t, why, sizeof why), 1);
	CHECK_INT(rule_applies(&r.v[0], NULL, why, sizeof why), 1);
	rules_release(&r);
	fp_err_clear(&e);
}

static void add_inst(trace_dispatch *d, const char *isa, int64_t hits, int label)
{
	d->insts = xrealloc(d->insts, (d->n_insts + 1) * sizeof *d->insts);
	trace_inst *t = &d->insts[d->n_insts];
	memset(t, 0, sizeof *t);
	t->code_line = (int64_t)d->n_insts;
	t->isa = xstrdup(isa);
	t->source = xstrdup("");
	t->hits = hits;
	t->is_label = (uint8_t)label;
	t->klass = -1;
	d->n_insts++;
}

TEST(report_kind_traits_from_trace)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	add_inst(&d, "; k_0", 0, 1);
	add_inst(&d, "s_load_dwordx2 s[4:5], s[0:1], 0x0", 4, 0); /* 4 waves enter */
	add_inst(&d, "ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)", 40, 0);
	add_inst(&d, "buffer_load_dword v1, v2, s[4:7], 0 offen lds", 8, 0);
	add_inst(&d, "s_cbranch_scc1 65500", 40, 0); /* backwards, 10 times per wave */
	add_inst(&d, "s_cbranch_execz 12", 400, 0);  /* forwards: not a loop */
	kernel_traits kt;
	kernel_traits_from_trace(&d, &kt);
	CHECK_INT(kt.has_matrix_ops, TRI_NO);
	CHECK_INT(kt.has_shared_mem_traffic, TRI_NO); /* a swizzle moves no LDS data */
	CHECK_INT(kt.has_shared_mem_dma, TRI_YES);
	CHECK_INT(kt.has_loop, TRI_YES);
	CHECK_NEAR(kt.evidence.loop_iterations_per_wave, 10.0, 1e-9);
	/* report.json names them as rules.json does */
	jv *t = kernel_traits_to_jv(&kt);
	CHECK(truth(jv_get(t, "has_mfma")) == 0);
	CHECK(truth(jv_get(t, "has_lds_traffic")) == 0);
	CHECK(truth(jv_get(t, "has_lds_dma")) == 1);
	CHECK(truth(jv_get(t, "has_loop")) == 1);
	CHECK_NEAR(jv_num(jv_get(jv_get(t, "evidence"), "loop_iterations_per_wave")), 10.0, 1e-9);
	CHECK_STR(jv_string(jv_get(t, "kind")), "streaming");
	CHECK(jv_get(t, "backend") == NULL); /* no platform yet */
	jv_free(t);
	add_inst(&d, "v_mfma_f32_32x32x16_bf16 a[0:15], v[0:3], v[4:7], a[0:15]", 16, 0);
	add_inst(&d, "ds_read_b128 v[0:3], v4", 16, 0);
	kernel_traits_from_trace(&d, &kt);
	CHECK_INT(kt.has_matrix_ops, TRI_YES);
	CHECK_INT(kt.has_shared_mem_traffic, TRI_YES);
	CHECK_STR(kernel_trait_get(&kt, "kind").s, "matrix");
	t = kernel_traits_to_jv(&kt);
	CHECK(truth(jv_get(t, "has_mfma")) == 1);
	CHECK(truth(jv_get(t, "has_lds_traffic")) == 1);
	CHECK_STR(jv_string(jv_get(t, "kind")), "matrix");
	jv_free(t);
	trace_dispatch_release(&d);
}

static jv *buckets_at(int line, const char *extra)
{
	char s[512];
	snprintf(s, sizeof s, "{\"lines\":[{\"file\":\"" FIX_SRC "\",\"line\":%d}]%s}", line,
		 extra);
	return fixture_parse(s);
}

TEST(report_kind_entry_bucket_wait_points_at_its_producer)
{
	jv *b = fixture_bubbles();
	jv *eb = buckets_at(42, ""); /* the hot vmem wait's line is the entry bucket */
	jv *rep = build(b, NULL, eb);
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	const jv *ev = jv_get(r1, "evidence");
	const jv *hs = jv_get(ev, "hotspot");
	CHECK_STR(jv_string(jv_get(hs, "source")), FIX_SRC ":42");
	CHECK_STR(jv_string(jv_get(hs, "source_kind")), "entry_bucket");
	CHECK(strstr(jv_string(jv_get(hs, "source_note")), "entry line") != NULL);
	CHECK_STR(jv_string(jv_get(ev, "actionable_source")), FIX_SRC ":40");
	CHECK_STR(jv_string(jv_get(jv_get(ev, "actionable"), "via")), "wait_producer");
	CHECK_STR(jv_string(jv_get(ev, "secondary_source")), FIX_SRC ":42");
	/* the headline, the envelope summary and SARIF all point at the producer's line */
	CHECK(strstr(jv_string(jv_get(rep, "headline")), "at " FIX_SRC ":40 (the load") != NULL);
	CHECK(strstr(jv_string(jv_get(rep, "headline")), "kernel-entry bucket " FIX_SRC ":42") !=
	      NULL);
	jv *s = report_summary(rep, 1);
	const jv *s1 = jv_at(jv_get(s, "recommendations"), 0);
	CHECK_STR(jv_string(jv_get(s1, "source")), FIX_SRC ":40");
	CHECK_STR(jv_string(jv_get(s1, "entry_bucket_source")), FIX_SRC ":42");
	CHECK_STR(jv_string(jv_get(s1, "source_basis")), "wait_producer");
	jv *sf = sarif_build(rep);
	const jv *res0 = jv_at(jv_get(jv_at(jv_get(sf, "runs"), 0), "results"), 0);
	const jv *pl = jv_get(jv_at(jv_get(res0, "locations"), 0), "physicalLocation");
	CHECK_INT(jv_i64(jv_get(jv_get(pl, "region"), "startLine")), 40);
	CHECK_STR(jv_string(jv_get(jv_get(res0, "properties"), "entry_bucket_source")),
		  FIX_SRC ":42");
	/* report.json's evidence lists flag the bucket line */
	CHECK(t_truth(jv_get(jv_at(jv_get(rep, "evidence_hotspots"), 0), "entry_bucket")) == 1);
	jv_free(sf);
	jv_free(s);
	jv_free(rep);
	jv_free(eb);
	jv_free(b);
}

static const jv *rec_of(const jv *rep, const char *id)
{
	const jv *recs = jv_get(rep, "recommendations");
	for (size_t i = 0; i < jv_len(recs); i++)
		if (strcmp(jv_string(jv_get(jv_at(recs, i), "rule")), id) == 0)
			return jv_at(recs, i);
	return NULL;
}

TEST(report_kind_entry_bucket_non_wait)
{
	jv *b = fixture_bubbles();
	/* the barrier class's only listed instruction sits on the bucket line 60 */
	jv *eb = buckets_at(60, "");
	jv *rep = build(b, NULL, eb);
	const jv *ev = jv_get(rec_of(rep, "barrier_relax"), "evidence");
	CHECK(jv_get(ev, "actionable_source") &&
	      jv_type_of(jv_get(ev, "actionable_source")) == JV_NULL);
	CHECK(strstr(jv_string(jv_get(ev, "none_reason")),
		     "no attributable source line: the class's stall sits on the kernel-entry "
		     "bucket " FIX_SRC ":60") != NULL);
	CHECK_STR(jv_string(jv_get(rec_of(rep, "barrier_relax"), "confidence")), "low");
	jv *sf = sarif_build(rep);
	const jv *res = jv_get(jv_at(jv_get(sf, "runs"), 0), "results");
	for (size_t i = 0; i < jv_len(res); i++)
		if (strcmp(jv_string(jv_get(jv_at(res, i), "ruleId")), "barrier_relax") == 0) {
			/* no line to point at: located at the kernel only (logicalLocations) */
			const jv *loc = jv_at(jv_get(jv_at(res, i), "locations"), 0);
			CHECK(jv_get(loc, "physicalLocation") == NULL);
			CHECK(jv_get(loc, "logicalLocations") != NULL);
			CHECK(strstr(jv_string(jv_get(jv_get(jv_at(res, i), "properties"),
						      "no_location_reason")),
				     "kernel-entry bucket") != NULL);
		}
	jv_free(sf);
	jv_free(rep);
	jv_free(eb);
	/* a trace scan found a barrier off the bucket: 90 of 900 cycles = 10% of the class */
	eb = buckets_at(60, ",\"hottest_off_bucket\":{\"barrier\":{\"code_line\":26,\"isa\":"
			    "\"s_barrier\",\"source\":\"" FIX_SRC ":61\",\"stall\":90}}");
	rep = build(b, NULL, eb);
	ev = jv_get(rec_of(rep, "barrier_relax"), "evidence");
	CHECK_STR(jv_string(jv_get(ev, "actionable_source")), FIX_SRC ":61");
	CHECK_STR(jv_string(jv_get(jv_get(ev, "actionable"), "via")), "class_hotspot_off_bucket");
	CHECK_NEAR(jv_num(jv_get(jv_get(ev, "actionable"), "pct_of_class_stall")), 10.0, 1e-9);
	CHECK_STR(jv_string(jv_get(ev, "secondary_source")), FIX_SRC ":60");
	jv_free(rep);
	jv_free(eb);
	jv_free(b);
}

/* rmsnorm (corpus): a streaming row reduction whose hot waits sit on the entry bucket :115. */
TEST(report_kind_corpus_rmsnorm)
{
	const char *c = t_corpus();
	if (!c)
		SKIP("FLYPROF_CORPUS not set");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/rmsnorm/att/big/ui_output_agent_19276_dispatch_18", c);
	trace_dispatch d;
	trace_dispatch_init(&d);
	fp_err e = FP_ERR_INIT;
	jv *b = NULL, *warn = jv_array();
	bubbles_params o = {10, -1, 1, NULL};
	CHECK_INT(att_code_read(dir, &d, &e), 0);
	CHECK_INT(bubbles_compute(&d, NULL, &o, &b, NULL, warn, &e), 0);
	kernel_traits traits;
	kernel_traits_from_trace(&d, &traits);
	jv *eb = evloc_scan_trace(&d);
	CHECK_INT(traits.has_matrix_ops, TRI_NO);
	CHECK_INT(jv_i64(jv_get(jv_at(jv_get(eb, "lines"), 0), "line")), 115);
	jv *rep = build(b, &traits, eb);
	const jv *recs = jv_get(rep, "recommendations");
	CHECK(jv_len(recs) > 0);
	for (size_t i = 0; i < jv_len(recs); i++)
		CHECK(!is_gemm_only(jv_string(jv_get(jv_get(jv_at(recs, i), "knob"), "id"))));
	const jv *r1 = jv_at(recs, 0);
	CHECK_STR(jv_string(jv_get(r1, "class")), "vmem_wait");
	const char *act = jv_string(jv_get(jv_get(r1, "evidence"), "actionable_source"));
	static const char want[] = "/rmsnorm_kernel.py:59"; /* the load the hot wait waits on */
	CHECK(act && strlen(act) > strlen(want) &&
	      strcmp(act + strlen(act) - strlen(want), want) == 0);
	CHECK_STR(jv_string(jv_get(jv_get(jv_get(r1, "evidence"), "hotspot"), "source_kind")),
		  "entry_bucket");
	CHECK_STR(jv_string(jv_get(not_fired_of(rep, "vmem_wait_pipeline"), "status")),
		  "not_applicable");
	jv_free(rep);
	jv_free(eb);
	jv_free(b);
	jv_free(warn);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
}
