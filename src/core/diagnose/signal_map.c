/* The typed signal map (signal_map.h). A few hundred names at most: a linear search is enough. */
#include "core/diagnose/signal_map.h"

#include "base/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

sig_value sig_num(double d)
{
	sig_value v = {SIG_NUM, d, NULL};
	return v;
}

sig_value sig_round(double d, int digits)
{
	if (!isfinite(d))
		return sig_null();
	double scale = pow(10.0, digits);
	double r = round(d * scale) / scale;
	return sig_num(r == 0 ? 0 : r); /* no "-0" in output */
}

sig_value sig_str(const char *s)
{
	sig_value v = {SIG_STR, 0, s};
	return s ? v : sig_null();
}

sig_value sig_null(void)
{
	sig_value v = {SIG_NULL, 0, NULL};
	return v;
}

void signal_map_init(signal_map *m)
{
	memset(m, 0, sizeof *m);
}

void signal_map_release(signal_map *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free((char *)m->v[i].value.str);
	}
	free(m->v);
	memset(m, 0, sizeof *m);
}

static signal_entry *find(const signal_map *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->v[i].name, name) == 0)
			return &m->v[i];
	return NULL;
}

void signal_map_set(signal_map *m, const char *name, sig_value v)
{
	if (v.kind == SIG_STR)
		v.str = xstrdup(v.str);
	signal_entry *e = find(m, name);
	if (e) {
		free((char *)e->value.str);
		e->value = v;
		return;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = xrealloc(m->v, m->cap * sizeof *m->v);
	}
	m->v[m->n].name = xstrdup(name);
	m->v[m->n].value = v;
	m->n++;
}

const sig_value *signal_map_get(const signal_map *m, const char *name)
{
	const signal_entry *e = m ? find(m, name) : NULL;
	return e ? &e->value : NULL;
}

int sig_is_num(const sig_value *v)
{
	return v && v->kind == SIG_NUM;
}

double sig_number(const sig_value *v)
{
	return sig_is_num(v) ? v->num : 0;
}

const char *sig_string(const sig_value *v)
{
	return v && v->kind == SIG_STR ? v->str : NULL;
}

jv *sig_value_to_jv(const sig_value *v)
{
	if (sig_is_num(v))
		return jv_double(v->num);
	return sig_string(v) ? jv_str(v->str) : jv_null();
}

jv *signal_map_to_jv(const signal_map *m)
{
	jv *o = jv_object();
	for (size_t i = 0; i < m->n; i++)
		jv_set(o, m->v[i].name, sig_value_to_jv(&m->v[i].value));
	return o;
}
