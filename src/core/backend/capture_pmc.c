/* amd_counters (capture.h): counter passes that fit the hardware, counter_collection.csv
 * aggregated per pass, derived metrics and counters.json. */
#include "core/backend/capture_amd.h"

#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/strbuf.h"
#include "base/tree.h"
#include "base/xalloc.h"
#include "core/backend/capture_metrics.h"
#include "core/hw/soc.h"
#include "read/amd/rocprof_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The block of a counter: the text before the first '_' (SQ, TCC, GRBM, ...). */
static size_t block_of(const char *c, char *out, size_t n)
{
	size_t l = strcspn(c, "_");
	if (l >= n)
		l = n - 1;
	memcpy(out, c, l);
	out[l] = '\0';
	return l;
}

static long limit_of(const jv *limits, const char *block)
{
	const jv *v = jv_get(limits, block);
	return jv_is_num(v) ? (long)jv_i64(v) : 1;
}

jv *amd_pmc_passes(const jv *counters, const jv *limits, const jv *per_pass)
{
	jv *passes = jv_array();
	for (size_t i = 0; i < jv_len(counters); i++) {
		const char *c = jv_string(jv_at(counters, i));
		if (!c)
			continue;
		char blk[32];
		block_of(c, blk, sizeof blk);
		jv *target = NULL;
		for (size_t k = 0; k < jv_len(passes) && !target; k++) {
			jv *ps = jv_at(passes, k);
			long used = 0;
			for (size_t m = 0; m < jv_len(ps); m++) {
				char b2[32];
				block_of(jv_string(jv_at(ps, m)), b2, sizeof b2);
				used += strcmp(b2, blk) == 0;
			}
			if (used < limit_of(limits, blk))
				target = ps;
		}
		if (!target) {
			target = jv_push(passes, jv_array());
			for (size_t m = 0; m < jv_len(per_pass); m++)
				jv_push(target, jv_copy(jv_at(per_pass, m)));
		}
		int dup = 0;
		for (size_t m = 0; m < jv_len(target); m++)
			dup |= strcmp(jv_string(jv_at(target, m)), c) == 0;
		if (!dup)
			jv_push(target, jv_str(c));
	}
	return passes;
}

/* Per counter: the mean over the pass's dispatches of `kernel`; plus the mean duration. */
static int aggregate(const char *path, const char *kernel, jv *raw, jv *pass_rec, fp_err *e)
{
	csv_table t;
	if (csv_parse_file(path, &t, e))
		return -1;
	int cd = csv_col(&t, "Dispatch_Id"), ck = csv_col(&t, "Kernel_Name"),
	    cn = csv_col(&t, "Counter_Name"), cv = csv_col(&t, "Counter_Value"),
	    cs = csv_col(&t, "Start_Timestamp"), ce = csv_col(&t, "End_Timestamp");
	if (cd < 0 || ck < 0 || cn < 0 || cv < 0) {
		csv_release(&t);
		return fp_fail_input(e, path, 0,
				     "Dispatch_Id, Kernel_Name, Counter_Name, Counter_Value",
				     "not a counter_collection.csv header");
	}
	jv *sums = jv_object(), *ids = jv_array();
	double dur = 0;
	for (size_t r = 0; r < t.nrows; r++) {
		if (strcmp(csv_at(&t, r, ck), kernel) != 0)
			continue;
		int ok = 0;
		double v = csv_num(&t, r, cv, &ok);
		if (!ok) {
			fp_fail_input(e, path, t.row_offset[r], "a number",
				      "Counter_Value '%s' is not a number", csv_at(&t, r, cv));
			jv_free(sums), jv_free(ids), csv_release(&t);
			return -1;
		}
		const char *id = csv_at(&t, r, cd);
		int seen = 0;
		for (size_t k = 0; k < jv_len(ids) && !seen; k++)
			seen = strcmp(jv_string(jv_at(ids, k)), id) == 0;
		if (!seen) {
			jv_push(ids, jv_str(id));
			dur += csv_num(&t, r, ce, NULL) - csv_num(&t, r, cs, NULL);
		}
		const char *name = csv_at(&t, r, cn);
		jv *cur = jv_get(sums, name);
		jv_set(sums, name, jv_double((cur ? jv_num(cur) : 0) + v));
	}
	size_t nd = jv_len(ids);
	for (size_t i = 0; i < jv_len(sums); i++)
		jv_set(raw, jv_key_at(sums, i),
		       jv_round(jv_num(jv_value_at(sums, i)) / (double)nd, 3));
	jv_set_int(pass_rec, "dispatches", (int64_t)nd);
	if (nd)
		jv_set_round(pass_rec, "mean_duration_ns", dur / (double)nd, 1);
	jv_free(sums), jv_free(ids);
	csv_release(&t);
	return 0;
}

/* Agent facts (XCDs, CUs, SIMDs, engine clock) from an agent_info CSV under dir. */
static void agent_facts(const char *dir, amd_agent *a)
{
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	fp_err_clear(&e);
	for (size_t i = 0; names && i < n && !a->known; i++) {
		size_t l = strlen(names[i]);
		if (l < 14 || strcmp(names[i] + l - 14, "agent_info.csv") != 0)
			continue;
		char *path = path_join(dir, names[i]);
		csv_table t;
		if (csv_parse_file(path, &t, &e) == 0) {
			for (size_t r = 0; r < t.nrows && !a->known; r++) {
				if (strcmp(csv_at(&t, r, csv_col(&t, "Agent_Type")), "GPU") != 0)
					continue;
				a->known = 1;
				a->num_xcc = csv_num(&t, r, csv_col(&t, "Num_Xcc"), NULL);
				a->cus = csv_num(&t, r, csv_col(&t, "Cu_Count"), NULL);
				a->simds = csv_num(&t, r, csv_col(&t, "Simd_Count"), NULL);
				a->clk_mhz =
				    csv_num(&t, r, csv_col(&t, "Max_Engine_Clk_Fcompute"), NULL);
			}
			csv_release(&t);
		}
		fp_err_clear(&e);
		free(path);
	}
	file_list_free(names, n);
}

/* kernel + iteration range: from capture.json when it captured this kernel, else a discovery
 * pass of our own. */
static int choose_kernel(capture_req *q, const amd_prep *p, amd_discovery *d, char **arch,
			 fp_err *e)
{
	memset(d, 0, sizeof *d);
	if (bundle_has(q->b, "capture.json")) {
		char *path = path_join(q->b->dir, "capture.json");
		fp_err e2 = FP_ERR_INIT;
		jv *cap = json_parse_file(path, &e2);
		fp_err_clear(&e2);
		free(path);
		const char *rk = jv_string(jv_get(cap, "recipe_kernel"));
		const char *k = jv_string(jv_get(cap, "kernel"));
		const char *ir = jv_string(jv_get(cap, "iter_range"));
		if (rk && k && ir && strcmp(rk, q->kernel) == 0) {
			d->kernel = xstrdup(k);
			d->iter_range = xstrdup(q->iter_range ? q->iter_range : ir);
			d->iter_source = q->iter_range ? "--iter-range" : "capture.json";
			d->confidence = "capture.json";
			if (jv_string(jv_get(cap, "arch")))
				*arch = xstrdup(jv_string(jv_get(cap, "arch")));
		}
		jv_free(cap);
		if (d->kernel)
			return 0;
	}
	return amd_discover(q, p, d, e);
}

int amd_counters(capture_req *q, jv *data, fp_err *e)
{
	amd_prep p;
	amd_discovery d;
	memset(&d, 0, sizeof d);
	char *arch = NULL;
	if (amd_prep_init(q, &p, e) || q->open_bundle(q, e) || choose_kernel(q, &p, &d, &arch, e)) {
		amd_discovery_release(&d);
		amd_prep_release(&p);
		return -1;
	}
	if (q->arch) {
		free(arch);
		arch = xstrdup(q->arch);
	}
	char *rp = path_join(q->b->dir, "rocprofv3");
	if (!arch)
		arch = amd_agent_arch(rp);
	if (!arch && p.r->arch)
		arch = xstrdup(p.r->arch);
	const jv *cs = jv_get(p.recipes.counters, "arch");
	const jv *list = arch ? jv_get(cs, arch) : NULL;
	int rc = 0;
	if (!list) {
		jv *avail = jv_array();
		for (size_t i = 0; jv_type_of(cs) == JV_OBJECT && i < jv_len(cs); i++)
			jv_push(avail, jv_str(jv_key_at(cs, i)));
		rc = fp_fail(e, ERR_BAD_ARGS, "no counter set for architecture %s in %s",
			     arch ? arch : "(unknown: pass --arch)", p.recipes.origin);
		fp_err_extra(e, "available", avail);
	}
	jv *passes = rc ? NULL
			: amd_pmc_passes(list, jv_get(p.recipes.counters, "limits"),
					 jv_get(p.recipes.counters, "per_pass"));
	char *tmp = rc ? NULL : amd_incoming(q, "pmc", e);
	rc = rc || !tmp ? -1 : 0;
	jv *raw = jv_object(), *recs = jv_array();
	char *re = amd_exact_regex(d.kernel);
	for (size_t i = 0; rc == 0 && i < jv_len(passes); i++) {
		const jv *ps = jv_at(passes, i);
		strbuf dir = STRBUF_INIT, name = STRBUF_INIT;
		sb_addf(&dir, "%s/pass_%zu", tmp, i + 1);
		sb_addf(&name, "pmc_%zu", i + 1);
		const char **args = xcalloc(jv_len(ps) + 16, sizeof *args);
		size_t n = 0;
		args[n++] = "--pmc";
		for (size_t k = 0; k < jv_len(ps); k++)
			args[n++] = jv_string(jv_at(ps, k));
		const char *rest[] = {"--kernel-include-regex",
				      re,
				      "--kernel-iteration-range",
				      d.iter_range,
				      "-f",
				      "csv",
				      "-d",
				      sb_str(&dir),
				      "-o",
				      "pmc",
				      NULL};
		for (size_t k = 0; rest[k]; k++)
			args[n++] = rest[k];
		proc_result r;
		char *log = NULL;
		rc = amd_run_pass(q, &p, sb_str(&name), args, p.shape, &r, &log, e);
		char *csv = path_join(sb_str(&dir), "pmc_counter_collection.csv");
		jv *rec = jv_push(recs, jv_object());
		jv_set(rec, "counters", jv_copy(ps));
		if (rc == 0) {
			jv_set_round(rec, "seconds", r.wall_s, 1);
			jv_set_str(rec, "log", log);
			if (!proc_ok(&r) && !(r.status == PROC_EXITED && file_is_reg(csv))) {
				strbuf what = STRBUF_INIT;
				sb_addf(&what, "rocprofv3 counter pass %zu", i + 1);
				rc = amd_pass_error(&r, sb_str(&what), log, e);
				sb_release(&what);
			}
			proc_result_release(&r);
		}
		if (rc == 0 && !file_is_reg(csv)) {
			rc = fp_fail(e, ERR_NO_ARTIFACT,
				     "counter pass %zu wrote no "
				     "counter_collection.csv",
				     i + 1);
			fp_err_extra(e, "log", jv_str(log));
		}
		if (rc == 0) {
			strbuf rel = STRBUF_INIT;
			sb_addf(&rel, "pmc/pass_%zu/pmc_counter_collection.csv", i + 1);
			jv_set_str(rec, "csv", sb_str(&rel));
			sb_release(&rel);
			rc = aggregate(csv, d.kernel, raw, rec, e);
		}
		if (rc == 0 && jv_i64(jv_get(rec, "dispatches")) == 0) {
			rc = fp_fail(
			    e, ERR_NO_ARTIFACT,
			    "counter pass %zu recorded no dispatch of '%s' in iterations %s", i + 1,
			    d.kernel, d.iter_range);
			fp_err_extra(e, "log", jv_str(log));
		}
		free(csv);
		free(log);
		free(args);
		sb_release(&dir);
		sb_release(&name);
	}
	free(re);
	if (rc == 0)
		rc = amd_install(q, tmp, "pmc", e);
	if (tmp)
		tree_remove(tmp);
	free(tmp);
	if (rc == 0) {
		amd_agent ag = {0};
		agent_facts(rp, &ag);
		if (!ag.known) {
			char *pm = path_join(q->b->dir, "pmc/pass_1");
			agent_facts(pm, &ag);
			free(pm);
		}
		soc_table *soc = soc_table_load(e);
		const soc_spec *spec = soc ? soc_lookup(soc, arch) : NULL;
		if (!soc)
			fp_err_clear(e);
		double dur = 0;
		for (size_t i = 0; i < jv_len(recs); i++)
			dur += jv_num(jv_get(jv_at(recs, i), "mean_duration_ns"));
		dur /= (double)(jv_len(recs) ? jv_len(recs) : 1);
		const char *dtype = p.r->dtype ? p.r->dtype : "bf16";
		jv *doc = amd_counter_metrics(raw, &ag, spec, dtype, dur);
		jv_set_str(doc, "kernel", d.kernel);
		jv_set_str(doc, "recipe_kernel", q->kernel);
		jv_set_str(doc, "arch", arch);
		jv_set_str(doc, "iter_range", d.iter_range);
		jv_set_str(doc, "kernel_from", d.confidence);
		jv_set(doc, "passes", jv_copy(recs));
		soc_table_free(soc);
		rc = bundle_write_json(q->b, "counters.json", doc, e);
		if (rc == 0)
			jv_set(data, "counters", doc);
		else
			jv_free(doc);
	}
	jv_free(raw);
	jv_free(recs);
	jv_free(passes);
	free(rp);
	free(arch);
	amd_discovery_release(&d);
	amd_prep_release(&p);
	return rc;
}
