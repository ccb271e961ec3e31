/* Working and idle waves (docs/diagnosis.md): per traced wave, the instructions it executed
 * (records on a mapped line), whether it stored anything (a VMEM store or atomic), its latency
 * (summed record durations) and its stall per class.
 *
 * A wave "did no work" when it executed fewer than WAVE_IDLE_FRACTION of the busiest traced
 * wave's instructions and stored nothing: it ran the prologue and left (pa: 48 of 56 traced waves
 * run 12 instructions, the other 8 run 936). The taxonomy is also given over the working waves
 * alone, and per class the share of its stall spent in idle waves: a stall that sits in idle
 * waves is fixed by not launching them, not by the class's knob. */
#ifndef FLYPROF_CORE_ANALYSIS_WAVE_FACTS_H
#define FLYPROF_CORE_ANALYSIS_WAVE_FACTS_H

#include "base/json/jv.h"
#include "core/analysis/line_index.h"
#include "core/amd/wave_timeline.h"
#include "core/analysis/wave_scan.h"
#include "model/taxonomy.h"
#include "model/trace.h"

#define WAVE_IDLE_FRACTION 0.25

typedef struct wave_stat {
	int64_t insts, stores, latency;
	double stall[TAX__COUNT];
} wave_stat;

typedef struct wave_facts_acc {
	const trace_dispatch *d;
	line_index lines;
	char *is_store; /* per instruction: a VMEM store or atomic (isa_vmem_bytes) */
	wave_stat *w;
	size_t n, cap;
} wave_facts_acc;

void wave_facts_init(wave_facts_acc *a, const trace_dispatch *d);
void wave_facts_release(wave_facts_acc *a);
void wave_facts_group(wave_facts_acc *a, const wave_group *g);
/* The wave_facts object of report.json. */
jv *wave_facts_to_json(const wave_facts_acc *a);

/* REPORT.html's wave timeline (wave_timeline.h, no hot lines), built from the same pass: built,
 * or why not in err (warned about where the page is written). Zero-initialise;
 * wave_pass_timeline_release frees both. */
typedef struct wave_pass_timeline {
	int built;
	wave_timeline t;
	fp_err err;
} wave_pass_timeline;

/* Reads the dispatch directory once and fills both objects (either pointer may be NULL) and,
 * when tl is not NULL, the timeline. Files that `keep` holds (the bubbles pass kept them; may be
 * NULL) are taken from it instead of read again. d's instruction classes (klass) must be set (the
 * bubbles analysis does it). Returns 0 or -1 with e set (then tl is not built and says the same).
 */
int wave_facts_and_exposed(const char *dir, const trace_dispatch *d, wave_keep *keep,
			   jv **wave_facts, jv **exposed, wave_pass_timeline *tl, fp_err *e);
void wave_pass_timeline_release(wave_pass_timeline *tl);

#endif
