/* Locating a JSON pointer in the raw text of a rules or vocabulary file (rules_locate.h). */
#include "core/diagnose/rules_locate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t skip_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	return i;
}

static size_t skip_string(const char *b, size_t n, size_t i)
{
	for (i++; i < n && b[i] != '"'; i++)
		if (b[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

static size_t skip_value(const char *b, size_t n, size_t i)
{
	if (i >= n)
		return n;
	if (b[i] == '"')
		return skip_string(b, n, i);
	if (b[i] != '{' && b[i] != '[') {
		while (i < n && !strchr(",]} \t\r\n", b[i]))
			i++;
		return i;
	}
	int depth = 0;
	while (i < n) {
		if (b[i] == '"') {
			i = skip_string(b, n, i);
			continue;
		}
		if (b[i] == '{' || b[i] == '[')
			depth++;
		else if ((b[i] == '}' || b[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return n;
}

/* Steps from the container at i into member `comp` (a key, or an index for arrays); returns
 * the offset of that member's value or -1. */
static long step_into(const char *b, size_t n, size_t i, const char *comp)
{
	int is_obj = b[i] == '{';
	long want = is_obj ? -1 : strtol(comp, NULL, 10);
	long k = 0;
	i = skip_ws(b, n, i + 1);
	while (i < n && b[i] != '}' && b[i] != ']') {
		int match = 0;
		if (is_obj) {
			size_t ks = i + 1, ke = skip_string(b, n, i);
			match =
			    ke - 1 - ks == strlen(comp) && strncmp(b + ks, comp, ke - 1 - ks) == 0;
			i = skip_ws(b, n, ke);
			if (i >= n || b[i] != ':')
				return -1;
			i = skip_ws(b, n, i + 1);
		} else
			match = k == want;
		if (match)
			return (long)i;
		i = skip_ws(b, n, skip_value(b, n, i));
		if (i < n && b[i] == ',')
			i = skip_ws(b, n, i + 1);
		k++;
	}
	return -1;
}

/* Offset of the value at a JSON pointer ("/rules/3/class"); the deepest found prefix when
 * the full path is absent (a missing key is reported at its parent). */
long rules_locate(const char *b, size_t n, const char *pointer)
{
	size_t i = skip_ws(b, n, 0);
	char comp[128];
	const char *p = pointer;
	while (*p == '/') {
		p++;
		size_t len = strcspn(p, "/");
		snprintf(comp, sizeof comp, "%.*s", (int)(len < 127 ? len : 127), p);
		p += len;
		if (i >= n || (b[i] != '{' && b[i] != '['))
			break;
		long next = step_into(b, n, i, comp);
		if (next < 0)
			break;
		i = (size_t)next;
	}
	return (long)i;
}
