/* bundle_export_meta.h: the copy phase, the manifest, capture.json, README.md and the
 * envelope of `flyprof bundle`. */
#include "cmd/bundle_export_meta.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/amd/dispatch_select.h"
#include "core/export/bundle_export.h"
#include "base/json/json_parse.h"
#include "read/amd/kernel_trace_csv.h"
#include "cmd/bundle_steps.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double export_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void export_job_init(export_job *j)
{
	memset(j, 0, sizeof *j);
	j->fresh_fd = -1;
	j->choice = &j->disp.choice;
	j->trace = &j->disp.trace;
	trace_dispatch_init(j->trace);
}

void export_job_release(export_job *j)
{
	if (j->src_open)
		bundle_close(&j->src);
	if (j->old_open)
		bundle_close(&j->old);
	/* only the descriptor: after the swap final is the new tree, whose lock is not ours */
	file_unlock_dir(NULL, j->fresh_fd);
	backend_close(&j->disp);
	free(j->final);
	free(j->tmp);
	free(j->kept_rel);
	jv_free(j->src_manifest);
	jv_free(j->report);
	memset(j, 0, sizeof *j);
}

/* The flyprof manifest describing the source: its own, or for a raw dispatch directory the
 * one of a bundle around it (<bundle>/att/<tag>/<dispatch>), so a generator's "synthetic"
 * mark survives an export of the bare dispatch. */
static jv *source_manifest(const bundle *src)
{
	if (src->manifest)
		return jv_copy(src->manifest);
	if (src->kind != BUNDLE_DISPATCH)
		return NULL;
	char *p = path_join(src->dir, "../../../manifest.json");
	fp_err e = FP_ERR_INIT;
	jv *m = file_is_reg(p) ? json_parse_file(p, &e) : NULL;
	fp_err_clear(&e);
	free(p);
	const char *tool = jv_string(jv_get(m, "tool"));
	if (m && (!tool || strcmp(tool, "flyprof") != 0)) {
		jv_free(m);
		m = NULL;
	}
	return m;
}

/* The processor from the agent-info CSVs copied into the bundle, or NULL (static buffer). */
static const char *agent_arch(const char *bundle_dir)
{
	static char arch[32];
	char *dir = path_join(bundle_dir, "rocprofv3");
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_is_dir(dir) ? file_list_dir(dir, &n, &e) : NULL;
	const char *found = NULL;
	for (size_t i = 0; i < n && !found; i++) {
		size_t len = 0;
		char *p = path_join(dir, names[i]);
		char *buf = strstr(names[i], "agent_info.csv") ? file_read_all(p, &len, &e) : NULL;
		if (buf && ktcsv_agent_arch(buf, len, p, arch, sizeof arch, &e) == 1)
			found = arch;
		fp_err_clear(&e);
		free(buf);
		free(p);
	}
	file_list_free(names, n);
	free(dir);
	return found;
}

static int copy_rocprof(cmd_ctx *ctx, export_job *j, jv *arts, jv *rec)
{
	char *dirs[3] = {path_join(j->src.dir, "rocprofv3"), xstrdup(j->src.dir), NULL};
	if (j->src.kind == BUNDLE_DISPATCH)
		dirs[2] = path_join(j->src.dir, "../../../rocprofv3");
	int rc = bundle_export_rocprof((const char *const *)dirs, 3,
				       dispatch_id_of(path_base(j->choice->dir)), j->trace->kernel,
				       j->tmp, arts, rec, &ctx->err);
	for (size_t i = 0; i < 3; i++)
		free(dirs[i]);
	return rc;
}

/* The optional inputs `report` reads from a flyprof bundle besides the trace: copied so that
 * report on the export sees what report on the source saw. Listed in `taken`. */
static int copy_inputs(cmd_ctx *ctx, const export_job *j, jv *arts, jv *taken)
{
	static const char *const names[] = {"counters.json", "tile.json", NULL};
	if (j->src.kind != BUNDLE_FLYPROF)
		return 0;
	int rc = 0;
	for (size_t i = 0; names[i] && rc == 0; i++) {
		char *from = path_join(j->src.dir, names[i]), *to = path_join(j->tmp, names[i]);
		struct stat st;
		if (lstat(from, &st) == 0 && S_ISREG(st.st_mode)) {
			rc = bundle_export_copy_file(from, to, names[i], arts, &ctx->err);
			jv_push(taken, jv_str(names[i]));
		} else if (file_exists(from))
			ctx_warn(ctx, "%s of the source is not a regular file: not copied",
				 names[i]);
		free(from);
		free(to);
	}
	return rc;
}

static void set_meta(bundle *b, export_job *j)
{
	const jv *sm = j->src_manifest;
	const char *kernel = j->name		? j->name
			     : j->trace->kernel ? j->trace->kernel
						: jv_string(jv_get(sm, "kernel"));
	const char *arch = j->arch ? j->arch : jv_string(jv_get(sm, "arch"));
	if (!arch)
		arch = agent_arch(j->tmp);
	bundle_set_meta(b, "kernel", kernel ? jv_str(kernel) : jv_null());
	bundle_set_meta(b, "backend", jv_str(j->disp.be->name));
	bundle_set_meta(b, "arch", arch ? jv_str(arch) : jv_null());
	const jv *syn = jv_get(sm, "synthetic");
	bundle_set_meta(b, "synthetic", jv_bool(jv_is_true(syn)));
	if (jv_string(jv_get(sm, "generator")))
		bundle_set_meta(b, "generator", jv_copy(jv_get(sm, "generator")));
	bundle_set_meta(b, "source", jv_str(j->src.dir));
	bundle_set_meta(b, "source_kind", jv_str(bundle_kind_name(j->src.kind)));
}

/* capture.json: the record dispatch_select honours (tags.<tag>.kept_dir) plus provenance.
 * Paths are relative so that the file is the same wherever the bundle is made. */
static jv *capture_doc(const export_job *j, jv *skipped, jv *rocprof)
{
	jv *c = jv_object();
	jv_set_str(c, "made_by", "flyprof bundle");
	jv_set_str(c, "source_kind", bundle_kind_name(j->src.kind));
	jv *tags = jv_set(c, "tags", jv_object());
	jv *t = jv_set(tags, j->tag, jv_object());
	jv_set_str(t, "kept_dir", j->kept_rel);
	jv_set(t, "dispatch", j->choice->id ? jv_str(j->choice->id) : jv_null());
	jv_set_str(t, "why", j->choice->why ? j->choice->why : "");
	jv_set(t, "candidates", jv_copy(j->choice->candidates));
	jv_set_str(t, "note",
		   "only the kept dispatch is copied; the candidates are the dispatches of the "
		   "source, so run-to-run variation is not available from this bundle");
	jv *f = jv_set(t, "files", jv_object());
	jv_set_int(f, "copied", j->files);
	jv_set_int(f, "code_objects", j->code_objects);
	jv_set_int(f, "skipped", (int64_t)jv_len(skipped));
	jv_set(f, "skipped_names", skipped);
	/* "from" paths inside the source become relative to it (manifest.json names it) */
	bundle_export_relativize_jv(rocprof, j->src.dir);
	jv_set(c, "rocprofv3", rocprof);
	return c;
}

/* An ATT dispatch: the wanted files of its directory, the code objects beside it and the
 * rocprofv3 evidence of the capture. */
static int copy_att(cmd_ctx *ctx, export_job *j, jv *arts, jv *skipped, jv *rocprof)
{
	strbuf rel = STRBUF_INIT;
	sb_addf(&rel, "att/%s/%s", j->tag, path_base(j->choice->dir));
	j->kept_rel = sb_detach(&rel);
	char *dst = path_join(j->tmp, j->kept_rel);
	j->files =
	    bundle_export_dispatch(j->choice->dir, dst, j->kept_rel, arts, skipped, &ctx->err);
	if (j->files >= 0)
		j->code_objects = bundle_export_code_objects(j->trace, j->choice->dir, dst,
							     j->kept_rel, arts, &ctx->err);
	free(dst);
	return j->files < 0 || j->code_objects < 0 ? -1 : copy_rocprof(ctx, j, arts, rocprof);
}

/* A backend that names its input files (Nsight Compute exports): each under its bundle name. */
static int copy_inputs_of_backend(cmd_ctx *ctx, export_job *j, jv *arts)
{
	const jv *in = j->disp.inputs;
	const char *first = jv_string(jv_get(jv_at(in, 0), "as"));
	const char *slash = first ? strchr(first, '/') : NULL;
	j->kept_rel = slash ? xstrndup(first, (size_t)(slash - first)) : xstrdup(".");
	char *dir = path_join(j->tmp, j->kept_rel);
	int rc = file_mkdirs(dir, &ctx->err);
	free(dir);
	for (size_t i = 0; rc == 0 && i < jv_len(in); i++) {
		const char *from = jv_string(jv_get(jv_at(in, i), "path"));
		const char *as = jv_string(jv_get(jv_at(in, i), "as"));
		char *to = path_join(j->tmp, as);
		rc = bundle_export_copy_file(from, to, as, arts, &ctx->err);
		free(to);
		j->files += rc == 0;
	}
	return rc;
}

int export_copy(cmd_ctx *ctx, export_job *j)
{
	bundle b;
	if (bundle_open_write(&b, j->tmp, "example", &ctx->err)) {
		bundle_close(&b);
		return -1;
	}
	jv *arts = jv_get(b.manifest, "artifacts");
	jv *skipped = jv_array(), *rocprof = jv_object();
	int rc = j->disp.inputs ? copy_inputs_of_backend(ctx, j, arts)
				: copy_att(ctx, j, arts, skipped, rocprof);
	jv *inputs = jv_array();
	if (rc == 0)
		rc = copy_inputs(ctx, j, arts, inputs);
	b.dirty = 1;
	j->src_manifest = source_manifest(&j->src);
	set_meta(&b, j);
	jv *cap = capture_doc(j, skipped, rocprof);
	jv_set(cap, "inputs", inputs);
	if (rc == 0)
		rc = bundle_write_json(&b, "capture.json", cap, &ctx->err);
	jv_free(cap);
	bundle_close(&b);
	return rc;
}

static void readme(strbuf *sb, const bundle *b, const export_job *j)
{
	const char *kernel = jv_string(jv_get(b->manifest, "kernel"));
	const char *arch = jv_string(jv_get(b->manifest, "arch"));
	const jv *syn = jv_get(b->manifest, "synthetic");
	sb_addf(sb, "# %s: flyprof example bundle\n\n", kernel ? kernel : "kernel");
	if (jv_is_true(syn))
		sb_adds(sb, "**Synthetic**: the trace was written by flyprof's own generator, not "
			    "captured on a GPU.\n\n");
	sb_addf(sb,
		"One %s dispatch (`%s`, %s) with its flyprof analysis, made by "
		"`flyprof bundle` from a %s input. Kept: dispatch %s (%s).\n\n",
		j->disp.be->profiler, j->kept_rel, arch ? arch : "architecture unknown",
		bundle_kind_name(j->src.kind), j->choice->id ? j->choice->id : "(the only one)",
		j->choice->why ? j->choice->why : "it was asked for");
	const char *h = jv_string(jv_get(j->report, "headline"));
	if (h)
		sb_addf(sb, "Headline: %s\n\n", h);
	sb_adds(sb, "Read `REPORT.md`. Re-run any analysis without a GPU (paths in the artifacts "
		    "are relative to this directory):\n\n```sh\n"
		    "flyprof report  --bundle <this dir> --out /tmp/report\n"
		    "flyprof bubbles --bundle <this dir> --out /tmp/report\n"
		    "flyprof map     --bundle <this dir> --out /tmp/report\n```\n");
}

int export_meta_finish(bundle *b, export_job *j, fp_err *e)
{
	if (!jv_string(jv_get(b->manifest, "arch"))) {
		fp_err re = FP_ERR_INIT;
		jv *rep = bundle_read_json(b, "report.json", "report", &re);
		fp_err_clear(&re);
		if (jv_string(jv_get(rep, "arch")))
			bundle_set_meta(b, "arch", jv_copy(jv_get(rep, "arch")));
		jv_free(rep);
	}
	strbuf sb = STRBUF_INIT;
	readme(&sb, b, j);
	int rc = bundle_write_file(b, "README.md", sb.buf, sb.len, e);
	sb_release(&sb);
	return rc;
}

void export_describe(cmd_ctx *ctx, const export_job *j)
{
	jv *d = ctx->data; /* the envelope's "bundle" is j->final */
	const jv *sm = j->src_manifest;
	jv *src = jv_set(d, "source", jv_object());
	jv_set_str(src, "path", j->src.dir);
	jv_set_str(src, "kind", bundle_kind_name(j->src.kind));
	jv_set(d, "kernel",
	       j->name		  ? jv_str(j->name)
	       : j->trace->kernel ? jv_str(j->trace->kernel)
				  : jv_null());
	const jv *syn = jv_get(sm, "synthetic");
	jv_set_bool(d, "synthetic", jv_is_true(syn));
	jv *k = jv_set(d, "dispatch", jv_object());
	jv_set(k, "id", j->choice->id ? jv_str(j->choice->id) : jv_null());
	jv_set_str(k, "tag", j->tag);
	jv_set_str(k, "kept_dir", j->kept_rel);
	jv_set_str(k, "selection", j->choice->why ? j->choice->why : "");
	jv_set_int(k, "candidates", (int64_t)jv_len(j->choice->candidates));
	jv *f = jv_set(d, "files", jv_object());
	jv_set_int(f, "trace", j->files);
	jv_set_int(f, "code_objects", j->code_objects);
	jv_set(d, "headline", jv_copy(jv_get(j->report, "headline")));
	jv_set(d, "bound", jv_copy(jv_get(j->report, "bound")));
	jv *arts = jv_set(d, "artifacts", jv_array());
	for (size_t i = 0; bundle_step_artifacts[i]; i++)
		jv_push(arts, jv_str(bundle_step_artifacts[i]));
	jv_push(arts, jv_str("capture.json"));
	jv_push(arts, jv_str("README.md"));
	char *md = path_join(j->final, "REPORT.md");
	jv_set_str(d, "report_md", md);
	free(md);
	jv *next = jv_set(d, "next", jv_array());
	jv_push(next, jv_strf("flyprof report --bundle '%s' --out <dir>", j->final));
	jv_push(next, jv_strf("flyprof diff --before '%s' --after <other bundle>", j->final));
}
