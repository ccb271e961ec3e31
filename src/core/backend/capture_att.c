/* amd_capture (capture.h): discovery, then one ATT pass per tag, the dispatch inventory and
 * capture.json. */
#include "core/backend/capture_amd.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/tree.h"
#include "base/xalloc.h"
#include "read/amd/att_code.h"
#include "read/amd/kernel_trace_csv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(capture_req *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(capture_req *q, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jv_push(q->warnings, jv_vstrf(fmt, ap));
	va_end(ap);
}

static int is_wave_file(const char *n)
{
	int a, b, c, d, k = 0;
	return sscanf(n, "se%d_sm%d_sl%d_wv%d.json%n", &a, &b, &c, &d, &k) == 4 && n[k] == '\0';
}

static long count_wave_files(const char *dispatch_dir)
{
	size_t n = 0;
	char **names = file_list_dir(dispatch_dir, &n, NULL);
	long waves = 0;
	for (size_t i = 0; names && i < n; i++)
		waves += is_wave_file(names[i]);
	file_list_free(names, n);
	return waves;
}

/* {dir, dispatch, waves, ins, mapped, hits, empty} for each ui_output_agent_*_dispatch_*. */
static jv *inventory(const char *dir)
{
	jv *inv = jv_array();
	fp_err e = FP_ERR_INIT;
	size_t n = 0;
	char **names = file_list_dir(dir, &n, NULL);
	for (size_t i = 0; names && i < n; i++) {
		long long h, id;
		if (sscanf(names[i], "ui_output_agent_%lld_dispatch_%lld", &h, &id) != 2)
			continue;
		char *d = path_join(dir, names[i]);
		long waves = count_wave_files(d);
		trace_dispatch td;
		trace_dispatch_init(&td);
		long ins = 0, mapped = 0;
		long long hits = 0;
		jv *o = jv_push(inv, jv_object());
		if (att_code_read(d, &td, &e) == 0) {
			for (size_t k = 0; k < td.n_insts; k++) {
				if (td.insts[k].is_label)
					continue;
				ins++;
				mapped += td.insts[k].source && *td.insts[k].source;
				hits += td.insts[k].hits;
			}
		} else {
			jv_set_str(o, "unreadable", e.message ? e.message : "code.json");
			fp_err_clear(&e);
		}
		trace_dispatch_release(&td);
		jv_set_str(o, "dir", names[i]);
		jv_set_int(o, "dispatch", id);
		jv_set_int(o, "waves", waves);
		jv_set_int(o, "ins", ins);
		jv_set_int(o, "mapped", mapped);
		jv_set_int(o, "hits", hits);
		jv_set_bool(o, "empty", waves == 0 || ins == 0 || hits == 0);
		free(d);
	}
	file_list_free(names, n);
	return inv;
}

/* The non-empty dispatch with the most (waves, ins, mapped); ties keep the lowest id. */
static const jv *keep(const jv *inv)
{
	const jv *best = NULL;
	for (size_t i = 0; i < jv_len(inv); i++) {
		const jv *o = jv_at(inv, i);
		if (jv_is_true(jv_get(o, "empty")))
			continue;
		static const char *const keys[] = {"waves", "ins", "mapped", NULL};
		int better = !best;
		for (size_t k = 0; keys[k] && best && !better; k++) {
			int64_t a = jv_i64(jv_get(o, keys[k])), b = jv_i64(jv_get(best, keys[k]));
			if (a != b) {
				better = a > b;
				break;
			}
		}
		if (better)
			best = o;
	}
	return best;
}

static jv *code_objects(const char *dir)
{
	jv *a = jv_array();
	size_t n = 0;
	char **names = file_list_dir(dir, &n, NULL);
	for (size_t i = 0; names && i < n; i++)
		if (strstr(names[i], "_code_object_id_") && strlen(names[i]) > 4 &&
		    strcmp(names[i] + strlen(names[i]) - 4, ".out") == 0)
			jv_push(a, jv_str(names[i]));
	file_list_free(names, n);
	return a;
}

/* The small shape: the first integer of the big one divided by 8 (at least 256), the rest
 * unchanged ("32768,8192,bf16" -> "4096,8192,bf16"). */
static char *shrink(const char *shape)
{
	char *end;
	long long v = strtoll(shape, &end, 10);
	if (end == shape)
		return xstrdup(shape);
	long long s = v / 8 > 256 ? v / 8 : (v < 256 ? v : 256);
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%lld%s", s, end);
	return sb_detach(&sb);
}

static jv *att_job(const amd_prep *p, const amd_discovery *d, const char *outdir)
{
	jv *doc = jv_object();
	jv_set_str(doc, "made_by", "flyprof capture (rocprofv3 reads only \"jobs\")");
	jv *job = jv_push(jv_set(doc, "jobs", jv_array()), jv_object());
	char *re = amd_exact_regex(d->kernel);
	jv_set_str(job, "kernel_include_regex", re);
	free(re);
	jv_set_str(job, "kernel_iteration_range", d->iter_range);
	jv_set_str(job, "output_file", "out");
	jv_set_str(job, "output_directory", outdir);
	jv *fmt = jv_set(job, "output_format", jv_array());
	jv_push(fmt, jv_str("json"));
	jv_push(fmt, jv_str("csv"));
	jv_set_bool(job, "advanced_thread_trace", 1);
	jv_set_int(job, "att_target_cu", p->r->att.target_cu);
	jv_set_str(job, "att_shader_engine_mask", p->r->att.se_mask);
	jv_set_str(job, "att_simd_select", p->r->att.simd_select);
	jv_set_str(job, "att_buffer_size", p->r->att.buffer_size);
	if (p->decoder_dir)
		jv_push(jv_set(job, "att_library_path", jv_array()), jv_str(p->decoder_dir));
	return doc;
}

/* One ATT pass for `tag`: fills t (the capture.json tag record). Returns 0, 1 when every
 * dispatch was an empty shell (t has the inventory), -1 on error. */
static int att_pass(capture_req *q, const amd_prep *p, const amd_discovery *d, const char *tag,
		    const char *shape, jv *t, fp_err *e)
{
	strbuf name = STRBUF_INIT;
	sb_addf(&name, "att_%s", tag);
	char *tmp = amd_incoming(q, sb_str(&name), e);
	if (!tmp) {
		sb_release(&name);
		return -1;
	}
	strbuf jobname = STRBUF_INIT;
	sb_addf(&jobname, "jobs/input_att_%s.json", tag);
	jv *job = att_job(p, d, tmp);
	int rc = bundle_write_json(q->b, sb_str(&jobname), job, e);
	jv_free(job);
	char *jobpath = path_join(q->b->dir, sb_str(&jobname));
	const char *args[] = {"-i", jobpath, NULL};
	proc_result r;
	char *log = NULL;
	if (rc == 0)
		rc = amd_run_pass(q, p, sb_str(&name), args, shape, &r, &log, e);
	jv *inv = NULL;
	if (rc == 0) {
		inv = inventory(tmp);
		jv_set_str(t, "tag", tag);
		jv_set(t, "shape", shape ? jv_str(shape) : jv_null());
		jv_set_str(t, "iter_range", d->iter_range);
		jv_set_str(t, "job", sb_str(&jobname));
		jv_set_str(t, "log", log);
		jv_set_str(t, "status", proc_status_name(r.status));
		if (r.status == PROC_EXITED)
			jv_set_int(t, "capture_rc", r.exit_code);
		jv_set_round(t, "capture_s", r.wall_s, 1);
		if (!proc_ok(&r) && (r.status != PROC_EXITED || jv_len(inv) == 0)) {
			strbuf what = STRBUF_INIT;
			sb_addf(&what, "rocprofv3 ATT pass (tag %s)", tag);
			rc = amd_pass_error(&r, sb_str(&what), log, e);
			sb_release(&what);
		} else if (!proc_ok(&r)) {
			/* rocprofv3 may exit non-zero after decoding finished: the files decide */
			warn(q,
			     "rocprofv3 ATT pass (tag %s) exited %d but wrote %zu dispatch "
			     "director%s; see %s",
			     tag, r.exit_code, jv_len(inv), jv_len(inv) == 1 ? "y" : "ies", log);
		}
		proc_result_release(&r);
	}
	if (rc == 0) {
		const jv *kept = keep(inv);
		jv_set(t, "inventory", jv_copy(inv));
		if (!kept) {
			rc = 1;
		} else {
			strbuf rel = STRBUF_INIT;
			sb_addf(&rel, "att/%s/%s", tag, jv_string(jv_get(kept, "dir")));
			jv_set_str(t, "kept_dir", sb_str(&rel));
			sb_release(&rel);
			jv_set(t, "dispatch",
			       jv_strf("%lld", (long long)jv_i64(jv_get(kept, "dispatch"))));
			jv_set_str(t, "why",
				   "the non-empty dispatch with the most traced waves, then "
				   "instructions, then mapped instructions");
			int64_t ins = jv_i64(jv_get(kept, "ins")),
				m = jv_i64(jv_get(kept, "mapped"));
			jv_set_int(t, "waves", jv_i64(jv_get(kept, "waves")));
			jv_set_int(t, "ins", ins);
			jv_set_int(t, "mapped", m);
			jv_set_round(t, "mapped_pct", ins ? 100.0 * (double)m / (double)ins : 0, 1);
			jv_set(t, "code_objects", code_objects(tmp));
			strbuf dest = STRBUF_INIT;
			sb_addf(&dest, "att/%s", tag);
			rc = amd_install(q, tmp, sb_str(&dest), e);
			sb_release(&dest);
		}
	}
	jv_free(inv);
	tree_remove(tmp);
	free(tmp);
	free(jobpath);
	free(log);
	sb_release(&jobname);
	sb_release(&name);
	return rc;
}

static jv *resources_json(capture_req *q, const char *kernel, jv *warnings)
{
	char *path = path_join(q->b->dir, "rocprofv3/discover_kernel_trace.csv");
	trace_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, NULL};
	fp_err e = FP_ERR_INIT;
	int rc = ktcsv_resources_file(path, -1, kernel, &r, &e);
	jv *o = jv_object();
	if (rc == 1) {
		jv_set_str(o, "source", "discover_kernel_trace.csv");
		const jv_int_field f[] = {{"arch_vgpr", r.vgpr},
					  {"accum_vgpr", r.agpr},
					  {"sgpr", r.sgpr},
					  {"lds_bytes", r.lds_bytes},
					  {"scratch_bytes", r.scratch_bytes},
					  {"workgroup_size", r.wg_size},
					  {"grid_size", r.grid_size}};
		jv_set_ints(o, f, sizeof f / sizeof f[0]);
		jv_set_str(o, "note",
			   "VGPR_Count of the kernel trace reads about half of what "
			   "the ISA uses on gfx950 (docs/facts-rocprofv3.md); "
			   "`report` takes registers from the code object or the ISA");
	} else {
		jv_push(warnings, jv_strf("kernel resources not read from %s: %s", path,
					  rc < 0 ? e.message : "no row of that kernel"));
	}
	fp_err_clear(&e);
	free(path);
	return o;
}

int amd_capture(capture_req *q, jv *data, fp_err *e)
{
	amd_prep p;
	amd_discovery d;
	memset(&d, 0, sizeof d);
	if (amd_prep_init(q, &p, e)) {
		amd_prep_release(&p);
		return -1;
	}
	int rc = q->open_bundle(q, e);
	if (rc == 0)
		rc = amd_discover(q, &p, &d, e);
	if (rc) {
		if (d.candidates)
			fp_err_extra(e, "candidates", jv_copy(d.candidates));
		amd_discovery_release(&d);
		amd_prep_release(&p);
		return -1;
	}
	bundle_set_meta(q->b, "kernel", jv_str(q->kernel));
	bundle_set_meta(q->b, "backend", jv_str("rocprofv3"));
	jv *cap = jv_object();
	jv_set_str(cap, "made_by", "flyprof capture");
	jv_set_str(cap, "kernel", d.kernel);
	jv_set_str(cap, "recipe_kernel", q->kernel);
	jv_set_str(cap, "match_confidence", d.confidence);
	jv_set_str(cap, "recipe_source", p.recipe_source);
	jv_set_int(cap, "calls", d.calls);
	jv_set_round(cap, "avg_ns", d.avg_ns, 1);
	jv_set_round(cap, "total_ns", d.total_ns, 0);
	jv_set_str(cap, "iter_range", d.iter_range);
	jv_set_str(cap, "iter_range_source", d.iter_source);
	jv_set(cap, "discovery", jv_copy(d.pass));
	jv *cands = jv_set(cap, "candidates", jv_array());
	size_t nc = jv_len(d.candidates);
	for (size_t i = 0; i < nc && i < 10; i++)
		jv_push(cands, jv_copy(jv_at(d.candidates, i)));
	jv_set_int(cap, "candidates_total", (int64_t)nc);
	jv_set(cap, "invocation", amd_prep_json(&p));
	jv *tags = jv_set(cap, "tags", jv_object());
	int both = strcmp(q->tag, "both") == 0;
	const char *list[3] = {both ? "small" : q->tag, both ? "big" : NULL, NULL};
	if (both && !p.shape)
		warn(q, "--tag both without a shape variable: small and big run the same shape");
	size_t empty = 0, ntags = 0;
	jv *empty_inv = jv_object();
	for (size_t i = 0; list[i] && rc == 0; i++, ntags++) {
		char *shape = NULL;
		if (p.shape)
			shape = strcmp(list[i], "small") == 0 ? shrink(p.shape) : xstrdup(p.shape);
		jv *t = jv_object();
		int r = att_pass(q, &p, &d, list[i], shape, t, e);
		free(shape);
		if (r == 1) {
			empty++;
			jv_set_str(t, "error", "empty_att");
			jv_set(empty_inv, list[i], jv_copy(jv_get(t, "inventory")));
			warn(q,
			     "tag %s: every ATT dispatch was an empty shell (no wave on the target "
			     "CU?)",
			     list[i]);
		}
		jv_set(tags, list[i], t);
		rc = r < 0 ? -1 : 0;
	}
	if (rc == 0 && empty == ntags) {
		rc = fp_fail(e, ERR_EMPTY_ATT,
			     "every ATT dispatch of '%s' (%s) was an empty shell; nothing was kept",
			     d.kernel, d.iter_range);
		fp_err_extra(e, "inventory", jv_copy(empty_inv));
	}
	jv_free(empty_inv);
	if (rc == 0) {
		jv_set(cap, "resources", resources_json(q, d.kernel, q->warnings));
		char *arch = q->arch ? xstrdup(q->arch) : NULL;
		for (size_t i = 0; list[i] && !arch; i++) {
			strbuf dir = STRBUF_INIT;
			sb_addf(&dir, "%s/att/%s", q->b->dir, list[i]);
			arch = amd_agent_arch(sb_str(&dir));
			sb_release(&dir);
		}
		if (!arch) {
			char *dir = path_join(q->b->dir, "rocprofv3");
			arch = amd_agent_arch(dir);
			free(dir);
		}
		jv_set(cap, "arch", arch ? jv_str(arch) : jv_null());
		if (arch)
			bundle_set_meta(q->b, "arch", jv_str(arch));
		free(arch);
		rc = bundle_write_json(q->b, "capture.json", cap, e);
	}
	if (rc == 0) {
		jv_set(data, "capture", cap);
		cap = NULL;
	}
	jv_free(cap);
	amd_discovery_release(&d);
	amd_prep_release(&p);
	return rc;
}
