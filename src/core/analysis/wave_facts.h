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

/* Reads the dispatch directory once and fills both objects (either pointer may be NULL).
 * d's instruction classes (klass) must be set (the bubbles analysis does it). */
int wave_facts_and_exposed(const char *dir, const trace_dispatch *d, jv **wave_facts, jv **exposed,
			   fp_err *e);

#endif
