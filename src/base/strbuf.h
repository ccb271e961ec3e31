/* Growable, always NUL-terminated byte buffer. Owner: whoever called sb_init; release with
 * sb_release (buffer freed) or sb_detach (caller takes the string). */
#ifndef FLYPROF_BASE_STRBUF_H
#define FLYPROF_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
} strbuf;

#define STRBUF_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

void sb_init(strbuf *sb);
void sb_release(strbuf *sb);
char *sb_detach(strbuf *sb);
void sb_reset(strbuf *sb);
void sb_add(strbuf *sb, const void *data, size_t n);
void sb_adds(strbuf *sb, const char *s);
void sb_addc(strbuf *sb, char c);
void sb_addf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(strbuf *sb, const char *fmt, va_list ap);
/* Appends s in single quotes as one POSIX shell word, each ' in it written as '\'' (for
 * commands shown to be pasted, like report's repro line; flyprof itself never runs a shell). */
void sb_add_shell_quoted(strbuf *sb, const char *s);
/* A new string formatted as printf does (never NULL; the caller frees it). */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xstrvfmt(const char *fmt, va_list ap);
/* Returns the contents; never NULL (an empty buffer yields ""). */
const char *sb_str(const strbuf *sb);

#endif
