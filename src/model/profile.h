/* The stall profile: the typed result of one dispatch's stall analysis, filled by either
 * vendor's backend and read by the ranking (profile_rank.c), the one bubbles.json writer
 * (profile_write.c) and its reader (profile_read.c). docs/bubbles.md describes the file. The
 * diagnosis (src/core/diagnose: traits, signals, bound, evidence, report.json, diff) reads
 * profiles, never the bubbles JSON; report.json's sections shaped as in bubbles.json are
 * written by the writer's entry functions below.
 *
 * Filling (a backend): profile_init with the trace (borrowed; its insts[].klass hold the class
 * of each instruction, ids of the vendor's class table, classes.h), then the totals, one
 * profile_add_part per share of an instruction's time in a class, the waits, the per-
 * instruction sample arrays where the vendor has them, and the sections that stay vendor
 * specific (occupancy, wave_states, extra keys). Ranking: profile_rank(p, top) computes the
 * class and normalised sums, the hotspots, source lines and waits with their cuts, once, for
 * both vendors. profile_release frees what the profile owns (not the trace).
 *
 * Units: cycles summed over the traced waves (AMD ATT) or warp-state samples (NVIDIA). A
 * profile read back from bubbles.json (profile_read.c) holds what the file lists: totals,
 * classes (with their top instructions), normalised sums, the dynamic mix and the listed waits
 * (cut as the file was) and the listed source lines (their source, costs and class, cut as the
 * file was; the sources are owned, own_sources) and the listed hotspots; the instructions those
 * lists name are the entries of a small trace the profile owns (own_trace), in list order. */
#ifndef FLYPROF_MODEL_PROFILE_H
#define FLYPROF_MODEL_PROFILE_H

#include "base/err.h"
#include "base/json/jv.h"
#include "model/classes.h"
#include "model/taxonomy.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { UNIT_CYCLES, UNIT_SAMPLES } prof_unit;

#define PROF_CLASS_TOP 3

/* Groups a wait's stall is split into (memory = VMEM + FLAT). */
enum { PROF_SPLIT_MEMORY, PROF_SPLIT_LDS, PROF_SPLIT_SMEM, PROF_SPLIT_OTHER, PROF_SPLIT__COUNT };

/* One share of an instruction's time in one class: an AMD instruction has one (its class), a
 * wait one per split group, an NVIDIA instruction one per sampled stall reason. */
typedef struct prof_part {
	size_t inst;
	int klass;
	int64_t latency, stall, not_issued;
} prof_part;

typedef struct prof_top {
	size_t inst;
	int64_t stall;	 /* the stall this instruction carries in the class */
	int64_t latency; /* its time in the class (NVIDIA: samples) */
} prof_top;

typedef struct prof_class {
	size_t instructions;		    /* instructions whose own class this is */
	int64_t hits, idle;		    /* of those instructions */
	int64_t latency, stall, not_issued; /* sums of the parts in this class */
	prof_top top[PROF_CLASS_TOP];	    /* most stall (latency for a non-stall class) first */
	size_t n_top;
} prof_class;

typedef struct prof_norm {
	int64_t latency, stall, not_issued;
	int used; /* a class in it had instructions, latency or not-issued samples */
} prof_norm;

typedef struct prof_producer {
	int64_t code_line;
	long inst; /* index into the trace, or -1 when the line is not in it */
	tax_prod type;
	int64_t waves;
} prof_producer;

typedef struct prof_wait {
	size_t inst;
	int klass;		  /* its class (the largest split group's wait class) */
	int64_t stall;		  /* the stall it carries */
	int64_t waves;		  /* waves that listed it, -1 when unknown */
	prof_producer *producers; /* owned */
	size_t n_producers;
	int producers_known; /* 0 on NVIDIA: ncu does not record the producers */
	int64_t split[PROF_SPLIT__COUNT];
	const char *method; /* static: "producers", "text", "reason" */
} prof_wait;

typedef struct prof_line {
	const char *source; /* borrowed from the trace */
	size_t instructions;
	int64_t hits, latency, stall, idle, not_issued;
	int klass; /* the class carrying most of the line's stall, -1 when none */
} prof_line;

typedef struct prof_totals {
	size_t instructions, executed;
	int64_t hits, latency, stall, idle, issue, not_issued;
	int64_t waves; /* waves (AMD wave files) or warps launched (NVIDIA); -1 unknown */
} prof_totals;

/* The dispatch the profile is of; strings owned. */
typedef struct prof_dispatch {
	char *dir, *id, *tag, *kernel, *arch, *selection;
	jv *candidates; /* array (owned) */
	jv *extra;	/* vendor keys of the dispatch object (owned object) */
} prof_dispatch;

typedef struct stall_profile {
	vendor_id vendor;
	prof_unit unit;
	trace_dispatch *trace;	   /* borrowed, or own_trace for a profile read back from a file */
	trace_dispatch *own_trace; /* read back: the instructions its lists name (owned) */
	char **own_sources;	   /* read back: the sources of its lines (owned) */
	char *own_note;		   /* read back: the totals note's text (owned) */
	prof_dispatch dispatch;
	prof_totals totals;

	/* How a line picks its class: 0 from each instruction's own class and whole stall (AMD),
	 * 1 from the parts (NVIDIA: the stall reasons sampled on the line). */
	int line_class_from_parts;
	/* Per instruction, parallel to trace->insts, NULL when the vendor has no such measure:
	 * samples taken while nothing issued, the absolute address. */
	int64_t *not_issued;
	uint64_t *address;

	prof_part *parts;
	size_t n_parts, cap_parts;
	prof_wait *waits; /* every wait instruction, in code order */
	size_t n_waits, cap_waits;

	/* Texts that say how the vendor's numbers are defined (static strings, or NULL). */
	const char *totals_note_key, *totals_note; /* "source" or "definitions" */
	const char *mix_basis, *waits_note;

	/* The kernel's duration in microseconds where the input has one, else -1, and where it
	 * came from (static string). */
	double duration_us;
	const char *duration_source;

	/* Vendor sections written as they are (owned; NULL = absent). */
	jv *occupancy, *wave_states;
	jv *extra; /* further top-level keys (wave_check, clock, detail, details) */

	/* Computed by profile_rank. */
	prof_class *classes; /* class_count(vendor) entries, by class id */
	int *class_order;    /* ids of the classes with anything in them, most stall first */
	size_t n_class_order;
	/* instructions outside the class table (mix's class_name(vendor, -1) entry) and their
	 * hits */
	size_t n_unclassed;
	int64_t unclassed_hits;
	prof_norm norm[NORM__COUNT];
	int norm_order[NORM__COUNT];
	size_t n_norm_order;
	size_t *hot; /* instruction indices with stall > 0, most stall first, cut to top */
	size_t n_hot, hot_total;
	prof_line *lines; /* source lines, most stall first, cut to top */
	size_t n_lines, lines_total;
	prof_line unmapped; /* instructions without a source line */
	size_t *wait_order; /* indices into waits: stalled or attributed, most stall first */
	size_t n_wait_order, waits_total;
} stall_profile;

void profile_init(stall_profile *p, vendor_id v, prof_unit u, trace_dispatch *trace);
void profile_release(stall_profile *p);
/* Adds a share of instruction inst's time in class klass. */
void profile_add_part(stall_profile *p, size_t inst, int klass, int64_t latency, int64_t stall,
		      int64_t not_issued);
/* Appends a wait (zeroed, producers_known 1, waves -1) and returns it. */
prof_wait *profile_add_wait(stall_profile *p, size_t inst);
/* Adds a key to the dispatch's extra object / the profile's extra sections (takes v). */
void profile_dispatch_extra(stall_profile *p, const char *key, jv *v);
void profile_extra(stall_profile *p, const char *key, jv *v);
/* Sums totals.instructions/executed/hits/latency/stall/idle over the trace's instructions
 * (labels excluded); issue = latency - stall. A backend may overwrite any of them after. */
void profile_sum_totals(stall_profile *p);

/* Computes classes, normalised sums, hotspots, lines, unmapped and waits; lists cut to top
 * (0 = all), the *_total fields keep their length before the cut. */
void profile_rank(stall_profile *p, size_t top);

/* Sets the four cost keys every list entry has: hits, latency, stall, idle. */
void profile_set_costs(jv *o, int64_t hits, int64_t latency, int64_t stall, int64_t idle);

/* The executed instructions of the class named `name` as bubbles mix.dynamic lists them: a
 * class with instructions its hits, the unclassed entry (class_name(vendor, -1)) its hits
 * unless a class of the same name already holds that key; 0 for any other name. */
int64_t profile_mix_hits(const stall_profile *p, const char *name);

/* The id of the class named `name` when the profile lists it (bubbles.classes has an entry for
 * it), else -1 (another name, NULL, or a class the ranking left out). */
int profile_class_listed(const stall_profile *p, const char *name);

/* The id of the first class in the profile's class order with the most stall, or -1 when no
 * class stalls. */
int profile_largest_class(const stall_profile *p);

/* 100 * part / whole rounded to 2 decimals (0 when whole is 0). */
double profile_pct(int64_t part, int64_t whole);

/* The bubbles object (docs/bubbles.md) of a ranked profile (owned by the caller). */
jv *profile_to_json(const stall_profile *p);
/* One wait as the bubbles "waits" entry (also the AMD --detail view's "wait"). */
jv *profile_wait_json(const stall_profile *p, const prof_wait *w);
/* Parts of the bubbles entries, for readers that quote them (report.json's evidence): an
 * instruction's code_line, isa and source keys into o; one entry of a wait's "producers"; a
 * wait's "split" object; a producer's isa ("?" when its line is not in the trace) and source
 * ("" then). */
void profile_inst_fields(jv *o, const stall_profile *p, size_t inst);
/* One entry of the "hotspots" list (the r-th of hot) and of the "lines" list. */
jv *profile_hotspot_json(const stall_profile *p, size_t r);
jv *profile_line_json(const stall_profile *p, const prof_line *l);
/* The "dispatch" and "totals" objects and the "normalized" list (report.json quotes them). */
jv *profile_dispatch_json(const stall_profile *p);
jv *profile_totals_json(const stall_profile *p);
jv *profile_normalized_json(const stall_profile *p);
jv *profile_producer_json(const stall_profile *p, const prof_producer *x);
jv *profile_wait_split_json(const prof_wait *w);
const char *profile_producer_isa(const stall_profile *p, const prof_producer *x);
const char *profile_producer_source(const stall_profile *p, const prof_producer *x);
/* Reads a bubbles object (or a report whose "totals" and "classes" are the same) back into a
 * profile: vendor (from "backend", absent = AMD), unit (from "unit" or totals.unit, absent =
 * cycles), the dispatch (its strings, candidates and vendor keys), totals (with their note),
 * classes (in the file's order, each with its "top"
 * instructions), normalised sums (the "normalized" list where the document has one, else summed
 * from the classes), the dynamic mix (mix.dynamic sets each class's hits, a name outside the
 * class table counts as unclassed), the listed waits (their stall, class, waves and split; the
 * wait order is the file's; their producers with the instructions they name), the listed
 * source lines (read as leniently as a reader of the
 * file would: a missing or mistyped number counts 0), the kernel duration when the document
 * has one, the occupancy and wave_states objects, the listed hotspots (leniently too: their
 * costs, class, address, not_issued and stall reasons). Trace is own_trace. Returns
 * 0, or -1 with e set (BAD_INPUT: what key is missing or mistyped). */
int profile_from_json(const jv *doc, const char *name, stall_profile *p, fp_err *e);

const char *prof_unit_name(prof_unit u);

#endif
