/* The rules reader: any bytes as rules.json (with the shipped vocabulary) either load or fail
 * with BAD_RULES whose offset lies inside the input; a loaded set evaluates without crashing.
 * The same bytes as the vocabulary (with the shipped rules) must fail or load likewise. */
#include "fuzz.h"

#include "../../src/base/data.h"
#include "../../src/core/rule_signals.h"
#include "../../src/core/rules.h"

#include <stdlib.h>
#include <string.h>

static void check_err(const fp_err *e, size_t size)
{
	const jv *off = jv_get(e->extra, "offset");
	if (e->code != ERR_BAD_RULES || (off && (jv_i64(off) < 0 || (size_t)jv_i64(off) > size)))
		abort();
}

FUZZ_TARGET(rules)
{
	size_t klen = 0, rlen = 0;
	fp_err e = FP_ERR_INIT;
	char *knobs = data_load("knobs_flydsl.json", &klen, NULL, &e);
	char *shipped = data_load("rules.json", &rlen, NULL, &e);
	if (!knobs || !shipped)
		abort();
	rules r;
	if (rules_parse(&r, (const char *)data, size, "fuzz", knobs, klen, "knobs", &e) == 0) {
		jv *sig = jv_object();
		for (size_t i = 0; i < r.n; i++) {
			rule_outcome o;
			rule_eval(&r.v[i], sig, "memory", 1, &o);
		}
		jv_free(sig);
	} else
		check_err(&e, size);
	rules_release(&r);
	fp_err_clear(&e);
	if (rules_parse(&r, shipped, rlen, "rules", (const char *)data, size, "fuzz", &e) != 0)
		check_err(&e, e.extra && jv_string(jv_get(e.extra, "file")) &&
				      strcmp(jv_string(jv_get(e.extra, "file")), "fuzz") == 0
				  ? size
				  : rlen);
	rules_release(&r);
	fp_err_clear(&e);
	free(knobs);
	free(shipped);
	return 0;
}
