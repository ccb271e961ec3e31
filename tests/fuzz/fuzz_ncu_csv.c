/* The Nsight Compute CSV reader (ncu_csv) and the details-page reader on top of it: any bytes
 * either parse (every field pointer valid, offsets inside the input, lines ascending) or fail
 * with BAD_INPUT / EMPTY_ATT at an offset inside the input. */
#include "fuzz.h"

#include "read/nvidia/ncu_csv.h"
#include "read/nvidia/ncu_details.h"

#include <stdlib.h>
#include <string.h>

static void check_err(fp_err *e, size_t size)
{
	if (e->code == ERR_EMPTY_ATT)
		return;
	int64_t off = jv_i64(jv_get(e->extra, "offset"));
	if (e->code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
		abort();
}

FUZZ_TARGET(ncu_csv)
{
	fp_err e = FP_ERR_INIT;
	ncu_csv c;
	if (ncu_csv_parse((const char *)data, size, "fuzz", &c, &e) == 0) {
		int64_t line = 0;
		for (size_t r = 0; r < c.n_rows; r++) {
			if (c.rows[r].line < line || c.rows[r].n == 0)
				abort();
			line = c.rows[r].line;
			for (size_t i = 0; i < c.rows[r].n; i++)
				if (c.rows[r].off[i] < 0 || (size_t)c.rows[r].off[i] > size ||
				    strlen(c.rows[r].f[i]) > size)
					abort();
		}
		if (c.n_rows) {
			int64_t v;
			if (ncu_csv_count(&c, &c.rows[0], 0, &v, &e) < 0)
				check_err(&e, size);
			fp_err_clear(&e);
		}
		ncu_csv_release(&c);
	} else {
		check_err(&e, size);
	}
	fp_err_clear(&e);
	ncu_details d;
	if (ncu_details_read((const char *)data, size, "fuzz", &d, &e) == 0) {
		jv_free(ncu_details_json(&d));
		ncu_details_release(&d);
	} else {
		check_err(&e, size);
	}
	fp_err_clear(&e);
	return 0;
}
