/* The recommendation rules, as data (data/rules.json), and the knob vocabulary they name
 * (data/knobs_flydsl.json, data/knobs_triton.json, data/knobs_cuda.json).
 * docs/architecture.md#vocabularies: rules map a bubble class to a DSL knob; they are loaded and
 * validated at start, evaluated against the signal map (signal_map.h, built by rule_signals.h), and
 * they also generate skills/references/bubble-knob-table.md.
 *
 * A rule: id, bubble class (a native AMD class, a native NVIDIA class = an Nsight Compute stall
 * reason, or the pseudo classes "occupancy" and "roofline"), the signal that fires it (field, op,
 * threshold) plus optional further conditions ("also", all must hold), an optional gate (the bound
 * verdicts under which it applies), the knob id (exact FlyDSL / Triton / CUDA API from a
 * vocabulary), the concrete change, the expected effect, how to verify it, a confidence and a
 * priority (ranking factor), and an optional applicability condition "applies_to": {trait: value,
 * ...} on the kernel traits (kernel_traits.h; all must hold) so that a knob of one kernel family (a
 * GEMM builder parameter) is not recommended for another (a streaming row reduction), and a FlyDSL
 * knob is not recommended for a CUDA or Triton kernel (traits backend and language).
 *
 * Ownership: a `rules` owns its rule array, strings and the parsed vocabulary; rules_release
 * frees all. Failure: malformed JSON, a missing key, or an unknown class / signal / knob / gate
 * / trait name is BAD_RULES with error.file, error.pointer (JSON pointer), error.offset, line,
 * column. */
#ifndef FLYPROF_CORE_RULES_H
#define FLYPROF_CORE_RULES_H

#include "base/err.h"
#include "base/json/jv.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/signal_map.h"

#include <stddef.h>

#define RULES_MAX_CONDS	 4
#define RULES_MAX_TRAITS 4

typedef enum { RULE_GT, RULE_GE, RULE_LT, RULE_LE, RULE_EQ, RULE_NE } rule_op;

typedef struct rule_cond {
	char *field; /* a signal name (rules_signal_known) */
	rule_op op;
	int is_str; /* threshold is a string (only with == and !=) */
	double num;
	char *str;
} rule_cond;

typedef struct rule_trait {
	char *name;	  /* a kernel trait (kernel_trait_table) */
	trait_value want; /* the required value: a boolean or a string (want.s owned) */
} rule_trait;

/* Bound verdicts a rule can be gated on (bit flags). */
enum { RULE_GATE_MEMORY = 1, RULE_GATE_COMPUTE = 2, RULE_GATE_LATENCY = 4 };

typedef struct rule {
	char *id, *klass, *knob, *change, *expected, *verify, *confidence;
	double priority;
	rule_cond conds[RULES_MAX_CONDS]; /* conds[0] is the firing signal */
	size_t n_conds;
	/* "unless": facts that contradict the advice. A rule whose unless condition holds is not
	 * given (status "contradicted", the fact named); an absent fact never stops a rule. */
	rule_cond unless[RULES_MAX_CONDS];
	size_t n_unless;
	unsigned gate;			      /* 0 = applies under every bound */
	rule_trait applies[RULES_MAX_TRAITS]; /* all must hold; none = every kernel */
	size_t n_applies;
	const jv *knob_v; /* the vocabulary entry (borrowed from rules.knobs) */
} rule;

typedef struct rules {
	rule *v;
	size_t n;
	jv *knobs;    /* merged vocabularies {vocabularies, kinds, knobs[+language]} (owned) */
	char *origin; /* where rules.json came from (embedded or FLYPROF_DATA_DIR) */
} rules;

/* The vocabulary files rules_load reads, in order, NULL terminated. */
extern const char *const rules_vocab_files[];

/* One knob vocabulary document given as text (rules_parse_vocabs). */
typedef struct rules_vocab {
	const char *text;
	size_t len;
	const char *name;
} rules_vocab;

/* Loads data/rules.json and the rules_vocab_files (data_load: embedded, or FLYPROF_DATA_DIR).
 * On failure r is left empty. */
int rules_load(rules *r, fp_err *e);
/* Parses and validates the two documents given as text (names are used in errors). On failure
 * r is left empty (nothing to release). */
int rules_parse(rules *r, const char *text, size_t len, const char *name, const char *knobs_text,
		size_t knobs_len, const char *knobs_name, fp_err *e);
/* The same with several vocabularies (FlyDSL, Triton, CUDA): each is validated on its own
 * (errors carry its file and position), its "vocabulary" names its language (flydsl, triton,
 * cuda; absent = flydsl) and every knob is copied into the merged rules.knobs with that
 * "language". Knob ids are unique across vocabularies. A rule whose knob is a Triton or CUDA
 * knob must have applies_to.language equal to it; a rule with a FlyDSL knob must not apply to
 * another backend or language. */
int rules_parse_vocabs(rules *r, const char *text, size_t len, const char *name,
		       const rules_vocab *vocabs, size_t n_vocabs, fp_err *e);
void rules_release(rules *r);

/* The vocabulary entry of a knob id, or NULL. */
const jv *rules_knob(const rules *r, const char *id);
/* 1 if `name` is a signal the evaluator provides: a row of the signal table (rule_signals.h). */
int rules_signal_known(const char *name);
/* 1 if `c` is a valid rule class: a native AMD or NVIDIA class (classes.h; not NVIDIA's
 * "unknown") or a whole-kernel pseudo class (occupancy, roofline, grid, waves: pseudo_class.h). */
int rules_class_known(const char *c);
const char *rule_op_name(rule_op op);
/* Gate as text ("memory|latency", or "any"); static buffer. */
const char *rule_gate_text(unsigned gate);

typedef enum {
	RULE_NOT_FIRED,	   /* a condition is false */
	RULE_NO_SIGNAL,	   /* a condition's signal is absent (e.g. no counters) */
	RULE_GATED,	   /* fired, but the bound verdict is outside the gate */
	RULE_CONTRADICTED, /* fired, but an "unless" fact says the advice does not apply */
	RULE_FIRED
} rule_status;

typedef struct rule_outcome {
	rule_status status;
	const sig_value *value; /* value of conds[0] (borrowed from the signals), or NULL */
	const char *missing;	/* the absent signal for RULE_NO_SIGNAL */
	const rule_cond *contradicted_by; /* the unless condition that held (RULE_CONTRADICTED) */
} rule_outcome;

/* Evaluates one rule against the signal map. `bound` is the verdict ("memory", "compute",
 * "latency", "unknown"); gating applies only when `gating` is non-zero (the caller turns it
 * off when the verdict is unknown). */
void rule_eval(const rule *ru, const signal_map *signals, const char *bound, int gating,
	       rule_outcome *o);

/* 1 when the rule applies to a kernel with these traits (kernel_traits.h), else 0 and `why`
 * says which trait differs ("needs has_mfma = true; this kernel has has_mfma = false"). A trait
 * that is unknown never excludes a rule; traits may be NULL (all unknown). */
int rule_applies(const rule *ru, const kernel_traits *traits, char *why, size_t whysz);
/* 0 when the rule is for another platform: its backend or language trait differs from a known
 * one in `traits` (a FlyDSL rule on a CUDA kernel). Such rules are not listed as not applied,
 * only counted: they were never candidates. */
int rule_for_platform(const rule *ru, const kernel_traits *traits);

#endif
