/* A strict JSON (RFC 8259) parser into a jv tree, for documents of moderate size (artifacts,
 * code.json, occupancy.json, snapshots.json, rules). Errors are BAD_INPUT with the file name,
 * byte offset, line, column and what was expected. Nesting is limited (JSON_MAX_DEPTH) so
 * hostile input cannot exhaust the stack. Integers that fit int64/uint64 stay exact. */
#ifndef FLYPROF_READ_JSON_PARSE_H
#define FLYPROF_READ_JSON_PARSE_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stddef.h>

#define JSON_MAX_DEPTH 256

/* Parses buf[0..len) as one JSON document; `name` is used in error messages. Returns an owned
 * tree or NULL with e filled. */
jv *json_parse(const char *buf, size_t len, const char *name, fp_err *e);
/* Reads and parses a whole file. */
jv *json_parse_file(const char *path, fp_err *e);
/* Computes 1-based line and column of byte offset off in buf. */
void json_line_col(const char *buf, size_t off, long long *line, long long *col);

#endif
