/* Reader of the Nsight Compute details page (`ncu -i R --page details --csv`): one row per
 * metric (ID, Kernel Name, Block Size, Grid Size, CC, Section Name, Metric Name, Metric Unit,
 * Metric Value) and one row per guided-analysis rule result (Rule Name, Rule Type, Rule
 * Description, Estimated Speedup Type, Estimated Speedup; the metric columns empty).
 *
 * Only the first kernel (the first ID) is read; rows of other IDs are counted in
 * extra_kernels. Values are kept as text and, where they read as numbers in ncu's display
 * form ("658,518", "93.49"), as doubles; units are ncu's ("%", "Kbyte/block", "warp") and are
 * reported, never converted silently.
 * Failure: malformed CSV or a header without the Section/Metric columns is BAD_INPUT (file,
 * offset, line, column); no metric row at all is EMPTY_ATT.
 * Ownership: ncu_details owns every string; ncu_details_release releases them. */
#ifndef FLYPROF_READ_NCU_DETAILS_H
#define FLYPROF_READ_NCU_DETAILS_H

#include "base/err.h"
#include "base/json/jv.h"
#include "model/trace.h"

#include <stddef.h>

typedef struct ncu_metric {
	char *section, *name, *unit, *value;
	double num;
	int is_num;
} ncu_metric;

typedef struct ncu_rule {
	char *section, *name, *type, *description, *speedup_type;
	double speedup; /* Estimated Speedup, % */
	int has_speedup;
} ncu_rule;

typedef struct ncu_details {
	char *id, *kernel, *block_size, *grid_size, *cc;
	char *arch; /* "sm_90" from CC "9.0", NULL when CC is absent */
	ncu_metric *m;
	size_t n_m;
	ncu_rule *r;
	size_t n_r;
	size_t extra_kernels; /* rows of other IDs, ignored */
} ncu_details;

int ncu_details_read(const char *buf, size_t len, const char *name, ncu_details *out, fp_err *e);
int ncu_details_read_file(const char *path, ncu_details *out, fp_err *e);
void ncu_details_release(ncu_details *d);

/* The metric named `name` in `section` (NULL: any section, the first one wins), or NULL. */
const ncu_metric *ncu_details_metric(const ncu_details *d, const char *section, const char *name);
/* Its numeric value: 1 (out filled) when present and numeric, else 0. */
int ncu_details_num(const ncu_details *d, const char *section, const char *name, double *out);

/* Kernel resources from the details (trace_resources, source "ncu_details"): vgpr =
 * Registers Per Thread, lds_bytes = Static + Dynamic Shared Memory Per Block (ncu shows them
 * rounded in byte/Kbyte/Mbyte units, so the bytes are approximate above 1 KB; the driver's
 * 1 KB reservation is not included), wg_size = Block Size, wave_size 32, grid_size = Threads
 * (work-items, as on AMD); unknown ones stay -1. agpr and sgpr are 0 (none on NVIDIA). */
void ncu_details_resources(const ncu_details *d, trace_resources *r);

/* The details as JSON: {id, kernel, arch, compute_capability, block_size, grid_size,
 * launch: {...}, throughput: {...}, occupancy: {...} (the key figures, numbers with their
 * unit in the key name), metrics: [{section, name, unit, value}], rules: [{section, rule,
 * type, description, estimated_speedup_pct, speedup_type}]}. Owned by the caller. */
jv *ncu_details_json(const ncu_details *d);

#endif
