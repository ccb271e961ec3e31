/* Flame-graph exports: folded stacks merge equal stacks and sort; speedscope documents have
 * the schema's shape with consistent frame indices and weights. */
#include "t.h"

#include "out/flame.h"

#include <string.h>

TEST(flame_folded_merges_and_sorts)
{
	flame f;
	flame_init(&f, "stall cycles", "none");
	flame_frame a[] = {{"k.py", NULL, 0}, {"k.py:41", "/w/k.py", 41}, {"vmem_wait", NULL, 0}};
	flame_frame b[] = {{"k.py", NULL, 0}, {"k.py:50", "/w/k.py", 50}, {"valu", NULL, 0}};
	flame_frame c[] = {{"<unmapped>", NULL, 0}, {"a;b\nc", NULL, 0}};
	flame_add(&f, a, 3, 10);
	flame_add(&f, b, 3, 5);
	flame_add(&f, a, 3, 7);
	flame_add(&f, b, 3, 0); /* zero weight: left out */
	flame_add(&f, c, 2, 2);
	CHECK_INT(flame_total(&f), 24);
	strbuf sb = STRBUF_INIT;
	flame_folded(&f, &sb);
	CHECK_STR(sb_str(&sb), "<unmapped>;a_b_c 2\n"
			       "k.py;k.py:41;vmem_wait 17\n"
			       "k.py;k.py:50;valu 5\n");
	sb_release(&sb);

	jv *doc = flame_speedscope(&f, "test");
	CHECK_STR(jv_string(jv_get(doc, "$schema")),
		  "https://www.speedscope.app/file-format-schema.json");
	jv *frames = jv_get(jv_get(doc, "shared"), "frames");
	CHECK_INT(jv_len(frames), 7);
	CHECK_STR(jv_string(jv_get(jv_at(frames, 1), "file")), "/w/k.py");
	CHECK_INT(jv_i64(jv_get(jv_at(frames, 1), "line")), 41);
	jv *p = jv_at(jv_get(doc, "profiles"), 0);
	CHECK_STR(jv_string(jv_get(p, "type")), "sampled");
	CHECK_STR(jv_string(jv_get(p, "unit")), "none");
	CHECK_INT(jv_i64(jv_get(p, "startValue")), 0);
	CHECK_INT(jv_i64(jv_get(p, "endValue")), 24);
	CHECK_INT(jv_len(jv_get(p, "samples")), 4);
	CHECK_INT(jv_len(jv_get(p, "weights")), 4);
	jv *s0 = jv_at(jv_get(p, "samples"), 0);
	CHECK_INT(jv_len(s0), 3);
	CHECK_INT(jv_i64(jv_at(s0, 2)), 2); /* vmem_wait is the third frame interned */
	CHECK_INT(jv_i64(jv_at(jv_get(p, "weights"), 2)), 7);
	jv_free(doc);
	flame_release(&f);
}
