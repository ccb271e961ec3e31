/* ATT filenames.json reader: every wave entry has a file name on success;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_filenames.h"

#include <stdlib.h>

FUZZ_TARGET(att_filenames)
{
	fp_err e = FP_ERR_INIT;
	att_filenames f;
	int rc = att_filenames_parse((const char *)data, size, "fuzz", &f, &e);
	for (size_t i = 0; rc == 0 && i < f.n_waves; i++)
		if (!f.waves[i].file)
			abort();
	if (rc == 0)
		att_filenames_release(&f);
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
