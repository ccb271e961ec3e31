/* Whole directory trees: removal, and the move of a finished tree into place that an
 * interruption can take back (base/undo.h).
 *
 * A profiler writes its output into a scratch directory; the result is then moved into the
 * bundle in one rename. What was at the destination before is kept aside until the command's
 * result is committed, so that an interrupted run restores it (docs/security.md). */
#ifndef FLYPROF_BASE_TREE_H
#define FLYPROF_BASE_TREE_H

#include "base/err.h"

/* rm -rf without following links; 0 when the path is gone (or never was). */
int tree_remove(const char *path);
/* Renames the directory `from` to `to`. An existing `to` is moved aside and, while an undo
 * journal is open, kept until it commits (restored on rollback); without a journal it is
 * removed at once. A new `to` is removed whole on rollback. Errors are IO_ERROR. */
int tree_replace(const char *from, const char *to, fp_err *e);

#endif
