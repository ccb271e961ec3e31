#include "base/xalloc.h"

#include "base/err.h"
#include "base/undo.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *oom_command;

void xalloc_oom_envelope(const char *command)
{
	oom_command = command;
}

/* Nothing here allocates: the envelope is formatted on the stack and written with write(2),
 * the undo journal only renames and unlinks, and the process ends with _exit. */
static void die_oom(size_t n)
{
	if (oom_command) {
		char buf[1024];
		int len = snprintf(buf, sizeof buf,
				   "{\n  \"ok\": false,\n  \"command\": \"%s\",\n  \"error\": {\n"
				   "    \"code\": \"OUT_OF_MEMORY\",\n    \"exitCode\": %d,\n"
				   "    \"message\": \"out of memory allocating %zu bytes\",\n"
				   "    \"help\": \"%s\"\n  },\n  \"warnings\": []\n}\n",
				   oom_command, err_exit_status(ERR_OUT_OF_MEMORY), n,
				   err_default_help(ERR_OUT_OF_MEMORY));
		if (len > 0 && (size_t)len < sizeof buf) {
			ssize_t w = write(STDOUT_FILENO, buf, (size_t)len);
			(void)w; /* nothing left to report a failed write to */
		}
		undo_rollback();
	}
	fprintf(stderr, "flyprof: out of memory allocating %zu bytes\n", n);
	_exit(err_exit_status(ERR_OUT_OF_MEMORY));
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		die_oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

void *xreallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	return xrealloc(p, count * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* The capacity xgrow and xgrow_huge grow cap to for need: doubled from cap (8 at first). */
static size_t doubled_cap(size_t cap, size_t need)
{
	size_t c = cap ? cap : 8;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			die_oom(SIZE_MAX);
		c *= 2;
	}
	return c;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return p;
	size_t c = doubled_cap(*cap, need);
	p = xreallocarray(p, c, elem_size);
	*cap = c;
	return p;
}

#define HUGE_FROM ((size_t)256 << 10)
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_MAP  ((size_t)32 << 20)
#define HUGE_MIN  ((size_t)1 << 20) /* xmalloc_huge's first size in whole blocks */

void *xgrow_huge(void *p, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return p;
	size_t c = doubled_cap(*cap, need);
	if (elem_size && c > SIZE_MAX / elem_size)
		die_oom(SIZE_MAX);
	/* Past 32 MB (xalloc_tune_heap's mapping threshold) a block is a mapping of its own, which
	 * realloc moves or extends without a copy, keeping its advice: copying it here held the
	 * old and the new one at once (bubbles --timeline's 81 MB: peak RSS 104 -> 170 MB). */
	if (c * elem_size < HUGE_FROM || (*cap * elem_size >= HUGE_MAP && p)) {
		p = xreallocarray(p, c, elem_size);
		*cap = c;
		return p;
	}
	size_t got;
	void *q = xmalloc_huge(c * elem_size < HUGE_MIN ? HUGE_MIN : c * elem_size, &got);
	if (p)
		memcpy(q, p, *cap * elem_size);
	free(p);
	*cap = elem_size ? got / elem_size : c;
	return q;
}

#define HEAP_PAD ((size_t)32 << 20)

void xalloc_tune_heap(void)
{
	/* Blocks up to 32 MB (glibc's largest setting) come from the heap rather than a mapping
	 * each, and the heap is trimmed only when 256 MB lie free at its top. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	/* The heap's first 32 MB are reserved at once and advised for huge pages: a command's
	 * small allocations (JSON trees, pages of output, tables) then fault 2 MB at a time
	 * instead of 4 KB (report on a small kernel took about 600 faults more than bubbles,
	 * each 10-50 us on a virtual machine). Untouched, the reserve costs nothing; refused,
	 * the advice leaves the pages small. */
	mallopt(M_TOP_PAD, (int)HEAP_PAD);
	char *first = malloc(1);
	char *end = sbrk(0);
	if (first && end != (char *)-1 && end > first) {
		uintptr_t lo = ((uintptr_t)first + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
		uintptr_t hi = (uintptr_t)end & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
	}
	free(first);
	mallopt(M_TOP_PAD, 128 << 10); /* glibc's default: later growth as before */
}

void *xmalloc_huge(size_t n, size_t *cap)
{
	if (n < HUGE_PAGE / 2 || n > SIZE_MAX - HUGE_PAGE) {
		*cap = n;
		return xmalloc(n);
	}
	size_t c = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	void *p = aligned_alloc(HUGE_PAGE, c);
	if (!p) {
		*cap = n;
		return xmalloc(n);
	}
#ifdef MADV_HUGEPAGE
	(void)madvise(p, c, MADV_HUGEPAGE); /* advice only: refused, the pages stay small */
#endif
	*cap = c;
	return p;
}
