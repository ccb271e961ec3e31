/* Declarative command-line options. Each command declares an array of opt_spec; the parser
 * resolves every option from the command line, then from FLYPROF_<NAME> in the environment
 * (for options marked env), then from the built-in default — in that order. */
#ifndef FLYPROF_CLI_OPTS_H
#define FLYPROF_CLI_OPTS_H

#include "base/err.h"

#include <stdint.h>

typedef enum { OPT_FLAG, OPT_STR, OPT_INT, OPT_NUM } opt_kind;

typedef struct opt_spec {
	const char *name; /* long name without "--"; NULL terminates an array */
	char short_name;  /* 0 if none */
	opt_kind kind;
	const char *metavar; /* shown in help, e.g. "N", "DIR" */
	const char *def;     /* default as text; NULL = unset */
	const char *choices; /* "a|b|c" to restrict values, or NULL */
	int env;	     /* 1: FLYPROF_<NAME> may set it */
	const char *help;
} opt_spec;

#define OPT_END                                                                                    \
	{                                                                                          \
		NULL, 0, OPT_FLAG, NULL, NULL, NULL, 0, NULL                                       \
	}

enum opt_source { OPT_FROM_DEFAULT, OPT_FROM_ENV, OPT_FROM_FLAG };

typedef struct opt_value {
	const opt_spec *spec;
	char *text; /* NULL = unset */
	enum opt_source source;
} opt_value;

typedef struct opts {
	opt_value *vals;
	size_t n;
	char **args; /* positionals, owned */
	size_t nargs;
	int help; /* --help seen */
} opts;

/* Parses argv[0..argc) against the given spec arrays (a NULL-terminated list of arrays).
 * Unknown flags and missing values are USAGE; bad integers/numbers and values outside the
 * choices are BAD_ARGS. "--" ends options. Returns 0 or -1 with e filled. */
int opts_parse(opts *o, const opt_spec *const *specs, int argc, char **argv, fp_err *e);
void opts_release(opts *o);

const opt_value *opts_find(const opts *o, const char *name);
/* Value text or NULL. */
const char *opts_str(const opts *o, const char *name);
int opts_flag(const opts *o, const char *name);
/* Integer/number value, or dflt if unset (values were validated by opts_parse). */
int64_t opts_int(const opts *o, const char *name, int64_t dflt);
double opts_num(const opts *o, const char *name, double dflt);
/* 1 if the option was given on the command line or in the environment. */
int opts_given(const opts *o, const char *name);
/* Environment variable name for an option ("bundle" -> "FLYPROF_BUNDLE"); static buffer. */
const char *opts_env_name(const char *name);

#endif
