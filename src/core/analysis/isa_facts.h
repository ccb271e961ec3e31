/* ISA facts: what the kernel's own instructions say, read from the trace's instruction table
 * (code.json), so that a rule can ask the ISA before it gives advice (docs/diagnosis.md).
 *
 *   registers      the highest VGPR (v), AGPR (a) and SGPR (s) index named by any instruction,
 *                  + 1. Every instruction counts, executed or not: the allocation covers the
 *                  whole kernel. This is what the hardware allocates before granule rounding;
 *                  on gfx950 the kernel-trace CSV's VGPR_Count is about half of it, so the
 *                  occupancy model takes the larger of the two (isa_resources_merge).
 *   vmem           vector-memory bytes per lane of each load/store opcode (dword = 4 ...
 *                  dwordx4 / b128 = 16), summed as bytes per wave (x 64 lanes x hits / waves):
 *                  the traffic estimate of the roofline.
 *   loads_in_flight  a static walk of the executed instructions in address order: every VMEM
 *                  load or store raises the vmcnt counter (gfx9 counts stores too), an
 *                  `s_waitcnt vmcnt(N)` lowers it to N. The loads outstanding just before a wait
 *                  are "loads in flight" there; the maximum over the kernel and the value at the
 *                  hot wait are reported. Branches are ignored (straight-line order), which is
 *                  exact inside one basic block and an estimate across blocks.
 *   loop           the busiest backward branch (target = its address + 4 + 4 x simm16), its
 *                  iterations per wave (its hits / the entry's hits), and whether its body keeps
 *                  loads in flight across a wait (an executed `vmcnt(N)` with N > 0: the loop is
 *                  already multi-buffered).
 *   valu_ops       share of the VALU class's listed hot stall on transcendental / division ops
 *                  (v_exp, v_log, v_rcp, v_rsq, v_sqrt, v_sin, v_cos, v_div_*): fastmath only
 *                  changes those.
 *   crosslane      executed ds_bpermute / ds_permute / ds_swizzle (LDS-crossbar shuffles).
 * Ownership: isa_facts_build returns an owned object; nothing here fails. */
#ifndef FLYPROF_CORE_ANALYSIS_ISA_FACTS_H
#define FLYPROF_CORE_ANALYSIS_ISA_FACTS_H

#include "base/json/jv.h"
#include "model/trace.h"

#include <stdint.h>

/* Register counts as highest index + 1; 0 when the kernel names none of that file. */
typedef struct isa_regs {
	int vgpr, agpr, sgpr;
} isa_regs;

void isa_regs_scan(const trace_dispatch *d, isa_regs *out);

/* Bytes per lane moved by a VMEM load/store opcode (buffer_, global_, flat_), 0 when the
 * instruction is not one. *is_store (may be NULL) is set for stores and atomics. */
int isa_vmem_bytes(const char *isa, int *is_store);
/* N of "vmcnt(N)" in an s_waitcnt, or -1 when it does not wait on vmcnt. */
int isa_waitcnt_vmcnt(const char *isa);
/* 1 for transcendental and division VALU ops (the ones fastmath changes). */
int isa_is_transcendental(const char *isa);
/* 1 for a global->LDS load (buffer_load / global_load with the " lds" modifier). */
int isa_is_lds_dma(const char *isa);
/* 1 for LDS-crossbar cross-lane moves (ds_bpermute / ds_permute / ds_swizzle). */
int isa_is_crosslane(const char *isa);

/* Where the trace's resources disagree with the ISA: the larger wins (docs/diagnosis.md).
 * Fills `out` with {vgpr, agpr, sgpr: {csv|metadata, isa, used}} and one warning string per
 * disagreement into `warnings` (may be NULL). Resources unknown (-1) take the ISA figure. */
void isa_resources_merge(trace_resources *r, const isa_regs *isa, jv *out, jv *warnings);

/* The isa_facts object of report.json. `hot_wait_line` is the code line of the vmem_wait
 * class's hottest instruction (-1 if none); `valu_top` the VALU class's top list (may be
 * NULL). */
jv *isa_facts_build(const trace_dispatch *d, int64_t hot_wait_line, const jv *valu_top);

/* What the listed waits (bubbles.waits) wait on: crosslane_pct, store_pct, kernarg_pct (% of
 * their stall; see isa_facts.c for the split used). */
jv *isa_wait_facts(const jv *waits);

#endif
