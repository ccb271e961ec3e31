/* The stall taxonomy: native AMD instruction classes, the normalised cross-vendor classes and
 * the producer types used by wait attribution (docs/architecture.md#decision-classes;
 * docs/bubbles.md has the table).
 *
 * A class is decided from the ISA text and the decoder category
 * (docs/facts-rocprofv3.md#categories) in this order: waits (s_waitcnt*, s_wait_*) -> *_wait;
 * s_barrier* -> barrier; v_mfma/v_smfma -> mfma (the decoder reports MFMA as VALU); s_nop/s_sleep
 * -> nop; then the decoder category when the trace has one for the instruction; else the opcode
 * text. Pure functions, no state. */
#ifndef FLYPROF_CORE_TAXONOMY_H
#define FLYPROF_CORE_TAXONOMY_H

#include "model/classes.h"
#include "model/trace.h"

#include <stdint.h>

/* Producer type of an instruction a wait waits on. */
typedef enum { PROD_VMEM, PROD_FLAT, PROD_LDS, PROD_SMEM, PROD_OTHER, PROD__COUNT } tax_prod;

/* Counters a wait instruction names (bit set). */
enum { WAIT_VM = 1, WAIT_LGKM = 2, WAIT_EXP = 4 };

/* Names and normalised classes come from the AMD class table (classes.h). */
const char *tax_class_name(tax_class c);
const char *tax_norm_name(tax_norm n);
const char *tax_prod_name(tax_prod p);
/* Looks a native class up by name; -1 if unknown. */
int tax_class_lookup(const char *name);
/* The native -> normalised mapping. */
tax_norm tax_normalize(tax_class c);

/* 1 if the ISA text is a wait-count instruction (s_waitcnt*, s_wait_*cnt, s_wait_idle). */
int tax_is_wait(const char *isa);
/* WAIT_* bits named by a wait instruction; all three when it names none (s_waitcnt 0). */
unsigned tax_wait_counters(const char *isa);
/* Native class from ISA text and decoder category (255 = unknown). A wait is classified from
 * its text alone here (vmcnt/expcnt present -> vmem_wait, lgkmcnt only -> lds_wait); wait
 * attribution refines that from the producers (waits.h). */
tax_class tax_classify(const char *isa, int category);
/* Producer type from decoder category, else opcode text. */
tax_prod tax_producer_type(const char *isa, int category);
/* 1 if the opcode is a scalar memory instruction (s_load*, s_buffer_load*, s_store*, ...). */
int tax_is_smem_text(const char *isa);

/* The class of d's instruction i (an index into d->insts): TAX_OTHER for -1 (no instruction)
 * or a class not set. */
static inline int tax_class_of_inst(const trace_dispatch *d, long i)
{
	if (i < 0)
		return TAX_OTHER;
	int k = d->insts[i].klass;
	return k >= 0 && k < TAX__COUNT ? k : TAX_OTHER;
}

#endif
