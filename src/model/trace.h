/* The vendor-neutral trace model (docs/architecture.md#layers): one analysed kernel dispatch.
 *
 * Readers (src/read/att_*.c for rocprofv3 ATT, later ncu for NVIDIA) fill it; analyses
 * (taxonomy, hotspots, wait attribution, occupancy, source mapping, rules) read it.
 * Ownership: a trace_dispatch owns everything it points to; trace_dispatch_release releases it.
 * Cycle counts are int64 shader-clock cycles summed over the traced waves. */
#ifndef FLYPROF_CORE_TRACE_H
#define FLYPROF_CORE_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* Decoder instruction categories (docs/facts-rocprofv3.md#categories): the decoder's numbers,
 * consecutive from 0; TRACE_CAT_UNKNOWN when never seen. */
enum trace_category {
	TRACE_CAT_NONE = 0,
	TRACE_CAT_SMEM,
	TRACE_CAT_SALU,
	TRACE_CAT_VMEM,
	TRACE_CAT_FLAT,
	TRACE_CAT_LDS,
	TRACE_CAT_VALU,
	TRACE_CAT_JUMP,
	TRACE_CAT_NEXT,
	TRACE_CAT_IMMED,
	TRACE_CAT_CONTEXT,
	TRACE_CAT_MESSAGE,
	TRACE_CAT_BVH,
	TRACE_CAT_UNKNOWN = 255
};

/* One instruction (or kernel label) row: code.json for ATT, a SASS row for NVIDIA. */
typedef struct trace_inst {
	int64_t code_line; /* code.json LineNumber: the id wave files refer to */
	char *isa;	   /* instruction text as disassembled (owned) */
	char *source;	   /* "path/file.py:LINE" (inline chains joined by " -> "), "" if none */
	int64_t codeobj;   /* code object load id */
	int64_t vaddr;	   /* address inside the code object */
	int64_t hits, latency, stall, idle;
	uint8_t category; /* most frequent decoder category seen for it, or TRACE_CAT_UNKNOWN */
	uint8_t is_label; /* "; <kernel symbol>" row, not an instruction */
	int16_t klass;	  /* native class id (taxonomy), -1 until classified */
} trace_inst;

/* Resources of the kernel (code object metadata note, kernel-trace CSV or ISA scan).
 * -1 = unknown. */
typedef struct trace_resources {
	int vgpr, agpr, sgpr;
	int64_t lds_bytes, scratch_bytes;
	int wg_size, wave_size;
	int64_t grid_size;
	const char *source; /* "metadata", "kernel_trace", "isa_scan", or NULL (static string) */
} trace_resources;

typedef struct trace_dispatch {
	char *dir;	   /* the dispatch directory (absolute) */
	char *kernel;	   /* kernel symbol from the first label row, or NULL */
	char *arch;	   /* "gfx950", "gfx942", "sm_90", or NULL if unknown */
	trace_inst *insts; /* sorted by code_line */
	size_t n_insts;
	trace_resources res;
	const char *unit; /* unit of latency/stall/idle: "cycles" (ATT) or "samples" (Nsight
			     Compute warp-state sampling); static string */
} trace_dispatch;

/* Wrapping int64 arithmetic for sums of untrusted trace values: a hostile file can make the
 * numbers wrong (and a check then says so), never undefined behaviour. */
static inline int64_t trace_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}
static inline int64_t trace_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

void trace_dispatch_init(trace_dispatch *d);
void trace_dispatch_release(trace_dispatch *d);
/* Index of the instruction with this code_line (binary search), or -1. When a label row shares
 * the line index with an instruction (a second kernel's label), the instruction is returned. */
long trace_find_line(const trace_dispatch *d, int64_t code_line);

#endif
