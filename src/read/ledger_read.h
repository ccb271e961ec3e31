/* Reader of a task's round ledger (JSON lines, docs/ledger.md). Every line is one JSON object
 * with the keys ledger_round_to_json writes; a line that does not parse, lacks a required key,
 * holds a value of the wrong type or an unknown enum value, or is cut short (no final newline)
 * is BAD_INPUT with the file, byte offset, line and column. Blank lines are not rounds and are
 * passed over; unknown keys are allowed so later versions can add fields. */
#ifndef FLYPROF_READ_LEDGER_READ_H
#define FLYPROF_READ_LEDGER_READ_H

#include "base/err.h"
#include "model/ledger.h"

#include <stddef.h>

/* Parses one line (without its newline) into r. `file`, `lineno` and `line_offset` (the byte
 * offset of the line in the file) place errors. Returns 0, or -1 with e filled. */
int ledger_parse_line(const char *line, size_t n, const char *file, int64_t lineno,
		      int64_t line_offset, ledger_round *r, fp_err *e);
/* Parses a whole ledger text into rs (which the caller releases, also on error). */
int ledger_parse_text(const char *buf, size_t len, const char *file, ledger_rounds *rs, fp_err *e);
/* Reads the file at path; a missing file is an empty ledger (returns 0, *existed = 0). */
int ledger_read_file(const char *path, ledger_rounds *rs, int *existed, fp_err *e);

#endif
