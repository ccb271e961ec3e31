/* The one binary search: the first item of a sorted array of structs whose integer field is not
 * less than a key. The field is named by its offset (offsetof) and the struct by its size, so
 * one function serves code lines, SASS addresses and a wait's producer pairs. */
#ifndef FLYPROF_BASE_LOWER_BOUND_H
#define FLYPROF_BASE_LOWER_BOUND_H

#include <stddef.h>
#include <stdint.h>

/* The first i in [0, n) whose int64_t at (char *)base + i * size + offset is >= key, or n.
 * The array must be sorted by that field. */
size_t lower_bound_i64(const void *base, size_t n, size_t size, size_t offset, int64_t key);
/* The same for a uint64_t field. */
size_t lower_bound_u64(const void *base, size_t n, size_t size, size_t offset, uint64_t key);

#endif
