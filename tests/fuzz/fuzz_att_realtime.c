/* ATT realtime.json reader: a positive frequency on success;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_realtime.h"

#include <stdlib.h>

FUZZ_TARGET(att_realtime)
{
	fp_err e = FP_ERR_INIT;
	att_realtime r;
	int rc = att_realtime_parse((const char *)data, size, "fuzz", &r, &e);
	if (rc == 0 && r.frequency <= 0)
		abort();
	if (rc == 0)
		att_realtime_release(&r);
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
