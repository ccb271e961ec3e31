#include "base/json/jv.h"

#include "base/strbuf.h"
#include "base/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct jv {
	jv_type type;
	union {
		int b;
		int64_t i;
		uint64_t u;
		double d;
		struct {
			char *s;
			size_t len;
		} str;
		struct {
			jv **items;
			size_t n, cap;
		} arr;
		struct {
			char **keys;
			jv **vals;
			size_t n, cap;
		} obj;
	} v;
};

static jv *mk(jv_type t)
{
	jv *v = xcalloc(1, sizeof *v);
	v->type = t;
	return v;
}

jv *jv_null(void)
{
	return mk(JV_NULL);
}

jv *jv_bool(int b)
{
	jv *v = mk(JV_BOOL);
	v->v.b = b != 0;
	return v;
}

jv *jv_bool_or_null(int b)
{
	return b < 0 ? jv_null() : jv_bool(b);
}

jv *jv_int(int64_t i)
{
	jv *v = mk(JV_INT);
	v->v.i = i;
	return v;
}

jv *jv_uint(uint64_t u)
{
	if (u <= (uint64_t)INT64_MAX)
		return jv_int((int64_t)u);
	jv *v = mk(JV_UINT);
	v->v.u = u;
	return v;
}

jv *jv_double(double d)
{
	jv *v = mk(JV_DOUBLE);
	v->v.d = d;
	return v;
}

jv *jv_round(double d, int digits)
{
	if (!isfinite(d))
		return jv_null();
	double scale = pow(10.0, digits);
	double r = round(d * scale) / scale;
	if (r == 0)
		r = 0; /* no "-0" in output */
	return jv_double(r);
}

jv *jv_strn(const char *s, size_t n)
{
	jv *v = mk(JV_STRING);
	v->v.str.s = xstrndup(s, n);
	v->v.str.len = n;
	return v;
}

jv *jv_str(const char *s)
{
	return s ? jv_strn(s, strlen(s)) : jv_null();
}

jv *jv_vstrf(const char *fmt, va_list ap)
{
	strbuf sb = STRBUF_INIT;
	sb_vaddf(&sb, fmt, ap);
	jv *v = mk(JV_STRING);
	v->v.str.len = sb.len;
	v->v.str.s = sb_detach(&sb);
	return v;
}

jv *jv_strf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	jv *v = jv_vstrf(fmt, ap);
	va_end(ap);
	return v;
}

jv *jv_hex(uint64_t v)
{
	char b[2 + 16];
	size_t n = 0;
	for (uint64_t x = v; n == 0 || x; x >>= 4)
		n++;
	b[0] = '0';
	b[1] = 'x';
	for (size_t i = n; i-- > 0; v >>= 4)
		b[2 + i] = "0123456789abcdef"[v & 15];
	return jv_strn(b, 2 + n);
}

jv *jv_array(void)
{
	return mk(JV_ARRAY);
}

jv *jv_object(void)
{
	return mk(JV_OBJECT);
}

void jv_free(jv *v)
{
	if (!v)
		return;
	switch (v->type) {
	case JV_STRING:
		free(v->v.str.s);
		break;
	case JV_ARRAY:
		for (size_t i = 0; i < v->v.arr.n; i++)
			jv_free(v->v.arr.items[i]);
		free(v->v.arr.items);
		break;
	case JV_OBJECT:
		for (size_t i = 0; i < v->v.obj.n; i++) {
			free(v->v.obj.keys[i]);
			jv_free(v->v.obj.vals[i]);
		}
		free(v->v.obj.keys);
		free(v->v.obj.vals);
		break;
	default:
		break;
	}
	free(v);
}

jv *jv_copy(const jv *v)
{
	if (!v)
		return NULL;
	switch (v->type) {
	case JV_STRING:
		return jv_strn(v->v.str.s, v->v.str.len);
	case JV_ARRAY: {
		jv *a = jv_array();
		for (size_t i = 0; i < v->v.arr.n; i++)
			jv_push(a, jv_copy(v->v.arr.items[i]));
		return a;
	}
	case JV_OBJECT: {
		jv *o = jv_object();
		for (size_t i = 0; i < v->v.obj.n; i++)
			jv_append_kv(o, v->v.obj.keys[i], strlen(v->v.obj.keys[i]),
				     jv_copy(v->v.obj.vals[i]));
		return o;
	}
	default: {
		jv *c = mk(v->type);
		c->v = v->v;
		return c;
	}
	}
}

jv *jv_push(jv *arr, jv *item)
{
	if (!arr || arr->type != JV_ARRAY) {
		jv_free(item);
		return NULL;
	}
	arr->v.arr.items = xgrow(arr->v.arr.items, &arr->v.arr.cap, arr->v.arr.n + 1, sizeof(jv *));
	arr->v.arr.items[arr->v.arr.n++] = item;
	return item;
}

static long find_key(const jv *obj, const char *key)
{
	/* From the end so that, for parsed documents with duplicate keys, the last one wins. */
	/* The first bytes are compared here: most keys differ there, and a call to strcmp per
	 * key was a few percent of report's time (objects of a dozen keys looked up by name). */
	for (size_t i = obj->v.obj.n; i-- > 0;) {
		const char *k = obj->v.obj.keys[i];
		if (k[0] == key[0] && (k[0] == '\0' || strcmp(k + 1, key + 1) == 0))
			return (long)i;
	}
	return -1;
}

jv *jv_append_kv(jv *obj, const char *key, size_t keylen, jv *val)
{
	if (!obj || obj->type != JV_OBJECT) {
		jv_free(val);
		return NULL;
	}
	size_t cap = obj->v.obj.cap;
	obj->v.obj.keys = xgrow(obj->v.obj.keys, &cap, obj->v.obj.n + 1, sizeof(char *));
	cap = obj->v.obj.cap;
	obj->v.obj.vals = xgrow(obj->v.obj.vals, &cap, obj->v.obj.n + 1, sizeof(jv *));
	obj->v.obj.cap = cap;
	obj->v.obj.keys[obj->v.obj.n] = xstrndup(key, keylen);
	obj->v.obj.vals[obj->v.obj.n] = val;
	obj->v.obj.n++;
	return val;
}

jv *jv_set(jv *obj, const char *key, jv *val)
{
	if (!obj || obj->type != JV_OBJECT) {
		jv_free(val);
		return NULL;
	}
	long i = find_key(obj, key);
	if (i >= 0) {
		jv_free(obj->v.obj.vals[i]);
		obj->v.obj.vals[i] = val;
		return val;
	}
	return jv_append_kv(obj, key, strlen(key), val);
}

jv *jv_take(jv *obj, const char *key)
{
	if (!obj || obj->type != JV_OBJECT)
		return NULL;
	long i = find_key(obj, key);
	if (i < 0)
		return NULL;
	jv *val = obj->v.obj.vals[i];
	free(obj->v.obj.keys[i]);
	size_t rest = obj->v.obj.n - (size_t)i - 1;
	memmove(obj->v.obj.keys + i, obj->v.obj.keys + i + 1, rest * sizeof(char *));
	memmove(obj->v.obj.vals + i, obj->v.obj.vals + i + 1, rest * sizeof(jv *));
	obj->v.obj.n--;
	return val;
}

jv *jv_set_int(jv *obj, const char *key, int64_t i)
{
	return jv_set(obj, key, jv_int(i));
}

jv *jv_set_double(jv *obj, const char *key, double d)
{
	return jv_set(obj, key, isfinite(d) ? jv_double(d) : jv_null());
}

jv *jv_set_round(jv *obj, const char *key, double d, int digits)
{
	return jv_set(obj, key, jv_round(d, digits));
}

jv *jv_set_str(jv *obj, const char *key, const char *s)
{
	return jv_set(obj, key, jv_str(s));
}

jv *jv_set_bool(jv *obj, const char *key, int b)
{
	return jv_set(obj, key, jv_bool(b));
}

void jv_set_ints(jv *obj, const jv_int_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jv_set_int(obj, fields[i].key, fields[i].value);
}

void jv_set_strs(jv *obj, const jv_str_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jv_set_str(obj, fields[i].key, fields[i].value);
}

jv *jv_replace_at(jv *v, size_t i, jv *val)
{
	jv **slot = NULL;
	if (v && v->type == JV_ARRAY && i < v->v.arr.n)
		slot = &v->v.arr.items[i];
	else if (v && v->type == JV_OBJECT && i < v->v.obj.n)
		slot = &v->v.obj.vals[i];
	if (!slot) {
		jv_free(val);
		return NULL;
	}
	jv_free(*slot);
	*slot = val;
	return val;
}

void jv_merge(jv *dst, jv *src)
{
	if (!src)
		return;
	if (src->type == JV_OBJECT) {
		for (size_t i = 0; i < src->v.obj.n; i++) {
			jv_set(dst, src->v.obj.keys[i], src->v.obj.vals[i]);
			src->v.obj.vals[i] = NULL;
		}
	}
	jv_free(src);
}

jv_type jv_type_of(const jv *v)
{
	return v ? v->type : JV_NULL;
}

jv *jv_get(const jv *obj, const char *key)
{
	if (!obj || obj->type != JV_OBJECT)
		return NULL;
	long i = find_key(obj, key);
	return i < 0 ? NULL : obj->v.obj.vals[i];
}

jv *jv_at(const jv *arr, size_t i)
{
	if (!arr || arr->type != JV_ARRAY || i >= arr->v.arr.n)
		return NULL;
	return arr->v.arr.items[i];
}

size_t jv_len(const jv *v)
{
	if (!v)
		return 0;
	if (v->type == JV_ARRAY)
		return v->v.arr.n;
	if (v->type == JV_OBJECT)
		return v->v.obj.n;
	if (v->type == JV_STRING)
		return v->v.str.len;
	return 0;
}

const char *jv_key_at(const jv *obj, size_t i)
{
	return obj && obj->type == JV_OBJECT && i < obj->v.obj.n ? obj->v.obj.keys[i] : NULL;
}

jv *jv_value_at(const jv *obj, size_t i)
{
	return obj && obj->type == JV_OBJECT && i < obj->v.obj.n ? obj->v.obj.vals[i] : NULL;
}

void jv_truncate(jv *arr, size_t n)
{
	if (!arr || arr->type != JV_ARRAY || n >= arr->v.arr.n)
		return;
	for (size_t i = n; i < arr->v.arr.n; i++)
		jv_free(arr->v.arr.items[i]);
	arr->v.arr.n = n;
}

int jv_is_true(const jv *v)
{
	return v && v->type == JV_BOOL && v->v.b;
}

int jv_is_num(const jv *v)
{
	return v && (v->type == JV_INT || v->type == JV_UINT || v->type == JV_DOUBLE);
}

double jv_num(const jv *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case JV_INT:
		return (double)v->v.i;
	case JV_UINT:
		return (double)v->v.u;
	case JV_DOUBLE:
		return v->v.d;
	default:
		return 0;
	}
}

int jv_int_ok(const jv *v, int64_t *out)
{
	if (!v)
		return 0;
	if (v->type == JV_INT) {
		*out = v->v.i;
		return 1;
	}
	if (v->type == JV_DOUBLE && v->v.d == floor(v->v.d) && fabs(v->v.d) < 9.0e15) {
		*out = (int64_t)v->v.d;
		return 1;
	}
	return 0;
}

uint64_t jv_u64(const jv *v)
{
	if (v && v->type == JV_UINT)
		return v->v.u;
	if (v && v->type == JV_INT && v->v.i >= 0)
		return (uint64_t)v->v.i;
	return 0;
}

int64_t jv_i64(const jv *v)
{
	int64_t x = 0;
	return jv_int_ok(v, &x) ? x : 0;
}

const char *jv_string(const jv *v)
{
	return v && v->type == JV_STRING ? v->v.str.s : NULL;
}

int jv_equal(const jv *a, const jv *b)
{
	if (!a || !b)
		return a == b;
	if (jv_is_num(a) && jv_is_num(b)) {
		if (a->type == JV_DOUBLE || b->type == JV_DOUBLE)
			return jv_num(a) == jv_num(b);
		if (a->type != b->type)
			return 0;
		return a->type == JV_INT ? a->v.i == b->v.i : a->v.u == b->v.u;
	}
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case JV_NULL:
		return 1;
	case JV_BOOL:
		return a->v.b == b->v.b;
	case JV_STRING:
		return a->v.str.len == b->v.str.len &&
		       memcmp(a->v.str.s, b->v.str.s, a->v.str.len) == 0;
	case JV_ARRAY:
		if (a->v.arr.n != b->v.arr.n)
			return 0;
		for (size_t i = 0; i < a->v.arr.n; i++)
			if (!jv_equal(a->v.arr.items[i], b->v.arr.items[i]))
				return 0;
		return 1;
	case JV_OBJECT:
		if (a->v.obj.n != b->v.obj.n)
			return 0;
		for (size_t i = 0; i < a->v.obj.n; i++)
			if (!jv_equal(a->v.obj.vals[i], jv_get(b, a->v.obj.keys[i])))
				return 0;
		return 1;
	default:
		return 0;
	}
}
