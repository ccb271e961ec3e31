/* DWARF line tables and inlined call sites of a code object: any bytes give a table or
 * BAD_INPUT; lookups of every row address and of addresses around them never fail. */
#include "fuzz.h"

#include "base/strbuf.h"
#include "read/amd/codeobj_load.h"

#include <stdlib.h>

FUZZ_TARGET(dwarf)
{
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	if (codeobj_full_read_mem(data, size, "fuzz", &cf, &e) != 0) {
		if (e.code != ERR_BAD_INPUT)
			abort();
		fp_err_clear(&e);
		return 0;
	}
	strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < cf.dl.n_rows && i < 4096; i++) {
		uint64_t a = cf.dl.rows[i].addr;
		dwarf_lines_source(&cf.dl, a, &sb);
		dwarf_lines_source(&cf.dl, a + 1, &sb);
		sb_reset(&sb);
	}
	sb_release(&sb);
	size_t total = 0;
	jv *d = codeobj_describe(&cf, 64, &total);
	if (total != cf.dl.n_rows)
		abort();
	jv_free(d);
	codeobj_full_release(&cf);
	return 0;
}
