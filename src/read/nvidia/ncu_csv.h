/* A strict RFC 4180 CSV reader for Nsight Compute exports (`ncu --csv`: the source page with
 * or without correlated source, and the details page). One reader serves all three kinds.
 *
 * Accepted: fields separated by ',', records ended by LF, CRLF or CR (or end of input); a
 * field that starts with '"' is quoted and may hold commas and line breaks. Empty lines are
 * skipped (ncu never writes them inside a table). A record may have any number of fields
 * (ncu's "Kernel Name" line has a trailing comma, the tables have ~70 columns).
 * ncu does NOT double quotes inside its fields (source text such as `other=-float("inf")`
 * arrives as is), so a quote closes a quoted field only where a boundary follows: a line end,
 * the end of input, or ',' followed by a non-blank (ncu writes no blank after a separator);
 * any other quote is text, "" is one quote unless its second half closes the field, and a
 * quote inside an unquoted field is text. A source line with `"a","b"` in it therefore gains
 * fields; the readers only rely on the fields before the source text.
 * Rejected as BAD_INPUT with the file name, byte offset, line and column: an unterminated
 * quoted field and NUL bytes.
 *
 * Ownership: an ncu_csv owns its rows and all field text (one block, NUL-terminated values);
 * ncu_csv_release releases it. Field pointers are borrowed from the ncu_csv. */
#ifndef FLYPROF_READ_NCU_CSV_H
#define FLYPROF_READ_NCU_CSV_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ncu_csv_row {
	const char **f;	    /* unquoted values (borrowed from the ncu_csv) */
	const int64_t *off; /* byte offset in the file of each field's first byte */
	size_t n;	    /* number of fields */
	int64_t line;	    /* 1-based line on which the record starts */
} ncu_csv_row;

typedef struct ncu_csv {
	char *name; /* file name used in errors (owned) */
	ncu_csv_row *rows;
	size_t n_rows;
	/* storage behind the rows */
	char *text;
	const char **fields;
	int64_t *offs;
	char *src; /* a copy of the parsed bytes, for line/column of later errors */
	size_t src_len;
} ncu_csv;

/* Parses buf[0..len) (need not be NUL-terminated). name labels errors. Returns 0, or -1 with e
 * set (BAD_INPUT) and *out left empty. The bytes are copied (the caller keeps buf). */
int ncu_csv_parse(const char *buf, size_t len, const char *name, ncu_csv *out, fp_err *e);
/* Reads and parses a whole file (NO_ARTIFACT when missing, IO_ERROR, BAD_INPUT); errors name
 * the path. */
int ncu_csv_read_file(const char *path, ncu_csv *out, fp_err *e);
void ncu_csv_release(ncu_csv *c);
/* Parses buf[0..len) as ncu_csv_parse does, hands the table to walk with arg and frees it:
 * the shape of every reader of one export. Returns -1 when the text does not parse, else
 * what walk returns. */
int ncu_csv_walk(const char *buf, size_t len, const char *name,
		 int (*walk)(const ncu_csv *c, void *arg, fp_err *e), void *arg, fp_err *e);

/* Index of the first field of row equal to name, or -1. */
long ncu_csv_col(const ncu_csv_row *row, const char *name);
/* Field i of row, or "" when the row is shorter. */
const char *ncu_csv_get(const ncu_csv_row *row, size_t i);

/* BAD_INPUT for field i of row (its offset, line and column), with what was expected. */
int ncu_csv_fail_at(const ncu_csv *c, const ncu_csv_row *row, size_t i, fp_err *e,
		    const char *expected, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* A non-negative decimal integer field ("22", "8,192" with thousands separators). Returns 0
 * (out filled) or -1 with BAD_INPUT at the field. */
int ncu_csv_count(const ncu_csv *c, const ncu_csv_row *row, size_t i, int64_t *out, fp_err *e);
/* A number in ncu's display form: optional sign, digits with ',' thousands separators, an
 * optional fraction and exponent ("640,610.58", "3.20", "1e+03"). Returns 1 (out filled), 0
 * when the text is not such a number ("no data", "n/a", "-", "(256, 1, 1)"). Never fails. */
int ncu_csv_number(const char *s, double *out);

#endif
