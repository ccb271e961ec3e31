/* ATT wstates<k>.json reader: time never decreases on success;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_wstates.h"

#include <stdlib.h>

FUZZ_TARGET(att_wstates)
{
	fp_err e = FP_ERR_INIT;
	att_wstates w;
	int rc = att_wstates_parse((const char *)data, size, "fuzz", &w, &e);
	for (size_t i = 1; rc == 0 && i < w.n; i++)
		if (w.time[i] < w.time[i - 1])
			abort(); /* time never decreases */
	if (rc == 0) {
		att_wstates_integral(&w, NULL);
		att_wstates_release(&w);
	}
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
