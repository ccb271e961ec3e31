/* The whole-kernel pseudo classes a rule may name besides the native classes (occupancy,
 * roofline, grid, waves; docs/diagnosis.md), each with the signal its gain estimate comes from,
 * why it has no hot instruction and the facts object it rests on. The fact signals themselves
 * are rows of the signal table (rule_signals.h). */
#ifndef FLYPROF_CORE_DIAGNOSE_PSEUDO_CLASS_H
#define FLYPROF_CORE_DIAGNOSE_PSEUDO_CLASS_H

#include "base/json/jv.h"

typedef struct pseudo_class {
	const char *klass; /* "occupancy", "roofline", "grid", "waves" */
	const char *gain;  /* the signal holding its gain estimate in % (NULL: recommend.c's own
			      formula, for occupancy) */
	const char *none_reason; /* why it has no hot instruction */
	const char *facts;	 /* the facts object it rests on (report.json key), or NULL */
} pseudo_class;

/* The pseudo class entry of `klass`, or NULL when it is not one. */
const pseudo_class *pseudo_class_find(const char *klass);

#endif
