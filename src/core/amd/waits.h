/* Wait attribution (docs/architecture.md#decision-waits; rule documented in docs/bubbles.md
 * "Waits").
 *
 * For every wait-count instruction of the trace: the producers its waves' waitcnt lists named
 * (merged over all waves, with how many waves named each), the producers' types (VMEM, FLAT,
 * LDS, SMEM, OTHER, from the decoder category seen for the producer line, else its opcode), and
 * the split of the wait's stall between memory (VMEM+FLAT), lds, smem and other:
 *   - with producers: proportional to the producer-wave observations of each type (each wave
 *     naming a producer counts once), integer cycles, the remainder to the largest share;
 *   - without producers (method "text"): a wait naming vmcnt or expcnt goes to memory; one
 *     naming only lgkmcnt goes to smem when the nearest earlier LDS-or-SMEM instruction in code
 *     order (up to the previous wait) is scalar memory, otherwise to lds.
 * The wait's class is the group with the largest share (memory -> vmem_wait, lds -> lds_wait,
 * smem -> smem_wait, other -> other). */
#ifndef FLYPROF_CORE_WAITS_H
#define FLYPROF_CORE_WAITS_H

#include "model/taxonomy.h"
#include "model/trace.h"
#include "core/amd/wave_agg.h"

#include <stddef.h>
#include <stdint.h>

enum { WAIT_SPLIT_MEMORY, WAIT_SPLIT_LDS, WAIT_SPLIT_SMEM, WAIT_SPLIT_OTHER, WAIT_SPLIT__COUNT };

typedef struct wait_producer {
	int64_t code_line;
	long inst; /* index into d->insts, or -1 when the line is not in code.json */
	tax_prod type;
	int64_t waves;
} wait_producer;

typedef struct wait_info {
	long inst;     /* index into d->insts */
	int64_t waves; /* waves whose waitcnt lists had an entry for this wait */
	wait_producer *producers;
	size_t n_producers;
	int64_t weight[WAIT_SPLIT__COUNT]; /* producer-wave observations per group */
	int64_t split[WAIT_SPLIT__COUNT];  /* the wait's stall cycles per group */
	const char *method;		   /* "producers" or "text" (static) */
	tax_class klass;
} wait_info;

typedef struct waits_result {
	wait_info *v; /* in code order */
	size_t n;
} waits_result;

/* Builds the attribution for every wait instruction of d. agg may be NULL (no wave files):
 * every wait then uses the text rule. Instruction categories must already be set. */
void waits_attribute(const trace_dispatch *d, const wave_agg *agg, waits_result *out);
void waits_release(waits_result *r);
/* Splits value into WAIT_SPLIT__COUNT integer parts proportional to weight (sum preserved;
 * remainder to the largest weight, first on ties). All-zero weights give everything to
 * fallback. */
void waits_split(int64_t value, const int64_t *weight, int fallback, int64_t *out);
const char *waits_group_name(int g);

#endif
