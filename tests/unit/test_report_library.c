/* Library frames in recommendation evidence (evidence_loc.h): a hot instruction whose line is
 * inside FlyDSL's own package (python_packages/flydsl/..., site-packages/flydsl/...) or
 * Triton's triton/language/ is flagged "library_frame" like the kernel-entry bucket, and the
 * actionable line comes from the wait's producers or the hottest same-class instruction on a
 * user line, or is honestly absent. */
#include "t.h"

#include "base/strbuf.h"
#include "core/diagnose/evidence_loc.h"
#include "core/diagnose/report.h"
#include "out/report_md.h"
#include "out/sarif.h"
#include "report_fixture.h"

#define LIB_SRC "/w/build-fly/python_packages/flydsl/expr/rocdl/universal.py"

/* strstr that treats an absent string as "not found": a missing field fails, never crashes. */
static int has(const char *s, const char *sub)
{
	return s && strstr(s, sub) != NULL;
}

static int lib(const char *p)
{
	return evloc_library_path(p, strlen(p));
}

TEST(report_library_path_components)
{
	CHECK_INT(lib(LIB_SRC), 1);
	CHECK_INT(lib("/usr/lib/python3/site-packages/flydsl/expr/numeric.py"), 1);
	CHECK_INT(lib("/v/lib/python3.12/site-packages/triton/language/standard.py"), 1);
	CHECK_INT(lib("python_packages/flydsl/a.py"), 1); /* relative: the pair starts the path */
	CHECK_INT(lib(FIX_SRC), 0);
	CHECK_INT(lib("/x/mypython_packages/flydsl/a.py"), 0); /* whole components only */
	CHECK_INT(lib("/x/python_packages/flydsl_extra/a.py"), 0);
	CHECK_INT(lib("/x/flydsl/kernels/a.py"), 0);  /* a checkout, not the installed package */
	CHECK_INT(lib("/x/site-packages/flydsl"), 0); /* the directory itself, no file in it */
	CHECK_INT(lib("/x/tests/triton/kernels/lang.py"), 0);
	/* the innermost frame decides, as for the entry bucket */
	CHECK_INT(evloc_kind_in(NULL, LIB_SRC ":144 -> " FIX_SRC ":42"), EVLOC_LIBRARY_FRAME);
	CHECK_INT(evloc_kind_in(NULL, FIX_SRC ":42 -> " LIB_SRC ":144"), EVLOC_LINE);
	CHECK_INT(evloc_kind_in(NULL, ""), EVLOC_NONE);
}

static jv *build(const jv *b, const jv *buckets)
{
	report_inputs in = {0};
	in.bubbles = b;
	in.entry_buckets = buckets;
	in.kernel = "softmax_kernel_0";
	return fixture_report(&in);
}

/* The fixture with the hot vmem wait (code line 12, :42) moved onto a FlyDSL library line. */
static jv *library_fixture(void)
{
	jv *b = fixture_bubbles();
	const char *src = LIB_SRC ":144";
	jv_set_str(jv_at(jv_get(jv_at(jv_get(b, "classes"), 0), "top"), 0), "source", src);
	jv_set_str(jv_at(jv_get(b, "hotspots"), 0), "source", src);
	jv_set_str(jv_at(jv_get(b, "lines"), 0), "source", src);
	jv_set_str(jv_at(jv_get(b, "waits"), 0), "source", src);
	return b;
}

static const jv *rec_of(const jv *rep, const char *klass)
{
	const jv *recs = jv_get(rep, "recommendations");
	for (size_t i = 0; i < jv_len(recs); i++)
		if (strcmp(jv_string(jv_get(jv_at(recs, i), "class")), klass) == 0)
			return jv_at(recs, i);
	return NULL;
}

TEST(report_library_frame_wait_points_at_its_producer)
{
	jv *b = library_fixture();
	jv *eb = jv_object(); /* no entry bucket: only the library rule applies */
	jv *rep = build(b, eb);
	const jv *r1 = jv_at(jv_get(rep, "recommendations"), 0);
	const jv *ev = jv_get(r1, "evidence");
	const jv *hs = jv_get(ev, "hotspot");
	CHECK_STR(jv_string(jv_get(hs, "source_kind")), "library_frame");
	CHECK(has(jv_string(jv_get(hs, "source_note")), "library frame"));
	CHECK_STR(jv_string(jv_get(ev, "actionable_source")), FIX_SRC ":40");
	CHECK_STR(jv_string(jv_get(jv_get(ev, "actionable"), "via")), "wait_producer");
	CHECK_STR(jv_string(jv_get(ev, "secondary_source")), LIB_SRC ":144");
	const char *hl = jv_string(jv_get(rep, "headline"));
	CHECK(has(hl, "at " FIX_SRC ":40 (the load"));
	CHECK(has(hl, "a library frame " LIB_SRC ":144"));
	jv *s = report_summary(rep, 1);
	const jv *s1 = jv_at(jv_get(s, "recommendations"), 0);
	CHECK_STR(jv_string(jv_get(s1, "source")), FIX_SRC ":40");
	CHECK_STR(jv_string(jv_get(s1, "library_frame_source")), LIB_SRC ":144");
	CHECK(jv_get(s1, "entry_bucket_source") == NULL);
	jv *sf = sarif_build(rep);
	const jv *res0 = jv_at(jv_get(jv_at(jv_get(sf, "runs"), 0), "results"), 0);
	const jv *pl = jv_get(jv_at(jv_get(res0, "locations"), 0), "physicalLocation");
	CHECK_INT(jv_i64(jv_get(jv_get(pl, "region"), "startLine")), 40);
	CHECK_STR(jv_string(jv_get(jv_get(res0, "properties"), "library_frame_source")),
		  LIB_SRC ":144");
	const jv *h0 = jv_at(jv_get(rep, "evidence_hotspots"), 0);
	CHECK(t_truth(jv_get(h0, "library_frame")) == 1);
	strbuf md = STRBUF_INIT;
	report_md_write(&md, rep);
	CHECK(has(sb_str(&md), LIB_SRC ":144 (library frame"));
	CHECK(has(sb_str(&md), "  - library frame: " LIB_SRC ":144 is a library frame"));
	sb_release(&md);
	jv_free(sf);
	jv_free(s);
	jv_free(rep);
	jv_free(eb);
	jv_free(b);
}

TEST(report_library_frame_non_wait)
{
	jv *b = fixture_bubbles();
	/* the barrier class's only listed instruction sits in Triton's own library */
	jv *bar = jv_at(jv_get(jv_at(jv_get(b, "classes"), 2), "top"), 0);
	jv_set_str(bar, "source", "/s/site-packages/triton/language/core.py:10");
	jv *eb = jv_object();
	jv *rep = build(b, eb);
	const jv *ev = jv_get(rec_of(rep, "barrier"), "evidence");
	CHECK(ev != NULL);
	CHECK(t_is_null(jv_get(ev, "actionable_source")));
	CHECK(has(jv_string(jv_get(ev, "none_reason")),
		  "the class's stall sits on a library frame /s/site-packages/triton/"));
	CHECK_STR(jv_string(jv_get(rec_of(rep, "barrier"), "confidence")), "low");
	jv_free(rep);
	jv_free(eb);
	/* a trace scan found a barrier on a user line: 90 of 900 = 10% of the class's stall */
	static const char scan[] =
	    "{\"lines\":[],\"hottest_off_bucket\":{\"barrier\":{"
	    "\"code_line\":26,\"isa\":\"s_barrier\",\"source\":\"" FIX_SRC ":61\",\"stall\":90}}}";
	fp_err e = FP_ERR_INIT;
	eb = json_parse(scan, strlen(scan), "scan", &e);
	rep = build(b, eb);
	ev = jv_get(rec_of(rep, "barrier"), "evidence");
	CHECK_STR(jv_string(jv_get(ev, "actionable_source")), FIX_SRC ":61");
	CHECK_STR(jv_string(jv_get(jv_get(ev, "actionable"), "via")), "class_hotspot_user_line");
	CHECK_NEAR(jv_num(jv_get(jv_get(ev, "actionable"), "pct_of_class_stall")), 10.0, 1e-9);
	CHECK(has(jv_string(jv_get(jv_get(ev, "actionable"), "basis")), "on a user line"));
	jv_free(rep);
	jv_free(eb);
	jv_free(b);
	fp_err_clear(&e);
}
