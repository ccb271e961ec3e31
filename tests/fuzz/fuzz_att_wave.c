/* ATT wave-file scanner (the hot path): begin/end always present on success;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_wave.h"

#include <stdlib.h>

FUZZ_TARGET(att_wave)
{
	fp_err e = FP_ERR_INIT;
	att_wave w;
	att_wave_init(&w);
	int rc = att_wave_parse((const char *)data, size, "fuzz", &w, &e);
	if (rc == 0 && (w.begin < 0 || w.end < 0))
		abort(); /* begin and end are required */
	att_wave_release(&w);
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
