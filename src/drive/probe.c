/* Running the probes of probe.h under the process runner. Output is captured into a bounded
 * buffer (64 KiB: rocminfo on an 8-GPU node prints about 30 KiB). */
#include "drive/probe.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "drive/proc.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_CAPTURE (64 * 1024)

/* Runs `exe args...` (exe from env var or default name) and fills t; returns the captured
 * stdout (owned) when it exited 0, else NULL with t->detail set. */
static char *run_tool(probe_tool *t, const char *name, const char *env, const char *const *args,
		      double timeout_s)
{
	memset(t, 0, sizeof *t);
	t->name = name;
	t->env = env;
	const char *exe = getenv(env);
	if (!exe || !*exe)
		exe = name;
	const char *argv[8] = {exe};
	for (size_t i = 0; args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	proc_opts o = {.argv = argv, .timeout_s = timeout_s, .capture_max = PROBE_CAPTURE};
	proc_result r;
	fp_err e = FP_ERR_INIT;
	if (proc_run(&o, &r, &e) < 0) {
		t->detail = xstrdup(e.message ? e.message : "could not run");
		fp_err_clear(&e);
		return NULL;
	}
	t->path = r.path ? xstrdup(r.path) : NULL;
	char *out = NULL;
	if (proc_ok(&r)) {
		t->ran_ok = 1;
		out = r.out;
		r.out = NULL;
	} else {
		char desc[160];
		proc_describe(&r, desc, sizeof desc);
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s: %s", exe, desc);
		t->detail = sb_detach(&sb);
	}
	proc_result_release(&r);
	return out;
}

void probe_rocprofv3(probe_tool *t, double timeout_s)
{
	const char *args[] = {"--version", NULL};
	char *out = run_tool(t, "rocprofv3", "FLYPROF_ROCPROFV3", args, timeout_s);
	if (out) {
		t->version = probe_parse_rocprof_version(out);
		if (!t->version)
			t->detail = xstrdup("--version printed no version number");
	}
	free(out);
}

void probe_ncu(probe_tool *t, double timeout_s)
{
	const char *args[] = {"--version", NULL};
	char *out = run_tool(t, "ncu", "FLYPROF_NCU", args, timeout_s);
	if (out) {
		t->version = probe_parse_ncu_version(out);
		if (!t->version)
			t->detail = xstrdup("--version printed no version number");
	}
	free(out);
}

void probe_rocminfo(probe_tool *t, probe_gpus *g, double timeout_s)
{
	const char *args[] = {NULL};
	char *out = run_tool(t, "rocminfo", "FLYPROF_ROCMINFO", args, timeout_s);
	if (out)
		probe_parse_rocminfo(out, g);
	free(out);
}

void probe_nvidia_smi(probe_tool *t, probe_gpus *g, double timeout_s)
{
	const char *args[] = {"--query-gpu=name,compute_cap", "--format=csv,noheader", NULL};
	char *out = run_tool(t, "nvidia-smi", "FLYPROF_NVIDIA_SMI", args, timeout_s);
	if (out)
		probe_parse_nvidia_smi(out, g);
	free(out);
}

/* Looks for librocprof-trace-decoder.so* directly inside dir. */
static char *decoder_in(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char *found = NULL;
	struct dirent *de;
	while (!found && (de = readdir(d)))
		if (strncmp(de->d_name, "librocprof-trace-decoder.so", 27) == 0) {
			char *p = path_join(dir, de->d_name);
			if (file_exists(p))
				found = p;
			else
				free(p);
		}
	closedir(d);
	return found;
}

/* Adds each entry of a colon-separated list to the search array. */
static void add_dirs(jv *arr, const char *list)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");
		if (n)
			jv_push(arr, jv_strn(list, n));
		list += n + (list[n] ? 1 : 0);
	}
}

void probe_decoder_find(probe_decoder *d)
{
	memset(d, 0, sizeof *d);
	d->searched = jv_array();
	add_dirs(d->searched, getenv("FLYPROF_DECODER_PATH"));
	add_dirs(d->searched, getenv("ROCPROF_ATT_LIBRARY_PATH"));
	add_dirs(d->searched, getenv("LD_LIBRARY_PATH"));
	const char *rocm = getenv("ROCM_PATH");
	if (rocm && *rocm) {
		char *lib = path_join(rocm, "lib");
		jv_push(d->searched, jv_str(lib));
		free(lib);
	}
	jv_push(d->searched, jv_str("/opt/rocm/lib"));
	for (size_t i = 0; !d->path && i < jv_len(d->searched); i++)
		d->path = decoder_in(jv_string(jv_at(d->searched, i)));
}

void probe_build_tree(probe_build *b, const char *worktree)
{
	memset(b, 0, sizeof *b);
	if (!worktree || !*worktree)
		return;
	b->worktree = xstrdup(worktree);
	b->packages = path_join(worktree, "build-fly/python_packages");
	b->packages_exists = file_is_dir(b->packages);
	char *fly = path_join(b->packages, "flydsl");
	char *mlir = path_join(fly, "_mlir");
	b->flydsl_exists = file_is_dir(fly);
	b->mlir_exists = file_is_dir(mlir);
	free(fly);
	free(mlir);
}

void probe_tool_release(probe_tool *t)
{
	if (!t)
		return;
	free(t->path);
	free(t->version);
	free(t->detail);
	memset(t, 0, sizeof *t);
}

void probe_gpus_release(probe_gpus *g)
{
	for (size_t i = 0; g && i < g->n; i++) {
		free(g->v[i].arch);
		free(g->v[i].name);
	}
	if (g) {
		free(g->v);
		memset(g, 0, sizeof *g);
	}
}

void probe_decoder_release(probe_decoder *d)
{
	if (!d)
		return;
	free(d->path);
	jv_free(d->searched);
	memset(d, 0, sizeof *d);
}

void probe_build_release(probe_build *b)
{
	if (!b)
		return;
	free(b->worktree);
	free(b->packages);
	memset(b, 0, sizeof *b);
}

static jv *str_or_null(const char *s)
{
	return s ? jv_str(s) : jv_null();
}

jv *probe_tool_json(const probe_tool *t)
{
	jv *o = jv_object();
	jv_set_bool(o, "found", t->path != NULL);
	jv_set(o, "path", str_or_null(t->path));
	jv_set_bool(o, "ran_ok", t->ran_ok);
	jv_set(o, "version", str_or_null(t->version));
	jv_set(o, "detail", str_or_null(t->detail));
	jv_set_str(o, "override", t->env);
	return o;
}

jv *probe_gpus_json(const probe_gpus *g)
{
	jv *a = jv_array();
	for (size_t i = 0; i < g->n; i++) {
		jv *o = jv_push(a, jv_object());
		jv_set_int(o, "index", (int64_t)i);
		jv_set(o, "arch", str_or_null(g->v[i].arch));
		jv_set(o, "name", str_or_null(g->v[i].name));
		if (g->v[i].cus)
			jv_set_int(o, "cus", g->v[i].cus);
	}
	return a;
}
