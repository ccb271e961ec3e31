/* HTML text helpers for the self-contained pages flyprof writes: escaping of text and
 * attribute values, and the colour a stall class is drawn in (stable across pages). */
#ifndef FLYPROF_OUT_HTML_H
#define FLYPROF_OUT_HTML_H

#include "base/strbuf.h"

#include <stddef.h>

/* Appends s with & < > " ' escaped (NULL appends nothing). */
void html_esc(strbuf *out, const char *s);
void html_escn(strbuf *out, const char *s, size_t n);
/* Appends the markup before, s escaped, then the markup after: one element's text. */
void html_text(strbuf *out, const char *before, const char *s, const char *after);
/* A fixed colour ("#rrggbb") for a class name: the same class gets the same colour in the
 * class mix, the heat bars and the flame graph legend. */
const char *html_class_color(const char *klass);

#endif
