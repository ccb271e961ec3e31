/* `bundle --bundle SRC --out DIR`: a canonical, self-contained, re-analysable copy of one
 * dispatch of SRC (any bundle kind) with its analysis (docs/bundle.md).
 *
 * The whole bundle is built in a hidden sibling directory (.<name>.tmp-<pid>) and renamed
 * into place at the end, so DIR is either the previous bundle or the complete new one, never
 * half-made; on any failure or interrupt the temporary tree is removed. DIR may be absent, an
 * empty directory or a flyprof bundle of role "example" (replaced; its lock is held while the
 * new one is built); anything else is refused. Nothing is written outside DIR. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "base/tree.h"
#include "base/signals.h"
#include "base/strbuf.h"
#include "base/undo.h"
#include "base/xalloc.h"
#include "core/bundle/bundle.h"
#include "core/export/bundle_export.h"
#include "cmd/bundle_export_meta.h"
#include "cmd/bundle_steps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const opt_spec bundle_opts[] = {
    {"tag", 0, OPT_STR, "small|big", "big", "small|big", 0,
     "which captured shape to export (and the tag it is filed under)"},
    {"dispatch", 0, OPT_STR, "ID", NULL, NULL, 0,
     "dispatch to keep (its id or directory name); default: chosen deterministically"},
    {"no-clobber", 0, OPT_FLAG, NULL, NULL, NULL, 0,
     "refuse (BAD_ARGS) when --out already exists instead of replacing an example bundle"},
    {"name", 0, OPT_STR, "KERNEL", NULL, NULL, 0,
     "kernel name recorded in the manifest (default: the trace's kernel symbol)"},
    OPT_END,
};

static int read_args(cmd_ctx *ctx, export_job *j)
{
	j->src_arg = opts_str(&ctx->opts, "bundle");
	j->out_arg = opts_str(&ctx->opts, "out");
	j->tag = opts_str(&ctx->opts, "tag") ? opts_str(&ctx->opts, "tag") : "big";
	j->dispatch = opts_str(&ctx->opts, "dispatch");
	j->name = opts_str(&ctx->opts, "name");
	j->arch = opts_str(&ctx->opts, "arch");
	if (!j->src_arg || !j->out_arg) {
		fp_fail(&ctx->err, ERR_BAD_ARGS, "`bundle` needs --bundle SRC and --out DIR");
		fp_err_set_help(&ctx->err, "e.g. flyprof bundle --bundle <capture or bundle> --out "
					   "examples/<kernel>; nothing is written outside --out");
		return -1;
	}
	if (j->name && (!*j->name || strchr(j->name, '\n')))
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--name must be a non-empty line");
	return 0;
}

/* How many trailing components of path do not exist yet (mkdir -p will create them). */
static int missing_levels(const char *path)
{
	char *p = xstrdup(path);
	int n = 0;
	while (*p && !file_exists(p)) {
		n++;
		char *slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(p);
	return n;
}

/* Removes the (empty) parent directories resolve_final created, so a failed export leaves
 * nothing behind. */
static void remove_made_parents(const export_job *j)
{
	char *p = xstrdup(j->final);
	for (int i = 0; i < j->made_parents; i++) {
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
		rmdir(p);
	}
	free(p);
}

/* DIR as an absolute path whose parent exists (created if needed; *made = how many levels). */
static char *resolve_final(const char *out, int *made, fp_err *e)
{
	char *o = xstrdup(out);
	size_t n = strlen(o);
	while (n > 1 && o[n - 1] == '/')
		o[--n] = '\0';
	char *slash = strrchr(o, '/');
	const char *base = slash ? slash + 1 : o;
	char *final = NULL;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		fp_fail(e, ERR_BAD_ARGS, "--out '%s' must name a directory to create", out);
	} else {
		char *parent =
		    slash ? xstrndup(o, slash == o ? 1 : (size_t)(slash - o)) : xstrdup(".");
		*made = missing_levels(parent);
		char *pabs = file_mkdirs(parent, e) ? NULL : path_abs(parent);
		if (pabs)
			final = path_join(pabs, base);
		else if (!e->set)
			fp_fail(e, ERR_IO_ERROR, "%s: cannot resolve path", parent);
		free(parent);
		free(pabs);
	}
	free(o);
	return final;
}

static int within(const char *a, const char *b)
{
	size_t n = strlen(b);
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/' || strcmp(b, "/") == 0);
}

/* A new or empty destination is created and locked before any work, so a second writer fails
 * at once with BUNDLE_LOCKED instead of doing the whole export and losing at the rename.
 * 1 when final is now fresh and locked, 0 when it holds a bundle (the caller's path), -1. */
static int lock_fresh(cmd_ctx *ctx, export_job *j)
{
	if (file_exists(j->final) && !file_dir_unclaimed(j->final)) {
		if (file_lock_held(j->final)) /* another export is filling it right now */
			return fp_fail(&ctx->err, ERR_BUNDLE_LOCKED,
				       "%s is locked by another flyprof process", j->final);
		return 0;
	}
	if (mkdir(j->final, 0755) == 0) {
		j->fresh_made = 1;
		undo_note_dir(j->final);
	} else if (errno != EEXIST) {
		return fp_fail(&ctx->err, ERR_IO_ERROR, "%s: cannot create directory: %s", j->final,
			       strerror(errno));
	}
	j->fresh_fd = file_lock_dir(j->final, &ctx->err);
	if (j->fresh_fd < 0)
		return -1;
	if (file_dir_unclaimed(j->final))
		return 1;
	/* another export finished in between: replace its result like any example bundle */
	file_unlock_dir(j->final, j->fresh_fd);
	j->fresh_fd = -1;
	j->fresh_made = 0;
	return 0;
}

/* Removes what lock_fresh made when the export does not complete. */
static void unlock_fresh(export_job *j)
{
	if (j->fresh_fd < 0)
		return;
	file_unlock_dir(j->final, j->fresh_fd);
	j->fresh_fd = -1;
	if (j->fresh_made)
		rmdir(j->final);
}

/* Refuses what must not be replaced; locks an example bundle that will be. */
static int check_final(cmd_ctx *ctx, export_job *j)
{
	if (within(j->final, j->src.dir) || within(j->src.dir, j->final) ||
	    within(j->final, j->choice->dir))
		return fp_fail(&ctx->err, ERR_BAD_ARGS,
			       "--out %s overlaps --bundle %s; export to a separate directory",
			       j->final, j->src.dir);
	if (file_exists(j->final) && opts_flag(&ctx->opts, "no-clobber"))
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--out %s exists (--no-clobber)", j->final);
	int fresh = lock_fresh(ctx, j);
	if (fresh != 0)
		return fresh < 0 ? -1 : 0;
	j->old_open = 1; /* bundle_close releases a half-opened one too */
	if (bundle_open(&j->old, j->final, &ctx->err)) {
		if (ctx->err.code != ERR_NOT_A_BUNDLE && ctx->err.code != ERR_NO_ARTIFACT)
			return -1; /* e.g. a manifest.json that does not parse: BAD_INPUT */
		fp_err_clear(&ctx->err);
	}
	if (j->old.kind != BUNDLE_FLYPROF || !j->old.manifest) {
		fp_fail(&ctx->err, ERR_NOT_A_BUNDLE,
			"--out %s exists and is not a flyprof bundle; not writing there", j->final);
		fp_err_set_help(&ctx->err, "pass --out a new directory (it is created), an empty "
					   "one, or an example bundle made by `flyprof bundle`");
		return -1;
	}
	const char *role = jv_string(jv_get(j->old.manifest, "role"));
	if (!role || strcmp(role, "example") != 0)
		return fp_fail(&ctx->err, ERR_BAD_ARGS,
			       "--out %s is a flyprof bundle of role '%s', not an example bundle; "
			       "refusing to replace it",
			       j->final, role ? role : "?");
	return bundle_lock(&j->old, &ctx->err);
}

static int open_source(cmd_ctx *ctx, export_job *j)
{
	j->src_open = 1; /* bundle_close releases a half-opened one too */
	if (bundle_open(&j->src, j->src_arg, &ctx->err))
		return -1;
	if (backend_open(&j->src, j->tag, j->dispatch, &j->disp, &ctx->err))
		return -1;
	j->final = resolve_final(j->out_arg, &j->made_parents, &ctx->err);
	if (!j->final || check_final(ctx, j))
		return -1;
	strbuf t = STRBUF_INIT;
	char *parent = xstrdup(j->final);
	*strrchr(parent, '/') = '\0';
	sb_addf(&t, "%s/.%s.tmp-%ld", *parent ? parent : "", path_base(j->final), (long)getpid());
	free(parent);
	j->tmp = sb_detach(&t);
	tree_remove(j->tmp);
	return 0;
}

static int check_signal(cmd_ctx *ctx)
{
	if (!signals_pending())
		return 0;
	return fp_fail(&ctx->err, ERR_INTERRUPTED, "interrupted by signal %d; nothing written",
		       signals_pending());
}

/* Phase 2: the analysis steps on the finished trace copy, then paths made relative and the
 * `bundle` step itself recorded. */
static int analyse(cmd_ctx *ctx, export_job *j, double t0)
{
	if (bundle_steps_run(ctx, j->tmp, j->tag, &j->report) || check_signal(ctx))
		return -1;
	bundle b;
	if (bundle_open_write(&b, j->tmp, "example", &ctx->err)) {
		bundle_close(&b);
		return -1;
	}
	int rc = bundle_steps_relativize(&b, &ctx->err);
	if (rc == 0)
		rc = export_meta_finish(&b, j, &ctx->err);
	if (rc == 0)
		rc = bundle_record_step(&b, "bundle", ctx->argc, ctx->argv, 0, export_now() - t0,
					&ctx->err);
	bundle_close(&b);
	char *lock = path_join(j->tmp, ".flyprof.lock");
	unlink(lock);
	free(lock);
	return rc;
}

int cmd_bundle(cmd_ctx *ctx)
{
	double t0 = export_now();
	export_job j;
	export_job_init(&j);
	int rc = read_args(ctx, &j) || open_source(ctx, &j) || check_signal(ctx) ||
			 export_copy(ctx, &j) || check_signal(ctx) || analyse(ctx, &j, t0) ||
			 check_signal(ctx)
		     ? -1
		     : 0;
	if (rc == 0)
		rc = bundle_export_swap_in(j.tmp, j.final,
					   (j.old_open && j.old.lock_fd >= 0) || j.fresh_fd >= 0,
					   &ctx->err);
	if (rc == 0)
		undo_commit(); /* the new bundle is in place: a later signal does not undo it */
	if (rc != 0 && j.tmp)
		tree_remove(j.tmp);
	if (rc != 0)
		unlock_fresh(&j);
	if (rc != 0 && j.final)
		remove_made_parents(&j);
	if (rc == 0) {
		ctx_set_bundle_path(ctx, j.final);
		export_describe(ctx, &j);
	}
	export_job_release(&j);
	return rc;
}
