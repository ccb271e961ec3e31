/* The terminal layout: wrapped text and column tables never pass the width, cut cells say so,
 * and a path column keeps its file:line end. */
#include "t.h"

#include "base/strbuf.h"
#include "out/table_fmt.h"

#include <string.h>

static size_t widest(const char *s)
{
	size_t m = 0;
	while (*s) {
		size_t n = strcspn(s, "\n");
		size_t c = tf_cols(s, n);
		if (c > m)
			m = c;
		s += n + (s[n] == '\n');
	}
	return m;
}

TEST(table_fmt_wrap_stays_in_width)
{
	strbuf sb = STRBUF_INIT;
	tf t = {&sb, 30};
	tf_para(&t, 2, "label:",
		"one two three four five six seven eight nine ten eleven twelve "
		"averyveryveryveryveryverylongwordthatcannotfitonaline end");
	CHECK(widest(sb_str(&sb)) <= 30);
	/* continuation lines hang under the text, after the label */
	CHECK(strstr(sb_str(&sb), "\n         ") != NULL);
	CHECK(strncmp(sb_str(&sb), "  label: one two", 16) == 0);
	CHECK(strstr(sb_str(&sb), "end\n") != NULL);
	sb_release(&sb);
}

TEST(table_fmt_table_cuts_the_flexible_column)
{
	strbuf sb = STRBUF_INIT;
	tf t = {&sb, 40};
	tf_table tb;
	tf_table_init(&tb, 1, 1);
	tf_table_col(&tb, "pct", 1);
	tf_table_col(&tb, "source", 0);
	const char *r1[] = {"60.5%", "/a/very/long/path/to/the/kernels/softmax_kernel.py:186"};
	const char *r2[] = {"2.0%", NULL};
	tf_table_row(&tb, r1);
	tf_table_row(&tb, r2);
	tf_table_emit(&t, &tb, 2);
	CHECK(widest(sb_str(&sb)) <= 40);
	CHECK(strstr(sb_str(&sb), "...") != NULL);
	CHECK(strstr(sb_str(&sb), "softmax_kernel.py:186\n") != NULL); /* the end survives */
	CHECK(strstr(sb_str(&sb), "   2.0%  -\n") != NULL); /* right aligned, NULL is - */
	sb_release(&sb);
}

TEST(table_fmt_narrow_drops_right_columns)
{
	strbuf sb = STRBUF_INIT;
	tf t = {&sb, 24};
	tf_table tb;
	tf_table_init(&tb, 2, 0);
	tf_table_col(&tb, "tile", 0);
	tf_table_col(&tb, "score", 1);
	tf_table_col(&tb, "regime", 0);
	const char *r[] = {"128x256x32", "75.2", "cache-dependent"};
	tf_table_row(&tb, r);
	tf_table_emit(&t, &tb, 2);
	CHECK(widest(sb_str(&sb)) <= 24);
	CHECK(strstr(sb_str(&sb), "128x256x32") != NULL); /* the leading column stays whole */
	CHECK(strstr(sb_str(&sb), "cache") == NULL);
	sb_release(&sb);
}

TEST(table_fmt_numbers)
{
	char b[32];
	jv *v = jv_double(60.517);
	CHECK(strcmp(tf_pct(b, v), "60.5%") == 0);
	jv_free(v);
	v = jv_int(19245304);
	CHECK(strcmp(tf_count(b, v), "19.2M") == 0);
	jv_free(v);
	v = jv_int(131584);
	CHECK(strcmp(tf_count(b, v), "131584") == 0);
	jv_free(v);
	CHECK(strcmp(tf_pct(b, NULL), "-") == 0);
	CHECK(strcmp(tf_base("/a/b/k.py:41"), "k.py:41") == 0);
}
