/* ATT occupancy.json reader: start is 0 or 1 on success;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_occupancy.h"

#include <stdlib.h>

FUZZ_TARGET(att_occupancy)
{
	fp_err e = FP_ERR_INIT;
	att_occupancy o;
	int rc = att_occupancy_parse((const char *)data, size, "fuzz", &o, &e);
	for (size_t i = 0; rc == 0 && i < o.n; i++)
		if (o.v[i].start != 0 && o.v[i].start != 1)
			abort();
	if (rc == 0)
		att_occupancy_release(&o);
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
