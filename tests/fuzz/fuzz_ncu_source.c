/* The Nsight Compute source-page reader (both the SASS-only and the correlated export): any
 * bytes either yield instructions in strictly non-decreasing address order with consistent
 * sample sums, or fail with BAD_INPUT / EMPTY_ATT at an offset inside the input. */
#include "fuzz.h"

#include "read/nvidia/ncu_source.h"

#include <stdlib.h>

FUZZ_TARGET(ncu_source)
{
	fp_err e = FP_ERR_INIT;
	ncu_source s;
	if (ncu_source_read((const char *)data, size, "fuzz", &s, &e) == 0) {
		if (s.trace.n_insts == 0)
			abort();
		int dup = 0;
		for (size_t i = 0; i < s.trace.n_insts; i++) {
			const trace_inst *t = &s.trace.insts[i];
			if (t->code_line != (int64_t)i + 1 || !t->isa || !t->source)
				abort();
			if (i && s.s[i].address < s.s[i - 1].address)
				abort();
			dup |= i && s.s[i].address == s.s[i - 1].address;
		}
		size_t m, miss, dis;
		ncu_source_adopt_lines(&s, &s, &m, &miss, &dis);
		/* An export agrees with itself; with two rows at one address (tolerated, kept in
		 * file order) the lookup by address cannot tell them apart, so only then may the
		 * sample counts disagree. */
		if (miss || (dis && !dup))
			abort();
		ncu_source_release(&s);
	} else if (e.code != ERR_EMPTY_ATT) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
	}
	fp_err_clear(&e);
	return 0;
}
