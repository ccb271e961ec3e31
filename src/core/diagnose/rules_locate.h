/* Where a JSON pointer ("/rules/3/class") points in the raw text of a JSON document: the DOM
 * (jv) keeps no positions, so BAD_RULES errors find the byte offset by walking the text.
 * Pure function over the caller's buffer; never fails (an absent path gives the deepest found
 * prefix, so a missing key is reported at its parent). The text must already parse as JSON. */
#ifndef FLYPROF_CORE_RULES_LOCATE_H
#define FLYPROF_CORE_RULES_LOCATE_H

#include <stddef.h>

long rules_locate(const char *b, size_t n, const char *pointer);

#endif
