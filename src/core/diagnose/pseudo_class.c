/* The whole-kernel pseudo classes (pseudo_class.h). */
#include "core/diagnose/pseudo_class.h"

#include <string.h>

static const pseudo_class pseudo[] = {
    {"occupancy", NULL,
     "occupancy is a property of the whole kernel (registers, LDS, workgroup size), not of one "
     "instruction; see the occupancy section",
     "launch_geometry"},
    {"roofline", "roofline.headroom_pct",
     "a roofline finding is about the whole kernel's traffic, not one instruction", "roofline"},
    {"grid", "grid.gain_pct",
     "the launch grid is a property of the whole kernel launch, not of one instruction",
     "launch_geometry"},
    {"waves", "waves.idle_latency_pct",
     "idle waves are whole waves that ran only the prologue, not one instruction", "wave_facts"},
    {NULL, NULL, NULL, NULL}};

const pseudo_class *pseudo_class_find(const char *klass)
{
	for (size_t i = 0; klass && pseudo[i].klass; i++)
		if (strcmp(pseudo[i].klass, klass) == 0)
			return &pseudo[i];
	return NULL;
}
