/* Recipe registry reader: a rejection is BAD_INPUT; an accepted registry has a name, test file
 * and invocation in every recipe. */
#include "fuzz.h"

#include "read/amd/recipes.h"

#include <stdlib.h>

FUZZ_TARGET(recipes)
{
	fp_err e = FP_ERR_INIT;
	recipe_set s;
	if (recipes_parse((const char *)data, size, "fuzz", &s, &e) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			if (!s.v[i].name || !s.v[i].test_file || !s.v[i].invocation)
				abort();
			jv_free(recipe_to_json(&s.v[i]));
		}
		recipe_set_release(&s);
	} else {
		if (e.code != ERR_BAD_INPUT)
			abort();
		fp_err_clear(&e);
	}
	return 0;
}
