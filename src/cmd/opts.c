#include "cmd/opts.h"

#include "base/strbuf.h"
#include "base/suggest.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *opts_env_name(const char *name)
{
	static char buf[128];
	size_t n = 0;
	n += (size_t)snprintf(buf, sizeof buf, "FLYPROF_");
	for (const char *s = name; *s && n + 1 < sizeof buf; s++)
		buf[n++] = *s == '-' ? '_' : (char)toupper((unsigned char)*s);
	buf[n] = '\0';
	return buf;
}

static int in_choices(const char *choices, const char *v)
{
	size_t vl = strlen(v);
	const char *s = choices;
	while (*s) {
		const char *bar = strchr(s, '|');
		size_t l = bar ? (size_t)(bar - s) : strlen(s);
		if (l == vl && strncmp(s, v, l) == 0)
			return 1;
		if (!bar)
			break;
		s = bar + 1;
	}
	return 0;
}

static int validate(const opt_spec *sp, const char *v, const char *origin, fp_err *e)
{
	if (sp->kind == OPT_INT) {
		char *end;
		errno = 0;
		long long x = strtoll(v, &end, 10);
		(void)x;
		if (!*v || *end || errno)
			return fp_fail(e, ERR_BAD_ARGS, "%s --%s expects an integer, got '%s'",
				       origin, sp->name, v);
	} else if (sp->kind == OPT_NUM) {
		char *end;
		errno = 0;
		double x = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(x))
			return fp_fail(e, ERR_BAD_ARGS, "%s --%s expects a number, got '%s'",
				       origin, sp->name, v);
	}
	if (sp->choices && !in_choices(sp->choices, v)) {
		fp_fail(e, ERR_BAD_ARGS, "%s --%s must be one of %s, got '%s'", origin, sp->name,
			sp->choices, v);
		return -1;
	}
	return 0;
}

static opt_value *lookup_long(opts *o, const char *name, size_t len)
{
	for (size_t i = 0; i < o->n; i++)
		if (strlen(o->vals[i].spec->name) == len &&
		    strncmp(o->vals[i].spec->name, name, len) == 0)
			return &o->vals[i];
	return NULL;
}

/* USAGE for an unknown --name, with the nearest declared option as a suggestion. */
static int unknown_long(const opts *o, const char *name, size_t len, fp_err *e)
{
	char *word = xstrndup(name, len);
	const char **names = xcalloc(o->n + 1, sizeof *names);
	for (size_t i = 0; i < o->n; i++)
		names[i] = o->vals[i].spec->name;
	const char *near = suggest_nearest(word, names, o->n);
	if (near) {
		fp_fail(e, ERR_USAGE, "unknown option --%s; did you mean --%s?", word, near);
		fp_err_set_help(e, "run `flyprof <command> --help` for the options it takes");
	} else {
		fp_fail(e, ERR_USAGE, "unknown option --%s", word);
	}
	free(names);
	free(word);
	return -1;
}

static opt_value *lookup_short(opts *o, char c)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->vals[i].spec->short_name == c)
			return &o->vals[i];
	return NULL;
}

static void set_value(opt_value *ov, const char *text, enum opt_source src)
{
	free(ov->text);
	ov->text = text ? xstrdup(text) : NULL;
	ov->source = src;
}

static int init_values(opts *o, const opt_spec *const *specs, fp_err *e)
{
	for (const opt_spec *const *sp = specs; *sp; sp++)
		for (const opt_spec *s = *sp; s->name; s++) {
			int dup = 0;
			for (size_t i = 0; i < o->n; i++)
				dup |= strcmp(o->vals[i].spec->name, s->name) == 0;
			if (dup)
				continue; /* the first declaration wins (command before universal)
					   */
			o->vals = xreallocarray(o->vals, o->n + 1, sizeof *o->vals);
			opt_value *ov = &o->vals[o->n++];
			ov->spec = s;
			ov->text = s->def ? xstrdup(s->def) : NULL;
			ov->source = OPT_FROM_DEFAULT;
			const char *env = s->env ? getenv(opts_env_name(s->name)) : NULL;
			if (env && *env) {
				char origin[160];
				snprintf(origin, sizeof origin,
					 "environment %s:", opts_env_name(s->name));
				if (validate(s, env, origin, e))
					return -1;
				set_value(ov, s->kind == OPT_FLAG ? "1" : env, OPT_FROM_ENV);
			}
		}
	return 0;
}

static int take_value(opt_value *ov, const char *inline_val, int *i, int argc, char **argv,
		      fp_err *e)
{
	const opt_spec *sp = ov->spec;
	if (sp->kind == OPT_FLAG) {
		if (inline_val)
			return fp_fail(e, ERR_USAGE, "--%s takes no value", sp->name);
		set_value(ov, "1", OPT_FROM_FLAG);
		return 0;
	}
	const char *v = inline_val;
	if (!v) {
		if (*i + 1 >= argc)
			return fp_fail(e, ERR_USAGE, "--%s needs a value (%s)", sp->name,
				       sp->metavar ? sp->metavar : "VALUE");
		v = argv[++*i];
	}
	if (validate(sp, v, "option", e))
		return -1;
	set_value(ov, v, OPT_FROM_FLAG);
	return 0;
}

int opts_parse(opts *o, const opt_spec *const *specs, int argc, char **argv, fp_err *e)
{
	memset(o, 0, sizeof *o);
	if (init_values(o, specs, e))
		return -1;
	int only_args = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == '\0') {
			o->args = xreallocarray(o->args, o->nargs + 1, sizeof *o->args);
			o->args[o->nargs++] = xstrdup(a);
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_args = 1;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			o->help = 1;
			continue;
		}
		opt_value *ov;
		const char *inline_val = NULL;
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			if (eq)
				inline_val = eq + 1;
			ov = lookup_long(o, name, len);
			if (!ov)
				return unknown_long(o, name, len, e);
		} else {
			ov = a[2] == '\0' ? lookup_short(o, a[1]) : NULL;
			if (!ov)
				return fp_fail(e, ERR_USAGE, "unknown option %s", a);
		}
		if (take_value(ov, inline_val, &i, argc, argv, e))
			return -1;
	}
	return 0;
}

void opts_release(opts *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->vals[i].text);
	free(o->vals);
	for (size_t i = 0; i < o->nargs; i++)
		free(o->args[i]);
	free(o->args);
	memset(o, 0, sizeof *o);
}

const opt_value *opts_find(const opts *o, const char *name)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->vals[i].spec->name, name) == 0)
			return &o->vals[i];
	return NULL;
}

const char *opts_str(const opts *o, const char *name)
{
	const opt_value *v = opts_find(o, name);
	return v ? v->text : NULL;
}

int opts_flag(const opts *o, const char *name)
{
	const char *t = opts_str(o, name);
	return t && strcmp(t, "0") != 0 && *t;
}

int64_t opts_int(const opts *o, const char *name, int64_t dflt)
{
	const char *t = opts_str(o, name);
	return t ? (int64_t)strtoll(t, NULL, 10) : dflt;
}

double opts_num(const opts *o, const char *name, double dflt)
{
	const char *t = opts_str(o, name);
	return t ? strtod(t, NULL) : dflt;
}

int opts_given(const opts *o, const char *name)
{
	const opt_value *v = opts_find(o, name);
	return v && v->text && v->source != OPT_FROM_DEFAULT;
}
