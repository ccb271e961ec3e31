/* Nsight Compute capture (ncu_capture.h). */
#include "drive/ncu_capture.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "drive/proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const SECTIONS[] = {
    "SourceCounters",
    "WarpStateStats",
    "SpeedOfLight",
    "Occupancy",
    "LaunchStats",
    "MemoryWorkloadAnalysis",
    "ComputeWorkloadAnalysis",
    "SchedulerStats",
};
#define N_SECTIONS (sizeof SECTIONS / sizeof *SECTIONS)

typedef struct export_spec {
	const char *name; /* file in out_dir */
	const char *page, *print_source;
} export_spec;

static const export_spec EXPORTS[] = {
    {"source_sass.csv", "source", "sass"},
    {"source_correlated.csv", "source", "cuda,sass"},
    {"details.csv", "details", NULL},
    {"raw.csv", "raw", NULL},
};
#define N_EXPORTS (sizeof EXPORTS / sizeof *EXPORTS)

jv *ncu_available_kernels(const char *text)
{
	jv *a = jv_array();
	const char *p = text ? strstr(text, "Available Kernels:") : NULL;
	if (!p)
		return a;
	p = strchr(p, '\n');
	while (p && *++p) {
		/* "1. name" lines; the list ends at the first other line */
		const char *q = p;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q == p || q[0] != '.' || q[1] != ' ')
			break;
		q += 2;
		const char *end = strchr(q, '\n');
		size_t n = end ? (size_t)(end - q) : strlen(q);
		while (n && (q[n - 1] == '\r' || q[n - 1] == ' '))
			n--;
		jv_push(a, jv_strn(q, n));
		p = end;
	}
	return a;
}

/* Classifies a finished profile pass whose report is missing or whose status is not 0. */
static int profile_error(const proc_result *r, const char *log, int have_report, fp_err *e)
{
	char *text = file_read_optional(log, NULL);
	const char *t = text ? text : "";
	int rc = 0;
	if (r->status == PROC_NOT_FOUND || r->status == PROC_TIMED_OUT ||
	    r->status == PROC_INTERRUPTED)
		rc = proc_error(r, "ncu", ERR_NCU_MISSING, log, e);
	else if (strstr(t, "ERR_NVGPUCTRPERM"))
		rc = fp_fail(e, ERR_COUNTERS_DENIED,
			     "ncu may not read the GPU performance counters (ERR_NVGPUCTRPERM)");
	else if (strstr(t, "does not exist or is not an executable"))
		rc = fp_fail(e, ERR_PROGRAM_FAILED, "the program to profile is not executable");
	else if (strstr(t, "No kernels were profiled")) {
		rc = fp_fail(e, ERR_KERNEL_NOT_MATCHED,
			     "ncu profiled no kernel matching the filter");
		fp_err_extra(e, "available", ncu_available_kernels(t));
	} else if (!have_report && strstr(t, "The application returned an error code")) {
		const char *c = strstr(t, "The application returned an error code");
		int code = -1;
		sscanf(c, "The application returned an error code (%d)", &code);
		rc = fp_fail(e, ERR_PROGRAM_FAILED,
			     "the program exited with status %d before the kernel was profiled",
			     code);
		fp_err_extra(e, "program_exit_status", jv_int(code));
	} else {
		char how[128];
		proc_describe(r, how, sizeof how);
		rc = fp_fail(e, ERR_PROFILER_FAILED, "ncu %s%s", how,
			     have_report ? "" : " and wrote no report");
	}
	if (!e->extra || !jv_get(e->extra, "log"))
		fp_err_extra(e, "log", jv_str(log));
	free(text);
	return rc;
}

static char **profile_argv(const ncu_capture_req *q, const char *ncu, const char *report,
			   jv *argv_json)
{
	size_t napp = 0;
	while (q->app[napp])
		napp++;
	size_t n = 0, cap = 24 + 2 * N_SECTIONS + napp;
	char **v = xcalloc(cap, sizeof *v);
	v[n++] = xstrdup(ncu);
	v[n++] = xstrdup("--clock-control");
	v[n++] = xstrdup(q->clock_control ? q->clock_control : "none");
	for (size_t i = 0; i < N_SECTIONS; i++) {
		v[n++] = xstrdup("--section");
		v[n++] = xstrdup(SECTIONS[i]);
	}
	v[n++] = xstrdup("--import-source");
	v[n++] = xstrdup("yes");
	v[n++] = xstrdup("-k");
	v[n++] = xstrdup(q->kernel);
	v[n++] = xstrdup("-s");
	v[n++] = xstrfmt("%lld", (long long)(q->launch_skip > 0 ? q->launch_skip : 0));
	v[n++] = xstrdup("-c");
	v[n++] = xstrdup("1");
	v[n++] = xstrdup("-f");
	v[n++] = xstrdup("-o");
	v[n++] = xstrdup(report);
	for (size_t i = 0; i < napp; i++)
		v[n++] = xstrdup(q->app[i]);
	for (size_t i = 0; i < n; i++)
		jv_push(argv_json, jv_str(v[i]));
	return v;
}

static void free_argv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* `ncu --version`: its last non-empty line ("Version 2025.3.1.0 (build ...)"), or NULL. */
static char *ncu_version(const char *ncu, double timeout_s)
{
	const char *argv[] = {ncu, "--version", NULL};
	proc_opts o = {
	    .argv = argv, .timeout_s = timeout_s > 0 ? timeout_s : 60, .capture_max = 4096};
	proc_result r = {0};
	fp_err e = FP_ERR_INIT;
	char *v = NULL;
	if (proc_run(&o, &r, &e) == 0 && proc_ok(&r) && r.out) {
		char *line = NULL;
		for (char *s = strtok(r.out, "\n"); s; s = strtok(NULL, "\n"))
			if (*s)
				line = s;
		if (line)
			v = xstrdup(line);
	}
	proc_result_release(&r);
	fp_err_clear(&e);
	return v;
}

static int export_one(const ncu_capture_req *q, const char *ncu, const char *report,
		      const export_spec *x, double *wall, fp_err *e)
{
	char *final = path_join(q->out_dir, x->name);
	char *tmp = xstrfmt("%s.part", final);
	char *log = xstrfmt("%s/ncu_export_%s.log", q->log_dir, x->page);
	const char *argv[] = {ncu,
			      "-i",
			      report,
			      "--page",
			      x->page,
			      "--csv",
			      x->print_source ? "--print-source" : NULL,
			      x->print_source,
			      NULL};
	proc_opts o = {
	    .argv = argv, .timeout_s = q->timeout_s, .stdout_path = tmp, .stderr_path = log};
	proc_result r = {0};
	int rc = proc_run(&o, &r, e);
	if (!rc && !proc_ok(&r))
		rc = proc_error(&r, "ncu (export)", ERR_NCU_MISSING, log, e);
	if (!rc && rename(tmp, final) != 0)
		rc = fp_fail(e, ERR_IO_ERROR, "%s: %s", final, strerror(errno));
	if (rc)
		remove(tmp);
	*wall += r.wall_s;
	proc_result_release(&r);
	free(final);
	free(tmp);
	free(log);
	return rc;
}

int ncu_capture_run(const ncu_capture_req *q, jv **record, fp_err *e)
{
	*record = NULL;
	char *ncu = proc_which(q->ncu ? q->ncu : "ncu");
	if (!ncu)
		return fp_fail(e, ERR_NCU_MISSING, "%s: not found on PATH (or FLYPROF_NCU)",
			       q->ncu ? q->ncu : "ncu");
	jv *rec = jv_object();
	jv_set_str(rec, "backend", "ncu");
	jv_set_str(rec, "profiler", ncu);
	char *ver = ncu_version(ncu, q->timeout_s);
	jv_set(rec, "version", ver ? jv_str(ver) : jv_null());
	free(ver);
	char *report = path_join(q->out_dir, "report");
	char *rep_file = path_join(q->out_dir, "report.ncu-rep");
	char *log = path_join(q->log_dir, "ncu_profile.log");
	jv *argv_json = jv_set(rec, "argv", jv_array());
	char **argv = profile_argv(q, ncu, report, argv_json);
	jv_set_str(rec, "kernel_filter", q->kernel);
	jv_set_int(rec, "launch_skip", q->launch_skip > 0 ? q->launch_skip : 0);
	jv_set_int(rec, "launch_count", 1);
	jv_set_str(rec, "clock_control", q->clock_control ? q->clock_control : "none");
	remove(rep_file); /* a stale report must not pass for this run's */
	proc_opts o = {.argv = (const char *const *)argv,
		       .timeout_s = q->timeout_s,
		       .stdout_path = log,
		       .stderr_path = log};
	proc_result r = {0};
	int rc = proc_run(&o, &r, e);
	jv *wall = jv_set(rec, "wall_s", jv_object());
	jv_set_round(wall, "profile", r.wall_s, 3);
	if (!rc) {
		int have = file_is_reg(rep_file);
		if (!proc_ok(&r) || !have)
			rc = profile_error(&r, log, have, e);
	}
	if (!rc && r.status == PROC_EXITED && r.exit_code != 0)
		jv_set_int(rec, "program_exit_status", r.exit_code);
	proc_result_release(&r);
	double ex_wall = 0;
	jv *names = jv_set(rec, "exports", jv_array());
	for (size_t i = 0; !rc && i < N_EXPORTS; i++) {
		rc = export_one(q, ncu, rep_file, &EXPORTS[i], &ex_wall, e);
		if (!rc)
			jv_push(names, jv_str(EXPORTS[i].name));
	}
	jv_set_round(wall, "exports", ex_wall, 3);
	jv_set_str(rec, "log", log);
	free_argv(argv);
	free(report);
	free(rep_file);
	free(log);
	free(ncu);
	if (rc) {
		jv_free(rec);
		return -1;
	}
	*record = rec;
	return 0;
}
