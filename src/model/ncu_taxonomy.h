/* The NVIDIA stall taxonomy (docs/architecture.md#decision-classes): Nsight Compute warp-stall
 * reasons as native NVIDIA classes, and their normalised cross-vendor classes (the tax_norm names
 * shared with the AMD taxonomy, src/model/taxonomy.h), so `report` and `diff` read both vendors
 * alike.
 *
 * A native class is named by the stall reason's metric suffix
 * (smsp__pcsamp_warps_issue_stalled_<name>, e.g. "long_scoreboard"); the source-page CSV
 * labels its columns with a short form ("stall_long_sb", and "stall_long_sb (Not Issued)" for
 * the not-issued twin). Every mapping and its reason is in the NVIDIA class table (classes.c)
 * and in docs/nvidia.md. Pure functions, no state. */
#ifndef FLYPROF_CORE_NCU_TAXONOMY_H
#define FLYPROF_CORE_NCU_TAXONOMY_H

#include "model/taxonomy.h"

/* Native class name ("long_scoreboard"). */
const char *ncu_reason_name(ncu_reason r);
/* The normalised class of a reason. */
tax_norm ncu_reason_norm(ncu_reason r);
/* One sentence: what the reason means and why it maps to its normalised class. */
const char *ncu_reason_why(ncu_reason r);
/* The reason of a source-page column label: "stall_long_sb" or "stall_long_sb (Not Issued)"
 * (sets *not_issued to 1 for the latter). Returns -1 when the label is not a stall column at
 * all (does not start with "stall_"), NCU_UNKNOWN for an unknown "stall_*" label. */
int ncu_reason_from_label(const char *label, int *not_issued);
/* Looks a native class up by name ("long_scoreboard"); -1 if unknown. */
int ncu_reason_lookup(const char *name);
/* 1 if a sample of this reason is a stall (everything except "selected": the warp issued). */
int ncu_reason_is_stall(ncu_reason r);

#endif
