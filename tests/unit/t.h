/* A minimal unit-test harness: TEST(name) { ... } registers a test at load time; CHECK* record
 * failures with file:line and continue; main (t_main.c) runs everything, prints one line per
 * failure and closes with "N passed, N failed" (plus ", N skipped"). A test calls SKIP(why)
 * when a resource it needs (the corpus, clang) is absent. */
#ifndef FLYPROF_TESTS_UNIT_T_H
#define FLYPROF_TESTS_UNIT_T_H

#include "base/json/jv.h"

#include <stdio.h>
#include <string.h>

typedef void (*t_fn)(void);
void t_register(const char *name, t_fn fn);
void t_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void t_skip(const char *why);
/* Directory of the corpus (FLYPROF_CORPUS) or NULL. */
const char *t_corpus(void);
/* A fresh temporary directory for this test (removed at exit); static storage. */
const char *t_tmpdir(void);
/* Writes text as the file dir/name (dir created when missing); a failure fails the test. */
void t_put(const char *dir, const char *name, const char *text);

/* 1 for a JSON true, 0 for false, -1 for anything else (absent, null): a checked flag that is
 * missing fails its CHECK instead of crashing the run. */
static inline int t_truth(const jv *v)
{
	return jv_type_of(v) == JV_BOOL ? jv_is_true(v) : -1;
}

/* 1 for a JSON null that is there (an absent key is not null here). */
static inline int t_is_null(const jv *v)
{
	return v && jv_type_of(v) == JV_NULL;
}

#define TEST(name)                                                                                 \
	static void test_##name(void);                                                             \
	__attribute__((constructor)) static void reg_##name(void)                                  \
	{                                                                                          \
		t_register(#name, test_##name);                                                    \
	}                                                                                          \
	static void test_##name(void)

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			t_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                            \
	} while (0)
#define CHECK_INT(a, b)                                                                            \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (a_ != b_)                                                                      \
			t_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a_, #b,  \
			       b_);                                                                \
	} while (0)
#define CHECK_NEAR(a, b, eps)                                                                      \
	do {                                                                                       \
		double a_ = (double)(a), b_ = (double)(b);                                         \
		if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps)))                                       \
			t_fail(__FILE__, __LINE__, "%s == %.9g, expected %.9g", #a, a_, b_);       \
	} while (0)
#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *a_ = (a), *b_ = (b);                                                   \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                                             \
			t_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a,            \
			       a_ ? a_ : "(null)", b_ ? b_ : "(null)");                            \
	} while (0)
#define SKIP(why)                                                                                  \
	do {                                                                                       \
		t_skip(why);                                                                       \
		return;                                                                            \
	} while (0)

#endif
