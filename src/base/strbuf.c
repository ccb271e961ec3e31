#include "base/strbuf.h"

#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void sb_release(strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

char *sb_detach(strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");
	sb_init(sb);
	return s;
}

void sb_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* A buffer past 256 KB (a page of output) takes huge pages (xgrow_huge): it is written once, in
 * order, and each 4 KB page of it would fault on first touch. */
static void reserve(strbuf *sb, size_t extra)
{
	if (sb->len + extra < sb->cap) /* room for the bytes and the NUL: most appends */
		return;
	sb->buf = xgrow_huge(sb->buf, &sb->cap, sb->len + extra + 1, 1);
}

void sb_add(strbuf *sb, const void *data, size_t n)
{
	reserve(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(strbuf *sb, char c)
{
	reserve(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/* Formats straight into the room the buffer has; only when the text does not fit is it grown
 * and formatted again (formatting twice, to measure and then to write, was half of the
 * formatting time of the report's pages). */
void sb_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0; /* with the NUL's byte */
	int n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n <= 0) {
		if (room) /* a failed format may have left bytes: the string ends where it did */
			sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n < room) {
		sb->len += (size_t)n;
		return;
	}
	reserve(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *xstrvfmt(const char *fmt, va_list ap)
{
	strbuf sb = STRBUF_INIT;
	sb_vaddf(&sb, fmt, ap);
	return sb_detach(&sb);
}

char *xstrfmt(const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb);
}

const char *sb_str(const strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void sb_add_shell_quoted(strbuf *sb, const char *s)
{
	sb_addc(sb, '\'');
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			sb_adds(sb, "'\\''");
		else
			sb_addc(sb, *p);
	sb_addc(sb, '\'');
}
