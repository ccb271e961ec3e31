#include "read/amd/att_scan.h"

#include "base/input_open.h"
#include "base/xalloc.h"
#include "base/json/json_parse.h"
#include "base/json/json_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void att_scan_init(att_scan *s, const char *buf, size_t len, const char *file, fp_err *e)
{
	s->buf = buf;
	s->len = len;
	s->pos = 0;
	s->file = file;
	s->e = e;
}

static inline void skip_ws(att_scan *s)
{
	while (s->pos < s->len) {
		char c = s->buf[s->pos];
		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return;
		s->pos++;
	}
}

static const char *describe(const att_scan *s)
{
	if (s->pos >= s->len)
		return "end of file";
	unsigned char c = (unsigned char)s->buf[s->pos];
	if (c == '"')
		return "a string";
	if (c == '[')
		return "an array";
	if (c == '{')
		return "an object";
	if (c == '-' || (c >= '0' && c <= '9'))
		return "a number";
	if (c == 'n' || c == 't' || c == 'f')
		return "a literal";
	return "an unexpected byte";
}

int att_scan_fail(att_scan *s, const char *expected)
{
	skip_ws(s);
	size_t off = s->pos < s->len ? s->pos : s->len;
	long long line, col;
	json_line_col(s->buf, off, &line, &col);
	return fp_fail_input_lc(s->e, s->file, (int64_t)off, line, col, expected,
				"%s: expected %s, found %s at byte %zu (line %lld, column %lld)",
				s->file, expected, describe(s), off, line, col);
}

int att_scan_peek(att_scan *s)
{
	skip_ws(s);
	return s->pos < s->len ? (unsigned char)s->buf[s->pos] : -1;
}

int att_scan_expect(att_scan *s, char c, const char *expected)
{
	skip_ws(s);
	if (s->pos < s->len && s->buf[s->pos] == c) {
		s->pos++;
		return 0;
	}
	char what[8] = {'\'', c, '\'', 0};
	return att_scan_fail(s, expected ? expected : what);
}

int att_scan_next(att_scan *s, char close, int *first)
{
	skip_ws(s);
	if (s->pos < s->len && s->buf[s->pos] == close) {
		s->pos++;
		return 0;
	}
	if (*first) {
		*first = 0;
		return 1;
	}
	if (s->pos < s->len && s->buf[s->pos] == ',') {
		s->pos++;
		return 1;
	}
	return att_scan_fail(s, close == ']' ? "',' or ']'" : "',' or '}'");
}

int att_scan_i64(att_scan *s, int64_t *out, const char *expected)
{
	skip_ws(s);
	size_t p = s->pos;
	const char *b = s->buf;
	int neg = 0;
	if (p < s->len && b[p] == '-') {
		neg = 1;
		p++;
	}
	if (p >= s->len || (unsigned)(b[p] - '0') >= 10)
		return att_scan_fail(s, expected);
	uint64_t v = 0;
	size_t start = p;
	/* 18 digits cannot overflow; past that each digit is checked against 2^63. */
	while (p < s->len && (unsigned)(b[p] - '0') < 10 && p - start < 18)
		v = v * 10 + (unsigned)(b[p++] - '0');
	while (p < s->len && (unsigned)(b[p] - '0') < 10) {
		unsigned d = (unsigned)(b[p] - '0');
		if (v > 922337203685477580u || (v == 922337203685477580u && d > 8))
			return att_scan_fail(s, "an integer within 64 bits");
		v = v * 10 + d;
		p++;
	}
	if ((b[start] == '0' && p - start > 1) ||
	    (p < s->len && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')))
		return att_scan_fail(s, expected);
	if (!neg && v > (uint64_t)INT64_MAX)
		return att_scan_fail(s, "an integer within 64 bits");
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	s->pos = p;
	return 0;
}

int att_scan_null(att_scan *s)
{
	skip_ws(s);
	if (s->len - s->pos >= 4 && memcmp(s->buf + s->pos, "null", 4) == 0) {
		s->pos += 4;
		return 1;
	}
	return 0;
}

static int hex4(att_scan *s, unsigned *out)
{
	long v = json_hex4(s->buf + s->pos, s->len - s->pos);
	if (v < 0)
		return att_scan_fail(s, v == -1 ? "4 hex digits" : "a hex digit");
	s->pos += 4;
	*out = (unsigned)v;
	return 0;
}

static int unicode_escape(att_scan *s, strbuf *out)
{
	unsigned cp = 0;
	if (hex4(s, &cp))
		return -1;
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		unsigned lo = 0;
		if (s->len - s->pos < 2 || s->buf[s->pos] != '\\' || s->buf[s->pos + 1] != 'u')
			return att_scan_fail(s, "a low surrogate escape");
		s->pos += 2;
		if (hex4(s, &lo))
			return -1;
		if (lo < 0xDC00 || lo > 0xDFFF)
			return att_scan_fail(s, "a low surrogate");
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
		return att_scan_fail(s, "a high surrogate before a low one");
	}
	json_put_utf8(out, cp);
	return 0;
}

static int escape(att_scan *s, strbuf *out)
{
	if (s->pos >= s->len)
		return att_scan_fail(s, "an escape character");
	char c = s->buf[s->pos++];
	char r;
	switch (c) {
	case '"':
	case '\\':
	case '/':
		r = c;
		break;
	case 'b':
		r = '\b';
		break;
	case 'f':
		r = '\f';
		break;
	case 'n':
		r = '\n';
		break;
	case 'r':
		r = '\r';
		break;
	case 't':
		r = '\t';
		break;
	case 'u':
		return unicode_escape(s, out);
	default:
		s->pos--;
		return att_scan_fail(s, "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
	}
	if (out)
		sb_addc(out, r);
	return 0;
}

/* Scans a string starting at '"'; decodes into out when out != NULL (skipping otherwise). */
static int string_body(att_scan *s, strbuf *out, const char *expected)
{
	skip_ws(s);
	if (s->pos >= s->len || s->buf[s->pos] != '"')
		return att_scan_fail(s, expected);
	s->pos++;
	for (;;) {
		size_t run = s->pos;
		while (s->pos < s->len) {
			unsigned char c = (unsigned char)s->buf[s->pos];
			if (c == '"' || c == '\\' || c < 0x20)
				break;
			s->pos++;
		}
		if (out)
			sb_add(out, s->buf + run, s->pos - run);
		if (s->pos >= s->len)
			return att_scan_fail(s, "a closing '\"'");
		char c = s->buf[s->pos];
		if (c == '"') {
			s->pos++;
			return 0;
		}
		if (c != '\\')
			return att_scan_fail(s, "no raw control character inside a string");
		s->pos++;
		if (escape(s, out))
			return -1;
	}
}

int att_scan_str(att_scan *s, strbuf *out, const char *expected)
{
	sb_reset(out);
	return string_body(s, out, expected);
}

int att_scan_key(att_scan *s, strbuf *scratch, const char **key)
{
	sb_reset(scratch);
	if (string_body(s, scratch, "an object key (string)") || att_scan_expect(s, ':', NULL))
		return -1;
	*key = sb_str(scratch);
	return 0;
}

static int skip_number(att_scan *s)
{
	const char *b = s->buf;
	size_t p = s->pos;
	if (p < s->len && b[p] == '-')
		p++;
	if (p >= s->len || b[p] < '0' || b[p] > '9')
		return att_scan_fail(s, "a number");
	if (b[p] == '0')
		p++;
	else
		while (p < s->len && b[p] >= '0' && b[p] <= '9')
			p++;
	if (p < s->len && b[p] == '.') {
		p++;
		if (p >= s->len || b[p] < '0' || b[p] > '9') {
			s->pos = p;
			return att_scan_fail(s, "a digit after '.'");
		}
		while (p < s->len && b[p] >= '0' && b[p] <= '9')
			p++;
	}
	if (p < s->len && (b[p] == 'e' || b[p] == 'E')) {
		p++;
		if (p < s->len && (b[p] == '+' || b[p] == '-'))
			p++;
		if (p >= s->len || b[p] < '0' || b[p] > '9') {
			s->pos = p;
			return att_scan_fail(s, "an exponent digit");
		}
		while (p < s->len && b[p] >= '0' && b[p] <= '9')
			p++;
	}
	s->pos = p;
	return 0;
}

static int skip_literal(att_scan *s)
{
	static const char *lits[] = {"null", "true", "false"};
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(lits[i]);
		if (s->len - s->pos >= n && memcmp(s->buf + s->pos, lits[i], n) == 0) {
			s->pos += n;
			return 0;
		}
	}
	return att_scan_fail(s, "a JSON value");
}

static int skip_value(att_scan *s, int depth)
{
	int c = att_scan_peek(s);
	if (c == '"')
		return string_body(s, NULL, "a string");
	if (c == '-' || (c >= '0' && c <= '9'))
		return skip_number(s);
	if (c != '[' && c != '{')
		return skip_literal(s);
	if (depth >= ATT_SCAN_MAX_DEPTH)
		return att_scan_fail(s, "nesting shallower than 128 levels");
	s->pos++;
	char close = c == '[' ? ']' : '}';
	int first = 1, r;
	while ((r = att_scan_next(s, close, &first)) == 1) {
		if (close == '}' && (string_body(s, NULL, "an object key (string)") ||
				     att_scan_expect(s, ':', NULL)))
			return -1;
		if (skip_value(s, depth + 1))
			return -1;
	}
	return r;
}

int att_scan_skip(att_scan *s)
{
	return skip_value(s, 0);
}

int att_scan_end(att_scan *s)
{
	skip_ws(s);
	if (s->pos != s->len)
		return att_scan_fail(s, "end of file after the document");
	return 0;
}

int att_scan_object(att_scan *s, const char *what, strbuf *key, att_member_fn member, void *ctx)
{
	if (att_scan_expect(s, '{', what))
		return -1;
	int first = 1, more;
	const char *k;
	while ((more = att_scan_next(s, '}', &first)) == 1)
		if (att_scan_key(s, key, &k) || member(s, k, key, ctx))
			return -1;
	return more;
}

int att_scan_doc(const char *name, int from_file, const char *buf, size_t len, const char *what,
		 att_member_fn member, void *ctx, fp_err *e)
{
	char *own = NULL;
	if (from_file) {
		size_t cap = 0;
		if (att_read_file(name, &own, &cap, &len, e)) {
			free(own);
			return -1;
		}
		buf = own;
	}
	att_scan s;
	att_scan_init(&s, buf, len, name, e);
	strbuf key = STRBUF_INIT;
	int rc = att_scan_object(&s, what, &key, member, ctx) < 0 ? -1 : att_scan_end(&s);
	sb_release(&key);
	free(own);
	return rc;
}

int att_read_file(const char *path, char **buf, size_t *cap, size_t *len, fp_err *e)
{
	/* Non-blocking, type- and size-checked (a FIFO or a huge sparse file in the capture). */
	return input_read_into(path, INPUT_ATT, buf, cap, len, e);
}

int att_read_file_at(int dirfd, const char *name, const char *path, char **buf, size_t *cap,
		     size_t *len, fp_err *e)
{
	return input_read_into_at(dirfd, name, path, INPUT_ATT, buf, cap, len, e);
}
