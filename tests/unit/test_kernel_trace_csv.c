/* The kernel-trace CSV reader: quoting, the row of a dispatch id, fallback by kernel name, and
 * BAD_INPUT with the byte offset of a bad field. */
#include "t.h"

#include "read/amd/kernel_trace_csv.h"

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
