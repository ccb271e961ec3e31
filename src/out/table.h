/* Human rendering of an envelope: a status line, then the data tree flattened into indented
 * "key: value" lines; arrays of flat objects become aligned columns. Lists longer than
 * TABLE_MAX_ROWS are cut with a "... (+N more)" line (the JSON form is never cut here). */
#ifndef FLYPROF_OUT_TABLE_H
#define FLYPROF_OUT_TABLE_H

#include "base/json/jv.h"
#include "base/strbuf.h"

#define TABLE_MAX_ROWS 25

/* Renders the envelope object `env` (as produced by envelope_build) for a terminal. */
void table_render(strbuf *out, const jv *env);

#endif
