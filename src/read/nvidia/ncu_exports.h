/* Locating the Nsight Compute exports of an NVIDIA capture (docs/architecture.md#bundle-directory:
 * <bundle>/ncu/).
 *
 * Documented names inside the directory (docs/nvidia.md), tried first:
 *   source_sass.csv        ncu -i report.ncu-rep --page source --csv --print-source sass
 *   source_correlated.csv  ... --print-source cuda,sass (CUDA and Triton)
 *   details.csv            ... --page details --csv
 *   report.ncu-rep         the report itself (kept for re-export; not read)
 * Fallback, the naming of the recorded samples: <p>_src_sass.csv, <p>_src_cuda_sass.csv or
 * <p>_src_py_sass.csv, <p>_details.csv, <p>.ncu-rep for one prefix <p>. When several prefixes
 * exist, `prefix` picks one; without it that is NO_MATCH with error.available = the prefixes.
 * At least one source export (sass or correlated) must exist, else NO_ARTIFACT; details and the
 * report are optional (NULL when absent).
 * Ownership: ncu_exports owns its paths; ncu_exports_release releases them. */
#ifndef FLYPROF_READ_NCU_EXPORTS_H
#define FLYPROF_READ_NCU_EXPORTS_H

#include "base/err.h"
#include "base/fileio.h"

typedef struct ncu_exports {
	char *dir;		 /* the directory searched */
	char *source_sass;	 /* may be NULL when source_correlated exists */
	char *source_correlated; /* may be NULL */
	char *details;		 /* may be NULL */
	char *report;		 /* may be NULL */
} ncu_exports;

/* Finds the exports in `dir` (prefix may be NULL). Returns 0 or -1 with e set. */
int ncu_exports_find(const char *dir, const char *prefix, ncu_exports *out, fp_err *e);
/* The same in <bundle_dir>/ncu/. */
int ncu_bundle_find(const char *bundle_dir, ncu_exports *out, fp_err *e);
/* 1 when <bundle_dir>/ncu/ exists and holds a source export by either naming (even when
 * several prefixed captures make ncu_bundle_find ask for one): the bundle is an NVIDIA one. */
int ncu_bundle_has_exports(const char *bundle_dir);
/* 1 when `dir` itself holds a source export by either naming (a raw export directory). */
int ncu_dir_has_exports(const char *dir);
/* The same asked of a listing of the directory (walked here if it was not): the answer
 * ncu_dir_has_exports(names->dir) gives. */
int ncu_listing_has_exports(file_listing *names);
void ncu_exports_release(ncu_exports *x);

#endif
