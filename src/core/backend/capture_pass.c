/* capture_amd.h: one rocprofv3 pass, its errors, and the move of its output into place. */
#include "core/backend/capture_amd.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/tree.h"
#include "base/undo.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *amd_incoming(capture_req *q, const char *name, fp_err *e)
{
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/.incoming-%s", q->b->dir, name);
	char *dir = sb_detach(&sb);
	if (tree_remove(dir) || file_mkdirs(dir, e)) {
		if (!e->set)
			fp_fail(e, ERR_IO_ERROR, "cannot empty %s", dir);
		free(dir);
		return NULL;
	}
	undo_own_tree(dir); /* the profiler fills it */
	return dir;
}

int amd_install(capture_req *q, const char *from, const char *dest, fp_err *e)
{
	char *to = path_join(q->b->dir, dest);
	char *parent = xstrdup(to);
	*strrchr(parent, '/') = '\0';
	int rc = file_mkdirs(parent, e);
	free(parent);
	if (rc == 0)
		rc = tree_replace(from, to, e);
	free(to);
	return rc;
}

static void set_env(char ***env, size_t *n, const char *name, const char *value)
{
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s=%s", name, value);
	*env = xreallocarray(*env, *n + 2, sizeof **env);
	(*env)[(*n)++] = sb_detach(&sb);
	(*env)[*n] = NULL;
}

int amd_run_pass(capture_req *q, const amd_prep *p, const char *pass, const char *const *args,
		 const char *shape, proc_result *r, char **log, fp_err *e)
{
	size_t na = 0, n = 0, ne = 0;
	while (args[na])
		na++;
	const char **argv = xcalloc(na + p->napp + 3, sizeof *argv);
	argv[n++] = p->rocprof;
	for (size_t i = 0; i < na; i++)
		argv[n++] = args[i];
	argv[n++] = "--";
	for (size_t i = 0; i < p->napp; i++)
		argv[n++] = p->app[i];
	char **env = NULL;
	for (size_t i = 0; i < p->nenv; i++) {
		const char *eq = strchr(p->env[i], '=');
		char *name = xstrndup(p->env[i], (size_t)(eq - p->env[i]));
		set_env(&env, &ne, name, eq + 1);
		free(name);
	}
	if (shape && p->r->shape_var)
		set_env(&env, &ne, p->r->shape_var, shape);
	strbuf cache = STRBUF_INIT;
	sb_addf(&cache, "%s/.cache_%s", q->b->dir, pass);
	tree_remove(sb_str(&cache));
	undo_note_dir(sb_str(&cache)); /* FlyDSL creates and fills it */
	undo_own_tree(sb_str(&cache));
	set_env(&env, &ne, "FLYDSL_RUNTIME_CACHE_DIR", sb_str(&cache));
	sb_release(&cache);
	strbuf lp = STRBUF_INIT;
	sb_addf(&lp, "%s/logs", q->b->dir);
	int rc = file_mkdirs(sb_str(&lp), e);
	undo_own_tree(sb_str(&lp));
	sb_addf(&lp, "/%s.log", pass);
	*log = sb_detach(&lp);
	undo_note_file(*log); /* an earlier log of this pass comes back if the run is interrupted */
	proc_opts o = {
	    .argv = argv,
	    .env_set = (const char *const *)env,
	    .cwd = p->worktree,
	    .timeout_s = q->timeout_s,
	    .stdout_path = *log,
	    .stderr_path = *log,
	};
	if (rc == 0)
		rc = proc_run(&o, r, e);
	if (rc == 0)
		undo_keep_on_failure(); /* the log is the evidence an error will name */
	for (size_t i = 0; i < ne; i++)
		free(env[i]);
	free(env);
	free(argv);
	return rc;
}

/* The last `lines` lines of a log, or "" when it cannot be read. */
static char *log_tail(const char *log, int lines)
{
	size_t len = 0;
	char *buf = file_read_optional(log, &len);
	if (!buf)
		return xstrdup("");
	size_t i = len;
	while (i > 0 && buf[i - 1] == '\n')
		i--;
	size_t end = i;
	for (int k = 0; i > 0; i--)
		if (buf[i - 1] == '\n' && ++k == lines)
			break;
	/* cap the bytes too: a flood of output is not a tail */
	if (end - i > 4000)
		i = end - 4000;
	char *t = xstrndup(buf + i, end - i);
	free(buf);
	return t;
}

int amd_pass_error(const proc_result *r, const char *what, const char *log, fp_err *e)
{
	char *tail = log_tail(log, 20);
	if (r->status == PROC_EXITED &&
	    strstr(tail, "rocprof-trace-decoder library path not found")) {
		fp_fail(e, ERR_DECODER_MISSING,
			"%s: rocprofv3 did not find the ATT decoder library", what);
		fp_err_extra(e, "log", jv_str(log));
	} else {
		proc_error(r, what, ERR_ROCPROFV3_MISSING, log, e);
	}
	fp_err_extra(e, "log_tail", jv_str(tail));
	free(tail);
	return -1;
}
