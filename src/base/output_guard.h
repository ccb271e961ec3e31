/* Where flyprof refuses to write (docs/security.md). Outputs named on the command line
 * (--out, --folded, --speedscope, --svg, --sarif, --timeline) are checked before any work:
 *   - an existing target that is not a regular file (device node, FIFO, socket, directory,
 *     symbolic link) is refused: the atomic rename would replace it, and `--folded /dev/full`
 *     run as root would replace the machine's /dev/full;
 *   - a path that resolves inside a read-only input (a raw dispatch, a foreign capture) is
 *     refused: writing there would overwrite the evidence being analysed.
 * Refusals are OUTPUT_REFUSED naming the path and the reason. */
#ifndef FLYPROF_BASE_OUTPUT_GUARD_H
#define FLYPROF_BASE_OUTPUT_GUARD_H

#include "base/err.h"

/* Refuses (OUTPUT_REFUSED, -1) when path exists and is not a regular file. `what` names the
 * option in the message ("--folded"). */
int output_guard_target(const char *path, const char *what, fp_err *e);
/* Refuses when path, resolved (symbolic links of its existing part followed), lies inside one
 * of the NULL-terminated roots (absolute, resolved directories). */
int output_guard_outside(const char *path, const char *what, const char *const *roots, fp_err *e);
/* The absolute form of a path that may not exist yet: realpath of its longest existing
 * prefix, then the remaining components with "." and ".." applied lexically. Caller frees. */
char *output_resolve(const char *path);

#endif
