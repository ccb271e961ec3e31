/* The kernel-trace CSV reader: quoting, the row of a dispatch id, fallback by kernel name, and
 * BAD_INPUT with the byte offset of a bad field. */
#include "t.h"

#include "read/amd/kernel_trace_csv.h"
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char csv[] =
    "\"Kind\",\"Agent_Id\",\"Dispatch_Id\",\"Kernel_Name\",\"LDS_Block_Size\",\"Scratch_Size\","
    "\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
    "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\r\n"
    "\"KERNEL_DISPATCH\",\"Agent 3\",1,\"void f<a, \"\"b\"\">(int)\",0,0,8,0,16,64,1,1,1024,1,1\n"
    "\"KERNEL_DISPATCH\",\"Agent 3\",25,\"k_0\",33280,4,84,4,112,256,1,1,65536,2,1\n"
    "\"KERNEL_DISPATCH\",\"Agent 3\",26,\"k_0\",512,0,32,0,16,128,1,1,128,1,1\n";

TEST(ktcsv_row_by_dispatch_id)
{
	trace_resources r;
	trace_dispatch d;
	trace_dispatch_init(&d);
	r = d.res;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ktcsv_resources(csv, strlen(csv), "kt.csv", 25, "k_0", &r, &e), 1);
	CHECK_INT(r.vgpr, 84);
	CHECK_INT(r.agpr, 4);
	CHECK_INT(r.sgpr, 112);
	CHECK_INT(r.lds_bytes, 33280);
	CHECK_INT(r.scratch_bytes, 4);
	CHECK_INT(r.wg_size, 256);
	CHECK_INT(r.grid_size, 131072);
	CHECK_STR(r.source, "kernel_trace");
	/* an unknown id falls back to the first row of the kernel name */
	CHECK_INT(ktcsv_resources(csv, strlen(csv), "kt.csv", 99, "k_0", &r, &e), 1);
	CHECK_INT(r.vgpr, 84);
	CHECK_INT(ktcsv_resources(csv, strlen(csv), "kt.csv", -1, "void f<a, \"b\">(int)", &r, &e),
		  1);
	CHECK_INT(r.wg_size, 64);
	CHECK_INT(ktcsv_resources(csv, strlen(csv), "kt.csv", -1, "nope", &r, &e), 0);
	trace_dispatch_release(&d);
}

TEST(ktcsv_errors_have_offsets)
{
	trace_resources r = {0};
	fp_err e = FP_ERR_INIT;
	char bad[sizeof csv];
	memcpy(bad, csv, sizeof csv);
	char *p = strstr(bad, ",84,");
	p[1] = 'x';
	CHECK_INT(ktcsv_resources(bad, strlen(bad), "kt.csv", 25, NULL, &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), p + 1 - bad);
	fp_err_clear(&e);
	const char *unterminated = "\"Kind\",\"Dispatch_Id";
	CHECK_INT(ktcsv_resources(unterminated, strlen(unterminated), "kt.csv", 1, NULL, &r, &e),
		  -1);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 7);
	fp_err_clear(&e);
	const char *nohdr = "a,b,c\n1,2,3\n";
	CHECK_INT(ktcsv_resources(nohdr, strlen(nohdr), "kt.csv", 1, NULL, &r, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
}

TEST(ktcsv_agent_arch_reads_the_gpu_row)
{
	const char *agents = "\"Node_Id\",\"Name\",\"Vendor_Name\"\n"
			     "0,\"AMD EPYC 9575F\",\"CPU\"\n"
			     "2,\"gfx950\",\"AMD\"\n";
	char arch[16] = "";
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ktcsv_agent_arch(agents, strlen(agents), "a.csv", arch, sizeof arch, &e), 1);
	CHECK_STR(arch, "gfx950");
	CHECK_INT(ktcsv_agent_arch("\"Name\"\n\"cpu\"\n", 13, "a.csv", arch, sizeof arch, &e), 0);
	fp_err_clear(&e);
}

/* Random tables written every way RFC 4180 and rocprofv3 allow (bare or quoted fields, "" in
 * quotes, text after a closing quote, commas and line breaks inside quotes, CRLF, blank lines,
 * columns in any order among others), read back through ktcsv_durations and ktcsv_resources:
 * the rows found are the ones the generator wrote, so the splitter's fields are the table's. */
static uint64_t kt_rng = 0x243F6A8885A308D3ull;
static uint64_t kt_next(void)
{
	kt_rng ^= kt_rng << 13, kt_rng ^= kt_rng >> 7, kt_rng ^= kt_rng << 17;
	return kt_rng;
}

/* Appends s as one CSV field in a random legal spelling. */
static void kt_field(strbuf *o, const char *s)
{
	int special = strpbrk(s, ",\"\r\n") != NULL;
	unsigned how = (unsigned)(kt_next() % 3);
	if (!special && how == 0) {
		sb_adds(o, s);
		return;
	}
	size_t n = strlen(s), cut = n;
	if (how == 2 && n > 1 && !strpbrk(s + n / 2, ",\"\r\n"))
		cut = n / 2; /* "head"tail: the tail follows the closing quote */
	sb_addc(o, '"');
	for (size_t i = 0; i < cut; i++) {
		if (s[i] == '"')
			sb_addc(o, '"');
		sb_addc(o, s[i]);
	}
	sb_addc(o, '"');
	sb_adds(o, s + cut);
}

TEST(ktcsv_random_tables_read_back)
{
	static const char *const names[] = {
	    "k_0", "void f<a, \"b\">(int)", "line\nbreak", "q\"", "plain_kernel", "", "a,b,c",
	    "\r\n"};
	enum { COLS = 16, ROWS = 60 };
	static const char *const cols[COLS] = {
	    "Kernel_Name",	"Start_Timestamp", "End_Timestamp",    "Grid_Size_X",
	    "Grid_Size_Y",	"Grid_Size_Z",	   "Workgroup_Size_X", "Workgroup_Size_Y",
	    "Workgroup_Size_Z", "Dispatch_Id",	   "VGPR_Count",       "Accum_VGPR_Count",
	    "SGPR_Count",	"LDS_Block_Size",  "Scratch_Size",     "Kind, \"odd\""};
	for (int round = 0; round < 200; round++) {
		int perm[COLS];
		for (int c = 0; c < COLS; c++)
			perm[c] = c;
		for (int c = COLS - 1; c > 0; c--) {
			int j = (int)(kt_next() % (uint64_t)(c + 1)), x = perm[c];
			perm[c] = perm[j], perm[j] = x;
		}
		long long v[ROWS][COLS];
		int name[ROWS];
		strbuf o = STRBUF_INIT;
		for (int c = 0; c < COLS; c++) {
			if (c)
				sb_addc(&o, ',');
			kt_field(&o, cols[perm[c]]);
		}
		for (int r = 0; r < ROWS; r++) {
			sb_adds(&o, kt_next() & 1 ? "\r\n" : "\n");
			if (kt_next() % 8 == 0)
				sb_adds(&o, "\n"); /* a blank line */
			name[r] = (int)(kt_next() % 8);
			for (int c = 1; c < COLS; c++)
				v[r][c] = (long long)(kt_next() % 100000);
			v[r][9] = 1000 + r;				 /* dispatch ids: unique */
			v[r][2] = v[r][1] + (long long)(kt_next() % 50); /* end: 0 to 49 after */
			for (int c = 0; c < COLS; c++) {
				char num[32];
				if (c)
					sb_addc(&o, ',');
				snprintf(num, sizeof num, "%lld", v[r][perm[c]]);
				kt_field(&o, perm[c] == 0 ? names[name[r]] : num);
			}
		}
		sb_adds(&o, kt_next() & 1 ? "\n" : "");
		int want_name = (int)(kt_next() % 8);
		int64_t got[ROWS], want[ROWS];
		size_t n_got = 0, n_want = 0;
		for (int r = 0; r < ROWS; r++)
			if (name[r] == want_name && v[r][2] > v[r][1])
				want[n_want++] = v[r][2] - v[r][1];
		fp_err e = FP_ERR_INIT;
		int rc = ktcsv_durations(o.buf, o.len, "r.csv", names[want_name], 0, 0, got, ROWS,
					 &n_got, &e);
		int ok = rc == (int)n_want && n_got == n_want &&
			 memcmp(got, want, n_got * sizeof *got) == 0;
		int pick = (int)(kt_next() % ROWS);
		trace_resources res = {0};
		ok &= ktcsv_resources(o.buf, o.len, "r.csv", 1000 + pick, NULL, &res, &e) == 1 &&
		      res.vgpr == v[pick][10] && res.agpr == v[pick][11] &&
		      res.sgpr == v[pick][12] && res.lds_bytes == v[pick][13] &&
		      res.scratch_bytes == v[pick][14];
		if (!ok)
			t_fail(__FILE__, __LINE__, "round %d: %d rows of '%s' (want %zu), row %d",
			       round, rc, names[want_name], n_want, pick);
		fp_err_clear(&e);
		sb_release(&o);
		if (!ok)
			return;
	}
}
