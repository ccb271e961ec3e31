/* The recommendation rules, as data (data/rules.json), and the knob vocabulary they name
 * (data/knobs_flydsl.json). DESIGN §3 layer 6: rules map a bubble class to a DSL knob; they are
 * loaded and validated at start, evaluated against a flat object of named signals
 * (rule_signals.h), and they also generate skills/references/bubble-knob-table.md.
 *
 * A rule: id, bubble class (a native AMD class, or the pseudo classes "occupancy" and
 * "roofline"), the signal that fires it (field, op, threshold) plus optional further
 * conditions ("also", all must hold), an optional gate (the bound verdicts under which it
 * applies), the knob id (exact FlyDSL API from the vocabulary), the concrete change, the
 * expected effect, how to verify it, a confidence and a priority (ranking factor).
 *
 * Ownership: a `rules` owns its rule array, strings and the parsed vocabulary; rules_release
 * frees all. Failure: malformed JSON, a missing key, or an unknown class / signal / knob / gate
 * name is BAD_RULES with error.file, error.pointer (JSON pointer), error.offset, line, column. */
#ifndef FLYPROF_CORE_RULES_H
#define FLYPROF_CORE_RULES_H

#include "../base/err.h"
#include "../base/jv.h"

#include <stddef.h>

#define RULES_MAX_CONDS 4

typedef enum { RULE_GT, RULE_GE, RULE_LT, RULE_LE, RULE_EQ, RULE_NE } rule_op;

typedef struct rule_cond {
	char *field; /* a signal name (rules_signal_known) */
	rule_op op;
	int is_str; /* threshold is a string (only with == and !=) */
	double num;
	char *str;
} rule_cond;

/* Bound verdicts a rule can be gated on (bit flags). */
enum { RULE_GATE_MEMORY = 1, RULE_GATE_COMPUTE = 2, RULE_GATE_LATENCY = 4 };

typedef struct rule {
	char *id, *klass, *knob, *change, *expected, *verify, *confidence;
	double priority;
	rule_cond conds[RULES_MAX_CONDS]; /* conds[0] is the firing signal */
	size_t n_conds;
	unsigned gate;	  /* 0 = applies under every bound */
	const jv *knob_v; /* the vocabulary entry (borrowed from rules.knobs) */
} rule;

typedef struct rules {
	rule *v;
	size_t n;
	jv *knobs;    /* the parsed vocabulary document (owned) */
	char *origin; /* where rules.json came from (embedded or FLYPROF_DATA_DIR) */
} rules;

/* The native AMD classes and the normalised cross-vendor classes (schema of `bubbles`), NULL
 * terminated. */
extern const char *const rules_native_classes[];
extern const char *const rules_normalized_classes[];

/* Loads data/rules.json and data/knobs_flydsl.json (data_load: embedded, or FLYPROF_DATA_DIR).
 * On failure r is left empty. */
int rules_load(rules *r, fp_err *e);
/* Parses and validates the two documents given as text (names are used in errors). On failure
 * r is left empty (nothing to release). */
int rules_parse(rules *r, const char *text, size_t len, const char *name, const char *knobs_text,
		size_t knobs_len, const char *knobs_name, fp_err *e);
void rules_release(rules *r);

/* The vocabulary entry of a knob id, or NULL. */
const jv *rules_knob(const rules *r, const char *id);
/* 1 if `name` is a signal the evaluator provides (see rule_signals.h). */
int rules_signal_known(const char *name);
/* 1 if `c` is a valid rule class: a native AMD class, "occupancy" or "roofline". */
int rules_class_known(const char *c);
const char *rule_op_name(rule_op op);
/* Gate as text ("memory|latency", or "any"); static buffer. */
const char *rule_gate_text(unsigned gate);

typedef enum {
	RULE_NOT_FIRED, /* a condition is false */
	RULE_NO_SIGNAL, /* a condition's signal is absent (e.g. no counters) */
	RULE_GATED,	/* fired, but the bound verdict is outside the gate */
	RULE_FIRED
} rule_status;

typedef struct rule_outcome {
	rule_status status;
	const jv *value;     /* value of conds[0] (borrowed from the signals), or NULL */
	const char *missing; /* the absent signal for RULE_NO_SIGNAL */
} rule_outcome;

/* Evaluates one rule against the signals object. `bound` is the verdict ("memory", "compute",
 * "latency", "unknown"); gating applies only when `gating` is non-zero (the caller turns it
 * off when the verdict is unknown). */
void rule_eval(const rule *ru, const jv *signals, const char *bound, int gating, rule_outcome *o);

#endif
