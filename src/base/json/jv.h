/* jv: an ordered JSON value tree. Command data is built once as a jv tree and rendered as
 * JSON or as a table; parsed JSON documents are jv trees too.
 *
 * Ownership: a container owns every value put into it; jv_free releases a value and all it
 * holds. Keys keep insertion order, which makes rendered output deterministic. Lookups return
 * borrowed pointers. Integers are kept exactly (int64, or uint64 above INT64_MAX) so 19-digit
 * rocprofv3 ids survive. */
#ifndef FLYPROF_BASE_JV_H
#define FLYPROF_BASE_JV_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	JV_NULL,
	JV_BOOL,
	JV_INT,
	JV_UINT,
	JV_DOUBLE,
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT
} jv_type;

/* Opaque: callers read a value through jv_type_of, jv_len, jv_at, jv_key_at, jv_value_at and
 * the typed getters below, so the representation can change without touching them. */
typedef struct jv jv;

jv *jv_null(void);
jv *jv_bool(int b);
/* A tri-state as JSON: true or false, or null when b < 0 (unknown). */
jv *jv_bool_or_null(int b);
jv *jv_int(int64_t i);
jv *jv_uint(uint64_t u);
jv *jv_double(double d);
/* A double rounded to `digits` decimals (for percentages and averages in output). */
jv *jv_round(double d, int digits);
jv *jv_str(const char *s);
jv *jv_strn(const char *s, size_t n);
jv *jv_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "0x" and v in lowercase hex without leading zeros, as jv_strf("0x%llx", v) writes it, at a
 * tenth of the cost (an address on every hotspot). */
jv *jv_hex(uint64_t v);
jv *jv_vstrf(const char *fmt, va_list ap);
jv *jv_array(void);
jv *jv_object(void);
void jv_free(jv *v);
jv *jv_copy(const jv *v);

/* Appends item to arr (takes ownership) and returns item. */
jv *jv_push(jv *arr, jv *item);
/* Sets key in obj (takes ownership of val, replacing an existing key) and returns val. */
jv *jv_set(jv *obj, const char *key, jv *val);
/* Appends without looking for an existing key: used by the parser (last duplicate wins on get). */
jv *jv_append_kv(jv *obj, const char *key, size_t keylen, jv *val);
/* Removes key from obj and returns its value to the caller (NULL if absent). */
jv *jv_take(jv *obj, const char *key);

jv *jv_set_int(jv *obj, const char *key, int64_t i);
jv *jv_set_double(jv *obj, const char *key, double d);
jv *jv_set_round(jv *obj, const char *key, double d, int digits);
jv *jv_set_str(jv *obj, const char *key, const char *s);
jv *jv_set_bool(jv *obj, const char *key, int b);
/* Sets each {key, value} of a table of integer fields, in order. */
typedef struct jv_int_field {
	const char *key;
	int64_t value;
} jv_int_field;
void jv_set_ints(jv *obj, const jv_int_field *fields, size_t n);
/* The same for string fields (a NULL value is null). */
typedef struct jv_str_field {
	const char *key;
	const char *value;
} jv_str_field;
void jv_set_strs(jv *obj, const jv_str_field *fields, size_t n);

/* Replaces the i-th item of an array or the i-th value of an object (takes ownership of val and
 * frees the old value) and returns val; NULL (val freed) when i is past the end. */
jv *jv_replace_at(jv *v, size_t i, jv *val);
/* Sets every key of object src in dst in order, as jv_set would, and frees src (its values move
 * into dst, nothing is copied). */
void jv_merge(jv *dst, jv *src);

/* The type of v; JV_NULL for a NULL pointer, so that an absent key reads like a JSON null. */
jv_type jv_type_of(const jv *v);
/* Borrowed lookups; NULL when absent or of another type. */
jv *jv_get(const jv *obj, const char *key);
jv *jv_at(const jv *arr, size_t i);
/* Items of an array, keys of an object, bytes of a string; 0 for anything else and NULL. */
size_t jv_len(const jv *v);
/* The i-th key / value of an object in insertion order (borrowed); NULL past the end. */
const char *jv_key_at(const jv *obj, size_t i);
jv *jv_value_at(const jv *obj, size_t i);
/* Frees the items of an array from index n on. */
void jv_truncate(jv *arr, size_t n);
/* 1 for the boolean true; 0 for false, for any other type and for NULL. */
int jv_is_true(const jv *v);
int jv_is_num(const jv *v);
/* Numeric value as double / int64 (0 for non-numbers); jv_int_ok tells if v is an exact integer. */
double jv_num(const jv *v);
int64_t jv_i64(const jv *v);
int jv_int_ok(const jv *v, int64_t *out);
/* The value of an integer that fits uint64 (a JV_UINT or a non-negative JV_INT); 0 otherwise. */
uint64_t jv_u64(const jv *v);
const char *jv_string(const jv *v);
/* Deep equality (object key order ignored). */
int jv_equal(const jv *a, const jv *b);

#endif
