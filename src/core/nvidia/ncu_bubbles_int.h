/* Internal to ncu_bubbles*.c: the loaded exports. */
#ifndef FLYPROF_CORE_NCU_BUBBLES_INT_H
#define FLYPROF_CORE_NCU_BUBBLES_INT_H

#include "core/nvidia/ncu_bubbles.h"

/* occupancy: observed and theoretical from the details, theoretical.model = flyprof's own
 * model as a cross-check (a disagreement is a warning). */
jv *ncu_occupancy(const ncu_model *m, jv *warnings);

#endif
