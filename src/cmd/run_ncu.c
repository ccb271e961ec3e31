/* `run` on NVIDIA (run_ncu.h). The capture lands in a scratch directory inside the bundle and
 * each file is then written through the bundle (atomic, checksummed in the manifest), so a
 * failed capture leaves the previous ncu/ exports as they were. */
#include "cmd/run_ncu.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/undo.h"
#include "base/xalloc.h"
#include "cmd/cmds.h"
#include "core/bundle/bundle.h"
#include "drive/ncu_capture.h"
#include "read/nvidia/ncu_details.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const BUNDLE_FILES[] = {"report.ncu-rep", "source_sass.csv",
					   "source_correlated.csv", "details.csv", "raw.csv"};
#define N_FILES (sizeof BUNDLE_FILES / sizeof *BUNDLE_FILES)

/* flyprof-bundles/<kernel> with the characters of a regex filter made safe for a name. */
static char *default_bundle(const char *kernel)
{
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "flyprof-bundles/");
	const char *k = strncmp(kernel, "regex:", 6) == 0 ? kernel + 6 : kernel;
	for (; *k; k++)
		sb_addc(&sb, (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
				     (*k >= '0' && *k <= '9') || *k == '_' || *k == '-'
				 ? *k
				 : '_');
	return sb_detach(&sb);
}

/* Writes scratch/<name> as <dest>/<name> through the bundle and removes the scratch copy. */
static int adopt(bundle *b, const char *scratch, const char *dest, const char *name, fp_err *e)
{
	char *src = path_join(scratch, name);
	size_t len = 0;
	char *data = file_read_all(src, &len, e);
	int rc = -1;
	if (data) {
		char *dst = path_join(dest, name);
		rc = bundle_write_file(b, dst, data, len, e);
		free(dst);
	}
	free(data);
	remove(src);
	free(src);
	return rc;
}

/* The ncu logs the capture wrote into scratch go to logs/ (also after a failure, and the
 * error then names the log's place in logs/). */
static void adopt_logs(bundle *b, const char *scratch, fp_err *err)
{
	fp_err e = FP_ERR_INIT;
	size_t n = 0;
	char **names = file_list_dir(scratch, &n, &e);
	for (size_t i = 0; names && i < n; i++) {
		size_t l = strlen(names[i]);
		if (strncmp(names[i], "ncu_", 4) == 0 && l > 4 &&
		    strcmp(names[i] + l - 4, ".log") == 0)
			adopt(b, scratch, "logs", names[i], &e);
		free(names[i]);
	}
	free(names);
	fp_err_clear(&e);
	undo_keep_on_failure(); /* the logs are the evidence an error names */
	const char *log = err && err->extra ? jv_string(jv_get(err->extra, "log")) : NULL;
	if (log && strrchr(log, '/')) {
		char *moved = path_join(b->dir, "logs");
		char *p = path_join(moved, strrchr(log, '/') + 1);
		fp_err_extra(err, "log", jv_str(p));
		free(p);
		free(moved);
	}
}

/* Moves the capture's files from scratch into <bundle>/ncu/ through the bundle. */
static int adopt_files(bundle *b, const char *scratch, fp_err *e)
{
	for (size_t i = 0; i < N_FILES; i++)
		if (adopt(b, scratch, "ncu", BUNDLE_FILES[i], e))
			return -1;
	return 0;
}

/* What the details export says about the captured kernel, into the record and manifest. */
static void describe_kernel(bundle *b, jv *rec, jv *warnings)
{
	char *path = path_join(b->dir, "ncu/details.csv");
	ncu_details d;
	fp_err e = FP_ERR_INIT;
	if (ncu_details_read_file(path, &d, &e) == 0) {
		jv_set(rec, "kernel", d.kernel ? jv_str(d.kernel) : jv_null());
		jv_set(rec, "arch", d.arch ? jv_str(d.arch) : jv_null());
		jv_set(rec, "block_size", d.block_size ? jv_str(d.block_size) : jv_null());
		jv_set(rec, "grid_size", d.grid_size ? jv_str(d.grid_size) : jv_null());
		if (d.kernel)
			bundle_set_meta(b, "kernel", jv_str(d.kernel));
		if (d.arch)
			bundle_set_meta(b, "arch", jv_str(d.arch));
		ncu_details_release(&d);
	} else
		jv_push(warnings,
			jv_strf("capture.json: the details export did not read: %s", e.message));
	fp_err_clear(&e);
	free(path);
}

static int capture(cmd_ctx *ctx, const char *kernel, const char *const *app, const char *path,
		   jv **rec_out)
{
	bundle b;
	if (bundle_open_write(&b, path, "run", &ctx->err))
		return -1;
	ctx_set_bundle_path(ctx, b.dir);
	char *scratch = path_join(b.dir, ".ncu-capture");
	int rc = file_mkdirs(scratch, &ctx->err);
	ncu_capture_req q = {.ncu = opts_str(&ctx->opts, "ncu"),
			     .kernel = kernel,
			     .app = app,
			     .out_dir = scratch,
			     .log_dir = scratch,
			     .launch_skip = opts_int(&ctx->opts, "launch-skip", 0),
			     .clock_control = opts_str(&ctx->opts, "clock-control"),
			     .timeout_s = opts_num(&ctx->opts, "timeout", 1200)};
	jv *rec = NULL;
	if (!rc)
		rc = ncu_capture_run(&q, &rec, &ctx->err);
	if (!rc)
		rc = adopt_files(&b, scratch, &ctx->err);
	adopt_logs(&b, scratch, rc ? &ctx->err : NULL);
	if (rec) {
		char *log = path_join(b.dir, "logs/ncu_profile.log");
		jv_set_str(rec, "log", log);
		free(log);
	}
	rmdir(scratch);
	if (!rc) {
		jv *cmd = jv_set(rec, "command", jv_array());
		for (size_t i = 0; app[i]; i++)
			jv_push(cmd, jv_str(app[i]));
		describe_kernel(&b, rec, ctx->warnings);
		bundle_set_meta(&b, "backend", jv_str("ncu"));
		rc = bundle_write_json(&b, "capture.json", rec, &ctx->err);
	}
	if (!rc)
		rc =
		    bundle_record_step(&b, "run (ncu capture)", ctx->argc, ctx->argv, 0,
				       jv_num(jv_get(jv_get(rec, "wall_s"), "profile")), &ctx->err);
	bundle_close(&b);
	free(scratch);
	if (rc) {
		jv_free(rec);
		return -1;
	}
	*rec_out = rec;
	return 0;
}

/* `report --bundle PATH` in a context of its own; its data becomes ours under "report". */
static int report(cmd_ctx *ctx, const char *path)
{
	cmd_ctx child;
	cmd_ctx_init(&child, command_find("report"), 0, NULL);
	const opt_spec *specs[5];
	command_option_specs(child.cmd, specs);
	char *argv[] = {"--bundle", (char *)path, NULL};
	int rc = opts_parse(&child.opts, specs, 2, argv, &ctx->err);
	if (!rc) {
		rc = cmd_report(&child);
		if (rc)
			fp_err_move(&ctx->err, &child.err);
	}
	if (child.bundle) {
		fp_err e = FP_ERR_INIT;
		bundle_record_step(child.bundle, "run (report)", ctx->argc, ctx->argv, rc ? 1 : 0,
				   0, &e);
		fp_err_clear(&e);
		bundle_close(child.bundle);
		free(child.bundle);
	}
	for (size_t i = 0; i < jv_len(child.warnings); i++)
		jv_push(ctx->warnings, jv_copy(jv_at(child.warnings, i)));
	if (!rc) {
		jv_set(ctx->data, "report", child.data);
		child.data = NULL;
	}
	cmd_ctx_release(&child);
	return rc;
}

int cmd_run_ncu(cmd_ctx *ctx)
{
	const opts *o = &ctx->opts;
	if (o->nargs < 2)
		return fp_fail(&ctx->err, ERR_USAGE,
			       "`run --backend ncu` needs a kernel and the command that launches "
			       "it: flyprof run KERNEL --backend ncu -- PROGRAM [ARGS...]");
	const char *kernel = o->args[0];
	const char **app = xcalloc(o->nargs, sizeof *app);
	for (size_t i = 1; i < o->nargs; i++)
		app[i - 1] = o->args[i];
	char *path =
	    opts_str(o, "bundle") ? xstrdup(opts_str(o, "bundle")) : default_bundle(kernel);
	jv *rec = NULL;
	int rc = capture(ctx, kernel, app, path, &rec);
	if (!rc) {
		jv_set(ctx->data, "capture", rec);
		rc = report(ctx, path);
	}
	free(app);
	free(path);
	return rc;
}
