#include "base/lower_bound.h"

#include <string.h>

#define LOWER_BOUND(T)                                                                             \
	size_t lo = 0, hi = n;                                                                     \
	while (lo < hi) {                                                                          \
		size_t mid = lo + (hi - lo) / 2;                                                   \
		T v;                                                                               \
		memcpy(&v, (const char *)base + mid * size + offset, sizeof v);                    \
		if (v < key)                                                                       \
			lo = mid + 1;                                                              \
		else                                                                               \
			hi = mid;                                                                  \
	}                                                                                          \
	return lo

size_t lower_bound_i64(const void *base, size_t n, size_t size, size_t offset, int64_t key)
{
	LOWER_BOUND(int64_t);
}

size_t lower_bound_u64(const void *base, size_t n, size_t size, size_t offset, uint64_t key)
{
	LOWER_BOUND(uint64_t);
}
