/* Internal to ncu_bubbles*.c: the loaded exports and their sums. */
#ifndef FLYPROF_CORE_NCU_BUBBLES_INT_H
#define FLYPROF_CORE_NCU_BUBBLES_INT_H

#include "read/nvidia/ncu_details.h"
#include "read/nvidia/ncu_source.h"
#include "core/nvidia/ncu_bubbles.h"

typedef struct ncu_model {
	ncu_source src;
	ncu_details det;
	int has_details;
	int64_t all, stall, not_issued, hits, selected; /* totals over instructions */
	int64_t r_all[NCU__COUNT], r_ni[NCU__COUNT];	/* per reason */
	size_t top;
} ncu_model;

/* 100 x part / whole rounded to 2 decimals (0 when whole is 0). */
jv *ncu_pct(int64_t part, int64_t whole);
/* Cuts a list to top items (0 = keep all); returns the length before. */
size_t ncu_cut(jv *list, size_t top);
/* Dominant reason of instruction i: most stall samples, else "selected" when it issued, else
 * -1 (never sampled). Ties go to the lower reason id. */
int ncu_dominant(const ncu_model *m, size_t i);

jv *ncu_hotspots(const ncu_model *m, size_t *total);
jv *ncu_lines(const ncu_model *m, size_t *total, jv **unmapped);
jv *ncu_waits(const ncu_model *m, size_t *total);
/* occupancy: observed and theoretical from the details, theoretical.model = flyprof's own
 * model as a cross-check (a disagreement is a warning). */
jv *ncu_occupancy(const ncu_model *m, jv *warnings);

#endif
