/* Reader of Nsight Compute source-page CSV exports into the trace model
 * (docs/facts-nvidia.md#ncu-capture):
 *
 *   ncu -i R --page source --csv --print-source sass        ("Kernel Name" line, then a table
 *       with one row per SASS instruction: Address, Source (the SASS text), warp-stall
 *       samples in total, not issued, per reason "stall_<x>" and "stall_<x> (Not Issued)",
 *       Instructions Executed, ...)
 *   ncu -i R --page source --csv --print-source cuda,sass   (Triton too: per source
 *       file a "File Path" and "Function Name" line and a table whose rows are a source line
 *       ("Line No" set, Address "-") followed by the SASS rows ("Line No" empty) it owns)
 *
 * Both kinds are read by ncu_source_read; the second also yields each instruction's source
 * "path/file.py:LINE". Instructions are kept in address order; trace_inst fields:
 *   code_line  1-based index in address order      vaddr   address - lowest address
 *   isa        SASS text, leading blanks removed    source  "path:LINE" or ""
 *   hits       Instructions Executed (warp level)   latency all warp-state samples at the PC
 *   stall      samples in a stall reason (all samples minus "selected", i.e. not issuing)
 *   idle       0 (ncu has no idle measure)          category TRACE_CAT_UNKNOWN, klass -1
 * Units are samples, not cycles. The per-reason samples sit beside it in ncu_inst_samples.
 *
 * Only the first kernel of an export is read (ncu -c 1 writes one); a later "Kernel Name" line
 * ends the read and is counted in extra_kernels. Failure: malformed CSV, a table without an
 * Address column or the sample columns, a SASS row with a non-hex address or a non-integer
 * count is BAD_INPUT with file, offset, line and column; a file with no SASS row is EMPTY_ATT.
 * Ownership: ncu_source owns everything; ncu_source_release releases it. */
#ifndef FLYPROF_READ_NCU_SOURCE_H
#define FLYPROF_READ_NCU_SOURCE_H

#include "base/err.h"
#include "model/ncu_taxonomy.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ncu_inst_samples {
	uint64_t address;		  /* absolute SASS address */
	int64_t all;			  /* Warp Stall Sampling (All Samples) */
	int64_t not_issued;		  /* Warp Stall Sampling (Not-issued Samples) */
	int64_t executed;		  /* Instructions Executed (warp level) */
	int64_t by_reason[NCU__COUNT];	  /* stall_<x> */
	int64_t ni_by_reason[NCU__COUNT]; /* stall_<x> (Not Issued) */
} ncu_inst_samples;

/* A source line of the correlated form as ncu prints it (leading blanks removed by ncu). */
typedef struct ncu_src_line {
	size_t file; /* index into files */
	int64_t line;
	char *text; /* owned */
} ncu_src_line;

typedef struct ncu_source {
	trace_dispatch trace; /* insts in address order; trace.kernel, trace.arch (NULL) */
	ncu_inst_samples *s;  /* parallel to trace.insts */
	uint64_t base_address;
	int has_sources;      /* the export was a correlated one (cuda,sass) */
	size_t extra_kernels; /* "Kernel Name" lines after the first (ignored) */
	char **unknown_cols;  /* stall_* labels the taxonomy does not know (counted as unknown) */
	size_t n_unknown_cols;
	char **files; /* correlated export: the "File Path" values in order */
	size_t n_files;
	ncu_src_line *src_lines; /* correlated export: the source-line rows in file order */
	size_t n_src_lines;
} ncu_source;

/* Reads an export from memory (name labels errors). Returns 0 or -1 with e set. */
int ncu_source_read(const char *buf, size_t len, const char *name, ncu_source *out, fp_err *e);
int ncu_source_read_file(const char *path, ncu_source *out, fp_err *e);
void ncu_source_release(ncu_source *s);

/* Copies the sources of a correlated export `corr` onto the instructions of `dst` with the
 * same address. *matched counts dst instructions that got one; *missing those corr does not
 * have; *disagree those whose sample counts differ between the two (they should come from
 * one report). dst->has_sources becomes 1. */
void ncu_source_adopt_lines(ncu_source *dst, const ncu_source *corr, size_t *matched,
			    size_t *missing, size_t *disagree);

/* Index of the instruction at an absolute address, or -1. */
long ncu_source_find_address(const ncu_source *s, uint64_t address);

#endif
