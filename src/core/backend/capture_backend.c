/* capture.h: the capture slots of the AMD backend, and the choice of a capturing backend by
 * name, made in this one place. */
#include "core/backend/capture.h"

#include <string.h>

int amd_capture_slot(const struct backend_capture_req *r, jv **out, fp_err *e)
{
	capture_req q = *r; /* the operations record the opened bundle in their request */
	*out = jv_object();
	return amd_capture(&q, *out, e);
}

int amd_counters_slot(const struct backend_counters_req *r, jv **out, fp_err *e)
{
	capture_req q = r->req;
	*out = jv_object();
	return amd_counters(&q, *out, e);
}

static const backend *const backends[] = {&backend_amd, &backend_nvidia, NULL};

const backend *capture_backend_for(const char *name, fp_err *e)
{
	for (size_t i = 0; backends[i]; i++)
		if (backends[i]->capture && (!name || strcmp(backends[i]->name, name) == 0))
			return backends[i];
	jv *avail = jv_array();
	for (size_t i = 0; backends[i]; i++)
		if (backends[i]->capture)
			jv_push(avail, jv_str(backends[i]->name));
	fp_fail(e, ERR_BAD_ARGS, "no backend named '%s' can capture", name ? name : "(default)");
	fp_err_extra(e, "available", avail);
	return NULL;
}

const char *capture_doctor_key(const backend *be)
{
	return be->vendor == VENDOR_NVIDIA ? "nvidia" : "amd";
}
