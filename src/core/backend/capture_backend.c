/* capture.h: the capture operations per backend, chosen in this one place. */
#include "core/backend/capture.h"

#include <string.h>

const capture_ops amd_capture_ops = {"rocprofv3", "amd", amd_preflight, amd_capture, amd_counters};

static const capture_ops *const backends[] = {&amd_capture_ops, NULL};

const capture_ops *capture_backend_for(const char *name, fp_err *e)
{
	if (!name)
		return backends[0];
	for (size_t i = 0; backends[i]; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	jv *avail = jv_array();
	for (size_t i = 0; backends[i]; i++)
		jv_push(avail, jv_str(backends[i]->name));
	fp_fail(e, ERR_BAD_ARGS, "no capture backend named '%s'", name);
	fp_err_extra(e, "available", avail);
	return NULL;
}
