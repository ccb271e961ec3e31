/* capture_amd.h: preflight, the application's command line and the child environment. */
#include "core/backend/capture_amd.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "drive/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 2, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

void amd_words_free(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

char **amd_split_words(const char *s, size_t *n, fp_err *e)
{
	char **w = NULL;
	*n = 0;
	w = xcalloc(1, sizeof *w);
	size_t i = 0, len = strlen(s);
	while (i < len) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		if (i >= len)
			break;
		strbuf word = STRBUF_INIT;
		sb_adds(&word, "");
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') {
			char c = s[i];
			if (c == '\'') {
				const char *end = strchr(s + i + 1, '\'');
				if (!end)
					goto unterminated;
				sb_add(&word, s + i + 1, (size_t)(end - s - i - 1));
				i = (size_t)(end - s) + 1;
			} else if (c == '"') {
				size_t j = i + 1;
				while (j < len && s[j] != '"') {
					if (s[j] == '\\' && j + 1 < len &&
					    (s[j + 1] == '"' || s[j + 1] == '\\'))
						j++;
					sb_addc(&word, s[j++]);
				}
				if (j >= len)
					goto unterminated;
				i = j + 1;
			} else if (c == '\\' && i + 1 < len) {
				sb_addc(&word, s[i + 1]);
				i += 2;
			} else {
				sb_addc(&word, c);
				i++;
			}
			continue;
		unterminated:
			sb_release(&word);
			amd_words_free(w);
			fp_fail(e, ERR_BAD_ARGS, "unterminated quote in invocation: %s", s);
			return NULL;
		}
		push(&w, n, sb_str(&word));
		sb_release(&word);
	}
	return w;
}

static int is_assignment(const char *w)
{
	if (!((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z') || *w == '_'))
		return 0;
	const char *p = w;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
	       *p == '_')
		p++;
	return *p == '=';
}

/* Sets NAME=value in env, replacing an earlier NAME. */
static void env_set(char ***env, size_t *n, const char *name, const char *value)
{
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s=%s", name, value);
	size_t nl = strlen(name);
	for (size_t i = 0; i < *n; i++)
		if (strncmp((*env)[i], name, nl) == 0 && (*env)[i][nl] == '=') {
			free((*env)[i]);
			(*env)[i] = sb_detach(&sb);
			return;
		}
	push(env, n, sb_str(&sb));
	sb_release(&sb);
}

static void env_set_kv(char ***env, size_t *n, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char *name = xstrndup(kv, (size_t)(eq - kv));
	env_set(env, n, name, eq + 1);
	free(name);
}

static int has_env(char **env, size_t n, const char *name)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (strncmp(env[i], name, nl) == 0 && env[i][nl] == '=')
			return 1;
	return getenv(name) != NULL;
}

static int ends_with(const char *s, const char *suf)
{
	size_t l = strlen(s), m = strlen(suf);
	return l >= m && strcmp(s + l - m, suf) == 0;
}

/* The application's argv from the invocation's words (after the NAME=value ones): python
 * becomes the configured interpreter, a leading .py gets one, and the harness path is checked
 * in the worktree (tests/kernels/<basename> when the recipe's own path is not there). */
static int build_app(capture_req *q, amd_prep *p, char **words, size_t start, fp_err *e)
{
	const char *py = getenv("FLYPROF_PYTHON");
	py = py && *py ? py : "python3";
	size_t n = 0;
	p->app = xcalloc(1, sizeof *p->app);
	if (!words[start])
		return fp_fail(e, ERR_BAD_ARGS, "the invocation for '%s' has no command",
			       q->kernel);
	if (strcmp(words[start], "python") == 0 || strcmp(words[start], "python3") == 0)
		push(&p->app, &n, py), start++;
	else if (ends_with(words[start], ".py"))
		push(&p->app, &n, py);
	int checked = 0;
	for (size_t i = start; words[i]; i++) {
		const char *w = words[i];
		if (!checked && w[0] != '-' && ends_with(w, ".py")) {
			checked = 1;
			char *full = w[0] == '/' ? xstrdup(w) : path_join(p->worktree, w);
			if (!file_is_reg(full)) {
				char *rel = path_join("tests/kernels", path_base(w));
				char *alt = path_join(p->worktree, rel);
				if (!file_is_reg(alt)) {
					fp_fail(e, ERR_KERNEL_NOT_FOUND,
						"the harness %s of '%s' is not in the worktree %s",
						w, q->kernel, p->worktree);
					fp_err_extra(e, "tried", jv_str(full));
					free(rel), free(alt), free(full);
					return -1;
				}
				push(&p->app, &n, rel);
				free(rel), free(alt), free(full);
				continue;
			}
			free(full);
		}
		push(&p->app, &n, w);
	}
	p->napp = n;
	return 0;
}

/* The environment every pass gets (docs/capture.md, in this order; later entries win):
 * PYTHONPATH with the build tree and the worktree, the recipe's shape values (only where the
 * caller's environment does not set them), the invocation's NAME=value words, --shape into
 * the recipe's shape variable, then what flyprof needs: HIP_VISIBLE_DEVICES=--gpu, FlyDSL
 * debug line info on, the AIter comparison off, the JIT cache on (in a per-pass directory
 * set by amd_run_pass) and HIP-event timing (torch.profiler and rocprofv3 cannot share the
 * device). */
static void build_env(capture_req *q, amd_prep *p, char **words, size_t nassign)
{
	strbuf pp = STRBUF_INIT;
	sb_addf(&pp, "%s/build-fly/python_packages:%s", p->worktree, p->worktree);
	const char *old = getenv("PYTHONPATH");
	if (old && *old)
		sb_addf(&pp, ":%s", old);
	env_set(&p->env, &p->nenv, "PYTHONPATH", sb_str(&pp));
	sb_release(&pp);
	for (size_t i = 0; i < p->r->nenv; i++) {
		const char *kv = p->r->env[i];
		char *name = xstrndup(kv, strcspn(kv, "="));
		if (!getenv(name))
			env_set_kv(&p->env, &p->nenv, kv);
		free(name);
	}
	for (size_t i = 0; i < nassign; i++)
		env_set_kv(&p->env, &p->nenv, words[i]);
	if (q->shape && p->r->shape_var) {
		env_set(&p->env, &p->nenv, p->r->shape_var, q->shape);
	} else if (q->shape) {
		strbuf w = STRBUF_INIT;
		sb_addf(&w, "--shape %s ignored: the recipe '%s' names no shape variable", q->shape,
			p->r->name);
		jv_push(q->warnings, jv_str(sb_str(&w)));
		sb_release(&w);
	}
	if (p->r->shape_var) {
		size_t nl = strlen(p->r->shape_var);
		for (size_t i = 0; i < p->nenv; i++)
			if (strncmp(p->env[i], p->r->shape_var, nl) == 0 && p->env[i][nl] == '=')
				p->shape = xstrdup(p->env[i] + nl + 1);
		if (!p->shape && getenv(p->r->shape_var))
			p->shape = xstrdup(getenv(p->r->shape_var));
	}
	char gpu[24];
	snprintf(gpu, sizeof gpu, "%d", q->gpu);
	env_set(&p->env, &p->nenv, "HIP_VISIBLE_DEVICES", gpu);
	env_set(&p->env, &p->nenv, "FLYDSL_DEBUG_ENABLE_DEBUG_INFO", "1");
	env_set(&p->env, &p->nenv, "ROCDSL_COMPARE_AITER", "0");
	env_set(&p->env, &p->nenv, "FLYDSL_RUNTIME_ENABLE_CACHE", "1");
	if (!has_env(p->env, p->nenv, "FLYDSL_PERFTEST_USE_EVENTS"))
		env_set(&p->env, &p->nenv, "FLYDSL_PERFTEST_USE_EVENTS", "1");
}

static int resolve_rocprof(amd_prep *p, fp_err *e)
{
	const char *over = getenv("FLYPROF_ROCPROFV3");
	const char *name = over && *over ? over : "rocprofv3";
	p->rocprof = proc_which(name);
	if (!p->rocprof) {
		fp_fail(e, ERR_ROCPROFV3_MISSING, "%s: not found%s", name,
			over && *over ? " (FLYPROF_ROCPROFV3)" : " on PATH");
		return -1;
	}
	return 0;
}

int amd_prep_init(capture_req *q, amd_prep *p, fp_err *e)
{
	memset(p, 0, sizeof *p);
	if (!q->kernel || !*q->kernel)
		return fp_fail(e, ERR_USAGE, "a kernel name is required (see `flyprof list`)");
	if (resolve_rocprof(p, e))
		return -1;
	probe_build bt;
	probe_build_tree(&bt, q->worktree);
	int bad = !bt.worktree ? 1 : (!bt.packages_exists || !bt.flydsl_exists) ? 2 : 0;
	if (bad == 1)
		fp_fail(e, ERR_BUILD_TREE_MISSING,
			"no FlyDSL worktree given (--worktree or "
			"FLYPROF_WORKTREE)");
	else if (bad == 2)
		fp_fail(e, ERR_BUILD_TREE_MISSING,
			"%s/flydsl does not exist; build FlyDSL "
			"(scripts/build.sh) in %s",
			bt.packages, bt.worktree);
	probe_build_release(&bt);
	if (bad)
		return -1;
	p->worktree = path_abs(q->worktree);
	if (recipes_load(&p->recipes, e))
		return -1;
	recipes_add_worktree(&p->recipes, p->worktree);
	p->r = recipes_find(&p->recipes, q->kernel, e);
	if (!p->r)
		return -1;
	p->recipe_source = q->invocation ? "invocation-override" : p->r->from;
	size_t nw = 0;
	char **words = amd_split_words(q->invocation ? q->invocation : p->r->invocation, &nw, e);
	if (!words)
		return -1;
	size_t nassign = 0;
	while (words[nassign] && is_assignment(words[nassign]))
		nassign++;
	int rc = build_app(q, p, words, nassign, e);
	if (rc == 0)
		build_env(q, p, words, nassign);
	amd_words_free(words);
	if (rc)
		return -1;
	probe_decoder dec;
	probe_decoder_find(&dec);
	if (dec.path) {
		p->decoder_dir = xstrdup(dec.path);
		char *slash = strrchr(p->decoder_dir, '/');
		if (slash)
			*slash = '\0';
	} else {
		jv_push(
		    q->warnings,
		    jv_str("librocprof-trace-decoder.so not found in FLYPROF_DECODER_PATH, "
			   "ROCPROF_ATT_LIBRARY_PATH, LD_LIBRARY_PATH or the ROCm lib directory; "
			   "rocprofv3 searches on its own and says if it is missing"));
	}
	probe_decoder_release(&dec);
	probe_tool t = {.name = "rocprofv3", .env = "FLYPROF_ROCPROFV3"};
	probe_rocprofv3(&t, q->timeout_s > 0 && q->timeout_s < 5 ? q->timeout_s : 5);
	if (t.version)
		p->version = xstrdup(t.version);
	probe_tool_release(&t);
	return 0;
}

void amd_prep_release(amd_prep *p)
{
	free(p->rocprof);
	free(p->version);
	free(p->worktree);
	recipe_set_release(&p->recipes);
	amd_words_free(p->app);
	amd_words_free(p->env);
	free(p->decoder_dir);
	free(p->shape);
	memset(p, 0, sizeof *p);
}

jv *amd_prep_json(const amd_prep *p)
{
	jv *o = jv_object();
	jv_set_str(o, "rocprofv3", p->rocprof);
	jv_set(o, "rocprofv3_version", p->version ? jv_str(p->version) : jv_null());
	jv_set_str(o, "worktree", p->worktree);
	jv_set_str(o, "recipe_source", p->recipe_source);
	jv_set(o, "recipe", recipe_to_json(p->r));
	jv *a = jv_set(o, "argv", jv_array());
	for (size_t i = 0; i < p->napp; i++)
		jv_push(a, jv_str(p->app[i]));
	jv *env = jv_set(o, "env", jv_array());
	for (size_t i = 0; i < p->nenv; i++)
		jv_push(env, jv_str(p->env[i]));
	jv_set(o, "shape", p->shape ? jv_str(p->shape) : jv_null());
	jv_set(o, "decoder_dir", p->decoder_dir ? jv_str(p->decoder_dir) : jv_null());
	return o;
}

int amd_preflight(capture_req *q, jv *data, fp_err *e)
{
	amd_prep p;
	int rc = amd_prep_init(q, &p, e);
	if (rc == 0)
		jv_set(data, "preflight", amd_prep_json(&p));
	amd_prep_release(&p);
	return rc;
}
