/* Fact signals: the named values rules read about the ISA, the launch grid, the waves, the
 * roofline and exposed stall (docs/diagnosis.md), as opposed to the stall-share signals of
 * rule_signals.h. Every fact signal is declared once, in the table of fact_signals.c, with the
 * path of the report.json value it copies: one {name, source path, meaning} row each, so a typed
 * {name, getter} table can replace it mechanically. Booleans are 0 / 1 so that rules compare
 * them with numbers.
 *
 * The whole-kernel pseudo classes a rule may name (besides native classes) are declared here
 * too, each with the signal its gain estimate comes from. */
#ifndef FLYPROF_CORE_DIAGNOSE_FACT_SIGNALS_H
#define FLYPROF_CORE_DIAGNOSE_FACT_SIGNALS_H

#include "base/json/jv.h"

typedef struct fact_signal {
	const char *name; /* signal name in rules.json */
	const char *path; /* dotted path in the facts object (report.json keys), or NULL when
			     computed (see fact_signals.c) */
	const char *meaning;
} fact_signal;

/* NULL-terminated (name == NULL). */
extern const fact_signal fact_signal_table[];

typedef struct fact_pseudo {
	const char *klass; /* "occupancy", "roofline", "grid", "waves" */
	const char *gain;  /* the signal holding its gain estimate in % (NULL: recommend.c's own
			      formula, for occupancy) */
	const char *none_reason; /* why it has no hot instruction */
	const char *facts;	 /* the facts object it rests on (report.json key), or NULL */
} fact_pseudo;

int fact_signal_known(const char *name);
/* 1 when "<native AMD class>.<suffix>" is a per-class fact signal (idle_wave_share,
 * exposed_pct_of_stall, exposed_pct_of_simd_time). A class absent from the facts has no
 * signal. */
int fact_class_suffix_known(const char *suffix);
/* The pseudo class entry of `klass`, or NULL when it is not one. */
const fact_pseudo *fact_pseudo_class(const char *klass);

/* Adds every fact signal whose source is present to `signals`. `facts` is an object with the
 * report.json keys isa_facts, launch_geometry, wave_facts, roofline, exposed_stall (any may be
 * absent) and `occupancy` the report's occupancy object. */
void fact_signals_add(jv *signals, const jv *facts, const jv *occupancy);

#endif
