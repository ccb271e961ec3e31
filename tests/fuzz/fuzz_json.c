/* The JSON parser: any bytes parse to a tree that re-renders and re-parses to an equal tree,
 * or fail with BAD_INPUT carrying an offset inside the input. */
#include "fuzz.h"

#include "base/strbuf.h"
#include "base/json/json_write.h"
#include "base/json/json_parse.h"

#include <stdlib.h>

FUZZ_TARGET(json)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse((const char *)data, size, "fuzz", &e);
	if (!v) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (size_t)off > size)
			abort();
		fp_err_clear(&e);
		return 0;
	}
	strbuf sb = STRBUF_INIT;
	json_write(&sb, v, 0);
	jv *again = json_parse(sb.buf, sb.len, "fuzz-again", &e);
	if (!again)
		abort();
	jv_free(again);
	sb_release(&sb);
	jv_free(v);
	return 0;
}
