/* rocprofv3 CSV table reader: every row has exactly ncols fields; a rejection is BAD_INPUT
 * with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/rocprof_csv.h"

#include <stdlib.h>

FUZZ_TARGET(rocprof_csv)
{
	fp_err e = FP_ERR_INIT;
	csv_table t;
	int rc = csv_parse((const char *)data, size, "fuzz", &t, &e);
	if (rc == 0) {
		for (size_t r = 0; r < t.nrows; r++)
			for (size_t c = 0; c < t.ncols; c++)
				if (!t.rows[r][c] || (size_t)t.row_offset[r] > size)
					abort();
		csv_num(&t, 0, 0, NULL);
		csv_release(&t);
	} else {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
