/* Built-in data files (everything under data/), embedded into the binary at build time by
 * tests/tools/embed.c so flyprof works from any directory. FLYPROF_DATA_DIR, when set, names a
 * directory whose files replace the embedded ones of the same name (to try edited rules or
 * SoC tables without rebuilding). */
#ifndef FLYPROF_BASE_DATA_H
#define FLYPROF_BASE_DATA_H

#include "base/err.h"

#include <stddef.h>

/* Returns a heap copy (NUL-terminated, caller frees) of data file `name` (e.g. "rules.json")
 * and its length; NULL with NO_ARTIFACT if there is no such file. *origin (if non-NULL) is set
 * to the path read or "<embedded>/name" (static storage until the next call). */
char *data_load(const char *name, size_t *len, const char **origin, fp_err *e);
/* Names of the embedded files, NULL terminated. */
const char *const *data_names(void);

#endif
