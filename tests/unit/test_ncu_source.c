/* ncu_source / ncu_details / ncu_taxonomy: hand-written fixtures (tests/fixtures/ncu/) with
 * hand-computed values, and the recorded H200 samples (FLYPROF_SAMPLES) checked against sums
 * computed here by an independent splitter. */
#include "read/nvidia/ncu_details.h"
#include "read/nvidia/ncu_source.h"
#include "t.h"

#include "base/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/ncu/"

TEST(ncu_taxonomy_labels)
{
	int ni = -1;
	CHECK_INT(ncu_reason_from_label("stall_long_sb", &ni), NCU_LONG_SCOREBOARD);
	CHECK_INT(ni, 0);
	CHECK_INT(ncu_reason_from_label("stall_long_sb (Not Issued)", &ni), NCU_LONG_SCOREBOARD);
	CHECK_INT(ni, 1);
	CHECK_INT(ncu_reason_from_label("stall_sleep", &ni), NCU_SLEEPING);
	CHECK_INT(ncu_reason_from_label("stall_sleeping (Not Issued)", &ni), NCU_SLEEPING);
	CHECK_INT(ncu_reason_from_label("stall_whatever", &ni), NCU_UNKNOWN);
	CHECK_INT(ncu_reason_from_label("Address", &ni), -1);
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_LONG_SCOREBOARD)), "memory_dependency");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_SHORT_SCOREBOARD)), "lds_dependency");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_BARRIER)), "synchronization");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_MATH_PIPE_THROTTLE)), "issue_throttle");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_WAIT)), "fixed_latency");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_NO_INSTRUCTIONS)), "front_end");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_NOT_SELECTED)), "scheduler");
	CHECK_STR(tax_norm_name(ncu_reason_norm(NCU_SELECTED)), "issued");
	CHECK_INT(ncu_reason_lookup("long_scoreboard"), NCU_LONG_SCOREBOARD);
	CHECK_INT(ncu_reason_lookup("nope"), -1);
	for (int r = 0; r < NCU__COUNT; r++) /* every reason has a name and a reason */
		CHECK(ncu_reason_name(r)[0] && strlen(ncu_reason_why(r)) > 10);
}

TEST(ncu_source_fixture_sass)
{
	ncu_source s;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_source_read_file(FIX "tiny_sass.csv", &s, &e), 0);
	CHECK_INT(s.trace.n_insts, 4);
	CHECK_STR(s.trace.kernel, "tiny(int, float)");
	CHECK_INT(s.base_address, 0x1000);
	CHECK_INT(s.has_sources, 0);
	CHECK_INT(s.n_unknown_cols, 1);
	CHECK_STR(s.unknown_cols[0], "stall_frobnicate");
	const trace_inst *t = s.trace.insts;
	CHECK_STR(t[0].isa, "LDG.E R2, desc[UR4][R2.64]");
	CHECK_STR(t[3].isa, "EXIT \"quoted\", x");
	CHECK_INT(t[1].code_line, 2);
	CHECK_INT(t[1].vaddr, 0x10);
	CHECK_INT(t[1].hits, 64);
	CHECK_INT(t[1].latency, 30);
	CHECK_INT(t[1].stall, 29); /* 30 samples, 1 selected */
	CHECK_INT(t[0].stall, 6);
	CHECK_STR(t[0].source, "");
	CHECK_INT(s.s[1].by_reason[NCU_LONG_SCOREBOARD], 25);
	CHECK_INT(s.s[1].ni_by_reason[NCU_LONG_SCOREBOARD], 18);
	CHECK_INT(s.s[1].not_issued, 20);
	CHECK_INT(s.s[2].by_reason[NCU_UNKNOWN], 1);
	ncu_source c;
	CHECK_INT(ncu_source_read_file(FIX "tiny_corr.csv", &c, &e), 0);
	CHECK_INT(c.trace.n_insts, 4);
	CHECK_INT(c.n_files, 2);
	CHECK_STR(c.files[0], "/src/lib, v2/helpers.py");
	CHECK_STR(c.trace.insts[0].source, "/src/lib, v2/helpers.py:12");
	CHECK_STR(c.trace.insts[2].source, "/src/k.py:7");
	CHECK_STR(c.trace.insts[3].source, "/src/k.py:19");
	size_t matched, missing, disagree;
	ncu_source_adopt_lines(&s, &c, &matched, &missing, &disagree);
	CHECK_INT(matched, 4);
	CHECK_INT(missing, 0);
	CHECK_INT(disagree, 0);
	CHECK_STR(s.trace.insts[1].source, "/src/k.py:7");
	CHECK_INT(ncu_source_find_address(&s, 0x1020), 2);
	CHECK_INT(ncu_source_find_address(&s, 0x1024), -1);
	ncu_source_release(&c);
	ncu_source_release(&s);
}

static void expect_bad(const char *file, int64_t line, int64_t column)
{
	ncu_source s;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_source_read_file(file, &s, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_STR(jv_string(jv_get(e.extra, "file")), file);
	CHECK_INT(jv_i64(jv_get(e.extra, "line")), line);
	if (column > 0)
		CHECK_INT(jv_i64(jv_get(e.extra, "column")), column);
	CHECK_INT(s.trace.n_insts, 0);
	fp_err_clear(&e);
}

TEST(ncu_source_malformed)
{
	expect_bad(FIX "bad_address.csv", 3, 1);
	expect_bad(FIX "bad_count.csv", 3, 26); /* "1.5" in Instructions Executed */
	expect_bad(FIX "bad_header.csv", 2, 1);
	expect_bad(FIX "bad_short.csv", 3, 0);
	expect_bad(FIX "bad_unterminated.csv", 2, 8);
	ncu_source s;
	fp_err e = FP_ERR_INIT;
	const char *only_header = "\"Kernel Name\",\"k\",\n\"Address\",\"Source\","
				  "\"Warp Stall Sampling (All Samples)\","
				  "\"Warp Stall Sampling (Not-issued Samples)\","
				  "\"Instructions Executed\"\n";
	CHECK_INT(ncu_source_read(only_header, strlen(only_header), "h.csv", &s, &e), -1);
	CHECK_INT(e.code, ERR_EMPTY_ATT);
	fp_err_clear(&e);
	CHECK_INT(ncu_source_read("\"0x10\",\"NOP\"\n", 13, "x.csv", &s, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT); /* a row before any header */
	fp_err_clear(&e);
}

TEST(ncu_details_fixture)
{
	ncu_details d;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_details_read_file(FIX "tiny_details.csv", &d, &e), 0);
	CHECK_STR(d.kernel, "tiny(int, float)");
	CHECK_STR(d.arch, "sm_90");
	CHECK_STR(d.block_size, "(128, 1, 1)");
	CHECK_INT(d.n_m, 14);
	CHECK_INT(d.n_r, 2);
	CHECK_INT(d.extra_kernels, 1);
	CHECK_STR(d.r[0].description, "Stalled on \"long scoreboard\" (L1TEX),\nsee the guide.");
	CHECK(d.r[0].has_speedup);
	CHECK_NEAR(d.r[0].speedup, 40.5, 1e-12);
	CHECK(!d.r[1].has_speedup);
	double v = 0;
	CHECK(ncu_details_num(&d, "GPU Speed Of Light Throughput", "Elapsed Cycles", &v));
	CHECK_NEAR(v, 1234567, 1e-9);
	CHECK(!ncu_details_num(&d, NULL, "Local Memory Spilling Request Overhead", &v));
	jv *j = ncu_details_json(&d);
	CHECK_NEAR(jv_num(jv_get(jv_get(j, "throughput"), "duration_us")), 1500, 1e-9);
	CHECK_NEAR(jv_num(jv_get(jv_get(j, "launch"), "registers_per_thread")), 64, 1e-9);
	CHECK(t_is_null(jv_get(jv_get(j, "launch"), "sm_count")));
	CHECK_NEAR(jv_num(jv_get(jv_get(j, "occupancy"), "achieved_pct")), 46.5, 1e-9);
	CHECK_INT(jv_len(jv_get(j, "rules")), 2);
	jv_free(j);
	ncu_details_release(&d);
	CHECK_INT(ncu_details_read_file(FIX "tiny_sass.csv", &d, &e), -1); /* not a details page */
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
}

/* Independent column sums of a sample SASS export: every field of the sample is quoted, so a
 * row splits on the three bytes "," (SASS text has commas but no quotes). */
typedef struct col_sums {
	int64_t all, ni, exec, selected, long_sb;
	size_t rows;
} col_sums;

static int field_index(const char *header, const char *name)
{
	char want[128];
	snprintf(want, sizeof want, "\"%s\"", name);
	int idx = 0;
	for (const char *p = header; *p; p++) {
		if (strncmp(p, want, strlen(want)) == 0 &&
		    (p[strlen(want)] == ',' || p[strlen(want)] == '\n'))
			return idx;
		if (p[0] == '"' && p[1] == ',' && p[2] == '"')
			idx++;
	}
	return -1;
}

static int64_t field_at(const char *row, int idx)
{
	const char *p = row + 1;
	for (int k = 0; k < idx; k++) {
		p = strstr(p, "\",\"");
		if (!p)
			return -1;
		p += 3;
	}
	return strtoll(p, NULL, 10);
}

static int sums_of(const char *path, col_sums *s)
{
	memset(s, 0, sizeof *s);
	fp_err e = FP_ERR_INIT;
	size_t len;
	char *buf = file_read_all(path, &len, &e);
	fp_err_clear(&e);
	if (!buf)
		return -1;
	char *hdr = strstr(buf, "\n\"Address\"") + 1;
	int ia = field_index(hdr, "Warp Stall Sampling (All Samples)");
	int in = field_index(hdr, "Warp Stall Sampling (Not-issued Samples)");
	int ie = field_index(hdr, "Instructions Executed");
	int is = field_index(hdr, "stall_selected"), il = field_index(hdr, "stall_long_sb");
	for (char *line = strchr(hdr, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		const char *row = line + 1;
		if (strncmp(row, "\"0x", 3) != 0)
			continue;
		s->rows++;
		s->all += field_at(row, ia);
		s->ni += field_at(row, in);
		s->exec += field_at(row, ie);
		s->selected += field_at(row, is);
		s->long_sb += field_at(row, il);
	}
	free(buf);
	return 0;
}

static const char *samples(void)
{
	const char *s = getenv("FLYPROF_SAMPLES");
	return s && *s ? s : NULL;
}

static void check_sample(const char *prefix, const char *corr, size_t n, int64_t want_all)
{
	char path[512], cpath[512];
	snprintf(path, sizeof path, "%s/ncu-h200/%s_src_sass.csv", samples(), prefix);
	snprintf(cpath, sizeof cpath, "%s/ncu-h200/%s", samples(), corr);
	col_sums cs;
	CHECK_INT(sums_of(path, &cs), 0);
	CHECK_INT(cs.rows, n);
	CHECK_INT(cs.all, want_all); /* the hand-checked figure agrees with the splitter */
	ncu_source s, c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_source_read_file(path, &s, &e), 0);
	CHECK_INT(ncu_source_read_file(cpath, &c, &e), 0);
	CHECK_INT(s.trace.n_insts, cs.rows);
	CHECK_INT(c.trace.n_insts, cs.rows); /* "..." gap rows are skipped */
	int64_t all = 0, ni = 0, ex = 0, stall = 0, lsb = 0, reasons = 0;
	for (size_t i = 0; i < s.trace.n_insts; i++) {
		all += s.trace.insts[i].latency;
		stall += s.trace.insts[i].stall;
		ex += s.trace.insts[i].hits;
		ni += s.s[i].not_issued;
		lsb += s.s[i].by_reason[NCU_LONG_SCOREBOARD];
		for (int r = 0; r < NCU__COUNT; r++)
			reasons += s.s[i].by_reason[r];
		if (i)
			CHECK(s.s[i].address > s.s[i - 1].address);
	}
	CHECK_INT(all, cs.all);
	CHECK_INT(reasons, cs.all); /* the per-reason columns add up to All Samples */
	CHECK_INT(ni, cs.ni);
	CHECK_INT(ex, cs.exec);
	CHECK_INT(stall, cs.all - cs.selected);
	CHECK_INT(lsb, cs.long_sb);
	size_t matched, missing, disagree;
	ncu_source_adopt_lines(&s, &c, &matched, &missing, &disagree);
	CHECK_INT(matched, n);
	CHECK_INT(missing, 0);
	CHECK_INT(disagree, 0);
	ncu_source_release(&s);
	ncu_source_release(&c);
	fp_err_clear(&e);
}

TEST(ncu_source_samples)
{
	if (!samples())
		SKIP("FLYPROF_SAMPLES is not set (the recorded Nsight Compute samples)");
	check_sample("cuda", "cuda_src_cuda_sass.csv", 248, 41146);
	check_sample("triton", "triton_src_py_sass.csv", 544, 7551);
}

TEST(ncu_details_samples)
{
	if (!samples())
		SKIP("FLYPROF_SAMPLES is not set (the recorded Nsight Compute samples)");
	char path[512];
	snprintf(path, sizeof path, "%s/ncu-h200/triton_details.csv", samples());
	ncu_details d;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_details_read_file(path, &d, &e), 0);
	CHECK_STR(d.kernel, "softmax_kernel");
	CHECK_STR(d.arch, "sm_90");
	double v = 0;
	CHECK(ncu_details_num(&d, "Launch Statistics", "Registers Per Thread", &v));
	CHECK_NEAR(v, 48, 0);
	CHECK(ncu_details_num(&d, "Occupancy", "Theoretical Occupancy", &v));
	CHECK_NEAR(v, 62.5, 1e-9);
	CHECK(ncu_details_num(&d, "Occupancy", "Block Limit Registers", &v));
	CHECK_NEAR(v, 5, 0);
	CHECK(d.n_r >= 3);
	ncu_details_release(&d);
	fp_err_clear(&e);
}
