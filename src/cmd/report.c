/* `report`: ranked bubble -> knob recommendations with evidence, report.json, headlines.json,
 * REPORT.md (and --sarif FILE). Runs on every bundle kind (analysis_input.h); absent optional
 * inputs (capture.json, counters.json, tile.json, resources for theoretical occupancy) become
 * warnings and are listed under "missing" instead of failing. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/amd/dispatch_select.h"
#include "core/analysis/isa_facts.h"
#include "core/analysis/launch_geometry.h"
#include "core/analysis/roofline.h"
#include "core/analysis/wave_facts.h"
#include "core/diagnose/diff.h"
#include "core/diagnose/kernel_traits.h"
#include "core/hw/occupancy.h"
#include "core/diagnose/report.h"
#include "core/hw/soc.h"
#include "core/nvidia/ncu_findings.h"
#include "core/diagnose/evidence_loc.h"
#include "base/json/json_write.h"
#include "out/report_md.h"
#include "out/sarif.h"
#include "read/amd/codeobj_load.h"
#include "read/amd/kernel_trace_csv.h"
#include "cmd/analysis_input.h"
#include "cmd/report_html_out.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIATION_MAX_DISPATCHES 5 /* the analysed one plus up to 4 others */

const opt_spec report_opts[] = {
    {"sarif", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "also write the recommendations as SARIF 2.1.0 to FILE (code annotations on .py lines)"},
    {"threads", 0, OPT_INT, "N", "0", NULL, 1, "wave-file parser threads (0: one per online core)"},
    OPT_END,
};

/* Inputs gathered for report_build; everything owned here. */
typedef struct gathered {
	stall_profile profile; /* the live profile (borrows the trace) and its bubbles object */
	jv *bubbles, *counters, *tile, *occupancy, *variation, *missing, *sources;
	kernel_traits traits;
	jv *buckets;
	jv *facts;	      /* isa_facts, launch_geometry, ... (docs/diagnosis.md) */
	jv *registers;	      /* the ISA's register counts against the resources */
	soc_table *soc;	      /* loaded when the architecture is known */
	const soc_spec *spec; /* the architecture's SoC entry, or NULL */
	jv *ncu;	      /* NVIDIA findings (ncu_findings.h) or NULL */
	char *repro;
	char arch[32]; /* from the capture's agent-info CSV when nothing else names it */
	wave_pass_timeline timeline; /* REPORT.html's, from the bubbles pass */
	jv *wave_facts, *exposed;    /* from the bubbles pass (AMD), or NULL */
	jv *csvs;		     /* the capture's CSV paths (capture_csvs), listed once */
	struct kt_text *kt;	     /* kernel-trace CSVs read (kt_read), for both their readers */
	size_t n_kt, cap_kt;
} gathered;

/* A kernel-trace CSV as read once: the resources and the durations both look in it, and it
 * can be the largest file report reads outside the trace (3 MB for the corpus's
 * fused_rope_cache: reading and splitting it twice was half of report's time there). Read as
 * INPUT_CSV for both readers (the durations took it as INPUT_ANY before; the same 1 GiB
 * default limit). */
struct kt_text {
	char *path;
	char *buf; /* NULL when it could not be read (err says why) */
	size_t len;
	fp_err err;
};

static const struct kt_text *kt_read(gathered *g, const char *path)
{
	for (size_t i = 0; i < g->n_kt; i++)
		if (strcmp(g->kt[i].path, path) == 0)
			return &g->kt[i];
	g->kt = xgrow(g->kt, &g->cap_kt, g->n_kt + 1, sizeof *g->kt);
	struct kt_text *t = &g->kt[g->n_kt++];
	t->path = xstrdup(path);
	t->len = 0;
	t->err = (fp_err)FP_ERR_INIT;
	t->buf = input_read_all(path, INPUT_CSV, &t->len, &t->err);
	return t;
}

static void gathered_release(gathered *g)
{
	profile_release(&g->profile);
	jv_free(g->bubbles);
	jv_free(g->counters);
	jv_free(g->tile);
	jv_free(g->occupancy);
	jv_free(g->variation);
	jv_free(g->missing);
	jv_free(g->sources);
	jv_free(g->buckets);
	jv_free(g->facts);
	jv_free(g->registers);
	soc_table_free(g->soc);
	jv_free(g->ncu);
	free(g->repro);
	wave_pass_timeline_release(&g->timeline);
	jv_free(g->wave_facts);
	jv_free(g->exposed);
	jv_free(g->csvs);
	for (size_t i = 0; i < g->n_kt; i++) {
		free(g->kt[i].path);
		free(g->kt[i].buf);
		fp_err_clear(&g->kt[i].err);
	}
	free(g->kt);
}

static void missing(cmd_ctx *ctx, gathered *g, const char *what, const char *consequence)
{
	jv_push(g->missing, jv_strf("%s: %s", what, consequence));
	ctx_warn(ctx, "%s: %s", what, consequence);
}

/* An optional JSON artifact of a flyprof bundle; absent -> NULL and a warning. */
static jv *optional_json(cmd_ctx *ctx, analysis_input *in, gathered *g, const char *name,
			 const char *consequence)
{
	if (in->src.kind == BUNDLE_FLYPROF && bundle_has(&in->src, name)) {
		fp_err e = FP_ERR_INIT;
		jv *v = bundle_read_json(&in->src, name, "report", &e);
		if (v)
			return v;
		ctx_warn(ctx, "%s unreadable (%s): ignored", name, e.message);
		fp_err_clear(&e);
	}
	missing(ctx, g, name, consequence);
	return NULL;
}

static int names_csv(const char *name, void *unused)
{
	(void)unused;
	size_t l = strlen(name);
	return l >= 4 && strcmp(name + l - 4, ".csv") == 0;
}

/* The rocprofv3 CSVs of the capture whose name ends in `suffix`: in <bundle>/rocprofv3/,
 * <bundle>/ and, for a raw dispatch directory, the rocprofv3/ folder three levels up
 * (<kernel>/att/<tag>/ui_output_*). Returns an array of paths (jv strings), sorted per folder.
 * The folders are listed once per run, for their CSVs only (g->csvs): a raw dispatch directory
 * holds thousands of wave files and three questions are asked of it. */
static jv *capture_csvs(const analysis_input *in, gathered *g, const char *suffix)
{
	if (!g->csvs) {
		char *dirs[3] = {path_join(in->src.dir, "rocprofv3"), xstrdup(in->src.dir), NULL};
		if (in->src.kind == BUNDLE_DISPATCH)
			dirs[2] = path_join(in->src.dir, "../../../rocprofv3");
		g->csvs = jv_array();
		/* the dispatch's own directory was listed once already (backend_dispatch.listing,
		 * sorted as file_list_matching sorts): its names are asked, not walked again */
		file_listing *seen = in->disp.listing.dir && !strcmp(in->disp.listing.dir, dirs[1])
					 ? (file_listing *)&in->disp.listing
					 : NULL;
		for (size_t d = 0; d < 3; d++) {
			size_t n = 0;
			fp_err e = FP_ERR_INIT;
			char **names = NULL;
			if (d == 1 && seen) {
				char **all = file_listing_names(seen, &n, &e);
				for (size_t i = 0; all && i < n; i++)
					if (names_csv(all[i], NULL)) {
						char *p = path_join(dirs[d], all[i]);
						jv_push(g->csvs, jv_str(p));
						free(p);
					}
				n = 0;
			} else if (dirs[d] && file_is_dir(dirs[d])) {
				names = file_list_matching(dirs[d], names_csv, NULL, &n, &e);
			}
			for (size_t i = 0; i < n; i++) {
				char *p = path_join(dirs[d], names[i]);
				jv_push(g->csvs, jv_str(p));
				free(p);
			}
			file_list_free(names, n);
			fp_err_clear(&e);
			free(dirs[d]);
		}
	}
	jv *out = jv_array();
	size_t sl = strlen(suffix);
	for (size_t i = 0; i < jv_len(g->csvs); i++) {
		const char *p = jv_string(jv_at(g->csvs, i));
		const char *name = path_base(p);
		size_t l = strlen(name);
		if (l >= sl && strcmp(name + l - sl, suffix) == 0)
			jv_push(out, jv_str(p));
	}
	return out;
}

/* Resources from a kernel-trace CSV of the capture, when the code object gave none. */
static void csv_resources(cmd_ctx *ctx, analysis_input *in, gathered *g)
{
	jv *files = capture_csvs(in, g, "kernel_trace.csv");
	long long id = dispatch_id_of(path_base(in->choice->dir));
	for (size_t i = 0; i < jv_len(files) && !in->trace->res.source; i++) {
		fp_err e = FP_ERR_INIT;
		const char *p = jv_string(jv_at(files, i));
		const struct kt_text *t = kt_read(g, p);
		if (!t->buf)
			ctx_warn(ctx, "%s ignored: %s", p, t->err.message);
		else if (ktcsv_resources(t->buf, t->len, p, id, in->trace->kernel, &in->trace->res,
					 &e) < 0)
			ctx_warn(ctx, "%s ignored: %s", p, e.message);
		fp_err_clear(&e);
	}
	jv_free(files);
}

/* The processor from an agent-info CSV of the capture; 1 when found. */
static int csv_arch(cmd_ctx *ctx, const analysis_input *in, gathered *g, char *out, size_t outsz)
{
	jv *files = capture_csvs(in, g, "agent_info.csv");
	int found = 0;
	for (size_t i = 0; i < jv_len(files) && !found; i++) {
		fp_err e = FP_ERR_INIT;
		size_t len = 0;
		const char *p = jv_string(jv_at(files, i));
		char *buf = file_read_all(p, &len, &e);
		if (buf && (found = ktcsv_agent_arch(buf, len, p, out, outsz, &e)) < 0)
			ctx_warn(ctx, "%s ignored: %s", p, e.message);
		found = found > 0;
		free(buf);
		fp_err_clear(&e);
	}
	jv_free(files);
	return found;
}

static jv *theoretical(cmd_ctx *ctx, gathered *g, const trace_dispatch *t, const char *arch)
{
	fp_err e = FP_ERR_INIT;
	g->soc = arch ? soc_table_load(&e) : NULL;
	const soc_spec *s = g->spec = g->soc ? soc_lookup(g->soc, arch) : NULL;
	occ_result r;
	jv *out = NULL;
	if (s && occ_theoretical(s, &t->res, &r) == 0) {
		out = occ_to_json(&r);
		jv_set_int(out, "max_waves_per_simd", s->max_waves_per_simd);
		if (g->registers)
			jv_set(out, "registers", jv_copy(g->registers));
	} else
		missing(ctx, g, "theoretical occupancy",
			!arch ? "architecture unknown (pass --arch)"
			: !s  ? "architecture not in the SoC table"
			      : "kernel resources (workgroup size, registers, LDS) unknown");
	fp_err_clear(&e);
	return out;
}

/* The register counts the ISA names, merged into the resources (the larger wins, with a
 * warning naming both): on gfx950 the kernel-trace CSV's VGPR_Count is about half of it. */
static void isa_registers(cmd_ctx *ctx, gathered *g, analysis_input *in)
{
	if (analysis_vendor(in) == VENDOR_NVIDIA)
		return;
	isa_regs ir;
	isa_regs_scan(in->trace, &ir);
	g->registers = jv_object();
	jv *warn = jv_array();
	isa_resources_merge(&in->trace->res, &ir, g->registers, warn);
	for (size_t i = 0; i < jv_len(warn); i++)
		ctx_warn(ctx, "%s", jv_string(jv_at(warn, i)));
	jv_free(warn);
}

#define DURATIONS_MAX 4096

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median duration of this kernel's launches with the traced shape in the capture's
 * kernel-trace CSVs (the ATT run itself is slowed by tracing). 0 when none. */
static double kernel_duration(cmd_ctx *ctx, const analysis_input *in, gathered *g, size_t *rows,
			      char *from, size_t fromsz)
{
	jv *files = capture_csvs(in, g, "kernel_trace.csv");
	int64_t *ns = xcalloc(DURATIONS_MAX, sizeof *ns);
	size_t n = 0;
	*rows = 0;
	from[0] = '\0';
	for (size_t i = 0; i < jv_len(files); i++) {
		fp_err e = FP_ERR_INIT;
		size_t before = n;
		const char *p = jv_string(jv_at(files, i));
		const struct kt_text *t = kt_read(g, p);
		if (t->buf &&
		    ktcsv_durations(t->buf, t->len, p, in->trace->kernel, in->trace->res.grid_size,
				    in->trace->res.wg_size, ns, DURATIONS_MAX, &n, &e) < 0)
			ctx_warn(ctx, "%s ignored for the roofline: %s", p, e.message);
		if (n > before && !from[0])
			snprintf(from, fromsz, "%s", path_base(p));
		fp_err_clear(&e);
	}
	jv_free(files);
	double med = 0;
	if (n) {
		qsort(ns, n, sizeof *ns, cmp_i64);
		med = n % 2 ? (double)ns[n / 2] : 0.5 * (double)(ns[n / 2 - 1] + ns[n / 2]);
	}
	*rows = n;
	free(ns);
	return med;
}

/* The facts the rules ask before advising (docs/diagnosis.md). */
static jv *facts_obj(cmd_ctx *ctx, gathered *g, const analysis_input *in)
{
	jv *f = jv_object();
	if (analysis_vendor(in) == VENDOR_NVIDIA)
		return f;
	int64_t hot = -1;
	const jv *valu_top = NULL, *cls = jv_get(g->bubbles, "classes");
	for (size_t i = 0; i < jv_len(cls); i++) {
		const char *c = jv_string(jv_get(jv_at(cls, i), "class"));
		const jv *top = jv_get(jv_at(cls, i), "top");
		if (c && strcmp(c, "vmem_wait") == 0 && jv_at(top, 0))
			hot = jv_i64(jv_get(jv_at(top, 0), "code_line"));
		if (c && strcmp(c, "valu") == 0)
			valu_top = top;
	}
	jv *isa = jv_set(f, "isa_facts", isa_facts_build(in->trace, hot, valu_top));
	jv_set(isa, "waits", isa_wait_facts(jv_get(g->bubbles, "waits")));
	jv *lg =
	    launch_geometry_build(g->spec, &in->trace->res, jv_get(g->occupancy, "theoretical"),
				  jv_get(g->occupancy, "observed"));
	if (lg)
		jv_set(f, "launch_geometry", lg);
	/* idle waves and exposed stall, computed in the bubbles pass */
	if (g->wave_facts) {
		jv_set(f, "wave_facts", g->wave_facts);
		jv_set(f, "exposed_stall", g->exposed);
		g->wave_facts = g->exposed = NULL;
	}
	char from[256];
	roofline_inputs ri = {.soc = g->spec,
			      .isa_facts = jv_get(f, "isa_facts"),
			      .launch = lg,
			      .observed = jv_get(g->occupancy, "observed"),
			      .duration_from = from};
	ri.duration_ns = kernel_duration(ctx, in, g, &ri.duration_rows, from, sizeof from);
	jv *rl = roofline_build(&ri);
	if (rl)
		jv_set(f, "roofline", rl);
	return f;
}

static jv *occupancy_obj(cmd_ctx *ctx, gathered *g, const analysis_input *in, const char *arch)
{
	jv *o = jv_object();
	jv *th = theoretical(ctx, g, in->trace, arch);
	jv_set(o, "theoretical", th ? th : jv_null());
	const jv *ob = jv_get(jv_get(g->bubbles, "occupancy"), "observed");
	jv_set(o, "observed", ob ? jv_copy(ob) : jv_null());
	if (!ob)
		missing(ctx, g, "observed occupancy", "bubbles has none (no occupancy.json)");
	return o;
}

/* Class shares of the other non-empty dispatches of the capture, each opened and profiled
 * through the backend (lists cut to 3: only the class sums are compared), against the main
 * profile: the run-to-run noise. The siblings stay open until compared (their profiles borrow
 * their traces). */
static jv *variation(cmd_ctx *ctx, const analysis_input *in, const stall_profile *main_p,
		     int threads)
{
	const jv *cands = in->choice->candidates;
	if (jv_len(cands) < 2)
		return NULL;
	const stall_profile *ps[VARIATION_MAX_DISPATCHES];
	const char *ids[VARIATION_MAX_DISPATCHES];
	backend_dispatch sib[VARIATION_MAX_DISPATCHES];
	stall_profile prof[VARIATION_MAX_DISPATCHES];
	size_t n = 0;
	ps[n] = main_p, ids[n++] = in->choice->id;
	char *dcopy = xstrdup(in->choice->dir);
	const char *parent = dirname(dcopy);
	bubbles_params o = {3, -1, threads, NULL};
	for (size_t i = 0; i < jv_len(cands) && n < VARIATION_MAX_DISPATCHES; i++) {
		const char *name = jv_string(jv_get(jv_at(cands, i), "dir"));
		const char *id = jv_string(jv_get(jv_at(cands, i), "id"));
		if (!name || (id && strcmp(id, in->choice->id) == 0))
			continue;
		char *dir = path_join(parent, name);
		fp_err e = FP_ERR_INIT;
		jv *warn = jv_array();
		memset(&prof[n], 0, sizeof prof[n]);
		if (backend_open_sibling(&in->disp, dir, &sib[n], &e) == 0 &&
		    backend_profile(&sib[n], &o, &prof[n], warn, &e) == 0)
			ps[n] = &prof[n], ids[n++] = id;
		else {
			profile_release(&prof[n]);
			backend_close(&sib[n]);
			ctx_warn(ctx, "variation: dispatch %s skipped (%s)", name, e.message);
		}
		jv_free(warn);
		fp_err_clear(&e);
		free(dir);
	}
	jv *v = diff_variation_profiles(ps, ids, n);
	for (size_t i = 1; i < n; i++) {
		profile_release(&prof[i]);
		backend_close(&sib[i]);
	}
	free(dcopy);
	return v;
}

static char *repro_cmd(cmd_ctx *ctx, const analysis_input *in)
{
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "flyprof report --bundle ");
	sb_add_shell_quoted(&sb, in->src.dir);
	if (in->choice->tag)
		sb_addf(&sb, " --tag %s", in->choice->tag);
	if (in->choice->id) /* an Nsight Compute capture has no dispatch id to name */
		sb_addf(&sb, " --dispatch %s", in->choice->id);
	if (opts_str(&ctx->opts, "arch"))
		sb_addf(&sb, " --arch %s", opts_str(&ctx->opts, "arch"));
	if (opts_str(&ctx->opts, "out")) {
		sb_adds(&sb, " --out ");
		sb_add_shell_quoted(&sb, opts_str(&ctx->opts, "out"));
	}
	return sb_detach(&sb);
}

static int gather(cmd_ctx *ctx, analysis_input *in, gathered *g, const char **arch)
{
	int64_t threads = opts_int(&ctx->opts, "threads", 0);
	if (threads < 0 || threads > 256)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--threads must be 0..256 (got %lld)",
			       (long long)threads);
	/* every list complete: report_build takes its own top entries, REPORT.html's annotated
	 * source needs every instruction and wait */
	bubbles_params bo = {0, -1, (int)threads, NULL};
	/* code objects saved beside the trace fill missing .py lines and the kernel resources */
	g->sources = (analysis_vendor(in) == VENDOR_NVIDIA)
			 ? jv_object()
			 : codeobj_fill_sources(in->trace, &in->disp.listing);
	/* the pass that reads the wave files also gives idle waves, exposed stall and
	 * REPORT.html's timeline (wave_facts.h): every file is read once */
	const char *dir = in->trace->dir;
	int facts = analysis_vendor(in) != VENDOR_NVIDIA && dir;
	int want_tl = facts && in->out && in->choice->dir && !strcmp(in->choice->dir, dir);
	wave_report wr;
	if (facts) {
		wave_report_init(&wr, in->trace, dir, want_tl ? &g->timeline : NULL);
		bo.hooks = &wr.hooks;
	}
	int rc = backend_profile(&in->disp, &bo, &g->profile, ctx->warnings, &ctx->err);
	if (facts) {
		if (rc == 0) /* the classes are set now */
			wave_report_finish(&wr, dir, &g->wave_facts, &g->exposed);
		wave_report_release(&wr);
	}
	if (rc)
		return -1;
	g->bubbles = profile_to_json(&g->profile);
	*arch = in->trace->arch ? in->trace->arch
				: jv_string(jv_get(jv_get(g->bubbles, "dispatch"), "arch"));
	const jv *cos = jv_get(g->sources, "code_objects");
	for (size_t i = 0; !*arch && i < jv_len(cos); i++)
		*arch = jv_string(jv_get(jv_at(cos, i), "arch"));
	if (!*arch && csv_arch(ctx, in, g, g->arch, sizeof g->arch))
		*arch = g->arch;
	g->missing = jv_array();
	if (in->src.kind != BUNDLE_FLYPROF || !bundle_has(&in->src, "capture.json"))
		missing(ctx, g, "capture.json",
			"no capture record (kernel match, registers from the capture); the trace "
			"alone is used");
	g->counters = optional_json(ctx, in, g, "counters.json",
				    (analysis_vendor(in) == VENDOR_NVIDIA)
					? "no counters.json; the bound comes from the trace "
					  "(the Nsight Compute details export holds the "
					  "speed-of-light figures)"
					: "no hardware counters; the bound comes from the trace "
					  "(run `flyprof counters`)");
	if (in->src.kind == BUNDLE_FLYPROF && bundle_has(&in->src, "tile.json"))
		g->tile = optional_json(ctx, in, g, "tile.json", "");
	if (!in->trace->res.source)
		csv_resources(ctx, in, g);
	isa_registers(ctx, g, in);
	g->occupancy = occupancy_obj(ctx, g, in, *arch);
	g->facts = facts_obj(ctx, g, in);
	g->variation = variation(ctx, in, &g->profile, (int)threads);
	g->repro = repro_cmd(ctx, in);
	kernel_traits_from_trace(in->trace, &g->traits);
	g->buckets = evloc_scan_trace(in->trace);
	if (analysis_vendor(in) == VENDOR_NVIDIA) {
		fp_err e = FP_ERR_INIT;
		jv *warn = jv_array();
		ncu_exports x = {0};
		if (ncu_exports_find(in->choice->dir, in->choice->id, &x, &e) == 0)
			g->ncu = ncu_findings_from_exports(&x, warn, &e);
		ncu_exports_release(&x);
		if (!g->ncu)
			missing(ctx, g, "ncu findings", e.message ? e.message : "not computed");
		for (size_t i = 0; i < jv_len(warn); i++)
			ctx_warn(ctx, "%s", jv_string(jv_at(warn, i)));
		jv_free(warn);
		fp_err_clear(&e);
	}
	return 0;
}

static int write_sarif(cmd_ctx *ctx, analysis_input *in, const jv *rep, const jv *bubbles,
		       const char *path)
{
	jv *texts = report_source_texts(ctx, in, bubbles);
	sarif_opts so = {opts_str(&ctx->opts, "worktree"), texts};
	jv *doc = sarif_build_opts(rep, &so);
	jv_free(texts);
	strbuf sb = STRBUF_INIT;
	json_write(&sb, doc, 2);
	sb_addc(&sb, '\n');
	int rc = file_write_atomic(path, sb.buf, sb.len, &ctx->err);
	sb_release(&sb);
	jv_free(doc);
	return rc;
}

static int write_artifacts(cmd_ctx *ctx, analysis_input *in, const jv *rep, const jv *bubbles,
			   const wave_pass_timeline *tl, jv *arts)
{
	if (!in->out) {
		jv_set_str(arts, "note",
			   "the input is read-only (raw dispatch or foreign capture): "
			   "nothing written; pass --out DIR for report.json, "
			   "headlines.json and REPORT.md");
		return 0;
	}
	jv *h = report_headlines(rep);
	int rc = analysis_write(ctx, in, "report.json", rep) ||
		 analysis_write(ctx, in, "headlines.json", h);
	jv_free(h);
	strbuf md = STRBUF_INIT;
	report_md_write(&md, rep);
	if (!rc)
		rc = bundle_write_file(in->out, "REPORT.md", md.buf, md.len, &ctx->err);
	sb_release(&md);
	if (rc)
		return -1;
	static const char *const names[] = {"report.json", "headlines.json", "REPORT.md"};
	static const char *const keys[] = {"report_json", "headlines_json", "report_md"};
	for (size_t i = 0; i < 3; i++) {
		char *p = path_join(in->out->dir, names[i]);
		jv_set_str(arts, keys[i], p);
		free(p);
	}
	return report_html_emit(ctx, in, rep, bubbles, tl, arts);
}

/* The change each listed recommendation asks for, from report.json: a person reading the
 * envelope (or its table view) needs it as much as the knob's name. */
static void add_changes(jv *data, const jv *rep)
{
	const jv *full = jv_get(rep, "recommendations");
	jv *recs = jv_get(data, "recommendations");
	for (size_t i = 0; i < jv_len(recs); i++) {
		jv *r = jv_at(recs, i);
		for (size_t j = 0; j < jv_len(full); j++) {
			const jv *f = jv_at(full, j);
			const char *change = jv_string(jv_get(f, "change"));
			if (change && jv_i64(jv_get(f, "rank")) == jv_i64(jv_get(r, "rank"))) {
				jv_set_str(r, "change", change);
				break;
			}
		}
	}
}

int cmd_report(cmd_ctx *ctx)
{
	rules r;
	if (rules_load(&r, &ctx->err))
		return -1;
	analysis_input in;
	gathered g = {0};
	const char *arch = NULL;
	int rc = -1;
	if (analysis_open(ctx, &in) || gather(ctx, &in, &g, &arch))
		goto out;
	const char *kernel = in.trace->kernel
				 ? in.trace->kernel
				 : jv_string(jv_get(jv_get(g.bubbles, "dispatch"), "kernel"));
	report_inputs ri = {.profile = &g.profile,
			    .bubbles = g.bubbles,
			    .counters = g.counters,
			    .occupancy = g.occupancy,
			    .variation = g.variation,
			    .tile = g.tile,
			    .missing = g.missing,
			    .sources = g.sources,
			    .traits = &g.traits,
			    .entry_buckets = g.buckets,
			    .facts = g.facts,
			    .ncu_findings = g.ncu,
			    .kernel = kernel,
			    .arch = arch,
			    .bundle_kind = bundle_kind_name(in.src.kind),
			    .repro = g.repro};
	jv *rep = report_build(&ri, &r);
	/* --all lifts the cut of the envelope's list (0 = everything) */
	int64_t top = opts_flag(&ctx->opts, "all") ? 0 : opts_int(&ctx->opts, "top", 10);
	jv *data = report_summary(rep, (int)top);
	add_changes(data, rep);
	jv *arts = jv_set(data, "artifacts", jv_object());
	rc = write_artifacts(ctx, &in, rep, g.bubbles, &g.timeline, arts);
	const char *sarif = opts_str(&ctx->opts, "sarif");
	if (!rc && sarif && (rc = write_sarif(ctx, &in, rep, g.bubbles, sarif)) == 0) {
		char *abs = path_abs(sarif);
		jv_set_str(arts, "sarif", abs ? abs : sarif);
		free(abs);
	}
	jv_set(data, "dispatch", jv_copy(jv_get(rep, "dispatch")));
	jv_free(jv_take(jv_get(data, "dispatch"), "candidates"));
	size_t total = jv_len(jv_get(rep, "recommendations"));
	if (top > 0 && total > (size_t)top)
		ctx_truncated(ctx, "recommendations", (size_t)top, total, "--top N");
	jv_free(ctx->data); /* the empty object main made: replaced by ours */
	ctx->data = data;
	jv_free(rep);
out:
	gathered_release(&g);
	analysis_close(&in);
	rules_release(&r);
	return rc;
}
