/* The per-instruction memory columns of an ncu source-page export: any bytes either yield at
 * least one row with non-negative counters and text fields, or fail with BAD_INPUT at an offset
 * inside the input / EMPTY_ATT; the lookup by address finds every row it read. */
#include "fuzz.h"

#include "read/nvidia/ncu_memtab.h"

#include <stdlib.h>

FUZZ_TARGET(ncu_memtab)
{
	fp_err e = FP_ERR_INIT;
	ncu_memtab m;
	if (ncu_memtab_read((const char *)data, size, "fuzz", &m, &e) == 0) {
		if (m.n == 0)
			abort();
		for (size_t i = 0; i < m.n; i++) {
			const ncu_mem_row *r = &m.rows[i];
			if (!r->space || !r->op || !ncu_memtab_at(&m, r->address))
				abort();
		}
		ncu_memtab_release(&m);
	} else if (e.code != ERR_EMPTY_ATT) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
	}
	fp_err_clear(&e);
	return 0;
}
