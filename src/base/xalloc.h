/* Checked allocation: every allocation either succeeds or the process stops with exit status
 * 70. Once main has named the command (xalloc_oom_envelope), that stop still prints one JSON
 * envelope with error.code OUT_OF_MEMORY, formatted without allocating, and rolls back what
 * the command wrote (base/undo.h); the message also goes to stderr. */
#ifndef FLYPROF_BASE_XALLOC_H
#define FLYPROF_BASE_XALLOC_H

#include <stddef.h>

/* The command named in the out-of-memory envelope (a static string from the command table). */
void xalloc_oom_envelope(const char *command);
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* realloc for an array of count elements of size bytes; overflow-checked. */
void *xreallocarray(void *p, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grows *cap (doubling, at least min_cap) so that need elements fit; returns the new array. */
void *xgrow(void *p, size_t *cap, size_t need, size_t elem_size);
/* Keeps freed memory in the process for reuse instead of handing large blocks back to the
 * kernel on every free. An analysis reads thousands of files into buffers of up to a few MB;
 * with the allocator's defaults each such buffer is a fresh mapping whose every page faults
 * in again, which on a virtual machine costs more than reading the data (bench/RESULTS.md).
 * Peak memory is unchanged: what is kept is what was already in use. Also reserves the
 * heap's first 32 MB advised for huge pages, so that the main thread's small allocations
 * fault in 2 MB at a time (peak RSS a few MB higher). Call once, early. */
void xalloc_tune_heap(void);
/* At least n bytes for a large array written once, in order (a reader's rows): from 1 MB on,
 * whole 2 MB blocks, aligned and advised for huge pages, so that the kernel may back each with
 * one page fault instead of 512 (a fresh 4 KB page faults at ~10-14 us on this project's VMs);
 * below that, or where that is refused, plain memory. *cap gets the usable size. Released with
 * free; realloc works on it. */
void *xmalloc_huge(size_t n, size_t *cap);
/* xgrow for an array or buffer written once, in order, that may grow large (a timeline's waves,
 * a page of output): as xgrow while it stays under 256 KB, then in xmalloc_huge blocks (the old
 * contents copied, up to the old capacity), and from 32 MB on as xgrow again (the block is
 * then a mapping of its own, which realloc moves without a copy, its advice kept). */
void *xgrow_huge(void *p, size_t *cap, size_t need, size_t elem_size);

#endif
