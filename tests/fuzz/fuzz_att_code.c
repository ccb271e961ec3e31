/* ATT code.json reader: rows come out sorted by code line;
 * a rejection is BAD_INPUT with an offset inside the input. */
#include "fuzz.h"

#include "read/amd/att_code.h"

#include <stdlib.h>

FUZZ_TARGET(att_code)
{
	fp_err e = FP_ERR_INIT;
	trace_dispatch d;
	trace_dispatch_init(&d);
	int rc = att_code_parse((const char *)data, size, "fuzz", &d, &e);
	for (size_t i = 1; rc == 0 && i < d.n_insts; i++)
		if (d.insts[i - 1].code_line > d.insts[i].code_line)
			abort(); /* rows must come out sorted */
	trace_dispatch_release(&d);
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
