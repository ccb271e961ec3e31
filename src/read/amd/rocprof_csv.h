/* A table reader for rocprofv3's CSV outputs (docs/facts-rocprofv3.md: kernel_stats.csv,
 * kernel_trace.csv, counter_collection.csv, agent_info.csv): RFC 4180 fields, quoted or bare,
 * a header row naming the columns. The whole table is kept as strings; callers look columns
 * up by name, so extra or reordered columns of other rocprofv3 versions are harmless.
 *
 * Failure: an unterminated quote, a stray character after a closing quote, a NUL byte or a row
 * with more fields than the header is BAD_INPUT with the file and byte offset. An empty file is
 * a table with no columns and no rows. Ownership: csv_table owns everything (csv_release). */
#ifndef FLYPROF_READ_ROCPROF_CSV_H
#define FLYPROF_READ_ROCPROF_CSV_H

#include "base/err.h"

#include <stddef.h>

typedef struct csv_table {
	char **cols; /* header names */
	size_t ncols;
	char ***rows; /* rows[i][j], j < ncols; a short row is padded with "" */
	size_t nrows;
	long long *row_offset; /* byte offset of each row in the input (for error messages) */
} csv_table;

int csv_parse(const char *buf, size_t len, const char *name, csv_table *t, fp_err *e);
/* Reads and parses a file; a missing file is NO_ARTIFACT. */
int csv_parse_file(const char *path, csv_table *t, fp_err *e);
void csv_release(csv_table *t);
/* Index of the first column named `name` (exact), or -1. */
int csv_col(const csv_table *t, const char *name);
/* Field text (never NULL) of row r, column c (c < 0 gives ""). */
const char *csv_at(const csv_table *t, size_t r, int c);
/* Field as a number; 0 with *ok = 0 when empty or not numeric. ok may be NULL. */
double csv_num(const csv_table *t, size_t r, int c, int *ok);

#endif
