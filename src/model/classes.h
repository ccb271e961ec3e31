/* The stall classes of both vendors: one table per vendor, the only place a class name is
 * written (docs/bubbles.md lists them, docs/nvidia.md the NVIDIA mapping).
 *
 * A native class is what one vendor's profiler can tell apart: an AMD instruction class
 * (decided from the ISA text and decoder category, taxonomy.h) or an NVIDIA warp-stall reason
 * (ncu_taxonomy.h). Each row gives its name, the normalised cross-vendor class it lands in,
 * whether its cycles or samples count as stall, and one line on what it means. Class ids are
 * the enum values below, per vendor; -1 is "no class" (an NVIDIA instruction never sampled).
 * Pure tables, no state. */
#ifndef FLYPROF_MODEL_CLASSES_H
#define FLYPROF_MODEL_CLASSES_H

#include <stddef.h>

typedef enum { VENDOR_AMD, VENDOR_NVIDIA, VENDOR__COUNT } vendor_id;

/* Native AMD classes. */
typedef enum {
	TAX_VMEM_WAIT,
	TAX_LDS_WAIT,
	TAX_SMEM_WAIT,
	TAX_BARRIER,
	TAX_VMEM_ISSUE,
	TAX_LDS_ISSUE,
	TAX_SMEM_ISSUE,
	TAX_MFMA,
	TAX_VALU,
	TAX_SALU,
	TAX_BRANCH,
	TAX_NOP,
	TAX_MESSAGE,
	TAX_OTHER,
	TAX__COUNT
} tax_class;

/* Native NVIDIA classes: the Nsight Compute warp-stall reasons. */
typedef enum {
	NCU_LONG_SCOREBOARD,
	NCU_SHORT_SCOREBOARD,
	NCU_BARRIER,
	NCU_MEMBAR,
	NCU_WAIT,
	NCU_MIO_THROTTLE,
	NCU_LG_THROTTLE,
	NCU_MATH_PIPE_THROTTLE,
	NCU_TEX_THROTTLE,
	NCU_DISPATCH_STALL,
	NCU_DRAIN,
	NCU_IMC_MISS,
	NCU_NO_INSTRUCTIONS,
	NCU_BRANCH_RESOLVING,
	NCU_SLEEPING,
	NCU_GMMA,
	NCU_NOT_SELECTED,
	NCU_SELECTED,
	NCU_MISC,
	NCU_UNKNOWN, /* a stall_* column the table does not know (counted, with a warning) */
	NCU__COUNT
} ncu_reason;

/* The normalised classes both vendors map into, so `report` and `diff` read them alike. */
typedef enum {
	NORM_MEMORY_DEPENDENCY,
	NORM_LDS_DEPENDENCY,
	NORM_SYNCHRONIZATION,
	NORM_ISSUE_THROTTLE,
	NORM_FIXED_LATENCY,
	NORM_FRONT_END,
	NORM_SCHEDULER,
	NORM_ISSUED,
	NORM_OTHER,
	NORM__COUNT
} tax_norm;

typedef struct class_info {
	const char *name;
	tax_norm norm;
	int is_stall;	     /* 0: the time is issue, not stall (NVIDIA "selected") */
	const char *meaning; /* one line */
} class_info;

/* The class table of a vendor and its length. */
const class_info *classes_of(vendor_id v, size_t *n);
/* Name of class id of vendor v; "unsampled" for -1 on NVIDIA, "other" otherwise out of range
 * (the names the outputs always used). */
const char *class_name(vendor_id v, int id);
/* Normalised class of id; NORM_OTHER out of range. */
tax_norm class_norm(vendor_id v, int id);
int class_is_stall(vendor_id v, int id);
const char *class_meaning(vendor_id v, int id);
/* Class id by name; -1 if unknown. */
int class_lookup(vendor_id v, const char *name);
/* Number of classes of vendor v. */
int class_count(vendor_id v);

const char *norm_name(tax_norm n);
/* Normalised class by name; -1 if unknown. */
int norm_lookup(const char *name);

/* "amd" / "nvidia". */
const char *vendor_name(vendor_id v);

#endif
