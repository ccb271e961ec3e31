/* The signals the rules are evaluated against (rules.h): one table of {name, getter} rows over
 * typed inputs, from which the signal map (signal_map.h) is built and against which every
 * signal name of rules.json is validated at start (rules_signal_known). A name is written here
 * once; adding a signal is adding a row.
 *
 * The inputs (signal_inputs) are filled once: the stall figures from the typed stall profile
 * (profile.h: totals, class and normalised-class stall, the dynamic instruction mix, the listed
 * waits' split, the vmem_issue class's top instructions), which is the live profile where the
 * command computed one (`report`) or the one profile_from_json reads back from a bubbles object
 * (fixtures, callers that only hold the document); the counters (counters.json, optional), the
 * occupancy object report.json carries, and the diagnosis facts (isa_facts, launch_geometry,
 * wave_facts, roofline, exposed_stall: docs/diagnosis.md), which the fact rows read by their
 * report.json path. The profile's lists are cut as the bubbles object written from it is, so
 * the figures are the ones a reader of that object sees.
 *
 * Rows by scope (rule_signals.c lists every row with its meaning):
 *   <native>.pct_of_stall          the class's share of totals.stall, in % (every AMD and NVIDIA
 *                                  native class, classes.h; on NVIDIA totals are warp-state
 *                                  samples); .stall_pct_of_latency: of totals.latency;
 *                                  .pct_of_hits: its executed instructions (mix.dynamic) as % of
 * all <normalized>.pct_of_stall / .stall_pct_of_latency   the same per normalised class <native
 * AMD>.idle_wave_share, .exposed_pct_of_stall, .exposed_pct_of_simd_time  from the class lists of
 * wave_facts and exposed_stall (absent for a class they do not list) totals.*, waits.*,
 * vmem_issue.narrow_top_pct, occupancy.*, counters.* (counters.pct_of_hbm_roof only when the
 * counters say calibrated: true, docs/architecture.md#decision-calibrated), and the fact signals
 *                                  (grid.*, isa.*, loop.*, waves.*, roofline.*, exposed.*: one row
 *                                  each with the report.json path it copies; booleans are 0 / 1 so
 *                                  that rules compare them with numbers).
 * A class the profile does not rank has 0 stall. A signal whose source is absent (no counters,
 * no theoretical occupancy) is absent, and rules reading it report "no signal". The map lists
 * the signals in table order, per-class rows class by class. */
#ifndef FLYPROF_CORE_RULE_SIGNALS_H
#define FLYPROF_CORE_RULE_SIGNALS_H

#include "base/json/jv.h"
#include "core/diagnose/signal_map.h"
#include "model/classes.h"
#include "model/profile.h"

#define SIGNAL_MAX_CLASSES 32
_Static_assert(TAX__COUNT <= SIGNAL_MAX_CLASSES && NCU__COUNT <= SIGNAL_MAX_CLASSES,
	       "a vendor's class table fits the per-class arrays");

/* Counter figures the signals read (counters.json). */
enum {
	SIGC_L2_HIT_RATE,
	SIGC_PARTIAL_32B,
	SIGC_LDS_BANK_CONFLICT,
	SIGC_MFMA_FRAC,
	SIGC_HBM_ROOF,
	SIGC__COUNT
};
/* Occupancy figures: theoretical waves per SIMD, observed mean and peak per SIMD. */
enum { SIGO_THEORETICAL, SIGO_OBSERVED_MEAN, SIGO_OBSERVED_PEAK, SIGO__COUNT };

/* The per-class fact lists: wave_facts idle share, exposed_stall share of stall and of SIMD
 * time. */
enum { SIGF_IDLE_WAVE_SHARE, SIGF_EXPOSED_OF_STALL, SIGF_EXPOSED_OF_SIMD, SIGF__COUNT };
#define SIGNAL_TABLE_MAX 64

typedef struct sig_fact_class {
	const char *klass; /* borrowed from the facts document */
	double value;
} sig_fact_class;

/* The typed inputs; an absent number is a sig_value of kind SIG_NULL. */
typedef struct signal_inputs {
	/* the stall profile (by name in both vendors' tables: a class another vendor's table also
	 * has, "barrier", reads the profile's figures) */
	vendor_id vendor;	     /* the profile's */
	double stall, latency, idle; /* totals */
	double hits;		     /* every executed instruction (the mix's dynamic counts) */
	double class_stall[VENDOR__COUNT][SIGNAL_MAX_CLASSES]; /* by class id (classes.h) */
	double class_hits[VENDOR__COUNT][SIGNAL_MAX_CLASSES];  /* executed, by class id */
	double class_latency[VENDOR__COUNT][SIGNAL_MAX_CLASSES];
	double norm_stall[NORM__COUNT]; /* 0 for a normalised class the profile does not use */
	/* the class with the most stall, first in rank order (static name; NULL when none stalls)
	 * and its stall */
	const char *largest_class;
	double largest_stall;
	double wait_split[PROF_SPLIT__COUNT]; /* summed over the listed waits */
	double vmem_top, vmem_top_narrow; /* vmem_issue's listed top stall on VMEM opcodes, and on
					     those narrower than 128 bits */
	/* occupancy */
	sig_value occ[SIGO__COUNT];
	const char *limiter;	      /* borrowed; NULL when unknown */
	sig_value max_waves_per_simd; /* occupancy.theoretical.max_waves_per_simd */
	/* counters */
	int has_counters; /* a counters document was given */
	sig_value counter[SIGC__COUNT];
	int calibrated; /* memory.calibrated is true */
	/* the facts: the value at each fact row's path, by row index into signal_table (kind
	 * SIG_NULL with fact_set 0 when absent), and the class lists of the per-class fact rows, by
	 * the row's arg, in the facts' order (owned: signal_inputs_release) */
	sig_value fact[SIGNAL_TABLE_MAX];
	unsigned char fact_set[SIGNAL_TABLE_MAX];
	struct sig_fact_classes {
		sig_fact_class *v;
		size_t n;
	} fact_classes[SIGF__COUNT];
} signal_inputs;

typedef enum {
	SIG_SCOPE_KERNEL,     /* one signal, the row's name */
	SIG_SCOPE_NATIVE,     /* "<class>.<name>" for every AMD and NVIDIA native class */
	SIG_SCOPE_NORMALIZED, /* "<normalised class>.<name>" */
	SIG_SCOPE_FACT_CLASS  /* "<native AMD class>.<name>" for the classes the facts list */
} signal_scope;

typedef struct signal_def signal_def;
/* A row's value: vendor and id name the class of a per-class row (the normalised class id for
 * SIG_SCOPE_NORMALIZED, the index into the row's fact class list for SIG_SCOPE_FACT_CLASS); an
 * absent signal has `absent` set. */
typedef struct signal_get {
	sig_value v;
	int absent;
} signal_get;

struct signal_def {
	const char *name; /* the signal, or the suffix after "<class>." for per-class rows */
	signal_scope scope;
	signal_get (*get)(const signal_inputs *in, const signal_def *row, vendor_id vendor, int id);
	int arg; /* a getter's parameter (a counter, a split group, a fact list) */
	/* fact rows: the dotted path in the facts object (report.json keys); per-class fact rows:
	 * the facts object whose "classes" list holds them, and the key of the value in each
	 * class entry */
	const char *path, *key;
	const char *meaning;
};

/* NULL-terminated (name == NULL). */
extern const signal_def signal_table[];

/* Fills the typed inputs from a ranked stall profile and the documents (strings are borrowed
 * from the documents, which must outlive it; nothing from the profile is kept, it may be
 * released after; signal_inputs_release frees the fact class lists). Any document may be NULL:
 * its figures are then absent. The occupancy object is the one report.json carries:
 * {"theoretical": {"waves_per_simd", "limiter", ...} | null,
 *  "observed": {"per_simd": {"peak", "mean"}, ...} | null}. */
void signal_inputs_fill(signal_inputs *in, const stall_profile *p, const jv *counters,
			const jv *occupancy, const jv *facts);
void signal_inputs_release(signal_inputs *in);
/* Fills m (initialised here; the caller releases it) from the table, over the typed inputs. */
void rule_signals_from_inputs(signal_map *m, const signal_inputs *in);

/* The row that provides signal `name`, or NULL (rules_signal_known). */
const signal_def *rule_signal_find(const char *name);

/* Stall of a native class (AMD or NVIDIA name) in the inputs; 0 for another name. */
double signal_inputs_class_stall(const signal_inputs *in, const char *klass);

#endif
