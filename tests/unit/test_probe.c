/* Probe parsers (src/drive/probe_parse.c) and the probes against the stand-ins in
 * <build>/fake: rocprofv3 --version, rocminfo, nvidia-smi, ncu, decoder search, build tree. */
#include "t.h"

#include "drive/probe.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(probe_parse_versions)
{
	char *v = probe_parse_rocprof_version("    version: 1.1.0\n    git_revision: abc\n");
	CHECK_STR(v, "1.1.0");
	free(v);
	v = probe_parse_rocprof_version("rocprofv3 0.6.0-rc1 build\n");
	CHECK_STR(v, "0.6.0");
	free(v);
	v = probe_parse_rocprof_version("no digits here\nx1.2\n");
	CHECK(v == NULL);
	free(v);
	v = probe_parse_ncu_version("NVIDIA (R) Nsight Compute\nCopyright (c) 2018-2025\n"
				    "Version 2025.1.0.0 (build 35237305) (public-release)\n");
	CHECK_STR(v, "2025.1.0.0");
	free(v);
}

TEST(probe_parse_rocminfo_agents)
{
	const char *text =
	    "*******\nAgent 1\n*******\n  Name:  AMD EPYC\n  Marketing Name: "
	    "AMD EPYC\n  Device Type: CPU\n  Compute Unit: 64\n"
	    "*******\nAgent 2\n*******\n  Name:  gfx942\n  Marketing Name: AMD "
	    "Instinct MI300X\n  Device Type: GPU\n  Compute Unit: 304\n"
	    "  ISA Info:\n    ISA 1\n      Name: amdgcn-amd-amdhsa--gfx942:sramecc+\n"
	    "*******\nAgent 3\n*******\n  Name: amdgcn-amd-amdhsa--gfx950:xnack-\n"
	    "  Device Type: GPU\n";
	probe_gpus g = {0};
	probe_parse_rocminfo(text, &g);
	CHECK_INT(g.n, 2);
	if (g.n == 2) {
		CHECK_STR(g.v[0].arch, "gfx942");
		CHECK_STR(g.v[0].name, "AMD Instinct MI300X");
		CHECK_INT(g.v[0].cus, 304);
		CHECK_STR(g.v[1].arch, "gfx950");
		CHECK(g.v[1].name == NULL);
	}
	probe_gpus_release(&g);
}

TEST(probe_parse_nvidia_smi_lines)
{
	probe_gpus g = {0};
	probe_parse_nvidia_smi("NVIDIA H200, 9.0\nNVIDIA A100-SXM4-80GB, 8.0\nTesla T4, [N/A]\n"
			       "garbage line\n",
			       &g);
	CHECK_INT(g.n, 3);
	if (g.n == 3) {
		CHECK_STR(g.v[0].arch, "sm_90");
		CHECK_STR(g.v[0].name, "NVIDIA H200");
		CHECK_STR(g.v[1].arch, "sm_80");
		CHECK(g.v[2].arch == NULL);
	}
	probe_gpus_release(&g);
}

/* <build dir>/fake/<name> beside this test binary, or NULL. */
static const char *fake(const char *name)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof path, "%s/fake/%s", exe, name);
	return access(path, X_OK) == 0 ? path : NULL;
}

TEST(probe_against_stand_ins)
{
	if (!fake("rocprofv3") || !fake("rocminfo"))
		SKIP("stand-ins not built");
	probe_tool t;
	probe_gpus g = {0};
	setenv("FLYPROF_ROCPROFV3", fake("rocprofv3"), 1);
	probe_rocprofv3(&t, 10);
	CHECK(t.ran_ok);
	CHECK_STR(t.version, "1.1.0");
	probe_tool_release(&t);
	setenv("FAKE_ROCPROFV3_MODE", "fail", 1);
	probe_rocprofv3(&t, 10);
	CHECK(!t.ran_ok);
	CHECK(t.path != NULL && t.detail && strstr(t.detail, "exited 1"));
	probe_tool_release(&t);
	setenv("FAKE_ROCPROFV3_MODE", "hang", 1);
	probe_rocprofv3(&t, 0.3);
	CHECK(t.detail && strstr(t.detail, "timed out"));
	probe_tool_release(&t);
	unsetenv("FAKE_ROCPROFV3_MODE");
	unsetenv("FLYPROF_ROCPROFV3");
	setenv("FLYPROF_ROCMINFO", fake("rocminfo"), 1);
	setenv("FAKE_ROCMINFO_GPUS", "2", 1);
	probe_rocminfo(&t, &g, 10);
	CHECK_INT(g.n, 2);
	CHECK_STR(g.n ? g.v[0].arch : NULL, "gfx950");
	probe_tool_release(&t);
	probe_gpus_release(&g);
	unsetenv("FAKE_ROCMINFO_GPUS");
	unsetenv("FLYPROF_ROCMINFO");
}

TEST(probe_decoder_and_build_tree)
{
	const char *dir = t_tmpdir();
	char lib[512], cmd[1200];
	snprintf(lib, sizeof lib, "%s/lib", dir);
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s' '%s/wt/build-fly/python_packages/flydsl' && touch "
		 "'%s/librocprof-trace-decoder.so.0'",
		 lib, dir, lib);
	CHECK_INT(system(cmd), 0);
	char list[1200];
	snprintf(list, sizeof list, "/nonexistent:%s", lib);
	setenv("FLYPROF_DECODER_PATH", list, 1);
	probe_decoder d;
	probe_decoder_find(&d);
	CHECK(d.path && strstr(d.path, "librocprof-trace-decoder.so.0"));
	CHECK_STR(jv_string(jv_at(d.searched, 0)), "/nonexistent");
	probe_decoder_release(&d);
	unsetenv("FLYPROF_DECODER_PATH");
	char wt[600];
	snprintf(wt, sizeof wt, "%s/wt", dir);
	probe_build b;
	probe_build_tree(&b, wt);
	CHECK(b.packages_exists && b.flydsl_exists && !b.mlir_exists);
	probe_build_release(&b);
	probe_build_tree(&b, NULL);
	CHECK(b.worktree == NULL && !b.packages_exists);
	probe_build_release(&b);
}
