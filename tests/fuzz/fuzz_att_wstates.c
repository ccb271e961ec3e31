/* ATT wstates<k>.json reader: time never decreases on success; a rejection is BAD_INPUT with an
 * offset inside the input; the integral folded as it is read (att_wstates_parse_integral) is
 * the full parse's, with the same answer and error. */
#include "fuzz.h"

#include "read/amd/att_wstates.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(att_wstates)
{
	fp_err e = FP_ERR_INIT, e2 = FP_ERR_INIT;
	att_wstates w;
	int64_t integral = 0, peak = 0, i2 = 0, p2 = 0;
	int rc = att_wstates_parse((const char *)data, size, "fuzz", &w, &e);
	int rc2 = att_wstates_parse_integral((const char *)data, size, "fuzz", &i2, &p2, &e2);
	if (rc != rc2)
		abort();
	for (size_t i = 1; rc == 0 && i < w.n; i++)
		if (w.time[i] < w.time[i - 1])
			abort(); /* time never decreases */
	if (rc == 0) {
		integral = att_wstates_integral(&w, &peak);
		if (integral != i2 || peak != p2)
			abort();
		att_wstates_release(&w);
	}
	if (rc != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		if (e2.code != e.code || strcmp(e2.message, e.message) != 0 ||
		    jv_i64(jv_get(e2.extra, "offset")) != off)
			abort();
		fp_err_clear(&e);
		fp_err_clear(&e2);
	}
	return 0;
}
