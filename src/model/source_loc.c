#include "model/source_loc.h"

#include "base/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int srcmap_parse_loc(const char *s, size_t n, src_frame *f)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	size_t colon = n;
	while (colon > 0 && s[colon - 1] != ':')
		colon--;
	if (colon < 2 || colon == n || n - colon > 18)
		return -1;
	int64_t line = 0;
	for (size_t i = colon; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		line = line * 10 + (s[i] - '0');
	}
	if (line <= 0)
		return -1;
	f->path = s;
	f->path_len = colon - 1;
	f->line = line;
	return 0;
}

size_t srcmap_parse_chain(const char *source, src_frame *frames, size_t max)
{
	static const char sep[] = " -> ";
	size_t n = 0;
	const char *p = source;
	while (p && *p && n < max) {
		const char *end = strstr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (srcmap_parse_loc(p, len, &frames[n]) == 0)
			n++;
		p = end ? end + sizeof sep - 1 : NULL;
	}
	return n;
}

static void strip_dot(const char **s, size_t *n)
{
	while (*n >= 2 && (*s)[0] == '.' && (*s)[1] == '/')
		*s += 2, *n -= 2;
}

static int count_components(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '/' && (i == 0 || s[i - 1] == '/'))
			c++;
	return c;
}

int srcmap_path_matches(const char *path, size_t n, const char *query)
{
	const char *q = query;
	size_t qn = strlen(query);
	strip_dot(&path, &n);
	strip_dot(&q, &qn);
	if (n == 0 || qn == 0)
		return 0;
	const char *shorter = n <= qn ? path : q, *longer = n <= qn ? q : path;
	size_t sn = n <= qn ? n : qn, ln = n <= qn ? qn : n;
	if (memcmp(longer + ln - sn, shorter, sn) != 0)
		return 0;
	if (sn == ln)
		return count_components(shorter, sn);
	/* A strict suffix must start at a component boundary, and an absolute path only names
	 * itself. */
	if (shorter[0] == '/' || longer[ln - sn - 1] != '/')
		return 0;
	return count_components(shorter, sn);
}

int srcmap_query_parse(const char *text, srcmap_query *q)
{
	src_frame f;
	q->file = NULL;
	q->line = 0;
	if (!text || srcmap_parse_loc(text, strlen(text), &f) != 0)
		return -1;
	q->file = xstrndup(f.path, f.path_len);
	q->line = f.line;
	return 0;
}

void srcmap_query_release(srcmap_query *q)
{
	free(q->file);
	q->file = NULL;
}

int srcmap_source_matches(const char *source, const srcmap_query *q)
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	size_t n = srcmap_parse_chain(source, fr, SRCMAP_MAX_FRAMES);
	for (size_t i = 0; i < n; i++)
		if (fr[i].line == q->line &&
		    srcmap_path_matches(fr[i].path, fr[i].path_len, q->file))
			return 1;
	return 0;
}
