/* bundle_verify: test helper for end-to-end tests of `flyprof bundle`.
 *   bundle_verify DIR    every artifact listed in DIR/manifest.json exists with the recorded
 *                        sha256 and byte count, every regular file under DIR (except
 *                        manifest.json and .flyprof.lock) is listed, and nothing under DIR
 *                        is a symbolic link or a leftover temporary (.*.tmp-*).
 * Prints "bundle_verify: N files ok" and exits 0, or one line per problem on stderr and
 * exits 1; 2 on bad usage. The checksums are computed here with src/base/sha256, independently
 * of the code that recorded them. */
#include "base/fileio.h"
#include "base/sha256.h"
#include "base/xalloc.h"
#include "base/json/json_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int problems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "bundle_verify: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	problems++;
}

static void check_artifact(const char *dir, const char *rel, const jv *a)
{
	char *p = path_join(dir, rel);
	size_t len = 0;
	fp_err e = FP_ERR_INIT;
	char *buf = file_read_all(p, &len, &e);
	if (!buf) {
		problem("%s: listed but unreadable (%s)", rel, e.message);
	} else {
		char hex[65];
		sha256_hex(buf, len, hex);
		const char *want = jv_string(jv_get(a, "sha256"));
		if (!want || strcmp(want, hex) != 0)
			problem("%s: sha256 differs from the manifest (%s)", rel, hex);
		if (jv_i64(jv_get(a, "bytes")) != (int64_t)len)
			problem("%s: byte count differs from the manifest", rel);
	}
	fp_err_clear(&e);
	free(buf);
	free(p);
}

/* Walks DIR; rel is the path below the bundle root ("" at the root). Returns files seen. */
static long walk(const char *root, const char *rel, const jv *arts)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	long files = 0;
	for (size_t i = 0; i < n; i++) {
		char *p = path_join(dir, names[i]);
		char *r = *rel ? path_join(rel, names[i]) : xstrdup(names[i]);
		struct stat st;
		if (lstat(p, &st) != 0 || S_ISLNK(st.st_mode))
			problem("%s: symbolic link or unreadable", r);
		else if (names[i][0] == '.' && strstr(names[i], ".tmp-"))
			problem("%s: leftover temporary tree", r);
		else if (S_ISDIR(st.st_mode))
			files += walk(root, r, arts);
		else if (!*rel && (strcmp(names[i], "manifest.json") == 0 ||
				   strcmp(names[i], ".flyprof.lock") == 0))
			;
		else if (!jv_get(arts, r))
			problem("%s: not listed in manifest.json artifacts", r);
		else
			files++;
		free(p);
		free(r);
	}
	file_list_free(names, n);
	fp_err_clear(&e);
	free(dir);
	return files;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	char *mpath = path_join(argv[1], "manifest.json");
	fp_err e = FP_ERR_INIT;
	jv *m = json_parse_file(mpath, &e);
	free(mpath);
	if (!m) {
		fprintf(stderr, "bundle_verify: %s\n", e.message);
		fp_err_clear(&e);
		return 1;
	}
	const jv *arts = jv_get(m, "artifacts");
	for (size_t i = 0; jv_type_of(arts) == JV_OBJECT && i < jv_len(arts); i++)
		check_artifact(argv[1], jv_key_at(arts, i), jv_value_at(arts, i));
	long files = walk(argv[1], "", arts);
	jv_free(m);
	if (problems)
		return 1;
	printf("bundle_verify: %ld files ok\n", files);
	return 0;
}
