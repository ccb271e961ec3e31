/* The kernel-trace and agent-info CSV readers: any bytes either yield a row, no row, or BAD_INPUT
 * with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/kernel_trace_csv.h"

#include <stdlib.h>

FUZZ_TARGET(kernel_trace)
{
	fp_err e = FP_ERR_INIT;
	trace_resources r;
	long long ids[2] = {25, -1};
	for (int k = 0; k < 2; k++) {
		int rc = ktcsv_resources((const char *)data, size, "fuzz", ids[k], "vecAddKernel_0",
					 &r, &e);
		if (rc < 0) {
			int64_t off = jv_i64(jv_get(e.extra, "offset"));
			if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
				abort();
		} else if (rc == 1 && (r.vgpr < 0 || r.wg_size < 0 || !r.source))
			abort();
		fp_err_clear(&e);
	}
	char arch[32];
	if (ktcsv_agent_arch((const char *)data, size, "fuzz", arch, sizeof arch, &e) < 0 &&
	    e.code != ERR_BAD_INPUT)
		abort();
	fp_err_clear(&e);
	return 0;
}
