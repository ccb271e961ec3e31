/* The annotated-source model: lines credited to the innermost frame, hidden runs counted as
 * gaps, ranks by stall, the wait's producers beside its row, anchors for findings. */
#include "t.h"

#include "base/json/json_parse.h"
#include "out/source_view.h"

#include <stdlib.h>

static jv *parse(const char *s)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(s, strlen(s), "test", &e);
	CHECK(v != NULL);
	fp_err_clear(&e);
	return v;
}

/* Each ISA row gets the producers of the first wait at its code line, in the waits list's
 * order; a row without a wait gets none. */
TEST(source_view_producers_by_code_line)
{
	jv *b = parse(
	    "{\"totals\":{\"stall\":100},\"hotspots\":["
	    "{\"code_line\":7,\"isa\":\"s_waitcnt\",\"source\":\"/k/a.py:1\","
	    "\"stall\":50,\"hits\":1},"
	    "{\"code_line\":9,\"isa\":\"s_waitcnt\",\"source\":\"/k/a.py:1\","
	    "\"stall\":40,\"hits\":1},"
	    "{\"code_line\":8,\"isa\":\"v_add\",\"source\":\"/k/a.py:1\","
	    "\"stall\":10,\"hits\":1}],"
	    "\"waits\":[{\"code_line\":9,\"producers\":[{\"code_line\":2},{\"code_line\":3}]},"
	    "{\"code_line\":7,\"producers\":[{\"code_line\":1}]},"
	    "{\"code_line\":9,\"producers\":[{\"code_line\":4}]}]}");
	jv *texts = parse("{\"/k/a.py\":[\"l1\"]}");
	jv *v = source_view_build(b, texts, NULL, 1);
	const jv *isa = jv_get(jv_at(jv_get(jv_at(jv_get(v, "files"), 0), "lines"), 0), "isa");
	CHECK_INT(jv_len(isa), 3); /* code-line order: 7, 8, 9 */
	CHECK_INT(jv_i64(jv_get(jv_at(isa, 0), "code_line")), 7);
	CHECK_INT(jv_len(jv_get(jv_at(isa, 0), "producers")), 1);
	CHECK_INT(jv_i64(jv_get(jv_at(jv_get(jv_at(isa, 0), "producers"), 0), "code_line")), 1);
	CHECK(jv_get(jv_at(isa, 1), "producers") == NULL);
	CHECK_INT(jv_len(jv_get(jv_at(isa, 2), "producers")), 2); /* the first wait at 9 */
	CHECK_INT(jv_i64(jv_get(jv_at(jv_get(jv_at(isa, 2), "producers"), 1), "code_line")), 3);
	jv_free(v);
	jv_free(texts);
	jv_free(b);
}

TEST(source_view_lines_gaps_ranks)
{
	jv *b = parse("{\"totals\":{\"stall\":100},\"hotspots\":["
		      "{\"code_line\":3,\"isa\":\"s_waitcnt vmcnt(0)\",\"class\":\"vmem_wait\","
		      "\"source\":\"/k/a.py:5\",\"stall\":60,\"hits\":2},"
		      "{\"code_line\":1,\"isa\":\"buffer_load\",\"class\":\"vmem_issue\","
		      "\"source\":\"/k/b.py:9 -> /k/a.py:2\",\"stall\":30,\"hits\":4},"
		      "{\"code_line\":2,\"isa\":\"v_add\",\"class\":\"valu\","
		      "\"source\":\"/k/a.py:5\",\"stall\":10,\"hits\":4}],"
		      "\"waits\":[{\"code_line\":3,\"producers\":[{\"code_line\":1,"
		      "\"isa\":\"buffer_load\",\"source\":\"/k/a.py:2\"}]}]}");
	jv *texts = parse("{\"/k/a.py\":[\"l1\",\"l2\",\"l3\",\"l4\",\"l5\",\"l6\",\"l7\"]}");
	jv *v = source_view_build(b, texts, NULL, 1);
	const jv *files = jv_get(v, "files");
	CHECK_INT(jv_len(files), 2);
	const jv *a = jv_at(files, 0);
	CHECK_STR(jv_string(jv_get(a, "file")), "/k/a.py"); /* 70 of 100 before b.py's 30 */
	CHECK_INT(jv_i64(jv_get(a, "stall")), 70);
	/* a short file with text is shown whole: lines 1..7, no gap */
	const jv *ls = jv_get(a, "lines");
	CHECK_INT(jv_len(ls), 7);
	const jv *l5 = jv_at(ls, 4);
	CHECK_INT(jv_i64(jv_get(l5, "n")), 5);
	CHECK_INT(jv_i64(jv_get(l5, "rank")), 1);
	CHECK_STR(jv_string(jv_get(l5, "class")), "vmem_wait");
	CHECK_INT(jv_len(jv_get(l5, "isa")), 2);
	const jv *w = jv_at(jv_get(l5, "isa"), 1); /* code_line order: 2 then 3 */
	CHECK_INT(jv_i64(jv_get(w, "code_line")), 3);
	CHECK_INT(jv_len(jv_get(w, "producers")), 1);
	CHECK(jv_get(jv_at(ls, 0), "isa") == NULL); /* text only */
	/* b.py has no text: its costed line 9 alone, after a gap of 8 */
	const jv *bl = jv_get(jv_at(files, 1), "lines");
	CHECK_INT(jv_len(bl), 2);
	CHECK_INT(jv_i64(jv_get(jv_at(bl, 0), "gap")), 8);
	CHECK(t_is_null(jv_get(jv_at(bl, 1), "text")));
	CHECK_INT(jv_i64(jv_get(jv_at(bl, 1), "rank")), 2);
	char anchor[32];
	source_view_anchor(v, "/k/a.py:5", anchor, sizeof anchor);
	CHECK_STR(anchor, "L0-5");
	source_view_anchor(v, "/k/b.py:9", anchor, sizeof anchor);
	CHECK_STR(anchor, "L1-9");
	source_view_anchor(v, "/k/a.py:99", anchor, sizeof anchor);
	CHECK_STR(anchor, "");
	jv_free(v);
	jv_free(texts);
	jv_free(b);
}
