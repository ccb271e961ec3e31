/* recipes.h: the registry reader and the worktree scan. */
#include "read/amd/recipes.h"

#include "base/data.h"
#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "base/strbuf.h"
#include "base/suggest.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const jv *v)
{
	const char *s = jv_string(v);
	return s && *s ? xstrdup(s) : NULL;
}

/* A shape_env value is used only when it looks like a value ("32768,8192,bf16"), not like the
 * description some hub recipes carry there ("M,N,dtype format; ..."). */
static int is_value(const char *s)
{
	if (!s || !*s)
		return 0;
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,.;:-",
			    *p))
			return 0;
	return 1;
}

static int is_env_name(const char *s)
{
	if (!s || !((*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static void push_str(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static char *hex_text(const jv *v, const char *dflt)
{
	if (jv_string(v))
		return xstrdup(jv_string(v));
	if (jv_is_num(v)) {
		char buf[32];
		snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)jv_i64(v));
		return xstrdup(buf);
	}
	return xstrdup(dflt);
}

static void att_from(recipe_att *a, const jv *o, const recipe_att *dflt)
{
	const jv *cu = jv_get(o, "target_cu");
	a->target_cu = jv_is_num(cu) ? (long)jv_i64(cu) : dflt->target_cu;
	a->se_mask = hex_text(jv_get(o, "shader_engine_mask"), dflt->se_mask);
	a->simd_select = hex_text(jv_get(o, "simd_select"), dflt->simd_select);
	a->buffer_size = hex_text(jv_get(o, "buffer_size"), dflt->buffer_size);
}

static void att_release(recipe_att *a)
{
	free(a->se_mask);
	free(a->simd_select);
	free(a->buffer_size);
}

/* "tests/kernels/test_softmax.py" -> "softmax" (bench_ prefixes too). */
static char *name_from_test(const char *test_file)
{
	const char *b = path_base(test_file);
	if (strncmp(b, "test_", 5) == 0)
		b += 5;
	else if (strncmp(b, "bench_", 6) == 0)
		b += 6;
	size_t l = strlen(b);
	if (l > 3 && strcmp(b + l - 3, ".py") == 0)
		l -= 3;
	return xstrndup(b, l);
}

static int parse_one(const jv *o, size_t idx, const char *file, const recipe_att *dflt, recipe *r,
		     fp_err *e)
{
	memset(r, 0, sizeof *r);
	r->test_present = -1;
	r->from = xstrdup("registry");
	r->test_file = dup_or_null(jv_get(o, "test_file"));
	r->invocation = dup_or_null(jv_get(o, "invocation"));
	if (!r->test_file || !r->invocation || jv_type_of(o) != JV_OBJECT)
		return fp_fail_input(e, file, -1, "test_file and invocation",
				     "recipe %zu lacks test_file or invocation", idx);
	r->name = dup_or_null(jv_get(o, "name"));
	if (!r->name)
		r->name = name_from_test(r->test_file);
	r->kernel_regex = dup_or_null(jv_get(o, "kernel_regex"));
	if (!r->kernel_regex && jv_string(jv_get(o, "kernel_name_hint"))) {
		/* hub recipes: the hint's first token is the pattern */
		const char *h = jv_string(jv_get(o, "kernel_name_hint"));
		r->kernel_regex = xstrndup(h, strcspn(h, " ("));
		if (!*r->kernel_regex) {
			free(r->kernel_regex);
			r->kernel_regex = NULL;
		}
	}
	const jv *ks = jv_get(o, "kernels");
	for (size_t i = 0; i < jv_len(ks); i++)
		if (jv_string(jv_at(ks, i)))
			push_str(&r->kernels, &r->nkernels, jv_string(jv_at(ks, i)));
	const jv *se = jv_get(o, "shape_env");
	for (size_t i = 0; jv_type_of(se) == JV_OBJECT && i < jv_len(se); i++) {
		const char *k = jv_key_at(se, i), *v = jv_string(jv_value_at(se, i));
		if (!is_env_name(k) || !is_value(v))
			continue;
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s=%s", k, v);
		push_str(&r->env, &r->nenv, sb_str(&sb));
		sb_release(&sb);
		size_t kl = strlen(k);
		if (!r->shape_var && kl >= 6 && strcmp(k + kl - 6, "SHAPES") == 0)
			r->shape_var = xstrdup(k);
	}
	if (jv_string(jv_get(o, "shape_var"))) {
		free(r->shape_var);
		r->shape_var = xstrdup(jv_string(jv_get(o, "shape_var")));
	}
	r->op = dup_or_null(jv_get(o, "op_category"));
	r->arch = dup_or_null(jv_get(o, "arch"));
	r->dtype = dup_or_null(jv_get(o, "dtype"));
	r->iter_range = dup_or_null(jv_get(o, "iter_range"));
	r->notes = dup_or_null(jv_get(o, "notes"));
	att_from(&r->att, jv_get(o, "att"), dflt);
	return 0;
}

static void recipe_release(recipe *r)
{
	free(r->name);
	free(r->test_file);
	free(r->kernel_regex);
	for (size_t i = 0; i < r->nkernels; i++)
		free(r->kernels[i]);
	free(r->kernels);
	free(r->invocation);
	for (size_t i = 0; i < r->nenv; i++)
		free(r->env[i]);
	free(r->env);
	free(r->shape_var);
	free(r->op);
	free(r->arch);
	free(r->dtype);
	free(r->iter_range);
	free(r->notes);
	free(r->from);
	free(r->kernel_src);
	att_release(&r->att);
}

void recipe_set_release(recipe_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		recipe_release(&s->v[i]);
	free(s->v);
	free(s->origin);
	jv_free(s->counters);
	memset(s, 0, sizeof *s);
}

int recipes_parse(const char *buf, size_t len, const char *name, recipe_set *s, fp_err *e)
{
	memset(s, 0, sizeof *s);
	s->origin = xstrdup(name);
	jv *doc = json_parse(buf, len, name, e);
	if (!doc) {
		recipe_set_release(s);
		return -1;
	}
	const jv *list = jv_type_of(doc) == JV_ARRAY ? doc : jv_get(doc, "kernels");
	if (jv_type_of(list) != JV_ARRAY) {
		jv_free(doc);
		recipe_set_release(s);
		return fp_fail_input(e, name, -1, "a list of recipes or {\"kernels\": [...]}",
				     "not a recipe registry");
	}
	/* rocprofv3's own defaults are target CU 1, SE mask 0x1, SIMDs 0xF, 96 MiB (7.0); the
	 * FlyDSL hubs trace four shader engines, which the embedded registry keeps */
	recipe_att base = {1, "0x1", "0xf", "0x6000000"};
	recipe_att dflt;
	att_from(&dflt, jv_get(doc, "att_defaults"), &base);
	s->v = xcalloc(jv_len(list) + 1, sizeof *s->v);
	int rc = 0;
	for (size_t i = 0; i < jv_len(list) && rc == 0; i++) {
		rc = parse_one(jv_at(list, i), i, name, &dflt, &s->v[s->n], e);
		s->n++;
	}
	att_release(&dflt);
	if (rc == 0 && jv_type_of(doc) == JV_OBJECT && jv_get(doc, "counters"))
		s->counters = jv_take(doc, "counters");
	jv_free(doc);
	if (rc) {
		recipe_set_release(s);
		return -1;
	}
	return 0;
}

int recipes_load(recipe_set *s, fp_err *e)
{
	const char *path = getenv("FLYPROF_RECIPES");
	size_t len = 0;
	char *buf;
	const char *origin = path;
	if (path && *path)
		buf = file_read_all(path, &len, e);
	else
		buf = data_load("recipes.json", &len, &origin, e);
	if (!buf)
		return -1;
	int rc = recipes_parse(buf, len, origin, s, e);
	free(buf);
	return rc;
}

/* The first ROCDSL_*SHAPES word in the harness text, or NULL. */
static char *shape_var_in(const char *path)
{
	char *txt = file_read_optional(path, NULL);
	char *found = NULL;
	for (const char *p = txt; p && (p = strstr(p, "ROCDSL_")) && !found; p++) {
		size_t l = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (l >= 13 && strncmp(p + l - 6, "SHAPES", 6) == 0)
			found = xstrndup(p, l);
	}
	free(txt);
	return found;
}

/* kernels/<name>[_kernel].py (flat, before FlyDSL PR #807) or kernels/<dir>/<name>[_kernel].py
 * (domain folders, after). */
static char *kernel_source(const char *wt, const char *name)
{
	static const char *const suffixes[] = {"_kernel.py", ".py", NULL};
	char *kdir = path_join(wt, "kernels");
	char *found = NULL;
	for (size_t i = 0; suffixes[i] && !found; i++) {
		strbuf rel = STRBUF_INIT;
		sb_addf(&rel, "kernels/%s%s", name, suffixes[i]);
		char *p = path_join(wt, sb_str(&rel));
		if (file_is_reg(p))
			found = sb_detach(&rel);
		sb_release(&rel);
		free(p);
	}
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **dirs = found || !file_is_dir(kdir) ? NULL : file_list_dir(kdir, &n, &e);
	for (size_t d = 0; d < n && !found; d++)
		for (size_t i = 0; suffixes[i] && !found; i++) {
			strbuf rel = STRBUF_INIT;
			sb_addf(&rel, "kernels/%s/%s%s", dirs[d], name, suffixes[i]);
			char *p = path_join(wt, sb_str(&rel));
			if (file_is_reg(p))
				found = sb_detach(&rel);
			sb_release(&rel);
			free(p);
		}
	file_list_free(dirs, n);
	fp_err_clear(&e);
	free(kdir);
	return found;
}

static int registry_names_test(const recipe_set *s, const char *base)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].from, "registry") == 0 &&
		    strcmp(path_base(s->v[i].test_file), base) == 0)
			return 1;
	return 0;
}

void recipes_add_worktree(recipe_set *s, const char *worktree)
{
	if (!worktree)
		return;
	for (size_t i = 0; i < s->n; i++) {
		const char *t = s->v[i].test_file;
		char *p = t[0] == '/' ? xstrdup(t) : path_join(worktree, t);
		if (!file_is_reg(p)) { /* hub recipes carry absolute paths of another machine */
			free(p);
			char *rel = path_join("tests/kernels", path_base(t));
			p = path_join(worktree, rel);
			free(rel);
		}
		s->v[i].test_present = file_is_reg(p);
		free(p);
	}
	char *dir = path_join(worktree, "tests/kernels");
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_is_dir(dir) ? file_list_dir(dir, &n, &e) : NULL;
	fp_err_clear(&e);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);
		if (strncmp(names[i], "test_", 5) != 0 || l < 9 || strcmp(names[i] + l - 3, ".py"))
			continue;
		if (registry_names_test(s, names[i]))
			continue;
		s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
		recipe *r = &s->v[s->n++];
		memset(r, 0, sizeof *r);
		r->test_file = path_join("tests/kernels", names[i]);
		r->name = name_from_test(names[i]);
		r->kernel_regex = xstrdup(r->name);
		strbuf k = STRBUF_INIT;
		sb_addf(&k, "%s_kernel", r->name);
		push_str(&r->kernels, &r->nkernels, sb_str(&k));
		sb_release(&k);
		strbuf inv = STRBUF_INIT;
		sb_addf(&inv, "python %s", r->test_file);
		r->invocation = sb_detach(&inv);
		char *full = path_join(dir, names[i]);
		r->shape_var = shape_var_in(full);
		free(full);
		r->kernel_src = kernel_source(worktree, r->name);
		r->from = xstrdup("worktree");
		r->test_present = 1;
		r->att.target_cu = 1;
		r->att.se_mask = xstrdup("0xf");
		r->att.simd_select = xstrdup("0xf");
		r->att.buffer_size = xstrdup("0x6000000");
	}
	file_list_free(names, n);
	free(dir);
}

typedef struct ranked {
	const char *name;
	size_t dist;
} ranked;

static int by_dist(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return strcmp(x->name, y->name);
}

const recipe *recipes_find(const recipe_set *s, const char *name, fp_err *e)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].kernel_regex && strcmp(s->v[i].kernel_regex, name) == 0)
			return &s->v[i];
		for (size_t k = 0; k < s->v[i].nkernels; k++)
			if (strcmp(s->v[i].kernels[k], name) == 0)
				return &s->v[i];
	}
	ranked *r = xcalloc(s->n + 1, sizeof *r);
	for (size_t i = 0; i < s->n; i++)
		r[i].name = s->v[i].name, r[i].dist = suggest_distance(name, s->v[i].name);
	qsort(r, s->n, sizeof *r, by_dist);
	jv *avail = jv_array();
	for (size_t i = 0; i < s->n; i++)
		jv_push(avail, jv_str(r[i].name));
	if (s->n && r[0].dist <= strlen(name) / 3 + 1)
		fp_fail(e, ERR_KERNEL_NOT_FOUND,
			"no recipe or test harness for kernel '%s'; did you "
			"mean '%s'?",
			name, r[0].name);
	else
		fp_fail(e, ERR_KERNEL_NOT_FOUND, "no recipe or test harness for kernel '%s'", name);
	fp_err_extra(e, "available", avail);
	free(r);
	return NULL;
}

static jv *str_array(char **v, size_t n)
{
	jv *a = jv_array();
	for (size_t i = 0; i < n; i++)
		jv_push(a, jv_str(v[i]));
	return a;
}

static jv *str_or_null(const char *s)
{
	return s ? jv_str(s) : jv_null();
}

jv *recipe_to_json(const recipe *r)
{
	jv *o = jv_object();
	const jv_str_field f[] = {
	    {"name", r->name}, {"from", r->from}, {"test_file", r->test_file}};
	jv_set_strs(o, f, sizeof f / sizeof f[0]);
	jv_set(o, "test_present", jv_bool_or_null(r->test_present));
	jv_set(o, "kernel_regex", str_or_null(r->kernel_regex));
	jv_set(o, "kernels", str_array(r->kernels, r->nkernels));
	jv_set_str(o, "invocation", r->invocation);
	jv_set(o, "env", str_array(r->env, r->nenv));
	jv_set(o, "shape_var", str_or_null(r->shape_var));
	jv_set(o, "op_category", str_or_null(r->op));
	jv_set(o, "arch", str_or_null(r->arch));
	jv_set(o, "dtype", str_or_null(r->dtype));
	jv_set(o, "iter_range", str_or_null(r->iter_range));
	if (r->kernel_src)
		jv_set_str(o, "kernel_source", r->kernel_src);
	if (r->notes)
		jv_set_str(o, "notes", r->notes);
	jv *a = jv_set(o, "att", jv_object());
	jv_set_int(a, "target_cu", r->att.target_cu);
	jv_set_str(a, "shader_engine_mask", r->att.se_mask);
	jv_set_str(a, "simd_select", r->att.simd_select);
	jv_set_str(a, "buffer_size", r->att.buffer_size);
	return o;
}
