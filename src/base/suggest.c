#include "base/suggest.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	/* Three rolling rows: the swap rule looks two rows back. */
	size_t *rows = xcalloc(3 * (m + 1), sizeof *rows);
	size_t *prev2 = rows, *prev = rows + m + 1, *cur = rows + 2 * (m + 1);
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	size_t d = prev[m];
	free(rows);
	return d;
}

const char *suggest_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, wl = strlen(word);
	for (size_t i = 0; i < n; i++) {
		size_t cl = strlen(cands[i]);
		size_t d = wl > 0 && wl < cl && strncmp(word, cands[i], wl) == 0
			       ? 1
			       : suggest_distance(word, cands[i]);
		size_t longer = wl > cl ? wl : cl;
		size_t limit = longer / 3 > 0 ? longer / 3 : 1;
		if (d <= limit && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
