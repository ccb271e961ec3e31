/* Layout primitives of the terminal views (-f table): word-wrapped text with a hanging indent
 * and column tables whose one flexible column gives way so that no line is wider than the
 * view's width. Text is treated as one column per byte except UTF-8 continuation bytes, which
 * is exact for the ASCII the envelopes hold and never over-counts multi-byte characters. */
#ifndef FLYPROF_OUT_TABLE_FMT_H
#define FLYPROF_OUT_TABLE_FMT_H

#include "base/json/jv.h"
#include "base/strbuf.h"

#include <stddef.h>

#define TF_MAX_COLS 8

typedef struct tf {
	strbuf *out;
	int width; /* columns available; every line written stays within it */
} tf;

/* Display columns of s[0..n). */
size_t tf_cols(const char *s, size_t n);
/* `label` then `text` word-wrapped to the width; continuation lines are indented to line up
 * under the text. `indent` spaces precede the label. A NULL or empty text writes nothing. */
void tf_para(tf *t, int indent, const char *label, const char *text);
/* A section title line ("hot instructions (10 of 727)"). */
void tf_title(tf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A column table: headers, then rows of cells (strings, copied). Numeric columns are right
 * aligned. The flexible column (flex) is the one shortened, from its start when it holds a
 * path (keep_end) else from its end, when the table would overflow the width. */
typedef struct tf_table {
	size_t ncol;
	const char *head[TF_MAX_COLS];
	int right[TF_MAX_COLS];
	int flex;     /* index of the column that gives way */
	int keep_end; /* shorten the flexible column from the left (paths: keep file:line) */
	char **cells; /* rows * ncol */
	size_t rows, cap;
} tf_table;

void tf_table_init(tf_table *tb, int flex, int keep_end);
void tf_table_col(tf_table *tb, const char *head, int right);
/* A column of a table declared as a list: header and alignment. */
enum { TF_LEFT = 0, TF_RIGHT = 1 };
typedef struct tf_col {
	const char *head;
	int right;
} tf_col;
/* Adds the columns of cols, up to the one with a NULL head. */
void tf_table_cols(tf_table *tb, const tf_col *cols);
/* Adds one row of ncol cells given as printf-free strings (NULL shows as "-"). */
void tf_table_row(tf_table *tb, const char *const *cells);
/* Writes the table indented by `indent` spaces and releases it. */
void tf_table_emit(tf *t, tf_table *tb, int indent);

/* The last path component of a "path:LINE" source (or of a path); "" for NULL. */
const char *tf_base(const char *path);

/* Number cells: "60.5%" (one decimal) and counts shortened past 6 digits ("19.2M"), written
 * into buf (at least 32 bytes); "-" for a missing value. */
const char *tf_pct(char *buf, const jv *v);
const char *tf_count(char *buf, const jv *v);

#endif
