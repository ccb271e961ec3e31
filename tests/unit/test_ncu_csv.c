/* ncu_csv: RFC 4180 reading (quotes, embedded commas/quotes/newlines, CRLF) and BAD_INPUT
 * positions for malformed input. */
#include "read/nvidia/ncu_csv.h"
#include "t.h"

#include <string.h>

static const char *err_str(const fp_err *e, const char *key)
{
	return jv_string(jv_get(e->extra, key));
}

static int64_t err_int(const fp_err *e, const char *key)
{
	return jv_i64(jv_get(e->extra, key));
}

TEST(ncu_csv_quoting)
{
	const char *in = "\"a,b\",\"say \"\"hi\"\"\",plain\r\n"
			 "\"multi\nline\",,\"\"\n"
			 "\n"
			 "last,";
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse(in, strlen(in), "q.csv", &c, &e), 0);
	CHECK_INT(c.n_rows, 3);
	if (c.n_rows != 3)
		return;
	CHECK_INT(c.rows[0].n, 3);
	CHECK_STR(c.rows[0].f[0], "a,b");
	CHECK_STR(c.rows[0].f[1], "say \"hi\"");
	CHECK_STR(c.rows[0].f[2], "plain");
	CHECK_INT(c.rows[0].off[2], 19);
	CHECK_INT(c.rows[1].n, 3);
	CHECK_STR(c.rows[1].f[0], "multi\nline");
	CHECK_STR(c.rows[1].f[1], "");
	CHECK_STR(c.rows[1].f[2], "");
	CHECK_INT(c.rows[1].line, 2);
	CHECK_INT(c.rows[2].line, 5); /* line 3 ends the quoted field, line 4 is empty */
	CHECK_INT(c.rows[2].n, 2);
	CHECK_STR(c.rows[2].f[1], "");
	CHECK_INT(ncu_csv_col(&c.rows[0], "plain"), 2);
	CHECK_INT(ncu_csv_col(&c.rows[0], "nope"), -1);
	CHECK_STR(ncu_csv_get(&c.rows[2], 7), "");
	ncu_csv_release(&c);
	fp_err_clear(&e);
}

TEST(ncu_csv_numbers)
{
	double v = 0;
	CHECK(ncu_csv_number("640,610.58", &v));
	CHECK_NEAR(v, 640610.58, 1e-9);
	CHECK(ncu_csv_number("-3.20", &v));
	CHECK_NEAR(v, -3.2, 1e-12);
	CHECK(ncu_csv_number("1e+03", &v));
	CHECK_NEAR(v, 1000, 1e-12);
	CHECK(!ncu_csv_number("no data", &v));
	CHECK(!ncu_csv_number("(256, 1, 1)", &v));
	CHECK(!ncu_csv_number("-", &v));
	CHECK(!ncu_csv_number("", &v));
	CHECK(!ncu_csv_number("12abc", &v));
	const char *in = "\"8,192\",\"1.5\",\"\",\"99999999999999999999\"\n";
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse(in, strlen(in), "n.csv", &c, &e), 0);
	int64_t n = 0;
	CHECK_INT(ncu_csv_count(&c, &c.rows[0], 0, &n, &e), 0);
	CHECK_INT(n, 8192);
	CHECK_INT(ncu_csv_count(&c, &c.rows[0], 1, &n, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(err_int(&e, "offset"), 8);
	CHECK_INT(err_int(&e, "column"), 9);
	fp_err_clear(&e);
	CHECK_INT(ncu_csv_count(&c, &c.rows[0], 2, &n, &e), -1);
	fp_err_clear(&e);
	CHECK_INT(ncu_csv_count(&c, &c.rows[0], 3, &n, &e), -1); /* overflow */
	fp_err_clear(&e);
	ncu_csv_release(&c);
}

static void expect_bad(const char *in, int64_t offset, int64_t line, int64_t column)
{
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse(in, strlen(in), "bad.csv", &c, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_STR(err_str(&e, "file"), "bad.csv");
	CHECK_INT(err_int(&e, "offset"), offset);
	CHECK_INT(err_int(&e, "line"), line);
	CHECK_INT(err_int(&e, "column"), column);
	CHECK(err_str(&e, "expected") != NULL);
	CHECK_INT(c.n_rows, 0);
	fp_err_clear(&e);
}

TEST(ncu_csv_malformed)
{
	expect_bad("a,b\n\"open,c\n", 4, 2, 1);		   /* unterminated quote */
	expect_bad("a\r\nb,\"c\x01\"\r\n\"\"x", 11, 3, 1); /* CRLF counting; "" then x */
	const char nul[] = {'a', ',', '\0', 'b', '\n'};
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse(nul, sizeof nul, "nul.csv", &c, &e), -1);
	CHECK_INT(err_int(&e, "offset"), 2);
	fp_err_clear(&e);
}

TEST(ncu_csv_empty_and_file)
{
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse("", 0, "empty.csv", &c, &e), 0);
	CHECK_INT(c.n_rows, 0);
	ncu_csv_release(&c);
	CHECK_INT(ncu_csv_read_file("tests/fixtures/ncu/does-not-exist.csv", &c, &e), -1);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	fp_err_clear(&e);
	CHECK_INT(ncu_csv_read_file("tests/fixtures/ncu/bad_unterminated.csv", &c, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(err_int(&e, "offset"), 26); /* the second field's opening quote */
	CHECK_INT(err_int(&e, "line"), 2);
	CHECK_INT(err_int(&e, "column"), 8);
	fp_err_clear(&e);
}

/* ncu's own quoting: quotes inside source text are not doubled. */
TEST(ncu_csv_unescaped_quotes)
{
	const char *in = "\"7\",\"x = f(\"inf\"), g(sep=\", \")\",\"-\"\n"
			 "\"9\",\"\"\"\"Doc.\"\"\"\",\"-\"\n"
			 "\"0x1\"x\",b\"c\n";
	ncu_csv c;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(ncu_csv_parse(in, strlen(in), "u.csv", &c, &e), 0);
	CHECK_INT(c.n_rows, 3);
	if (c.n_rows != 3)
		return;
	CHECK_INT(c.rows[0].n, 3);
	CHECK_STR(c.rows[0].f[1], "x = f(\"inf\"), g(sep=\", \")");
	CHECK_STR(c.rows[0].f[2], "-");
	CHECK_INT(c.rows[1].n, 3);
	CHECK_STR(c.rows[1].f[1], "\"\"Doc.\"\""); /* lossy, but the fields stay in place */
	CHECK_STR(c.rows[1].f[2], "-");
	CHECK_INT(c.rows[2].n, 2);
	CHECK_STR(c.rows[2].f[0], "0x1\"x");
	CHECK_STR(c.rows[2].f[1], "b\"c");
	ncu_csv_release(&c);
	fp_err_clear(&e);
}
