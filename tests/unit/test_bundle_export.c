/* bundle_export: which dispatch files are copied, copies with checksums, symbolic links
 * refused, the kernel-trace row extraction, path relativisation, tree removal and the swap. */
#include "t.h"

#include "base/fileio.h"
#include "base/tree.h"
#include "base/sha256.h"
#include "core/export/bundle_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *slurp(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char *s = file_read_all(p, &n, &e);
	fp_err_clear(&e);
	free(p);
	return s;
}

TEST(bundle_export_wanted_names)
{
	static const char *yes[] = {
	    "code.json",      "se0_sm1_sl2_wv3.json",  "wstates1.json",	 "wstates4.json",
	    "occupancy.json", "realtime.json",	       "filenames.json", "snapshots.json",
	    "source_0_k.py",  "x_code_object_id_2.out"};
	static const char *no[] = {
	    "stats.csv",    "wstates.json", "wstatesx.json",	     "source_",
	    "se0_sm1.json", "notes.txt",    "x_code_object_id_2.txt"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		if (!bundle_export_wanted(yes[i]))
			t_fail(__FILE__, __LINE__, "%s should be copied", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (bundle_export_wanted(no[i]))
			t_fail(__FILE__, __LINE__, "%s should not be copied", no[i]);
}

TEST(bundle_export_dispatch_copies_and_records)
{
	char *src = path_join(t_tmpdir(), "src");
	char *dst = path_join(t_tmpdir(), "dst/att/big/d");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(src, &e), 0);
	t_put(src, "code.json", "{\"code\":[]}");
	t_put(src, "se0_sm0_sl0_wv0.json", "{}");
	t_put(src, "notes.txt", "not ours");
	char *target = path_join(src, "notes.txt"), *link = path_join(src, "snapshots.json");
	CHECK_INT(symlink(target, link), 0);
	jv *arts = jv_object(), *skipped = jv_array();
	CHECK_INT(bundle_export_dispatch(src, dst, "att/big/d", arts, skipped, &e), 2);
	CHECK_INT(jv_len(skipped), 2); /* notes.txt (not read) and the symbolic link */
	char *s = slurp(dst, "code.json");
	CHECK_STR(s, "{\"code\":[]}");
	free(s);
	char hex[65];
	sha256_hex("{}", 2, hex);
	const jv *a = jv_get(arts, "att/big/d/se0_sm0_sl0_wv0.json");
	CHECK_STR(jv_string(jv_get(a, "sha256")), hex);
	CHECK_INT(jv_i64(jv_get(a, "bytes")), 2);
	char *l2 = path_join(dst, "snapshots.json");
	CHECK(!file_exists(l2));
	/* a second copy onto existing files fails instead of overwriting */
	CHECK_INT(bundle_export_dispatch(src, dst, "att/big/d", arts, skipped, &e), -1);
	CHECK_INT(e.code, ERR_IO_ERROR);
	fp_err_clear(&e);
	jv_free(arts);
	jv_free(skipped);
	free(l2);
	free(target);
	free(link);
	free(src);
	free(dst);
}

TEST(bundle_export_rocprof_takes_one_row)
{
	char *src = path_join(t_tmpdir(), "cap");
	char *out = path_join(t_tmpdir(), "outb");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(src, &e), 0);
	CHECK_INT(file_mkdirs(out, &e), 0);
	const char *hdr =
	    "\"Dispatch_Id\",\"Kernel_Name\",\"VGPR_Count\",\"Accum_VGPR_Count\","
	    "\"SGPR_Count\",\"LDS_Block_Size\",\"Scratch_Size\",\"Workgroup_Size_X\","
	    "\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\","
	    "\"Grid_Size_Z\"\n";
	char csv[1024];
	snprintf(csv, sizeof csv,
		 "%s1,\"other, kernel\",8,0,16,0,0,64,1,1,64,1,1\n"
		 "7,\"k_0\",64,8,32,1024,0,256,1,1,4096,1,1\n"
		 "9,\"k_0\",65,8,32,1024,0,256,1,1,4096,1,1\n",
		 hdr);
	t_put(src, "discover_kernel_trace.csv", csv);
	t_put(src, "big_agent_info.csv", "\"Name\"\n\"gfx950\"\n");
	const char *dirs[] = {src};
	jv *arts = jv_object(), *rec = jv_object();
	CHECK_INT(bundle_export_rocprof(dirs, 1, 7, "k_0", out, arts, rec, &e), 0);
	char *got = slurp(out, "rocprofv3/discover_kernel_trace.csv");
	char want[1024];
	snprintf(want, sizeof want, "%s7,\"k_0\",64,8,32,1024,0,256,1,1,4096,1,1\n", hdr);
	CHECK_STR(got, want);
	CHECK_STR(jv_string(jv_get(jv_get(rec, "kernel_trace"), "row_matched_by")), "dispatch id");
	CHECK_INT(jv_len(jv_get(rec, "agent_info")), 1);
	CHECK(jv_get(arts, "rocprofv3/big_agent_info.csv") != NULL);
	free(got);
	/* no such id: the first row of the kernel, by name */
	char *out2 = path_join(t_tmpdir(), "outb2");
	CHECK_INT(file_mkdirs(out2, &e), 0);
	CHECK_INT(bundle_export_rocprof(dirs, 1, 42, "k_0", out2, arts, rec, &e), 0);
	got = slurp(out2, "rocprofv3/discover_kernel_trace.csv");
	CHECK(got && strstr(got, "\n7,\"k_0\"") && !strstr(got, "\n9,"));
	CHECK_STR(jv_string(jv_get(jv_get(rec, "kernel_trace"), "row_matched_by")), "kernel name");
	free(got);
	jv_free(arts);
	jv_free(rec);
	free(out2);
	free(src);
	free(out);
}

TEST(bundle_export_relativize_paths)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"/t/b/att/x", "att/x"},
	    {"--bundle '/t/b' --tag big", "--bundle '.' --tag big"},
	    {"/t/b", "."},
	    {"/t/bb/x", "/t/bb/x"}, /* another directory that merely starts alike */
	    {"a /t/b/r.md and /t/b/s", "a r.md and s"},
	    {"nothing here", "nothing here"},
	    {"\"/t/b\",\"/t/b.x\"", "\".\",\"/t/b.x\""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t n = 0;
		char *s = bundle_export_relativize(cases[i].in, strlen(cases[i].in), "/t/b", &n);
		CHECK_STR(s, cases[i].out);
		CHECK_INT(n, strlen(s));
		free(s);
	}
	jv *doc = jv_object();
	jv *arr = jv_set(doc, "args", jv_array());
	jv_push(arr, jv_str("/t/b"));
	jv_set_str(doc, "dir", "/t/b/att");
	bundle_export_relativize_jv(doc, "/t/b");
	CHECK_STR(jv_string(jv_at(arr, 0)), ".");
	CHECK_STR(jv_string(jv_get(doc, "dir")), "att");
	jv_free(doc);
}

TEST(bundle_export_swap_and_remove)
{
	char *tmp = path_join(t_tmpdir(), ".new.tmp-1");
	char *fin = path_join(t_tmpdir(), "final");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(tmp, &e), 0);
	t_put(tmp, "v", "1");
	CHECK_INT(bundle_export_swap_in(tmp, fin, 0, &e), 0); /* final absent: a rename */
	CHECK(!file_exists(tmp));
	char *s = slurp(fin, "v");
	CHECK_STR(s, "1");
	free(s);
	CHECK_INT(file_mkdirs(tmp, &e), 0);
	char *sub = path_join(tmp, "deep/er");
	CHECK_INT(file_mkdirs(sub, &e), 0);
	t_put(tmp, "v", "2");
	t_put(sub, "f", "x");
	CHECK_INT(bundle_export_swap_in(tmp, fin, 0, &e), -1); /* not asked to replace */
	CHECK_INT(e.code, ERR_IO_ERROR);
	fp_err_clear(&e);
	s = slurp(fin, "v");
	CHECK_STR(s, "1");
	free(s);
	CHECK_INT(bundle_export_swap_in(tmp, fin, 1, &e), 0); /* final exists: exchanged */
	s = slurp(fin, "v");
	CHECK_STR(s, "2");
	free(s);
	CHECK(!file_exists(tmp)); /* the previous tree is gone */
	CHECK_INT(tree_remove(fin), 0);
	CHECK(!file_exists(fin));
	CHECK_INT(tree_remove(fin), 0); /* absent is fine */
	free(sub);
	free(tmp);
	free(fin);
}

/* Found by libFuzzer: a matching row holding a NUL byte came back cut short (the result is a C
 * string). Such a row is skipped; the next matching one is taken. */
TEST(bundle_export_csv_row_skips_nul_bytes)
{
#define HDR                                                                                        \
	"\"Dispatch_Id\",\"Kernel_Name\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\","      \
	"\"LDS_Block_Size\",\"Scratch_Size\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","           \
	"\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n"
#define ROW "7,\"k_0\",64,8,32,1024,0,256,1,1,4096,1,1\n"
	static const char csv[] = HDR "7,\"k_\0\",64,8,32,1024,0,256,1,1,4096,1,1\n" ROW;
	char *row = bundle_export_csv_row(csv, sizeof csv - 1, "t.csv", 7, NULL);
	CHECK_STR(row, HDR ROW);
	free(row);
	static const char nul_header[] = "\"Dispatch\0_Id\"\n" ROW;
	CHECK(bundle_export_csv_row(nul_header, sizeof nul_header - 1, "t.csv", 7, NULL) == NULL);
#undef HDR
#undef ROW
}
