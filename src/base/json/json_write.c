#include "base/json/json_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of a valid UTF-8 sequence at s (n bytes left), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) {
		len = 2;
		min = 0x80;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		min = 0x800;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		min = 0x10000;
		c &= 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return len;
}

void json_write_string(strbuf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	sb_addc(out, '"');
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, (char)c);
			i++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n':
				sb_adds(out, "\\n");
				break;
			case '\t':
				sb_adds(out, "\\t");
				break;
			case '\r':
				sb_adds(out, "\\r");
				break;
			default:
				sb_addf(out, "\\u%04x", c);
			}
			i++;
		} else if (c < 0x80) {
			size_t j = i;
			while (j < n && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
				j++;
			sb_add(out, s + i, j - i);
			i = j;
		} else {
			size_t l = utf8_len(s + i, n - i);
			if (l == 0) {
				sb_adds(out, "\\ufffd");
				i++;
			} else {
				sb_add(out, s + i, l);
				i += l;
			}
		}
	}
	sb_addc(out, '"');
}

void json_write_double(strbuf *out, double d)
{
	if (!isfinite(d)) {
		sb_adds(out, "null");
		return;
	}
	char buf[64];
	/* Shortest of 15..17 significant digits that reads back exactly. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	sb_adds(out, buf);
	/* Keep a double recognisable as one ("2.0", not "2") only where it matters to nobody:
	 * JSON has one number type, so integral doubles print as integers. */
}

static void newline(strbuf *out, int indent, int depth)
{
	if (!indent)
		return;
	sb_addc(out, '\n');
	for (int i = 0; i < indent * depth; i++)
		sb_addc(out, ' ');
}

static void write_value(strbuf *out, const jv *v, int indent, int depth)
{
	size_t n = 0;
	switch (jv_type_of(v)) {
	case JV_NULL:
		sb_adds(out, "null");
		break;
	case JV_BOOL:
		sb_adds(out, jv_is_true(v) ? "true" : "false");
		break;
	case JV_INT:
		sb_addf(out, "%lld", (long long)jv_i64(v));
		break;
	case JV_UINT:
		sb_addf(out, "%llu", (unsigned long long)jv_u64(v));
		break;
	case JV_DOUBLE:
		json_write_double(out, jv_num(v));
		break;
	case JV_STRING:
		json_write_string(out, jv_string(v), jv_len(v));
		break;
	case JV_ARRAY:
		n = jv_len(v);
		if (n == 0) {
			sb_adds(out, "[]");
			break;
		}
		sb_addc(out, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				sb_addc(out, ',');
			newline(out, indent, depth + 1);
			write_value(out, jv_at(v, i), indent, depth + 1);
		}
		newline(out, indent, depth);
		sb_addc(out, ']');
		break;
	case JV_OBJECT:
		n = jv_len(v);
		if (n == 0) {
			sb_adds(out, "{}");
			break;
		}
		sb_addc(out, '{');
		for (size_t i = 0; i < n; i++) {
			const char *k = jv_key_at(v, i);
			if (i)
				sb_addc(out, ',');
			newline(out, indent, depth + 1);
			json_write_string(out, k, strlen(k));
			sb_adds(out, indent ? ": " : ":");
			write_value(out, jv_value_at(v, i), indent, depth + 1);
		}
		newline(out, indent, depth);
		sb_addc(out, '}');
		break;
	}
}

void json_write(strbuf *out, const jv *v, int indent)
{
	write_value(out, v, indent, 0);
}
