/* capture_amd.h: the discovery pass (kernel trace + statistics of every kernel the harness
 * launches) and the choice of the kernel to trace. No kernel is ever dropped by a noise list:
 * every discovered kernel is ranked and listed, the recipe's pattern first. */
#include "core/backend/capture_amd.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/tree.h"
#include "base/xalloc.h"
#include "read/amd/kernel_trace_csv.h"
#include "read/amd/rocprof_csv.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *amd_exact_regex(const char *name)
{
	strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '^');
	for (const char *p = name; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			sb_addc(&sb, '\\');
		sb_addc(&sb, *p);
	}
	sb_addc(&sb, '$');
	return sb_detach(&sb);
}

/* rocprofv3 counts iterations 1-based per kernel and traces exactly the listed ones (see
 * docs/capture.md). Two traced dispatches give a run-to-run spread; late ones avoid the
 * cold first call (JIT, caches). 14 or more calls: iterations 6 and 8, the choice behind the
 * corpus recordings; fewer: the middle one and the last one; one or two calls: the last. */
char *amd_auto_iter_range(long long calls)
{
	char buf[64];
	if (calls >= 14)
		snprintf(buf, sizeof buf, "[6, 8]");
	else if (calls >= 3)
		snprintf(buf, sizeof buf, "[%lld, %lld]", calls / 2 + 1, calls);
	else
		snprintf(buf, sizeof buf, "[%lld]", calls >= 1 ? calls : 1);
	return xstrdup(buf);
}

void amd_discovery_release(amd_discovery *d)
{
	free(d->kernel);
	free(d->iter_range);
	jv_free(d->candidates);
	jv_free(d->pass);
	memset(d, 0, sizeof *d);
}

typedef struct cand {
	const char *name;
	long long calls;
	double total, avg;
	int rank; /* 0 exact, 1 fuzzy, 2 other */
} cand;

static int by_rank(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int fuzzy(const recipe *r, const char *kernel, const char *name)
{
	if (strstr(name, kernel))
		return 1;
	for (size_t i = 0; i < r->nkernels; i++) {
		/* "softmax_kernel" -> "softmax": FlyDSL appends _0, _1 ... to the base name */
		char *base = xstrdup(r->kernels[i]);
		char *k = strstr(base, "_kernel");
		if (k && k != base)
			memmove(k, k + 7, strlen(k + 7) + 1);
		int hit = *base && strstr(name, base);
		free(base);
		if (hit)
			return 1;
	}
	return 0;
}

static const char *const match_names[] = {"exact", "fuzzy", "heuristic"};

static int rank_candidates(capture_req *q, const amd_prep *p, const char *path, amd_discovery *d,
			   fp_err *e)
{
	csv_table t;
	if (csv_parse_file(path, &t, e))
		return -1;
	int cn = csv_col(&t, "Name"), cc = csv_col(&t, "Calls"),
	    ct = csv_col(&t, "TotalDurationNs"), ca = csv_col(&t, "AverageNs");
	if (cn < 0)
		cn = csv_col(&t, "KernelName");
	if (cn < 0 && t.ncols) {
		csv_release(&t);
		return fp_fail_input(e, path, 0, "a Name column", "not a kernel_stats.csv header");
	}
	regex_t re;
	int have_re =
	    p->r->kernel_regex && regcomp(&re, p->r->kernel_regex, REG_EXTENDED | REG_NOSUB) == 0;
	cand *c = xcalloc(t.nrows + 1, sizeof *c);
	size_t n = 0;
	for (size_t i = 0; i < t.nrows; i++) {
		const char *name = csv_at(&t, i, cn);
		if (!*name)
			continue;
		c[n].name = name;
		c[n].calls = (long long)csv_num(&t, i, cc, NULL);
		c[n].total = csv_num(&t, i, ct, NULL);
		c[n].avg = csv_num(&t, i, ca, NULL);
		c[n].rank = have_re && regexec(&re, name, 0, NULL, 0) == 0 ? 0
			    : fuzzy(p->r, q->kernel, name)		   ? 1
									   : 2;
		n++;
	}
	if (have_re)
		regfree(&re);
	qsort(c, n, sizeof *c, by_rank);
	d->candidates = jv_array();
	for (size_t i = 0; i < n; i++) {
		jv *o = jv_push(d->candidates, jv_object());
		jv_set_str(o, "name", c[i].name);
		jv_set_int(o, "calls", c[i].calls);
		jv_set_round(o, "total_ns", c[i].total, 0);
		jv_set_round(o, "avg_ns", c[i].avg, 1);
		jv_set_str(o, "match", c[i].rank == 2 ? "none" : match_names[c[i].rank]);
	}
	int rc = 0;
	if (n == 0) {
		rc = fp_fail(e, ERR_NO_KERNEL_DISCOVERED,
			     "the discovery pass of '%s' saw no kernel dispatch", q->kernel);
	} else {
		d->kernel = xstrdup(c[0].name);
		d->confidence = match_names[c[0].rank];
		d->calls = c[0].calls, d->total_ns = c[0].total, d->avg_ns = c[0].avg;
		if (c[0].rank == 2) {
			strbuf w = STRBUF_INIT;
			sb_addf(&w,
				"no discovered kernel matches the recipe of '%s'; chose the "
				"longest-running one, '%s' (heuristic: check data.candidates)",
				q->kernel, c[0].name);
			jv_push(q->warnings, jv_str(sb_str(&w)));
			sb_release(&w);
		}
	}
	free(c);
	csv_release(&t);
	return rc;
}

int amd_discover(capture_req *q, const amd_prep *p, amd_discovery *d, fp_err *e)
{
	memset(d, 0, sizeof *d);
	char *tmp = amd_incoming(q, "discover", e);
	if (!tmp)
		return -1;
	const char *args[] = {"--kernel-trace", "--stats", "-f", "csv", "-d", tmp, "-o",
			      "discover",	NULL};
	proc_result r;
	char *log = NULL;
	int rc = amd_run_pass(q, p, "discover", args, NULL, &r, &log, e);
	char *stats = path_join(tmp, "discover_kernel_stats.csv");
	if (rc == 0) {
		d->pass = jv_object();
		jv_set_round(d->pass, "seconds", r.wall_s, 1);
		jv_set_str(d->pass, "status", proc_status_name(r.status));
		if (r.status == PROC_EXITED)
			jv_set_int(d->pass, "exit_code", r.exit_code);
		jv_set_str(d->pass, "log", log);
		/* rocprofv3 may exit non-zero after writing complete output: judge the files */
		if (!proc_ok(&r) && !(r.status == PROC_EXITED && file_is_reg(stats)))
			rc = amd_pass_error(&r, "rocprofv3 discovery pass", log, e);
		else if (!proc_ok(&r)) {
			char desc[128];
			proc_describe(&r, desc, sizeof desc);
			strbuf w = STRBUF_INIT;
			sb_addf(&w, "rocprofv3 discovery pass %s but wrote its statistics; see %s",
				desc, log);
			jv_push(q->warnings, jv_str(sb_str(&w)));
			sb_release(&w);
		}
		proc_result_release(&r);
	}
	if (rc == 0 && !file_is_reg(stats)) {
		rc = fp_fail(e, ERR_NO_KERNEL_DISCOVERED,
			     "the discovery pass of '%s' wrote no kernel statistics", q->kernel);
		fp_err_extra(e, "log", jv_str(log));
	}
	if (rc == 0 && rank_candidates(q, p, stats, d, e) != 0) {
		rc = -1;
		if (e->code == ERR_NO_KERNEL_DISCOVERED)
			fp_err_extra(e, "log", jv_str(log));
	}
	free(stats);
	if (rc == 0)
		rc = amd_install(q, tmp, "rocprofv3", e);
	if (rc == 0) {
		if (q->iter_range)
			d->iter_range = xstrdup(q->iter_range), d->iter_source = "--iter-range";
		else if (p->r->iter_range)
			d->iter_range = xstrdup(p->r->iter_range), d->iter_source = "recipe";
		else
			d->iter_range = amd_auto_iter_range(d->calls), d->iter_source = "auto";
	}
	tree_remove(tmp);
	free(tmp);
	free(log);
	return rc;
}

char *amd_agent_arch(const char *dir)
{
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	char *arch = NULL;
	for (size_t i = 0; names && i < n && !arch; i++) {
		size_t l = strlen(names[i]);
		if (l < 14 || strcmp(names[i] + l - 14, "agent_info.csv") != 0)
			continue;
		char *path = path_join(dir, names[i]);
		size_t len = 0;
		char *buf = file_read_all(path, &len, &e);
		char out[32];
		if (buf && ktcsv_agent_arch(buf, len, path, out, sizeof out, &e) == 1)
			arch = xstrdup(out);
		fp_err_clear(&e);
		free(buf);
		free(path);
	}
	file_list_free(names, n);
	fp_err_clear(&e);
	return arch;
}
