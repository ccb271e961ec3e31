/* `bundle`'s kernel-trace row extraction (bundle_export_csv_row): any bytes yield NULL or a
 * string that is the input's first line plus one later line of it, and that parses again as a
 * kernel-trace CSV with a matching row. */
#include "fuzz.h"

#include "core/export/bundle_export.h"
#include "read/amd/kernel_trace_csv.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(bundle_csv_row)
{
	long long ids[2] = {25, -1};
	for (int k = 0; k < 2; k++) {
		char *row = bundle_export_csv_row((const char *)data, size, "fuzz", ids[k],
						  "vecAddKernel_0");
		if (!row)
			continue;
		size_t n = strlen(row);
		const char *nl = memchr(data, '\n', size);
		/* the header is copied verbatim and the result ends in a newline */
		if (!nl || n < (size_t)(nl - (const char *)data) + 2 || row[n - 1] != '\n' ||
		    memcmp(row, data, (size_t)(nl - (const char *)data)) != 0)
			abort();
		trace_resources r;
		fp_err e = FP_ERR_INIT;
		if (ktcsv_resources(row, n, "row", ids[k], ids[k] < 0 ? "vecAddKernel_0" : NULL, &r,
				    &e) != 1)
			abort();
		fp_err_clear(&e);
		free(row);
	}
	return 0;
}
