#include "out/table_fmt.h"

#include "base/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TF_MIN_TEXT  20 /* a wrapped text never gets fewer columns than this */
#define TF_MIN_FLEX  8
#define TF_MIN_CELL  4	/* below this a cell says nothing */
#define TF_MAX_FIXED 40 /* a non-flexible column wider than this is cut too when space is short */

size_t tf_cols(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			c++;
	return c;
}

/* Byte length of the longest prefix of s[0..n) that spans at most `cols` columns, not ending
 * inside a UTF-8 sequence. */
static size_t prefix_bytes(const char *s, size_t n, size_t cols)
{
	size_t c = 0, i = 0;
	for (; i < n; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (c == cols)
				break;
			c++;
		}
	}
	return i;
}

static void spaces(strbuf *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_addc(out, ' ');
}

void tf_para(tf *t, int indent, const char *label, const char *text)
{
	if (!text || !*text)
		return;
	size_t hang = (size_t)indent + (label && *label ? tf_cols(label, strlen(label)) + 1 : 0);
	size_t avail = t->width > (int)hang + TF_MIN_TEXT ? (size_t)t->width - hang : TF_MIN_TEXT;
	spaces(t->out, (size_t)indent);
	if (label && *label)
		sb_addf(t->out, "%s ", label);
	size_t used = 0;
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			sb_addc(t->out, '\n');
			spaces(t->out, hang);
			used = 0;
			p++;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		size_t n = strcspn(p, " \n");
		size_t w = tf_cols(p, n);
		if (used && used + 1 + w > avail) {
			sb_addc(t->out, '\n');
			spaces(t->out, hang);
			used = 0;
		} else if (used) {
			sb_addc(t->out, ' ');
			used++;
		}
		/* a word longer than a whole line is broken where the line ends */
		while (w > avail - used) {
			size_t b = prefix_bytes(p, n, avail - used);
			sb_add(t->out, p, b);
			sb_addc(t->out, '\n');
			spaces(t->out, hang);
			p += b, n -= b, w = tf_cols(p, n), used = 0;
		}
		sb_add(t->out, p, n);
		used += w;
		p += n;
	}
	sb_addc(t->out, '\n');
}

void tf_title(tf *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *title = xstrvfmt(fmt, ap);
	va_end(ap);
	sb_addc(t->out, '\n');
	tf_para(t, 0, NULL, title);
	free(title);
}

void tf_table_init(tf_table *tb, int flex, int keep_end)
{
	memset(tb, 0, sizeof *tb);
	tb->flex = flex;
	tb->keep_end = keep_end;
}

void tf_table_col(tf_table *tb, const char *head, int right)
{
	if (tb->ncol == TF_MAX_COLS)
		return;
	tb->head[tb->ncol] = head;
	tb->right[tb->ncol++] = right;
}

void tf_table_cols(tf_table *tb, const tf_col *cols)
{
	for (; cols->head; cols++)
		tf_table_col(tb, cols->head, cols->right);
}

void tf_table_row(tf_table *tb, const char *const *cells)
{
	if (tb->rows == tb->cap) {
		tb->cap = tb->cap ? tb->cap * 2 : 16;
		tb->cells = xreallocarray(tb->cells, tb->cap * tb->ncol, sizeof(char *));
	}
	for (size_t c = 0; c < tb->ncol; c++)
		tb->cells[tb->rows * tb->ncol + c] = xstrdup(cells[c] ? cells[c] : "-");
	tb->rows++;
}

/* Writes s padded or cut to exactly w columns (no padding when last). */
static void put_cell(strbuf *out, const char *s, size_t w, int right, int keep_end, int last)
{
	size_t n = strlen(s), c = tf_cols(s, n);
	if (c > w) {
		if (w <= 3) {
			sb_add(out, s, prefix_bytes(s, n, w));
		} else if (keep_end) {
			size_t skip = prefix_bytes(s, n, c - (w - 3));
			sb_adds(out, "...");
			sb_add(out, s + skip, n - skip);
		} else {
			sb_add(out, s, prefix_bytes(s, n, w - 3));
			sb_adds(out, "...");
		}
		return;
	}
	if (right)
		spaces(out, w - c);
	sb_add(out, s, n);
	if (!right && !last)
		spaces(out, w - c);
}

void tf_table_emit(tf *t, tf_table *tb, int indent)
{
	size_t w[TF_MAX_COLS];
	size_t total = (size_t)indent;
	for (size_t c = 0; c < tb->ncol; c++) {
		w[c] = tf_cols(tb->head[c], strlen(tb->head[c]));
		for (size_t r = 0; r < tb->rows; r++) {
			const char *s = tb->cells[r * tb->ncol + c];
			size_t k = tf_cols(s, strlen(s));
			if (k > w[c])
				w[c] = k;
		}
		total += w[c] + (c ? 2 : 0);
	}
	size_t width = (size_t)t->width;
	size_t f = (size_t)tb->flex < tb->ncol ? (size_t)tb->flex : tb->ncol - 1;
	/* first the flexible column gives way, then the widest fixed ones */
	if (total > width) {
		size_t cut = total - width, room = w[f] > TF_MIN_FLEX ? w[f] - TF_MIN_FLEX : 0;
		size_t d = cut < room ? cut : room;
		w[f] -= d, total -= d;
	}
	for (size_t c = 0; c < tb->ncol && total > width; c++) {
		if (c == f || w[c] <= TF_MAX_FIXED)
			continue;
		size_t d =
		    total - width < w[c] - TF_MAX_FIXED ? total - width : w[c] - TF_MAX_FIXED;
		w[c] -= d, total -= d;
	}
	/* on a narrow terminal the rightmost columns go (--full still has them), then the widest
	 * column loses a column at a time */
	size_t shown = tb->ncol;
	while (total > width && shown > 2)
		total -= w[--shown] + 2;
	while (total > width) {
		size_t widest = 0;
		for (size_t c = 1; c < shown; c++)
			if (w[c] > w[widest])
				widest = c;
		if (w[widest] <= TF_MIN_CELL)
			break;
		w[widest]--, total--;
	}
	for (size_t r = 0; r <= tb->rows; r++) {
		spaces(t->out, (size_t)indent);
		for (size_t c = 0; c < shown; c++) {
			if (c)
				sb_adds(t->out, "  ");
			const char *s = r ? tb->cells[(r - 1) * tb->ncol + c] : tb->head[c];
			put_cell(t->out, s, w[c], tb->right[c], c == f && tb->keep_end,
				 c + 1 == shown);
		}
		while (t->out->len && t->out->buf[t->out->len - 1] == ' ')
			t->out->len--; /* an empty last cell leaves no trailing blanks */
		t->out->buf[t->out->len] = '\0';
		sb_addc(t->out, '\n');
	}
	for (size_t i = 0; i < tb->rows * tb->ncol; i++)
		free(tb->cells[i]);
	free(tb->cells);
	tb->cells = NULL;
	tb->rows = tb->cap = 0;
}

const char *tf_base(const char *path)
{
	if (!path)
		return "";
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

const char *tf_pct(char *buf, const jv *v)
{
	if (!jv_is_num(v))
		return "-";
	snprintf(buf, 32, "%.1f%%", jv_num(v));
	return buf;
}

const char *tf_count(char *buf, const jv *v)
{
	if (!jv_is_num(v))
		return "-";
	double d = jv_num(v), a = d < 0 ? -d : d;
	if (a >= 1e9)
		snprintf(buf, 32, "%.1fG", d / 1e9);
	else if (a >= 1e6)
		snprintf(buf, 32, "%.1fM", d / 1e6);
	else if (d == (double)(long long)d)
		snprintf(buf, 32, "%lld", (long long)d);
	else
		snprintf(buf, 32, "%.3g", d);
	return buf;
}
