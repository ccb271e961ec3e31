/* Human rendering of an envelope (-f table). The default is the command's view (table_views.h):
 * its answer on the first line, then the rows a person reads first, no line wider than the
 * width. `full` renders the whole data tree instead: indented "key: value" lines, arrays of
 * flat objects as aligned columns, nothing cut (the same content as the JSON). */
#ifndef FLYPROF_OUT_TABLE_H
#define FLYPROF_OUT_TABLE_H

#include "base/json/jv.h"
#include "base/strbuf.h"

/* The width used when neither $COLUMNS nor the terminal says. */
#define TABLE_DEFAULT_WIDTH 100

/* Renders the envelope object `env` (as produced by envelope_build) for a terminal. */
void table_render(strbuf *out, const jv *env, int width, int full);

#endif
