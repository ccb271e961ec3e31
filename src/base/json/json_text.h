/* Text primitives shared by the two JSON readers (the generic parser json_parse.c and the
 * streaming ATT scanner att_scan.c): the digits of a \uXXXX escape and UTF-8 encoding. Each
 * reader keeps its own error reporting and surrogate policy. */
#ifndef FLYPROF_READ_JSON_TEXT_H
#define FLYPROF_READ_JSON_TEXT_H

#include "base/strbuf.h"

#include <stddef.h>

/* Value (0..0xFFFF) of the 4 hex digits at s, of which n bytes are available; -1 when fewer
 * than 4 remain, -2 when one of them is not a hex digit. */
long json_hex4(const char *s, size_t n);
/* Appends code point cp (<= 0x10FFFF) to sb as UTF-8; sb may be NULL (the value is skipped). */
void json_put_utf8(strbuf *sb, unsigned cp);

#endif
