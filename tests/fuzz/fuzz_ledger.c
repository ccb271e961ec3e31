/* Ledger text: any bytes give rounds or BAD_INPUT with a line number; every round read back
 * re-serialises to a line that parses to the same JSON. */
#include "fuzz.h"

#include "base/json/json_write.h"
#include "base/strbuf.h"
#include "read/ledger_read.h"

#include <stdlib.h>

FUZZ_TARGET(ledger)
{
	fp_err e = FP_ERR_INIT;
	ledger_rounds rs = {0};
	if (ledger_parse_text((const char *)data, size, "fuzz", &rs, &e) != 0) {
		if (e.code != ERR_BAD_INPUT || !e.extra || !jv_get(e.extra, "line"))
			abort();
		fp_err_clear(&e);
		ledger_rounds_release(&rs);
		return 0;
	}
	for (size_t i = 0; i < rs.n; i++) {
		jv *a = ledger_round_to_json(&rs.v[i]);
		strbuf sb = STRBUF_INIT;
		json_write(&sb, a, 0);
		ledger_round back;
		if (ledger_parse_line(sb.buf, sb.len, "fuzz", 1, 0, &back, &e) != 0)
			abort();
		jv *b = ledger_round_to_json(&back);
		if (!jv_equal(a, b))
			abort();
		jv_free(a);
		jv_free(b);
		ledger_round_release(&back);
		sb_release(&sb);
	}
	ledger_rounds_release(&rs);
	return 0;
}
