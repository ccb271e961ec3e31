/* Unit tests of the base layer: jv, JSON writer/parser, options, errors, sha256, fileio. */
#include "t.h"

#include "base/err.h"
#include "base/fileio.h"
#include "base/input_open.h"
#include "base/json/jv.h"
#include "base/sha256.h"
#include "base/suggest.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/opts.h"
#include "base/json/json_write.h"
#include "base/json/json_parse.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *render(const jv *v)
{
	strbuf sb = STRBUF_INIT;
	json_write(&sb, v, 0);
	return sb_detach(&sb);
}

TEST(json_roundtrip_keeps_order_and_big_ints)
{
	const char *src = "{\"b\":1,\"a\":[true,false,null,\"x\\ny\"],\"id\":"
			  "18446744073709551615,\"neg\":-9223372036854775808,\"f\":0.5}";
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(src, strlen(src), "t", &e);
	CHECK(v != NULL);
	char *out = render(v);
	CHECK_STR(out, src);
	free(out);
	jv_free(v);
}

TEST(json_parse_errors_have_positions)
{
	static const struct {
		const char *src;
		long long offset;
	} cases[] = {
	    {"{\"a\":}", 5}, {"[1,2", 4}, {"[1 2]", 3}, {"\"abc", 4},	{"{} x", 3},
	    {"[01]", 2},     {"-", 1},	  {"tru", 0},	{"\"\\q\"", 2}, {"", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fp_err e = FP_ERR_INIT;
		jv *v = json_parse(cases[i].src, strlen(cases[i].src), "f.json", &e);
		CHECK(v == NULL);
		CHECK_INT(e.code, ERR_BAD_INPUT);
		CHECK_INT(jv_i64(jv_get(e.extra, "offset")), cases[i].offset);
		CHECK_STR(jv_string(jv_get(e.extra, "file")), "f.json");
		fp_err_clear(&e);
	}
}

TEST(json_depth_limit)
{
	strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 100000; i++)
		sb_addc(&sb, '[');
	fp_err e = FP_ERR_INIT;
	CHECK(json_parse(sb.buf, sb.len, "deep", &e) == NULL);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
	sb_release(&sb);
}

TEST(json_write_escapes_invalid_utf8_and_controls)
{
	jv *s = jv_strn("a\x01\xff\xc3\xa9\"", 6);
	char *out = render(s);
	CHECK_STR(out, "\"a\\u0001\\ufffd\xc3\xa9\\\"\"");
	free(out);
	jv_free(s);
	jv *d = jv_array();
	jv_push(d, jv_double(0.1));
	jv_push(d, jv_double(2.0));
	jv_push(d, jv_double(1.0 / 0.0));
	jv_push(d, jv_round(12.34567, 2));
	out = render(d);
	CHECK_STR(out, "[0.1,2,null,12.35]");
	free(out);
	jv_free(d);
}

TEST(jv_set_replaces_and_equal_ignores_key_order)
{
	jv *a = jv_object();
	jv_set_int(a, "x", 1);
	jv_set_int(a, "y", 2);
	jv_set_int(a, "x", 3);
	CHECK_INT(jv_len(a), 2);
	CHECK_INT(jv_i64(jv_get(a, "x")), 3);
	jv *b = jv_object();
	jv_set_int(b, "y", 2);
	jv_set_int(b, "x", 3);
	CHECK(jv_equal(a, b));
	jv_set_int(b, "x", 4);
	CHECK(!jv_equal(a, b));
	jv *t = jv_take(a, "x");
	CHECK_INT(jv_i64(t), 3);
	CHECK_INT(jv_len(a), 1);
	jv_free(t);
	jv_free(a);
	jv_free(b);
}

/* Lookups by name over keys that share first bytes, the empty key, one-byte keys and a key
 * that is another's prefix; a parsed duplicate key: the last one wins. */
TEST(jv_get_tells_keys_apart_by_every_byte)
{
	static const char *const keys[] = {"", "s", "st", "stall", "stalls", "source", "t", "x"};
	jv *o = jv_object();
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		jv_set_int(o, keys[i], (int64_t)i);
	CHECK_INT(jv_len(o), 8);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		CHECK_INT(jv_i64(jv_get(o, keys[i])), (int64_t)i);
	CHECK(jv_get(o, "sta") == NULL);
	CHECK(jv_get(o, "stal") == NULL);
	CHECK(jv_get(o, "u") == NULL);
	CHECK(jv_get(o, "sources") == NULL);
	jv_set_int(o, "", 10); /* replaced, not added */
	CHECK_INT(jv_len(o), 8);
	CHECK_INT(jv_i64(jv_get(o, "")), 10);
	jv_free(o);
	fp_err e = FP_ERR_INIT;
	const char *dup = "{\"a\":1,\"ab\":2,\"a\":3}";
	jv *d = json_parse(dup, strlen(dup), "t", &e);
	CHECK(d != NULL);
	CHECK_INT(jv_i64(jv_get(d, "a")), 3);
	CHECK_INT(jv_i64(jv_get(d, "ab")), 2);
	jv_free(d);
	fp_err_clear(&e);
}

TEST(jv_field_tables_and_tristate)
{
	jv *o = jv_object();
	const jv_int_field f[] = {{"a", 1}, {"b", -2}, {"a", 3}};
	jv_set_ints(o, f, 3);
	CHECK_INT(jv_len(o), 2);
	CHECK_STR(jv_key_at(o, 0), "a");
	CHECK_INT(jv_i64(jv_get(o, "a")), 3);
	CHECK_INT(jv_i64(jv_get(o, "b")), -2);
	const jv_str_field sf[] = {{"s", "x"}, {"n", NULL}};
	jv_set_strs(o, sf, 2);
	CHECK_STR(jv_string(jv_get(o, "s")), "x");
	CHECK_INT(jv_type_of(jv_get(o, "n")), JV_NULL);
	jv_set(o, "t", jv_bool_or_null(1));
	jv_set(o, "f", jv_bool_or_null(0));
	jv_set(o, "u", jv_bool_or_null(-1));
	CHECK(jv_is_true(jv_get(o, "t")));
	CHECK_INT(jv_type_of(jv_get(o, "f")), JV_BOOL);
	CHECK(!jv_is_true(jv_get(o, "f")));
	CHECK(jv_get(o, "u") != NULL);
	CHECK_INT(jv_type_of(jv_get(o, "u")), JV_NULL);
	jv_free(o);
}

TEST(jv_accessors_read_every_type_and_null)
{
	CHECK_INT(jv_type_of(NULL), JV_NULL);
	jv *o = jv_object();
	jv_set_bool(o, "t", 1);
	jv_set_bool(o, "f", 0);
	jv_set(o, "u", jv_uint(UINT64_MAX));
	jv_set_int(o, "neg", -1);
	jv_set_str(o, "s", "abc");
	CHECK_INT(jv_type_of(o), JV_OBJECT);
	CHECK(jv_is_true(jv_get(o, "t")));
	CHECK(!jv_is_true(jv_get(o, "f")) && jv_type_of(jv_get(o, "f")) == JV_BOOL);
	CHECK(!jv_is_true(jv_get(o, "neg")) && !jv_is_true(NULL));
	CHECK(jv_u64(jv_get(o, "u")) == UINT64_MAX);
	CHECK(jv_u64(jv_get(o, "neg")) == 0);
	CHECK_INT(jv_len(jv_get(o, "s")), 3);
	CHECK_STR(jv_key_at(o, 4), "s");
	CHECK(jv_key_at(o, 5) == NULL && jv_value_at(o, 5) == NULL);
	CHECK(jv_replace_at(o, 4, jv_str("xy")) == jv_get(o, "s"));
	CHECK_STR(jv_string(jv_get(o, "s")), "xy");
	CHECK(jv_replace_at(o, 5, jv_null()) == NULL);
	jv *a = jv_array();
	jv_push(a, jv_int(1));
	jv_replace_at(a, 0, jv_int(2));
	CHECK_INT(jv_i64(jv_at(a, 0)), 2);
	jv *m = jv_object();
	jv_set_int(m, "s", 7);
	jv_set(m, "a", a);
	jv_merge(o, m);
	CHECK_INT(jv_len(o), 6);
	CHECK_INT(jv_i64(jv_get(o, "s")), 7);
	CHECK_INT(jv_i64(jv_at(jv_get(o, "a"), 0)), 2);
	jv_free(o);
}

TEST(sha256_known_vectors)
{
	char hex[65];
	sha256_hex("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(m, strlen(m), hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* The fast path (SHA extensions, where the processor has them) against libmd over every length
 * around the block and padding edges (55/56/63/64 bytes of tail) and a few large inputs, at
 * unaligned starts; plus the million-'a' vector, which crosses many blocks. */
TEST(sha256_fast_path_matches_libmd)
{
	size_t cap = 70000;
	unsigned char *buf = malloc(cap + 8);
	uint32_t x = 2463534242u;
	for (size_t i = 0; i < cap + 8; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		buf[i] = (unsigned char)x;
	}
	char a[65], b[65];
	int bad = 0;
	for (size_t n = 0; n <= 300 && !bad; n++)
		for (size_t off = 0; off < 4 && !bad; off++) {
			sha256_hex(buf + off, n, a);
			sha256_hex_generic(buf + off, n, b);
			if (strcmp(a, b) != 0) {
				CHECK_STR(a, b);
				bad = 1;
			}
		}
	static const size_t big[] = {1023, 4096, 65535, 65536, 65537, 70000};
	for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
		sha256_hex(buf + 1, big[i], a);
		sha256_hex_generic(buf + 1, big[i], b);
		CHECK_STR(a, b);
	}
	free(buf);
	char *m = malloc(1000000);
	memset(m, 'a', 1000000);
	sha256_hex(m, 1000000, a);
	CHECK_STR(a, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	sha256_hex_generic(m, 1000000, b);
	CHECK_STR(b, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}

TEST(suggest_nearest_finds_typos_only)
{
	CHECK_INT(suggest_distance("", ""), 0);
	CHECK_INT(suggest_distance("abc", ""), 3);
	CHECK_INT(suggest_distance("reprot", "report"), 1); /* one swap */
	CHECK_INT(suggest_distance("kitten", "sitting"), 3);
	const char *cmds[] = {"list", "doctor", "tile", "report", "bubbles", "bundle"};
	CHECK_STR(suggest_nearest("reprot", cmds, 6), "report");
	CHECK_STR(suggest_nearest("bubble", cmds, 6), "bubbles");
	CHECK_STR(suggest_nearest("doc", cmds, 6), "doctor"); /* a prefix */
	CHECK(suggest_nearest("frobnicate", cmds, 6) == NULL);
	CHECK(suggest_nearest("x", cmds, 6) == NULL);
}

TEST(error_registry_is_consistent)
{
	CHECK_INT(err_exit_status(ERR_USAGE), 64);
	CHECK_INT(err_exit_status(ERR_BAD_ARGS), 78);
	CHECK_INT(err_exit_status(ERR_BAD_INPUT), 65);
	CHECK_INT(err_exit_status(ERR_EMPTY_ATT), 66);
	CHECK_INT(err_exit_status(ERR_ROCPROFV3_MISSING), 69);
	CHECK_INT(err_exit_status(ERR_CAPTURE_TIMEOUT), 75);
	CHECK_INT(err_exit_status(ERR_REGRESSION), 1);
	CHECK_INT(err_exit_status(ERR_INTERRUPTED), 130);
	CHECK_INT(err_lookup("KERNEL_NOT_FOUND"), ERR_KERNEL_NOT_FOUND);
	CHECK_INT(err_lookup("NOPE"), -1);
	static const int allowed[] = {1, 64, 65, 66, 69, 70, 75, 78, 130};
	for (int i = 0; i < ERR__COUNT; i++) {
		int ok = 0;
		for (size_t k = 0; k < sizeof allowed / sizeof allowed[0]; k++)
			ok |= err_exit_status((err_code)i) == allowed[k];
		if (!ok)
			t_fail(__FILE__, __LINE__,
			       "%s has exit %d outside docs/architecture.md#exit-status",
			       err_name((err_code)i), err_exit_status((err_code)i));
		CHECK(strlen(err_default_help((err_code)i)) > 10);
	}
}

static const opt_spec test_specs[] = {
    {"top", 0, OPT_INT, "N", "10", NULL, 1, "n"},
    {"format", 'f', OPT_STR, "F", NULL, "json|table", 0, "f"},
    {"all", 0, OPT_FLAG, NULL, NULL, NULL, 0, "a"},
    {"ratio", 0, OPT_NUM, "X", NULL, NULL, 0, "r"},
    OPT_END,
};

static int parse(opts *o, fp_err *e, int argc, char **argv)
{
	const opt_spec *specs[] = {test_specs, NULL};
	return opts_parse(o, specs, argc, argv, e);
}

TEST(opts_precedence_flag_env_default)
{
	opts o;
	fp_err e = FP_ERR_INIT;
	unsetenv("FLYPROF_TOP");
	char *a0[] = {"k"};
	CHECK_INT(parse(&o, &e, 1, a0), 0);
	CHECK_INT(opts_int(&o, "top", 0), 10);
	CHECK(!opts_given(&o, "top"));
	CHECK_STR(o.args[0], "k");
	opts_release(&o);
	setenv("FLYPROF_TOP", "7", 1);
	CHECK_INT(parse(&o, &e, 0, a0), 0);
	CHECK_INT(opts_int(&o, "top", 0), 7);
	opts_release(&o);
	char *a1[] = {"--top", "3", "-f", "table", "--all", "x", "--ratio=0.5"};
	CHECK_INT(parse(&o, &e, 7, a1), 0);
	CHECK_INT(opts_int(&o, "top", 0), 3);
	CHECK_STR(opts_str(&o, "format"), "table");
	CHECK(opts_flag(&o, "all"));
	CHECK_NEAR(opts_num(&o, "ratio", 0), 0.5, 1e-12);
	CHECK_INT(o.nargs, 1);
	opts_release(&o);
	unsetenv("FLYPROF_TOP");
}

TEST(opts_errors_are_typed)
{
	static const struct {
		int argc;
		char *argv[3];
		int code;
	} cases[] = {
	    {1, {"--nope"}, ERR_USAGE},	       {1, {"--top"}, ERR_USAGE},
	    {2, {"--top", "x"}, ERR_BAD_ARGS}, {2, {"-f", "xml"}, ERR_BAD_ARGS},
	    {1, {"--all=1"}, ERR_USAGE},       {2, {"--ratio", "inf"}, ERR_BAD_ARGS},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		opts o;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(parse(&o, &e, cases[i].argc, (char **)cases[i].argv), -1);
		CHECK_INT(e.code, cases[i].code);
		opts_release(&o);
		fp_err_clear(&e);
	}
	setenv("FLYPROF_TOP", "lots", 1);
	opts o;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(parse(&o, &e, 0, NULL), -1);
	CHECK_INT(e.code, ERR_BAD_ARGS);
	opts_release(&o);
	fp_err_clear(&e);
	unsetenv("FLYPROF_TOP");
}

TEST(atomic_write_replaces_and_reads_back)
{
	const char *dir = t_tmpdir();
	char *p = path_join(dir, "a.json");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_write_atomic(p, "one", 3, &e), 0);
	CHECK_INT(file_write_atomic(p, "two!", 4, &e), 0);
	size_t n;
	char *got = file_read_all(p, &n, &e);
	CHECK_STR(got, "two!");
	CHECK_INT(n, 4);
	free(got);
	char *bad = path_join(dir, "no/such/dir/x");
	CHECK_INT(file_write_atomic(bad, "x", 1, &e), -1);
	CHECK_INT(e.code, ERR_IO_ERROR);
	fp_err_clear(&e);
	CHECK(file_read_all(bad, &n, &e) == NULL);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	fp_err_clear(&e);
	free(bad);
	free(p);
}

/* The number of entries in dir (a temporary left behind would be one more). */
static int t_entries(const char *dir)
{
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	file_list_free(names, n);
	fp_err_clear(&e);
	return (int)n;
}

/* The streaming form: pieces appended land whole at commit; until then, and after an abort or a
 * failed write, the file at the path is the one before and no temporary is left. */
TEST(atomic_writer_in_pieces_commits_or_leaves_the_file_as_it_was)
{
	char *dir = path_join(t_tmpdir(), "pieces");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	char *p = path_join(dir, "t.json");
	CHECK_INT(file_write_atomic(p, "old", 3, &e), 0);
	size_t n;
	file_atomic f;
	CHECK_INT(file_atomic_begin(&f, p, &e), 0);
	CHECK_INT(file_atomic_write(&f, "ne", 2), 0);
	CHECK_INT(t_entries(dir), 2); /* the file and the temporary */
	char *got = file_read_all(p, &n, &e);
	CHECK_STR(got, "old");
	free(got);
	CHECK_INT(file_atomic_write(&f, "w", 1), 0);
	CHECK_INT(file_atomic_commit(&f, &e), 0);
	got = file_read_all(p, &n, &e);
	CHECK_STR(got, "new");
	free(got);
	CHECK_INT(t_entries(dir), 1);

	CHECK_INT(file_atomic_begin(&f, p, &e), 0); /* abort */
	CHECK_INT(file_atomic_write(&f, "lost", 4), 0);
	file_atomic_abort(&f);
	CHECK_INT(t_entries(dir), 1);

	CHECK_INT(file_atomic_begin(&f, p, &e), 0); /* a write that fails: the commit says so */
	close(f.fd);
	f.fd = open("/dev/null", O_RDONLY); /* the temporary's descriptor, now unwritable */
	CHECK_INT(file_atomic_write(&f, "x", 1), -1);
	CHECK(f.err != 0);
	CHECK_INT(file_atomic_write(&f, "y", 1), -1); /* the first failure stands */
	CHECK_INT(file_atomic_commit(&f, &e), -1);
	CHECK_INT(e.code, ERR_IO_ERROR);
	fp_err_clear(&e);
	got = file_read_all(p, &n, &e);
	CHECK_STR(got, "new");
	free(got);
	CHECK_INT(t_entries(dir), 1);
	free(p);
	free(dir);
}

static int t_ends_csv(const char *name, void *ctx)
{
	size_t n = strlen(name);
	++*(int *)ctx; /* names looked at */
	return n > 4 && strcmp(name + n - 4, ".csv") == 0;
}

static int t_none(const char *name, void *ctx)
{
	(void)name, (void)ctx;
	return 0;
}

/* file_dir_any: a yes/no over a directory's names, stopping at the first match; never . or ..;
 * an unreadable directory is a no. */
TEST(file_dir_any_answers_over_names)
{
	const char *dir = t_tmpdir();
	char *sub = path_join(dir, "any");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(sub, &e), 0);
	int seen = 0;
	CHECK_INT(file_dir_any(sub, t_ends_csv, &seen), 0); /* empty: . and .. not offered */
	CHECK_INT(seen, 0);
	for (int i = 0; i < 20; i++) {
		char name[32];
		snprintf(name, sizeof name, "w%02d.json", i);
		char *p = path_join(sub, name);
		CHECK_INT(file_write_atomic(p, "{}", 2, &e), 0);
		free(p);
	}
	seen = 0;
	CHECK_INT(file_dir_any(sub, t_ends_csv, &seen), 0);
	CHECK_INT(seen, 20);
	char *csv = path_join(sub, "x_src_sass.csv");
	CHECK_INT(file_write_atomic(csv, "", 0, &e), 0);
	seen = 0;
	CHECK_INT(file_dir_any(sub, t_ends_csv, &seen), 1);
	CHECK(seen >= 1 && seen <= 21);
	/* file_dir_count: every name looked at once, never . or .. */
	seen = 0;
	CHECK_INT(file_dir_count(sub, t_ends_csv, &seen), 1);
	CHECK_INT(seen, 21);
	CHECK_INT(file_dir_count(sub, t_none, NULL), 0);
	char *none = path_join(dir, "no-such-dir");
	CHECK_INT(file_dir_any(none, t_ends_csv, &seen), 0);
	CHECK_INT(file_dir_count(none, t_ends_csv, &seen), 0);
	free(none);
	free(csv);
	free(sub);
}

/* file_list_matching: only the names match says yes to, sorted as file_list_dir sorts them
 * (the same list filtered), every name offered once; a missing directory is NO_ARTIFACT. */
TEST(file_list_matching_is_the_listing_filtered)
{
	const char *dir = t_tmpdir();
	char *sub = path_join(dir, "matching");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(sub, &e), 0);
	static const char *const files[] = {"z_kernel_trace.csv",
					    "w1.json",
					    "a_agent_info.csv",
					    "w0.json",
					    "m.csv",
					    "csv",
					    "b.csvx"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *p = path_join(sub, files[i]);
		CHECK_INT(file_write_atomic(p, "x", 1, &e), 0);
		free(p);
	}
	size_t n = 0, all = 0;
	int seen = 0;
	char **names = file_list_matching(sub, t_ends_csv, &seen, &n, &e);
	CHECK_INT(seen, 7);
	CHECK_INT(n, 3);
	if (names && n == 3) {
		CHECK_STR(names[0], "a_agent_info.csv");
		CHECK_STR(names[1], "m.csv");
		CHECK_STR(names[2], "z_kernel_trace.csv");
	}
	char **every = file_list_dir(sub, &all, &e);
	CHECK_INT(all, 7);
	size_t k = 0; /* the filtered listing is the full one, in order, without the others */
	for (size_t i = 0; names && every && i < all; i++)
		if (k < n && strcmp(every[i], names[k]) == 0)
			k++;
	CHECK_INT(k, n);
	file_list_free(every, all);
	file_list_free(names, n);
	seen = 0;
	names = file_list_matching(sub, t_none, NULL, &n, &e);
	CHECK(names != NULL); /* nothing matched is an empty list, not a failure */
	CHECK_INT(n, 0);
	file_list_free(names, n);
	char *none = path_join(dir, "no-such-dir");
	CHECK(file_list_matching(none, t_ends_csv, &seen, &n, &e) == NULL);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	fp_err_clear(&e);
	free(none);
	free(sub);
}

/* The wave-file read: openat on the dispatch directory, one read(2) of the stat size, and the
 * checks and messages of input_open, naming the whole path. */
TEST(input_read_into_at_reads_by_directory_and_keeps_its_checks)
{
	const char *dir = t_tmpdir();
	char *p = path_join(dir, "w.json");
	char *fifo = path_join(dir, "f.json");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_write_atomic(p, "0123456789", 10, &e), 0);
	CHECK_INT(mkfifo(fifo, 0600), 0);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0);
	char *buf = xmalloc(4); /* smaller than the file: grown to it */
	size_t cap = 4, len = 0;
	CHECK_INT(input_read_into_at(dfd, "w.json", p, INPUT_ATT, &buf, &cap, &len, &e), 0);
	CHECK_INT(len, 10);
	CHECK_STR(buf, "0123456789");
	CHECK_INT(
	    input_read_into_at(dfd, "none.json", "D/none.json", INPUT_ATT, &buf, &cap, &len, &e),
	    -1);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	CHECK(strstr(e.message, "D/none.json") != NULL);
	fp_err_clear(&e);
	CHECK_INT(input_read_into_at(dfd, "f.json", fifo, INPUT_ATT, &buf, &cap, &len, &e), -1);
	CHECK_INT(e.code, ERR_NOT_REGULAR_FILE);
	fp_err_clear(&e);
	setenv("FLYPROF_LIMIT_ATT", "10",
	       1); /* exactly at the limit: read; one byte less: refused */
	input_limit_reload();
	CHECK_INT(input_read_into_at(dfd, "w.json", p, INPUT_ATT, &buf, &cap, &len, &e), 0);
	setenv("FLYPROF_LIMIT_ATT", "9", 1);
	/* read once per process: the change shows only after a reload */
	CHECK_INT(input_read_into_at(dfd, "w.json", p, INPUT_ATT, &buf, &cap, &len, &e), 0);
	input_limit_reload();
	CHECK_INT(input_read_into_at(dfd, "w.json", p, INPUT_ATT, &buf, &cap, &len, &e), -1);
	CHECK_INT(e.code, ERR_INPUT_TOO_LARGE);
	fp_err_clear(&e);
	setenv("FLYPROF_LIMIT_ATT", "9x", 1); /* a bad value is not kept: every read names it */
	input_limit_reload();
	for (int i = 0; i < 2; i++) {
		CHECK_INT(input_read_into_at(dfd, "w.json", p, INPUT_ATT, &buf, &cap, &len, &e),
			  -1);
		CHECK_INT(e.code, ERR_BAD_ARGS);
		fp_err_clear(&e);
	}
	unsetenv("FLYPROF_LIMIT_ATT");
	input_limit_reload();
	close(dfd);
	free(buf);
	free(fifo);
	free(p);
}

/* sb_addf formats into the room it has and grows only when the text does not fit: appends that
 * fit, that just fit, that overflow by one byte and by far, and empty ones, checked against
 * one snprintf of the whole. */
TEST(strbuf_addf_fits_and_grows)
{
	strbuf sb = STRBUF_INIT;
	size_t cap = 1 << 21, wl = 0;
	char *want = malloc(cap);
	for (int i = 0; i < 400; i++) {
		size_t room = sb.cap - sb.len; /* with the NUL's byte; 0 before the first */
		int pad = i % 13;
		int digits = snprintf(NULL, 0, "%d;", i);
		if (i % 7 == 0 && room > (size_t)digits + 2 &&
		    room < 4000)			    /* n = room: one over, */
			pad = (int)room - digits - (i % 3); /* room - 1: just fits, room - 2 */
		sb_addf(&sb, "%*s%d;", pad, "", i);
		sb_addf(&sb, "%s", "");
		wl += (size_t)snprintf(want + wl, cap - wl, "%*s%d;", pad, "", i);
		CHECK_INT(sb.len, wl);
		CHECK_INT(strlen(sb.buf), sb.len);
	}
	CHECK_INT(memcmp(sb.buf, want, wl), 0);
	free(want);
	sb_reset(&sb);
	sb_addf(&sb, "%s", "");
	CHECK_STR(sb_str(&sb), "");
	sb_release(&sb);
}

TEST(strbuf_shell_quoted_survives_quotes)
{
	strbuf sb = STRBUF_INIT;
	sb_add_shell_quoted(&sb, "/tmp/it's here");
	CHECK_STR(sb_str(&sb), "'/tmp/it'\\''s here'");
	sb_reset(&sb);
	sb_add_shell_quoted(&sb, "");
	CHECK_STR(sb_str(&sb), "''");
	sb_release(&sb);
}

/* xmalloc_huge: below 1 MB plain memory of the size asked; from 1 MB whole aligned 2 MB blocks,
 * every byte usable, and the block works with realloc and free as any other. */
TEST(xmalloc_huge_rounds_to_aligned_blocks)
{
	size_t cap = 0;
	char *p = xmalloc_huge(1000, &cap);
	CHECK_INT(cap, 1000);
	memset(p, 1, cap);
	free(p);
	size_t sizes[] = {(size_t)1 << 20, ((size_t)2 << 20) + 1, (size_t)4 << 20};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		p = xmalloc_huge(sizes[i], &cap);
		CHECK(cap >= sizes[i]);
		CHECK(cap == sizes[i] ||
		      (cap % ((size_t)2 << 20) == 0 && (uintptr_t)p % ((size_t)2 << 20) == 0));
		memset(p, 7, cap);
		p = xrealloc(p, 100); /* a reservation handed back */
		CHECK_INT(p[99], 7);
		free(p);
	}
}

/* xgrow_huge keeps what the array held whether it grows below 256 KB, across it or past one
 * huge page, and its memory past 256 KB is 2 MB-aligned (what the huge-page advice needs). */
TEST(xgrow_huge_keeps_contents_across_the_switch)
{
	uint32_t *a = NULL;
	size_t cap = 0, n = 0, bad = 0;
	for (uint32_t i = 0; i < 1200000; i++) { /* 4.8 MB: three switches of memory */
		a = xgrow_huge(a, &cap, n + 1, sizeof *a);
		a[n++] = i * 2654435761u;
		CHECK(cap >= n);
		if ((i & (i + 1)) == 0) /* at each power of two, look at everything kept */
			for (size_t k = 0; k < n; k++)
				bad += a[k] != (uint32_t)k * 2654435761u;
	}
	CHECK_INT(bad, 0);
	CHECK_INT((uintptr_t)a % ((size_t)2 << 20), 0);
	CHECK(cap * sizeof *a % ((size_t)2 << 20) == 0);
	free(a);
}

/* jv_hex writes what "0x%llx" writes. */
TEST(jv_hex_is_printf_hex)
{
	uint64_t vals[64] = {0,
			     1,
			     9,
			     10,
			     15,
			     16,
			     255,
			     256,
			     0xabcdef,
			     UINT64_MAX,
			     UINT64_MAX - 1,
			     (uint64_t)1 << 63,
			     0x1000000000000000ull};
	uint64_t x = 88172645463325252ull;
	for (size_t i = 13; i < 64; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		vals[i] = x >> (i % 60);
	}
	for (size_t i = 0; i < 64; i++) {
		char want[32];
		snprintf(want, sizeof want, "0x%llx", (unsigned long long)vals[i]);
		jv *h = jv_hex(vals[i]);
		CHECK_STR(jv_string(h), want);
		jv_free(h);
	}
}
