/* Reader of the per-instruction memory and thread columns of an Nsight Compute source-page
 * export (`--page source --csv --print-source sass` or `cuda,sass`): what the source counters
 * say about each SASS instruction beyond its stall samples.
 *
 * Columns read (each optional: ncu leaves out the ones a kernel has no data for, e.g.
 * "Divergent Branches" in a kernel without branches):
 *   Address Space, Access Operation   text ("Global", "Shared", "Local", "Global,Shared", "-")
 *   Access Size                       bits per thread
 *   Instructions Executed             warp level
 *   Thread Instructions Executed, Avg. Threads Executed, Divergent Branches
 *   L1 Conflicts Shared N-Way, L1 Wavefronts Shared Excessive, L1 Wavefronts Shared (+ Ideal)
 *   L2 Theoretical Sectors Global Excessive, L2 Theoretical Sectors Global (+ Ideal)
 * "-" and "" read as absent (0); any other text that is not a number in ncu's display form is
 * BAD_INPUT with file, offset, line and column. Rows whose Address is not hex (the correlated
 * form's source-line rows "-", the "..." gap rows) are skipped; a second "Kernel Name" line ends
 * the read (only the first kernel is read, as in ncu_source.h). No header with "Address" is
 * BAD_INPUT; a header without any SASS row is EMPTY_ATT.
 * Ownership: ncu_memtab owns its rows and their strings; ncu_memtab_release releases them. */
#ifndef FLYPROF_READ_NCU_MEMTAB_H
#define FLYPROF_READ_NCU_MEMTAB_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ncu_mem_row {
	uint64_t address;
	char *space, *op; /* "" when absent */
	double access_bits;
	double executed, thread_executed, avg_threads, divergent_branches;
	double shared_nway, shared_wf, shared_wf_excessive, shared_wf_ideal;
	double sectors, sectors_excessive, sectors_ideal;
} ncu_mem_row;

typedef struct ncu_memtab {
	ncu_mem_row *rows; /* file order (address order in ncu's exports) */
	size_t n;
	/* which optional columns the header had: 1 = present */
	int has_shared, has_sectors, has_threads, has_divergent;
} ncu_memtab;

/* Reads from memory (name labels errors). Returns 0 or -1 with e set. */
int ncu_memtab_read(const char *buf, size_t len, const char *name, ncu_memtab *out, fp_err *e);
int ncu_memtab_read_file(const char *path, ncu_memtab *out, fp_err *e);
void ncu_memtab_release(ncu_memtab *m);
/* The row at an absolute address, or NULL. */
const ncu_mem_row *ncu_memtab_at(const ncu_memtab *m, uint64_t address);

#endif
