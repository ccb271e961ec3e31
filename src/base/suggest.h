/* "Did you mean": the candidate nearest to a mistyped word, for unknown commands, options and
 * kernel names. Distance is the optimal-string-alignment edit distance (insert, delete,
 * substitute, swap two neighbours), so `reprot` and `--dispach` find `report` and `--dispatch`. */
#ifndef FLYPROF_BASE_SUGGEST_H
#define FLYPROF_BASE_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (case-sensitive). */
size_t suggest_distance(const char *a, const char *b);
/* The nearest of cands[0..n) to word, or NULL when none is near enough to be a plausible
 * typo: at most a third of the longer word's length (and at least 1) edits away, or word is a
 * prefix of a candidate. Ties keep the first candidate. */
const char *suggest_nearest(const char *word, const char *const *cands, size_t n);

#endif
