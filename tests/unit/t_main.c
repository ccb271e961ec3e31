#include "t.h"

#include "base/fileio.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_TESTS 2048

static struct {
	const char *name;
	t_fn fn;
} tests[MAX_TESTS];
static int ntests, cur_failed, cur_skipped;
static const char *cur_name;
static char tmp_root[256];

void t_register(const char *name, t_fn fn)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].fn = fn;
		ntests++;
	}
}

void t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: %s:%d: ", cur_name, file, line);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	cur_failed++;
}

void t_skip(const char *why)
{
	printf("SKIP %s: %s\n", cur_name, why);
	cur_skipped = 1;
}

const char *t_corpus(void)
{
	const char *c = getenv("FLYPROF_CORPUS");
	return c && *c ? c : NULL;
}

const char *t_tmpdir(void)
{
	static char dir[320];
	static int seq;
	if (!tmp_root[0]) {
		snprintf(tmp_root, sizeof tmp_root, "%s/flyprof-unit-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmp_root)) {
			perror("mkdtemp");
			exit(70);
		}
	}
	snprintf(dir, sizeof dir, "%s/t%d", tmp_root, ++seq);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		exit(70);
	return dir;
}

void t_put(const char *dir, const char *name, const char *text)
{
	fp_err e = FP_ERR_INIT;
	char *p = path_join(dir, name);
	if (file_mkdirs(dir, &e) || file_write_atomic(p, text, strlen(text), &e))
		t_fail(__FILE__, __LINE__, "cannot write %s: %s", p, e.message ? e.message : "");
	fp_err_clear(&e);
	free(p);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;
	const char *filter = argc > 1 ? argv[1] : NULL;
	qsort(tests, (size_t)ntests, sizeof tests[0], cmp);
	for (int i = 0; i < ntests; i++) {
		if (filter && !strstr(tests[i].name, filter))
			continue;
		cur_name = tests[i].name;
		cur_failed = cur_skipped = 0;
		tests[i].fn();
		if (cur_failed)
			failed++;
		else if (cur_skipped)
			skipped++;
		else
			passed++;
		fflush(stdout);
	}
	if (tmp_root[0] && !getenv("FLYPROF_KEEP_TMP")) {
		char cmd[400];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmp_root);
	}
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
