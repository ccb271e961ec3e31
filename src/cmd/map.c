/* `map`: ISA <-> source lines of one dispatch (hotspots with snippets, per-line / per-file
 * roll-ups, mapped shares, unmapped instructions), queries by code line or source line,
 * flame-graph exports, and `--code-object PATH` to list a code object's kernels, resources
 * and line table without a bundle. docs/map.md describes the output. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "core/analysis/srcmap.h"
#include "out/flame.h"
#include "out/flame_stacks.h"
#include "out/flame_svg.h"
#include "base/json/json_write.h"
#include "read/amd/codeobj_load.h"
#include "read/amd/snapshots.h"
#include "cmd/analysis_input.h"
#include "cmd/map_view.h"
#include "model/taxonomy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line-table rows listed by --code-object without --all. */
#define MAP_LINE_ROWS 200

const opt_spec map_opts[] = {
    {"code-line", 0, OPT_INT, "N", NULL, NULL, 0,
     "show the instruction with this code.json line index (its source and snippet)"},
    {"source-line", 0, OPT_STR, "FILE:LINE", NULL, NULL, 0,
     "show the instructions of this source line (exact line; path matched by suffix on whole "
     "components)"},
    {"context", 0, OPT_INT, "N", "3", NULL, 1, "source lines shown around the hot line"},
    {"folded", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "write folded stacks (file;line;class weight) for flamegraph.pl / inferno / speedscope"},
    {"folded-weight", 0, OPT_STR, "stall|latency", "stall", "stall|latency", 1,
     "weight of the folded stacks"},
    {"speedscope", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "write a speedscope JSON profile (stall and latency profiles)"},
    {"svg", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "write a flame graph as a self-contained SVG (weight from --folded-weight)"},
    {"code-object", 0, OPT_STR, "PATH", NULL, NULL, 0,
     "list the kernels, resources and address -> file:line table of an AMDGPU code object "
     "(no --bundle needed)"},
    OPT_END,
};

static int map_code_object(cmd_ctx *ctx, const char *path)
{
	codeobj_full cf;
	if (codeobj_full_read(path, &cf, &ctx->err) != 0)
		return -1;
	if (opts_given(&ctx->opts, "bundle"))
		ctx_warn(ctx, "--code-object lists the code object only; --bundle is ignored");
	size_t max = opts_flag(&ctx->opts, "all") ? 0 : MAP_LINE_ROWS, total = 0;
	jv *d = codeobj_describe(&cf, max, &total);
	if (max && total > max)
		ctx_truncated(ctx, "line_table.entries", max, total, "--all");
	if (!cf.dl.has_debug)
		ctx_warn(ctx,
			 "%s has no .debug_line: build with -g (FlyDSL: "
			 "FLYDSL_DEBUG_ENABLE_DEBUG_INFO=1) to map addresses to source lines",
			 path);
	jv_merge(ctx->data, d);
	codeobj_full_release(&cf);
	return 0;
}

/* Records an export written to path as out.<key> = {"path": absolute path, ...}; returns the
 * record for the rest of its fields. */
static jv *export_record(jv *out, const char *key, const char *path)
{
	jv *o = jv_set(out, key, jv_object());
	char *abs = path_abs(path);
	jv_set_str(o, "path", abs ? abs : path);
	free(abs);
	return o;
}

/* The folded stacks or the SVG flame graph: one flame weighted by --folded-weight. */
static int write_weighted_flame(cmd_ctx *ctx, vendor_id v, const trace_dispatch *d, int as_svg,
				const char *path, jv *out)
{
	const char *w = opts_str(&ctx->opts, "folded-weight");
	int lat = w && strcmp(w, "latency") == 0;
	flame f;
	char unit[64], title[512];
	snprintf(unit, sizeof unit, "%s %s", lat ? "latency" : "stall", d->unit);
	flame_init(&f, unit, "none");
	flame_fill_trace(&f, v, d, lat);
	strbuf sb = STRBUF_INIT;
	if (as_svg) {
		snprintf(title, sizeof title, "%s: %s by source line and class",
			 d->kernel ? d->kernel : "kernel", unit);
		flame_svg(&f, title, unit, &sb);
	} else {
		flame_folded(&f, &sb);
	}
	int rc = file_write_atomic(path, sb.buf ? sb.buf : "", sb.len, &ctx->err);
	jv *o = export_record(out, as_svg ? "svg" : "folded", path);
	jv_set_str(o, "weight", lat ? "latency" : "stall");
	jv_set_int(o, "total", flame_total(&f));
	sb_release(&sb);
	flame_release(&f);
	return rc;
}

static int write_speedscope(cmd_ctx *ctx, vendor_id v, const trace_dispatch *d, const char *path,
			    jv *out)
{
	flame fs, fl;
	char stall_label[64], lat_label[64];
	snprintf(stall_label, sizeof stall_label, "stall %s", d->unit);
	snprintf(lat_label, sizeof lat_label, "latency %s", d->unit);
	flame_init(&fs, stall_label, "none");
	flame_init(&fl, lat_label, "none");
	flame_fill_trace(&fs, v, d, 0);
	flame_fill_trace(&fl, v, d, 1);
	jv *doc = flame_speedscope(&fs, "flyprof " FLYPROF_VERSION);
	jv *second = flame_speedscope(&fl, NULL);
	/* Both profiles share one frame table: the stacks are built identically, so the frame
	 * indices agree. */
	jv_push(jv_get(doc, "profiles"), jv_copy(jv_at(jv_get(second, "profiles"), 0)));
	jv_set_str(doc, "name", d->kernel ? d->kernel : "flyprof map");
	strbuf sb = STRBUF_INIT;
	json_write(&sb, doc, 0);
	int rc = file_write_atomic(path, sb.buf, sb.len, &ctx->err);
	jv *o = export_record(out, "speedscope", path);
	jv *names = jv_set(o, "profiles", jv_array());
	jv_push(names, jv_str(stall_label));
	jv_push(names, jv_str(lat_label));
	sb_release(&sb);
	jv_free(doc);
	jv_free(second);
	flame_release(&fs);
	flame_release(&fl);
	return rc;
}

static void add_dispatch(jv *data, const analysis_input *in)
{
	jv *o = jv_set(data, "dispatch", jv_object());
	jv_set_str(o, "dir", in->choice->dir);
	jv_set_str(o, "id", in->choice->id ? in->choice->id : "");
	jv_set(o, "tag", in->choice->tag ? jv_str(in->choice->tag) : jv_null());
	jv_set(o, "kernel", in->trace->kernel ? jv_str(in->trace->kernel) : jv_null());
	jv_set(o, "arch", in->trace->arch ? jv_str(in->trace->arch) : jv_null());
	jv_set(o, "selection", in->choice->why ? jv_str(in->choice->why) : jv_null());
}

static void add_resources(jv *data, const trace_resources *r)
{
	if (!r->source)
		return;
	jv *o = jv_set(data, "resources", jv_object());
	jv_set_int(o, "arch_vgpr", r->vgpr);
	jv_set_int(o, "agpr", r->agpr);
	jv_set_int(o, "sgpr", r->sgpr);
	jv_set_int(o, "lds_bytes", r->lds_bytes);
	jv_set_int(o, "scratch_bytes", r->scratch_bytes);
	jv_set_int(o, "wave_size", r->wave_size);
	jv_set_int(o, "wg_size", r->wg_size);
	jv_set_str(o, "source", r->source);
}

/* Snapshots are optional evidence: an unusable snapshots.json costs the snippets, not the
 * mapping, so it is a warning here. */
static void load_snapshots(cmd_ctx *ctx, const char *dir, snapshots *s)
{
	fp_err e = FP_ERR_INIT;
	if (snapshots_load(dir, s, &e) != 0) {
		ctx_warn(ctx, "snapshots.json unusable, snippets omitted: %s", e.message);
		fp_err_clear(&e);
		memset(s, 0, sizeof *s);
	}
	for (size_t i = 0; i < s->n_refused; i++)
		ctx_warn(ctx, "snapshot entry refused: %s", s->refused[i]);
}

static void add_sources(cmd_ctx *ctx, analysis_input *in, jv *data)
{
	jv_set_str(data, "unit", in->trace->unit);
	if (analysis_vendor(in) == VENDOR_NVIDIA) {
		jv *ns = jv_set(data, "sources", jv_object());
		jv_set_str(ns, "origin",
			   "Nsight Compute correlated source export (SASS -> file:line)");
		jv_set_str(ns, "export", in->disp.sources_from ? in->disp.sources_from : "");
		if (!in->disp.sources_from)
			ctx_warn(ctx,
				 "no correlated source export (--print-source cuda,sass, also for "
				 "Triton): instructions have no source lines");
		return;
	}
	jv *src = jv_set(data, "sources", codeobj_fill_sources(in->trace, &in->disp.listing));
	const char *origin = jv_string(jv_get(src, "origin"));
	int64_t filled = jv_i64(jv_get(src, "filled_from_code_object"));
	if (filled > 0)
		ctx_warn(ctx,
			 "code.json lacks sources for some instructions; %lld were filled from "
			 "the code object's DWARF line table",
			 (long long)filled);
	if (origin && strcmp(origin, "none") == 0)
		ctx_warn(ctx,
			 "no instruction has a source location: the kernel was built without "
			 "line tables (FlyDSL: FLYDSL_DEBUG_ENABLE_DEBUG_INFO=1, cold cache) and "
			 "no code object with .debug_line was found beside the trace");
}

static int write_flames(cmd_ctx *ctx, vendor_id v, const trace_dispatch *d, jv *data)
{
	const char *folded = opts_str(&ctx->opts, "folded");
	const char *ss = opts_str(&ctx->opts, "speedscope");
	const char *svg = opts_str(&ctx->opts, "svg");
	if (!folded && !ss && !svg)
		return 0;
	jv *fl = jv_set(data, "flame", jv_object());
	jv_set_str(fl, "stack", "kernel;file;line;...;class (outermost frame first)");
	if (svg && write_weighted_flame(ctx, v, d, 1, svg, fl) != 0)
		return -1;
	if (folded && write_weighted_flame(ctx, v, d, 0, folded, fl) != 0)
		return -1;
	if (ss && write_speedscope(ctx, v, d, ss, fl) != 0)
		return -1;
	return 0;
}

static int run_views(cmd_ctx *ctx, analysis_input *in, snapshots *snaps)
{
	map_view v;
	map_view_init(&v, ctx, analysis_vendor(in), in->trace, snaps);
	int rc = 0, query = 0;
	if (opts_given(&ctx->opts, "code-line")) {
		query = 1;
		rc = map_view_code_line(&v, opts_int(&ctx->opts, "code-line", 0), ctx->data);
	} else if (opts_str(&ctx->opts, "source-line")) {
		query = 1;
		rc = map_view_source_line(&v, opts_str(&ctx->opts, "source-line"), ctx->data);
	} else {
		map_view_summary(&v, ctx->data);
	}
	map_view_release(&v);
	if (rc == 0)
		rc = write_flames(ctx, analysis_vendor(in), in->trace, ctx->data);
	/* map.json holds the full mapping; a query answer does not replace it. */
	if (rc == 0 && !query)
		rc = analysis_write(ctx, in, "map.json", ctx->data);
	return rc;
}

/* Mapping needs the code, not the wave files: when the stall analysis cannot run (a malformed
 * wave file, which `bubbles` reports as BAD_INPUT), map still answers, with each instruction's
 * class from its text and a warning saying so. */
static void classify_by_text(cmd_ctx *ctx, analysis_input *in)
{
	ctx_warn(ctx, "the stall analysis failed (%s): classes come from the instruction text only",
		 ctx->err.message ? ctx->err.message : "?");
	fp_err_clear(&ctx->err);
	int amd = analysis_vendor(in) == VENDOR_AMD;
	for (size_t i = 0; i < in->trace->n_insts; i++) {
		trace_inst *t = &in->trace->insts[i];
		t->klass =
		    (int16_t)(amd && !t->is_label ? (int)tax_classify(t->isa, t->category) : -1);
	}
}

int cmd_map(cmd_ctx *ctx)
{
	const char *co = opts_str(&ctx->opts, "code-object");
	if (co)
		return map_code_object(ctx, co);
	analysis_input in;
	if (analysis_open(ctx, &in) != 0) {
		analysis_close(&in);
		return -1;
	}
	/* The stall analysis sets each instruction's class, so map names the class bubbles.json
	 * gives it (a wait by its producers, an NVIDIA instruction by its stall reason). */
	stall_profile prof;
	if (analysis_classify(ctx, &in, &prof) != 0) {
		if (ctx->err.code == ERR_INTERRUPTED) {
			profile_release(&prof);
			analysis_close(&in);
			return -1;
		}
		classify_by_text(ctx, &in);
	}
	snapshots snaps;
	load_snapshots(ctx, in.choice->dir, &snaps);
	add_dispatch(ctx->data, &in);
	add_sources(ctx, &in, ctx->data);
	add_resources(ctx->data, &in.trace->res);
	int rc = run_views(ctx, &in, &snaps);
	snapshots_release(&snaps);
	profile_release(&prof);
	analysis_close(&in);
	return rc;
}
