/* jcheck: test helper for end-to-end tests.
 *   jcheck envelope FILE STATUS      FILE holds exactly one JSON object whose exit status
 *                                    (0 if ok, else error.exitCode) equals STATUS
 *   jcheck equal EXPECTED ACTUAL     the two JSON documents are equal (key order ignored)
 *   jcheck get FILE PATH             prints the value at a dotted path (a.b.0.c)
 *   jcheck keys FILE PATH            prints every key path under PATH, one per line, array
 *                                    items as "[]" (a.b[].c); the shape of a document
 *   jcheck norm FILE -               prints FILE pretty, with run-dependent values (keys
 *                                    seconds, at, created, elapsed_s) replaced by 0
 * Exit 0 when the check holds, 1 when not (with the reason on stderr), 2 on bad usage. */
#include "base/json/jv.h"
#include "base/strbuf.h"
#include "base/json/json_write.h"
#include "base/json/json_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jv *load(const char *path)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse_file(path, &e);
	if (!v) {
		fprintf(stderr, "jcheck: %s\n", e.message);
		fp_err_clear(&e);
	}
	return v;
}

static const jv *walk(const jv *v, const char *path)
{
	char *copy = strdup(path);
	char *save = NULL;
	for (char *tok = strtok_r(copy, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save)) {
		if (jv_type_of(v) == JV_ARRAY)
			v = jv_at(v, (size_t)strtoul(tok, NULL, 10));
		else
			v = jv_get(v, tok);
	}
	free(copy);
	return v;
}

static void zero_volatile(jv *v)
{
	static const char *keys[] = {"seconds", "at", "created", "elapsed_s", NULL};
	if (jv_type_of(v) == JV_ARRAY)
		for (size_t i = 0; i < jv_len(v); i++)
			zero_volatile(jv_at(v, i));
	if (jv_type_of(v) != JV_OBJECT)
		return;
	for (size_t i = 0; i < jv_len(v); i++) {
		int vol = 0;
		for (int k = 0; keys[k]; k++)
			vol |= strcmp(jv_key_at(v, i), keys[k]) == 0;
		if (vol) {
			jv_replace_at(v, i, jv_int(0));
		} else {
			zero_volatile(jv_value_at(v, i));
		}
	}
}

/* Key paths of x under prefix; duplicates are left for `sort -u`. */
static void print_keys(const jv *x, const char *prefix)
{
	if (jv_type_of(x) == JV_ARRAY) {
		char *p = malloc(strlen(prefix) + 3);
		sprintf(p, "%s[]", prefix);
		for (size_t i = 0; i < jv_len(x); i++)
			print_keys(jv_at(x, i), p);
		free(p);
		return;
	}
	if (jv_type_of(x) != JV_OBJECT)
		return;
	for (size_t i = 0; i < jv_len(x); i++) {
		const char *k = jv_key_at(x, i);
		char *p = malloc(strlen(prefix) + strlen(k) + 2);
		sprintf(p, "%s%s%s", prefix, *prefix ? "." : "", k);
		printf("%s\n", p);
		print_keys(jv_value_at(x, i), p);
		free(p);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	if (strcmp(argv[1], "envelope") == 0) {
		jv *v = load(argv[2]);
		if (jv_type_of(v) != JV_OBJECT) {
			fprintf(stderr, "jcheck: stdout is not one JSON object\n");
			return 1;
		}
		const jv *ok = jv_get(v, "ok");
		long long want =
		    jv_is_true(ok) ? 0 : jv_i64(jv_get(jv_get(v, "error"), "exitCode"));
		if (!ok || !jv_get(v, "command") || !jv_get(v, "warnings") ||
		    (jv_is_true(ok) ? !jv_get(v, "data") : !jv_get(v, "error"))) {
			fprintf(stderr, "jcheck: envelope lacks ok/command/data|error/warnings\n");
			return 1;
		}
		if (want != atoll(argv[3])) {
			fprintf(stderr, "jcheck: exit status %s but envelope says %lld\n", argv[3],
				want);
			return 1;
		}
		jv_free(v);
		return 0;
	}
	if (strcmp(argv[1], "equal") == 0) {
		jv *a = load(argv[2]), *b = load(argv[3]);
		int eq = a && b && jv_equal(a, b);
		jv_free(a);
		jv_free(b);
		return eq ? 0 : 1;
	}
	if (strcmp(argv[1], "norm") == 0) {
		jv *v = load(argv[2]);
		if (!v)
			return 1;
		zero_volatile(v);
		strbuf sb = STRBUF_INIT;
		json_write(&sb, v, 2);
		printf("%s\n", sb_str(&sb));
		sb_release(&sb);
		jv_free(v);
		return 0;
	}
	if (strcmp(argv[1], "keys") == 0 && argc > 3) {
		jv *v = load(argv[2]);
		const jv *x = v ? walk(v, argv[3]) : NULL;
		if (!x) {
			jv_free(v);
			return 1;
		}
		print_keys(x, "");
		jv_free(v);
		return 0;
	}
	if (strcmp(argv[1], "get") == 0) {
		jv *v = load(argv[2]);
		const jv *x = v ? walk(v, argv[3]) : NULL;
		if (!x) {
			jv_free(v);
			return 1;
		}
		strbuf sb = STRBUF_INIT;
		if (jv_type_of(x) == JV_STRING)
			sb_adds(&sb, jv_string(x));
		else
			json_write(&sb, x, 0);
		printf("%s\n", sb_str(&sb));
		sb_release(&sb);
		jv_free(v);
		return 0;
	}
	return 2;
}
