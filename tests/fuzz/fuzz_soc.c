/* The SoC table reader: any bytes either load into a table whose every spec answers lookups
 * and peak math without crashing, or fail with BAD_RULES naming the file. */
#include "fuzz.h"

#include "core/hw/occupancy.h"
#include "core/hw/soc.h"

#include <stdlib.h>

FUZZ_TARGET(soc)
{
	fp_err e = FP_ERR_INIT;
	soc_table *t = soc_table_parse((const char *)data, size, "fuzz-soc.json", &e);
	if (!t) {
		if (e.code != ERR_BAD_RULES || !jv_get(e.extra, "file"))
			abort();
		fp_err_clear(&e);
		return 0;
	}
	trace_resources r = {128, 64, 104, 65536, 0, 256, 0, 0, "fuzz"};
	for (size_t i = 0; i < soc_count(t); i++) {
		const soc_spec *s = soc_at(t, i);
		if (soc_lookup(t, s->product) == NULL)
			abort();
		for (size_t k = 0; k < s->n_matrix; k++)
			if (soc_ridge(s, &s->matrix[k]) < 0)
				abort();
		occ_result o;
		if (occ_theoretical(s, &r, &o) != 0 || o.subgroups_per_cu > s->max_waves_per_cu)
			abort();
		jv_free(occ_to_json(&o));
		jv_free(soc_to_json(s));
	}
	jv_free(soc_names(t));
	soc_table_free(t);
	return 0;
}
