/* One round of an optimisation loop, as a task's ledger records it (docs/ledger.md): what was
 * tried (hypothesis, the rule that fired, the knob turned), the evidence (bundles before and
 * after, the diff outcome, correctness and benchmark results) and the decision with its reason.
 * The ledger itself is a JSON-lines file, one round per line; the reader is read/ledger_read.h,
 * the appender core/bundle/ledger_file.h. */
#ifndef FLYPROF_MODEL_LEDGER_H
#define FLYPROF_MODEL_LEDGER_H

#include "base/json/jv.h"

#include <stdint.h>

typedef enum { LEDGER_ACCEPTED, LEDGER_REJECTED, LEDGER_DECISION__COUNT } ledger_decision;

typedef enum {
	LEDGER_CORRECT_NOT_RUN,
	LEDGER_CORRECT_PASS,
	LEDGER_CORRECT_FAIL,
	LEDGER_CORRECT__COUNT
} ledger_correctness;

typedef struct ledger_round {
	int64_t round; /* 1-based position in the ledger, given by the appender */
	char *time;    /* UTC, ISO 8601, given by the appender */
	char *task;
	char *hypothesis; /* required */
	char *rule;	  /* report rule id that motivated the round, or NULL */
	char *knob;
	char *bundle_before;
	char *bundle_after;
	char *diff_outcome; /* `flyprof diff` verdict outcome (improved, regressed, ...) or NULL */
	char *diff_class;   /* the bubble class the diff verdict is about, or NULL */
	ledger_correctness correctness;
	char *correctness_detail;
	char *benchmark; /* free text as the benchmark printed it */
	int has_speedup;
	double speedup; /* after/before throughput, > 0 */
	ledger_decision decision;
	char *why; /* required */
} ledger_round;

typedef struct ledger_rounds {
	ledger_round *v;
	size_t n, cap;
} ledger_rounds;

const char *ledger_decision_name(ledger_decision d);
const char *ledger_correctness_name(ledger_correctness c);
/* Enum from its name; -1 when the name is unknown. */
int ledger_decision_parse(const char *s);
int ledger_correctness_parse(const char *s);
/* The outcomes `flyprof diff` writes, NULL terminated: the only values diff_outcome may hold. */
extern const char *const ledger_diff_outcomes[];
int ledger_diff_outcome_known(const char *s);

/* The round as one JSON object (keys in a fixed order; absent optional fields are omitted). */
jv *ledger_round_to_json(const ledger_round *r);
void ledger_round_release(ledger_round *r);
/* Appends a copy of the round's ownership (r is left zeroed). */
void ledger_rounds_take(ledger_rounds *rs, ledger_round *r);
void ledger_rounds_release(ledger_rounds *rs);

#endif
