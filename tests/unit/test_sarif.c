/* SARIF 2.1.0 structure of the recommendations, and the REPORT.md sections. */
#include "t.h"

#include "base/strbuf.h"
#include "core/diagnose/report.h"
#include "out/report_md.h"
#include "out/sarif.h"
#include "report_fixture.h"

#include <stdlib.h>

static jv *report_of(const jv *b)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	report_inputs in = {0};
	in.bubbles = b;
	in.kernel = "softmax_kernel_0";
	in.repro = "flyprof report --bundle /b";
	jv *rep = report_build(&in, &r);
	rules_release(&r);
	return rep;
}

TEST(sarif_split_source)
{
	char *p = NULL;
	long line = 0;
	CHECK_INT(sarif_split_source("/a/b/k.py:192", &p, &line), 0);
	CHECK_STR(p, "/a/b/k.py");
	CHECK_INT(line, 192);
	free(p);
	CHECK_INT(sarif_split_source("k.py:19 -> /x/h.py:7", &p, &line), 0);
	CHECK_STR(p, "k.py");
	CHECK_INT(line, 19);
	free(p);
	CHECK_INT(sarif_split_source("", &p, &line), -1);
	CHECK_INT(sarif_split_source("k.py", &p, &line), -1);
	CHECK_INT(sarif_split_source("k.py:x", &p, &line), -1);
}

TEST(sarif_structure)
{
	jv *b = fixture_bubbles();
	jv *rep = report_of(b);
	jv *s = sarif_build(rep);
	CHECK_STR(jv_string(jv_get(s, "version")), "2.1.0");
	CHECK(strstr(jv_string(jv_get(s, "$schema")), "sarif-2.1.0") != NULL);
	const jv *run = jv_at(jv_get(s, "runs"), 0);
	const jv *drv = jv_get(jv_get(run, "tool"), "driver");
	CHECK_STR(jv_string(jv_get(drv, "name")), "flyprof");
	const jv *rl = jv_get(drv, "rules");
	const jv *res = jv_get(run, "results");
	CHECK_INT(jv_len(res), 4);
	CHECK_INT(jv_len(rl), 4);
	for (size_t i = 0; i < jv_len(res); i++) {
		const jv *r = jv_at(res, i);
		const char *id = jv_string(jv_get(r, "ruleId"));
		CHECK(id != NULL);
		int declared = 0;
		for (size_t k = 0; id && k < jv_len(rl); k++)
			declared |= strcmp(jv_string(jv_get(jv_at(rl, k), "id")), id) == 0;
		CHECK(declared);
		const char *lvl = jv_string(jv_get(r, "level"));
		CHECK(lvl && (!strcmp(lvl, "warning") || !strcmp(lvl, "note")));
		CHECK(jv_string(jv_get(jv_get(r, "message"), "text")) != NULL);
		const jv *pl = jv_get(jv_at(jv_get(r, "locations"), 0), "physicalLocation");
		/* relative to SRCROOT, the directory the located files share */
		CHECK_STR(jv_string(jv_get(jv_get(pl, "artifactLocation"), "uri")),
			  strrchr(FIX_SRC, '/') + 1);
		CHECK_STR(jv_string(jv_get(jv_get(pl, "artifactLocation"), "uriBaseId")),
			  "SRCROOT");
		CHECK(jv_i64(jv_get(jv_get(pl, "region"), "startLine")) > 0);
	}
	const jv *base = jv_get(jv_get(run, "originalUriBaseIds"), "SRCROOT");
	CHECK_STR(jv_string(jv_get(base, "uri")), "file:///x/kernels/");
	const jv *pl0 = jv_get(jv_at(jv_get(jv_at(res, 0), "locations"), 0), "physicalLocation");
	CHECK_INT(jv_i64(jv_get(jv_get(pl0, "region"), "startLine")), 42);
	jv_free(s);
	jv_free(rep);
	jv_free(b);
}

TEST(report_md_sections)
{
	jv *b = fixture_bubbles();
	jv *rep = report_of(b);
	strbuf md = STRBUF_INIT;
	report_md_write(&md, rep);
	const char *t = sb_str(&md);
	static const char *const want[] = {
	    "# softmax_kernel_0 on unknown arch", "## 1. Headline", "## 2. Workload and tile",
	    "## 3. Roofline and occupancy", "## 4. Stall taxonomy", "## 5. ISA <-> source evidence",
	    "## 6. Ranked opportunities", "## 7. Verification plan", "## 8. Raw counters",
	    "## 9. Repro", "flyprof report --bundle /b",
	    /* the rank-1 evidence, knob and labelled gain */
	    "### 1. vmem_wait: `vmem_wait_pipeline`", "`s_waitcnt vmcnt(0)` at **" FIX_SRC ":42**",
	    "`lds_stage=2", "**Gain (upper bound):** at most 30.0% of totals.latency",
	    "| 1 | vmem_wait | memory_dependency | 3000 | 50.00 | 30.00 | yes |",
	    "waits on VMEM `buffer_load_dwordx4"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(t, want[i]))
			t_fail(__FILE__, __LINE__, "REPORT.md lacks \"%s\"", want[i]);
	sb_release(&md);
	jv_free(rep);
	jv_free(b);
}

TEST(sarif_worktree_root_and_snippet)
{
	jv *b = fixture_bubbles();
	jv *rep = report_of(b);
	jv *texts = jv_object();
	jv *lines = jv_set(texts, FIX_SRC, jv_array());
	for (int i = 1; i <= 50; i++)
		jv_push(lines, jv_strf("line %d text", i));
	sarif_opts o = {"/x/", texts};
	jv *s = sarif_build_opts(rep, &o);
	const jv *run = jv_at(jv_get(s, "runs"), 0);
	CHECK_STR(jv_string(jv_get(jv_get(jv_get(run, "originalUriBaseIds"), "SRCROOT"), "uri")),
		  "file:///x/");
	const jv *pl = jv_get(jv_at(jv_get(jv_at(jv_get(run, "results"), 0), "locations"), 0),
			      "physicalLocation");
	CHECK_STR(jv_string(jv_get(jv_get(pl, "artifactLocation"), "uri")), "kernels/softmax.py");
	CHECK_STR(jv_string(jv_get(jv_get(jv_get(pl, "region"), "snippet"), "text")),
		  "line 42 text");
	jv_free(s);
	/* a worktree that does not hold the file is not used */
	sarif_opts other = {"/elsewhere", texts};
	s = sarif_build_opts(rep, &other);
	run = jv_at(jv_get(s, "runs"), 0);
	CHECK_STR(jv_string(jv_get(jv_get(jv_get(run, "originalUriBaseIds"), "SRCROOT"), "uri")),
		  "file:///x/kernels/");
	jv_free(s);
	jv_free(texts);
	jv_free(rep);
	jv_free(b);
}
