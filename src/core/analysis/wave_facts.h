/* Working and idle waves (docs/diagnosis.md): per traced wave, the instructions it executed
 * (records on a mapped line), whether it stored anything (a VMEM store or atomic), its latency
 * (summed record durations) and its stall per class.
 *
 * A wave "did no work" when it executed fewer than WAVE_IDLE_FRACTION of the busiest traced
 * wave's instructions and stored nothing: it ran the prologue and left (pa: 48 of 56 traced waves
 * run 12 instructions, the other 8 run 936). The taxonomy is also given over the working waves
 * alone, and per class the share of its stall spent in idle waves: a stall that sits in idle
 * waves is fixed by not launching them, not by the class's knob.
 *
 * These facts, exposed stall (exposed_stall.h) and REPORT.html's wave timeline are computed
 * inside the bubbles pass (wave_pass.h hooks), which reads every wave file once. That pass runs
 * before the instructions have their classes (they come from what it counts), so nothing here
 * looks at a class until wave_report_finish: per wave only class-free figures are kept, stall
 * is summed per instruction, and the stall of waves that may turn out idle (no store) per
 * (instructions executed, instruction). Every sum is of integers, so the result does not
 * depend on which worker read which wave. */
#ifndef FLYPROF_CORE_ANALYSIS_WAVE_FACTS_H
#define FLYPROF_CORE_ANALYSIS_WAVE_FACTS_H

#include "base/json/jv.h"
#include "core/amd/wave_pass.h"
#include "core/amd/wave_timeline.h"
#include "core/analysis/exposed_stall.h"
#include "core/analysis/line_index.h"
#include "model/taxonomy.h"
#include "model/trace.h"

#define WAVE_IDLE_FRACTION 0.25

typedef struct wave_stat {
	int64_t insts, stores, latency;
} wave_stat;

/* Stall of no-store waves by (instructions the wave executed, instruction index). */
typedef struct idle_slot {
	int64_t insts, stall;
	int64_t inst; /* -1: empty slot */
} idle_slot;

typedef struct wave_facts_acc {
	wave_stat *w; /* per wave, in no particular order */
	size_t n, cap;
	/* (the stall summed over every wave, per instruction, is exposed stall's: line_stall) */
	idle_slot *idle;
	size_t idle_n, idle_cap;
} wave_facts_acc;

/* REPORT.html's wave timeline (wave_timeline.h, no hot lines), built from the same pass: built,
 * or why not in err (warned about where the page is written). Zero-initialise;
 * wave_pass_timeline_release frees both. */
typedef struct wave_pass_timeline {
	int built;
	wave_timeline t;
	fp_err err;
} wave_pass_timeline;

/* What the pass fills: the workers' parts are merged into it. */
typedef struct wave_report {
	const trace_dispatch *d;
	line_index lines; /* shared by the workers (read only) */
	char *is_store;	  /* per instruction: a VMEM store or atomic (isa_vmem_bytes) */
	wave_facts_acc wf;
	exposed_acc ex;
	wave_pass_timeline *tl; /* NULL: no timeline wanted, or its code.json part failed */
	int finished;
	wave_pass_hooks hooks;
} wave_report;

/* Before the pass: d's instructions (classes not needed yet) and, when tl is not NULL, the
 * timeline of dispatch directory dir (its begin failing leaves tl->err set, tl not built).
 * &r->hooks is then given to the pass (bubbles_params.hooks). */
void wave_report_init(wave_report *r, const trace_dispatch *d, const char *dir,
		      wave_pass_timeline *tl);
/* After the pass succeeded, with d's classes set: the wave_facts and exposed_stall objects of
 * report.json (either pointer may be NULL) and the timeline finished. */
void wave_report_finish(wave_report *r, const char *dir, jv **wave_facts, jv **exposed);
/* Releases r; the timeline stays the caller's, but one left unfinished (the pass failed) is
 * released here. */
void wave_report_release(wave_report *r);

/* The whole of it on its own: one wave pass over dir (wave_agg_run with `threads` workers)
 * for d, whose classes must be set. Returns 0 or -1 with e set (then tl is not built and says
 * the same). */
int wave_facts_and_exposed(const char *dir, const trace_dispatch *d, int threads, jv **wave_facts,
			   jv **exposed, wave_pass_timeline *tl, fp_err *e);
void wave_pass_timeline_release(wave_pass_timeline *tl);

#endif
