/* NVIDIA stall reasons -> native and normalised classes (ncu_taxonomy.h). Meanings are
 * paraphrased from the Nsight Compute Profiling Guide (warp stall reasons) as summarised in
 * docs/facts-nvidia.md#stall-reasons; the normalised class is the AMD class family that
 * the same hardware situation lands in (taxonomy.h), so a cross-vendor report compares like
 * with like. */
#include "model/ncu_taxonomy.h"

#include <string.h>

typedef struct reason_row {
	const char *name;      /* metric suffix: the native class */
	const char *labels[2]; /* source-page column label(s) without "stall_" */
	tax_norm norm;
	const char *why;
} reason_row;

static const reason_row rows[NCU__COUNT] = {
    [NCU_LONG_SCOREBOARD] = {"long_scoreboard",
			     {"long_sb", NULL},
			     NORM_MEMORY_DEPENDENCY,
			     "waits for an L1TEX result (global, local, surface, texture): the "
			     "AMD vmcnt wait"},
    [NCU_SHORT_SCOREBOARD] = {"short_scoreboard",
			      {"short_sb", NULL},
			      NORM_LDS_DEPENDENCY,
			      "waits for an MIO result, mostly shared memory (also MUFU special "
			      "math): the AMD lgkmcnt wait on LDS"},
    [NCU_BARRIER] = {"barrier",
		     {"barrier", NULL},
		     NORM_SYNCHRONIZATION,
		     "waits at a CTA barrier for sibling warps: the AMD s_barrier"},
    [NCU_MEMBAR] = {"membar",
		    {"membar", NULL},
		    NORM_SYNCHRONIZATION,
		    "waits on a memory fence: ordering, not data"},
    [NCU_WAIT] = {"wait",
		  {"wait", NULL},
		  NORM_FIXED_LATENCY,
		  "a compile-time fixed-latency dependency: the AMD ALU dependency stall"},
    [NCU_MIO_THROTTLE] = {"mio_throttle",
			  {"mio", NULL},
			  NORM_ISSUE_THROTTLE,
			  "the MIO instruction queue (shared memory, special math) is full: "
			  "issue pressure like AMD lds_issue"},
    [NCU_LG_THROTTLE] = {"lg_throttle",
			 {"lg", NULL},
			 NORM_ISSUE_THROTTLE,
			 "the L1 local/global queue is full: issue pressure like AMD vmem_issue"},
    [NCU_MATH_PIPE_THROTTLE] = {"math_pipe_throttle",
				{"math", NULL},
				NORM_ISSUE_THROTTLE,
				"the execution pipe is busy: the instruction cannot issue yet"},
    [NCU_TEX_THROTTLE] = {"tex_throttle",
			  {"tex", NULL},
			  NORM_ISSUE_THROTTLE,
			  "the texture/surface queue is full"},
    [NCU_DISPATCH_STALL] = {"dispatch_stall",
			    {"dispatch", NULL},
			    NORM_ISSUE_THROTTLE,
			    "ready but held back by the dispatcher"},
    [NCU_DRAIN] = {"drain",
		   {"drain", NULL},
		   NORM_ISSUE_THROTTLE,
		   "after EXIT, waiting for stores to drain from the memory queues"},
    [NCU_IMC_MISS] = {"imc_miss",
		      {"imc", NULL},
		      NORM_MEMORY_DEPENDENCY,
		      "immediate-constant cache miss: a constant is fetched from memory, like "
		      "an AMD scalar load wait"},
    [NCU_NO_INSTRUCTIONS] = {"no_instructions",
			     {"no_inst", NULL},
			     NORM_FRONT_END,
			     "instruction cache miss or no instruction fetched yet"},
    [NCU_BRANCH_RESOLVING] = {"branch_resolving",
			      {"branch_resolving", NULL},
			      NORM_FRONT_END,
			      "waits for a branch target / PC update"},
    [NCU_SLEEPING] = {"sleeping",
		      {"sleep", "sleeping"},
		      NORM_SYNCHRONIZATION,
		      "the warp sleeps or yielded (nanosleep, spin-wait synchronisation)"},
    [NCU_GMMA] = {"gmma",
		  {"gmma", NULL},
		  NORM_FIXED_LATENCY,
		  "waits on a warpgroup MMA (Hopper): the AMD MFMA dependency"},
    [NCU_NOT_SELECTED] = {"not_selected",
			  {"not_selected", NULL},
			  NORM_SCHEDULER,
			  "eligible, but another warp was picked: over-subscription, not a "
			  "latency problem"},
    [NCU_SELECTED] = {"selected",
		      {"selected", NULL},
		      NORM_ISSUED,
		      "not a stall: the warp issued in the sampled cycle"},
    [NCU_MISC] = {"misc", {"misc", NULL}, NORM_OTHER, "an unspecified hardware reason"},
    [NCU_UNKNOWN] = {"unknown",
		     {NULL, NULL},
		     NORM_OTHER,
		     "a stall column this version of flyprof does not know"},
};

const char *ncu_reason_name(ncu_reason r)
{
	return (unsigned)r < NCU__COUNT ? rows[r].name : "unknown";
}

tax_norm ncu_reason_norm(ncu_reason r)
{
	return (unsigned)r < NCU__COUNT ? rows[r].norm : NORM_OTHER;
}

const char *ncu_reason_why(ncu_reason r)
{
	return (unsigned)r < NCU__COUNT ? rows[r].why : rows[NCU_UNKNOWN].why;
}

int ncu_reason_is_stall(ncu_reason r)
{
	return r != NCU_SELECTED;
}

int ncu_reason_from_label(const char *label, int *not_issued)
{
	static const char suffix[] = " (Not Issued)";
	if (strncmp(label, "stall_", 6) != 0)
		return -1;
	const char *s = label + 6;
	size_t n = strlen(s), sl = sizeof suffix - 1;
	*not_issued = 0;
	if (n >= sl && strcmp(s + n - sl, suffix) == 0) {
		n -= sl;
		*not_issued = 1;
	}
	for (int r = 0; r < NCU__COUNT; r++)
		for (int k = 0; k < 2; k++) {
			const char *l = rows[r].labels[k];
			if (l && strlen(l) == n && strncmp(l, s, n) == 0)
				return r;
		}
	return NCU_UNKNOWN;
}

int ncu_reason_lookup(const char *name)
{
	for (int r = 0; r < NCU__COUNT; r++)
		if (strcmp(rows[r].name, name) == 0)
			return r;
	return -1;
}
