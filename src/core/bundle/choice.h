/* Which dispatch of a bundle a command reads, as every backend reports it: the AMD one picks an
 * ATT dispatch directory (core/amd/dispatch_select.h), the NVIDIA one a set of Nsight Compute
 * exports (read/nvidia/ncu_exports.h). Owned strings; dispatch_choice_release frees them. */
#ifndef FLYPROF_CORE_BUNDLE_CHOICE_H
#define FLYPROF_CORE_BUNDLE_CHOICE_H

#include "base/json/jv.h"

typedef struct dispatch_choice {
	char *dir;	/* absolute path of the chosen dispatch directory / export folder */
	char *id;	/* dispatch id ("13"), the directory name when it has no id, the export
			   prefix on NVIDIA, or NULL */
	char *tag;	/* the tag ("big"), or NULL for a raw dispatch directory */
	char *why;	/* one sentence: why this one */
	jv *candidates; /* array of {"id","dir" (name),"waves","hits"}, every non-empty dispatch */
} dispatch_choice;

void dispatch_choice_release(dispatch_choice *c);

#endif
