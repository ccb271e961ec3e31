/* Errors are values: a function that can fail returns -1 (or NULL) and fills an fp_err.
 * The error carries its registry code, a message, an optional help override and extra keys
 * (file, offset, line, expected, available, ...) that the envelope shows under "error". */
#ifndef FLYPROF_BASE_ERR_H
#define FLYPROF_BASE_ERR_H

#include "base/err_codes.h"
#include "base/json/jv.h"

#include <stdint.h>

typedef enum {
#define X(name, status, help) ERR_##name,
	FLYPROF_ERRORS(X)
#undef X
	    ERR__COUNT
} err_code;

typedef struct fp_err {
	int set; /* 0 until an error was recorded */
	err_code code;
	char *message; /* owned */
	char *help;    /* owned; NULL = registry default */
	jv *extra;     /* owned object of extra keys, or NULL */
} fp_err;

#define FP_ERR_INIT                                                                                \
	{                                                                                          \
		0, ERR_INTERNAL, NULL, NULL, NULL                                                  \
	}

const char *err_name(err_code c);
int err_exit_status(err_code c);
const char *err_default_help(err_code c);
/* Looks a code up by name; returns -1 if unknown. */
int err_lookup(const char *name);

/* Records an error (the first one wins if called twice) and returns -1. */
int fp_fail(fp_err *e, err_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* BAD_INPUT at a byte offset of a file, with line and column when the caller knows them (<= 0 =
 * unknown). */
int fp_fail_input_lc(fp_err *e, const char *file, int64_t offset, int64_t line, int64_t col,
		     const char *expected, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* BAD_INPUT at a byte offset, line and column unknown. */
#define fp_fail_input(e, file, offset, ...) fp_fail_input_lc(e, file, offset, 0, 0, __VA_ARGS__)
void fp_err_set_help(fp_err *e, const char *help);
/* Adds an extra key (takes ownership of v). */
void fp_err_extra(fp_err *e, const char *key, jv *v);
void fp_err_clear(fp_err *e);
/* Moves src into dst (dst cleared first); src is left empty. */
void fp_err_move(fp_err *dst, fp_err *src);

#endif
