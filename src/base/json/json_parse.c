#include "base/json/json_parse.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/json/json_text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
	const char *buf;
	size_t len, pos;
	const char *name;
	fp_err *e;
	strbuf scratch;
} parser;

void json_line_col(const char *buf, size_t off, long long *line, long long *col)
{
	long long l = 1, c = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static int fail(parser *p, const char *expected, const char *what)
{
	long long line, col;
	size_t off = p->pos < p->len ? p->pos : p->len;
	json_line_col(p->buf, off, &line, &col);
	return fp_fail_input_lc(p->e, p->name, (int64_t)off, line, col, expected,
				"%s: %s at byte %zu (line %lld, column %lld)", p->name, what, off,
				line, col);
}

static void skip_ws(parser *p)
{
	while (p->pos < p->len) {
		char c = p->buf[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int hex4(parser *p, unsigned *out)
{
	long v = json_hex4(p->buf + p->pos, p->len - p->pos);
	if (v == -1)
		return fail(p, "4 hex digits", "truncated \\u escape");
	if (v < 0)
		return fail(p, "hex digit", "bad \\u escape");
	p->pos += 4;
	*out = (unsigned)v;
	return 0;
}

/* Parses a string starting at the opening quote into p->scratch. */
static int parse_string_raw(parser *p)
{
	sb_reset(&p->scratch);
	p->pos++; /* opening quote */
	for (;;) {
		size_t start = p->pos;
		while (p->pos < p->len) {
			unsigned char c = (unsigned char)p->buf[p->pos];
			if (c == '"' || c == '\\' || c < 0x20)
				break;
			p->pos++;
		}
		sb_add(&p->scratch, p->buf + start, p->pos - start);
		if (p->pos >= p->len)
			return fail(p, "'\"'", "unterminated string");
		char c = p->buf[p->pos];
		if (c == '"') {
			p->pos++;
			return 0;
		}
		if ((unsigned char)c < 0x20)
			return fail(p, "escaped control character",
				    "raw control character in string");
		p->pos++; /* backslash */
		if (p->pos >= p->len)
			return fail(p, "escape character", "truncated escape");
		c = p->buf[p->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			sb_addc(&p->scratch, c);
			break;
		case 'b':
			sb_addc(&p->scratch, '\b');
			break;
		case 'f':
			sb_addc(&p->scratch, '\f');
			break;
		case 'n':
			sb_addc(&p->scratch, '\n');
			break;
		case 'r':
			sb_addc(&p->scratch, '\r');
			break;
		case 't':
			sb_addc(&p->scratch, '\t');
			break;
		case 'u': {
			unsigned cp;
			if (hex4(p, &cp))
				return -1;
			if (cp >= 0xD800 && cp <= 0xDBFF && p->len - p->pos >= 6 &&
			    p->buf[p->pos] == '\\' && p->buf[p->pos + 1] == 'u') {
				size_t save = p->pos;
				unsigned lo;
				p->pos += 2;
				if (hex4(p, &lo))
					return -1;
				if (lo >= 0xDC00 && lo <= 0xDFFF)
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				else
					p->pos = save;
			}
			if (cp >= 0xD800 && cp <= 0xDFFF)
				cp = 0xFFFD; /* lone surrogate: keep the text readable */
			json_put_utf8(&p->scratch, cp);
			break;
		}
		default:
			p->pos--;
			return fail(p, "one of \"\\/bfnrtu", "bad escape");
		}
	}
}

static jv *parse_number(parser *p)
{
	size_t start = p->pos;
	int is_int = 1;
	if (p->buf[p->pos] == '-')
		p->pos++;
	if (p->pos >= p->len || p->buf[p->pos] < '0' || p->buf[p->pos] > '9') {
		fail(p, "digit", "bad number");
		return NULL;
	}
	if (p->buf[p->pos] == '0')
		p->pos++;
	else
		while (p->pos < p->len && p->buf[p->pos] >= '0' && p->buf[p->pos] <= '9')
			p->pos++;
	if (p->pos < p->len && p->buf[p->pos] == '.') {
		is_int = 0;
		p->pos++;
		if (p->pos >= p->len || p->buf[p->pos] < '0' || p->buf[p->pos] > '9') {
			fail(p, "digit after '.'", "bad number");
			return NULL;
		}
		while (p->pos < p->len && p->buf[p->pos] >= '0' && p->buf[p->pos] <= '9')
			p->pos++;
	}
	if (p->pos < p->len && (p->buf[p->pos] == 'e' || p->buf[p->pos] == 'E')) {
		is_int = 0;
		p->pos++;
		if (p->pos < p->len && (p->buf[p->pos] == '+' || p->buf[p->pos] == '-'))
			p->pos++;
		if (p->pos >= p->len || p->buf[p->pos] < '0' || p->buf[p->pos] > '9') {
			fail(p, "digit in exponent", "bad number");
			return NULL;
		}
		while (p->pos < p->len && p->buf[p->pos] >= '0' && p->buf[p->pos] <= '9')
			p->pos++;
	}
	char tmp[64];
	size_t n = p->pos - start;
	char *text = n < sizeof tmp ? tmp : xmalloc(n + 1);
	memcpy(text, p->buf + start, n);
	text[n] = '\0';
	jv *v = NULL;
	if (is_int) {
		errno = 0;
		if (text[0] == '-') {
			long long x = strtoll(text, NULL, 10);
			if (errno == 0)
				v = jv_int(x);
		} else {
			unsigned long long x = strtoull(text, NULL, 10);
			if (errno == 0)
				v = jv_uint(x);
		}
	}
	if (!v)
		v = jv_double(strtod(text, NULL));
	if (text != tmp)
		free(text);
	return v;
}

static int match_word(parser *p, const char *w)
{
	size_t n = strlen(w);
	if (p->len - p->pos < n || memcmp(p->buf + p->pos, w, n) != 0)
		return 0;
	p->pos += n;
	return 1;
}

static jv *parse_value(parser *p, int depth);

static jv *parse_array(parser *p, int depth)
{
	jv *arr = jv_array();
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->buf[p->pos] == ']') {
		p->pos++;
		return arr;
	}
	for (;;) {
		jv *item = parse_value(p, depth + 1);
		if (!item)
			goto bad;
		jv_push(arr, item);
		skip_ws(p);
		if (p->pos >= p->len) {
			fail(p, "',' or ']'", "unterminated array");
			goto bad;
		}
		char c = p->buf[p->pos++];
		if (c == ']')
			return arr;
		if (c != ',') {
			p->pos--;
			fail(p, "',' or ']'", "unexpected character in array");
			goto bad;
		}
	}
bad:
	jv_free(arr);
	return NULL;
}

static jv *parse_object(parser *p, int depth)
{
	jv *obj = jv_object();
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->buf[p->pos] == '}') {
		p->pos++;
		return obj;
	}
	for (;;) {
		skip_ws(p);
		if (p->pos >= p->len || p->buf[p->pos] != '"') {
			fail(p, "object key string", "expected a key");
			goto bad;
		}
		if (parse_string_raw(p))
			goto bad;
		char *key = xstrndup(p->scratch.buf ? p->scratch.buf : "", p->scratch.len);
		size_t keylen = p->scratch.len;
		skip_ws(p);
		if (p->pos >= p->len || p->buf[p->pos] != ':') {
			free(key);
			fail(p, "':'", "expected ':' after key");
			goto bad;
		}
		p->pos++;
		jv *val = parse_value(p, depth + 1);
		if (!val) {
			free(key);
			goto bad;
		}
		jv_append_kv(obj, key, keylen, val);
		free(key);
		skip_ws(p);
		if (p->pos >= p->len) {
			fail(p, "',' or '}'", "unterminated object");
			goto bad;
		}
		char c = p->buf[p->pos++];
		if (c == '}')
			return obj;
		if (c != ',') {
			p->pos--;
			fail(p, "',' or '}'", "unexpected character in object");
			goto bad;
		}
	}
bad:
	jv_free(obj);
	return NULL;
}

static jv *parse_value(parser *p, int depth)
{
	if (depth > JSON_MAX_DEPTH) {
		fail(p, "shallower nesting", "nesting too deep");
		return NULL;
	}
	skip_ws(p);
	if (p->pos >= p->len) {
		fail(p, "a value", "unexpected end of input");
		return NULL;
	}
	char c = p->buf[p->pos];
	switch (c) {
	case '{':
		return parse_object(p, depth);
	case '[':
		return parse_array(p, depth);
	case '"':
		if (parse_string_raw(p))
			return NULL;
		return jv_strn(p->scratch.buf ? p->scratch.buf : "", p->scratch.len);
	case 't':
		if (match_word(p, "true"))
			return jv_bool(1);
		break;
	case 'f':
		if (match_word(p, "false"))
			return jv_bool(0);
		break;
	case 'n':
		if (match_word(p, "null"))
			return jv_null();
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p);
	}
	fail(p, "a JSON value", "unexpected character");
	return NULL;
}

jv *json_parse(const char *buf, size_t len, const char *name, fp_err *e)
{
	parser p = {buf, len, 0, name ? name : "<input>", e, STRBUF_INIT};
	jv *v = parse_value(&p, 0);
	if (v) {
		skip_ws(&p);
		if (p.pos != p.len) {
			fail(&p, "end of input", "trailing data after the JSON value");
			jv_free(v);
			v = NULL;
		}
	}
	sb_release(&p.scratch);
	return v;
}

jv *json_parse_file(const char *path, fp_err *e)
{
	size_t len;
	char *buf = input_read_all(path, INPUT_JSON, &len, e);
	if (!buf)
		return NULL;
	jv *v = json_parse(buf, len, path, e);
	free(buf);
	return v;
}
