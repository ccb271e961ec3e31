/* The signal map: what the rules read (rules.h), one typed value per dotted signal name
 * ("vmem_wait.pct_of_stall" -> 50). A value is a number, a string (occupancy.limiter) or null
 * (a number that could not be computed); a name that is not in the map is absent. Either way a
 * rule reading it reports "no signal". rule_signals.h builds the map from its one table.
 *
 * Names keep the order in which they were first set (report.json "signals" lists them so);
 * setting a name again replaces its value in place. The map owns its names and strings;
 * signal_map_release frees them. Lookups are borrowed pointers, valid until the next set. */
#ifndef FLYPROF_CORE_DIAGNOSE_SIGNAL_MAP_H
#define FLYPROF_CORE_DIAGNOSE_SIGNAL_MAP_H

#include "base/json/jv.h"

#include <stddef.h>

typedef enum { SIG_NULL, SIG_NUM, SIG_STR } sig_kind;

typedef struct sig_value {
	sig_kind kind;
	double num;	 /* SIG_NUM */
	const char *str; /* SIG_STR (owned by the map once set; borrowed before) */
} sig_value;

typedef struct signal_entry {
	char *name;
	sig_value value;
} signal_entry;

typedef struct signal_map {
	signal_entry *v;
	size_t n, cap;
} signal_map;

/* Value makers. sig_round rounds to `digits` decimals as report numbers are (-0 is 0) and is
 * null when d is not finite. */
sig_value sig_num(double d);
sig_value sig_round(double d, int digits);
sig_value sig_str(const char *s);
sig_value sig_null(void);

void signal_map_init(signal_map *m);
void signal_map_release(signal_map *m);
/* Sets name to a copy of v (its string copied too). */
void signal_map_set(signal_map *m, const char *name, sig_value v);
/* The value of name, or NULL when absent. */
const sig_value *signal_map_get(const signal_map *m, const char *name);
/* 1 when name is present and a number; sig_number gives it (0 otherwise). */
int sig_is_num(const sig_value *v);
double sig_number(const sig_value *v);
/* The string of a SIG_STR value, else NULL. */
const char *sig_string(const sig_value *v);

/* A value as JSON (null for NULL), and the whole map as an object in its order (owned). */
jv *sig_value_to_jv(const sig_value *v);
jv *signal_map_to_jv(const signal_map *m);

#endif
