/* Renders a jv tree as JSON text. Deterministic: keys in insertion order, integers exact,
 * doubles in the shortest form that reads back to the same value, NaN/Inf as null, and
 * strings always valid UTF-8 (invalid bytes become U+FFFD) so input text can be echoed safely. */
#ifndef FLYPROF_OUT_JSON_WRITE_H
#define FLYPROF_OUT_JSON_WRITE_H

#include "base/json/jv.h"
#include "base/strbuf.h"

#include <stdint.h>

/* indent = 0: compact; > 0: pretty with that many spaces per level. */
void json_write(strbuf *out, const jv *v, int indent);
/* Appends a JSON string literal for s[0..n). */
void json_write_string(strbuf *out, const char *s, size_t n);
/* Appends a number in the format json_write uses. */
void json_write_double(strbuf *out, double d);
/* Appends v in decimal, as json_write writes an integer. */
void json_write_i64(strbuf *out, int64_t v);

#endif
