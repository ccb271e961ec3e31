/* The rules reader: any bytes as rules.json (with the shipped vocabulary) either load or fail
 * with BAD_RULES whose offset lies inside the input; a loaded set evaluates without crashing.
 * The same bytes as the FlyDSL vocabulary (with the shipped rules and the shipped Triton and
 * CUDA vocabularies) must fail or load likewise. */
#include "fuzz.h"

#include "base/data.h"
#include "core/diagnose/rule_signals.h"
#include "core/diagnose/rules.h"

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
		signal_map sig;
		signal_map_init(&sig);
		kernel_traits traits;
		kernel_traits_init(&traits);
		traits.has_matrix_ops = TRI_NO;
		for (size_t i = 0; i < r.n; i++) {
			rule_outcome o;
			char why[160];
			rule_eval(&r.v[i], &sig, "memory", 1, &o);
			rule_applies(&r.v[i], &traits, why, sizeof why);
		}
		signal_map_release(&sig);
	} else
		check_err(&e, size);
	rules_release(&r);
	fp_err_clear(&e);
	/* the bytes as the FlyDSL vocabulary beside the shipped Triton and CUDA ones (the shipped
	 * rules name knobs of all three) */
	size_t tlen = 0, clen = 0;
	char *tk = data_load("knobs_triton.json", &tlen, NULL, &e);
	char *ck = data_load("knobs_cuda.json", &clen, NULL, &e);
	if (!tk || !ck)
		abort();
	rules_vocab v[3] = {{(const char *)data, size, "fuzz"}, {tk, tlen, "t"}, {ck, clen, "c"}};
	if (rules_parse_vocabs(&r, shipped, rlen, "rules", v, 3, &e) != 0) {
		const char *f = e.extra ? jv_string(jv_get(e.extra, "file")) : NULL;
		check_err(&e, f && strcmp(f, "fuzz") == 0 ? size
			      : f && strcmp(f, "t") == 0  ? tlen
			      : f && strcmp(f, "c") == 0  ? clen
							  : rlen);
	}
	rules_release(&r);
	fp_err_clear(&e);
	free(tk);
	free(ck);
	free(knobs);
	free(shipped);
	return 0;
}
