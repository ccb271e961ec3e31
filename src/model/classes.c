/* The class tables (classes.h). The NVIDIA meanings paraphrase the Nsight Compute guide's warp
 * stall reasons (docs/facts-nvidia.md#stall-reasons); the normalised class of an NVIDIA reason is
 * the AMD class family that the same hardware situation lands in, so a cross-vendor report compares
 * like with like. */
#include "model/classes.h"

#include <string.h>

static const class_info amd[TAX__COUNT] = {
    [TAX_VMEM_WAIT] = {"vmem_wait", NORM_MEMORY_DEPENDENCY, 1,
		       "s_waitcnt waiting on vector memory (vmcnt/expcnt producers)"},
    [TAX_LDS_WAIT] = {"lds_wait", NORM_LDS_DEPENDENCY, 1,
		      "s_waitcnt lgkmcnt waiting on LDS (ds_*) producers"},
    [TAX_SMEM_WAIT] = {"smem_wait", NORM_MEMORY_DEPENDENCY, 1,
		       "s_waitcnt lgkmcnt waiting on scalar memory (s_load*) producers"},
    [TAX_BARRIER] = {"barrier", NORM_SYNCHRONIZATION, 1,
		     "s_barrier: waiting for the other waves of the workgroup"},
    [TAX_VMEM_ISSUE] = {"vmem_issue", NORM_ISSUE_THROTTLE, 1,
			"issuing a vector memory instruction (buffer/global/flat)"},
    [TAX_LDS_ISSUE] = {"lds_issue", NORM_ISSUE_THROTTLE, 1, "issuing an LDS instruction (ds_*)"},
    [TAX_SMEM_ISSUE] = {"smem_issue", NORM_ISSUE_THROTTLE, 1,
			"issuing a scalar memory instruction (s_load*)"},
    [TAX_MFMA] = {"mfma", NORM_FIXED_LATENCY, 1, "a matrix-core instruction (v_mfma*)"},
    [TAX_VALU] = {"valu", NORM_FIXED_LATENCY, 1, "a vector ALU instruction"},
    [TAX_SALU] = {"salu", NORM_FIXED_LATENCY, 1, "a scalar ALU instruction"},
    [TAX_BRANCH] = {"branch", NORM_FRONT_END, 1, "a jump or branch"},
    [TAX_NOP] = {"nop", NORM_FIXED_LATENCY, 1, "s_nop / s_sleep"},
    [TAX_MESSAGE] = {"message", NORM_OTHER, 1, "s_sendmsg and trace messages"},
    [TAX_OTHER] = {"other", NORM_OTHER, 1, "anything else (s_endpgm, unknown opcodes)"},
};

static const class_info nvidia[NCU__COUNT] = {
    [NCU_LONG_SCOREBOARD] = {"long_scoreboard", NORM_MEMORY_DEPENDENCY, 1,
			     "waits for an L1TEX result (global, local, surface, texture): the "
			     "AMD vmcnt wait"},
    [NCU_SHORT_SCOREBOARD] = {"short_scoreboard", NORM_LDS_DEPENDENCY, 1,
			      "waits for an MIO result, mostly shared memory (also MUFU special "
			      "math): the AMD lgkmcnt wait on LDS"},
    [NCU_BARRIER] = {"barrier", NORM_SYNCHRONIZATION, 1,
		     "waits at a CTA barrier for sibling warps: the AMD s_barrier"},
    [NCU_MEMBAR] = {"membar", NORM_SYNCHRONIZATION, 1,
		    "waits on a memory fence: ordering, not data"},
    [NCU_WAIT] = {"wait", NORM_FIXED_LATENCY, 1,
		  "a compile-time fixed-latency dependency: the AMD ALU dependency stall"},
    [NCU_MIO_THROTTLE] = {"mio_throttle", NORM_ISSUE_THROTTLE, 1,
			  "the MIO instruction queue (shared memory, special math) is full: "
			  "issue pressure like AMD lds_issue"},
    [NCU_LG_THROTTLE] = {"lg_throttle", NORM_ISSUE_THROTTLE, 1,
			 "the L1 local/global queue is full: issue pressure like AMD vmem_issue"},
    [NCU_MATH_PIPE_THROTTLE] = {"math_pipe_throttle", NORM_ISSUE_THROTTLE, 1,
				"the execution pipe is busy: the instruction cannot issue yet"},
    [NCU_TEX_THROTTLE] = {"tex_throttle", NORM_ISSUE_THROTTLE, 1,
			  "the texture/surface queue is full"},
    [NCU_DISPATCH_STALL] = {"dispatch_stall", NORM_ISSUE_THROTTLE, 1,
			    "ready but held back by the dispatcher"},
    [NCU_DRAIN] = {"drain", NORM_ISSUE_THROTTLE, 1,
		   "after EXIT, waiting for stores to drain from the memory queues"},
    [NCU_IMC_MISS] = {"imc_miss", NORM_MEMORY_DEPENDENCY, 1,
		      "immediate-constant cache miss: a constant is fetched from memory, like "
		      "an AMD scalar load wait"},
    [NCU_NO_INSTRUCTIONS] = {"no_instructions", NORM_FRONT_END, 1,
			     "instruction cache miss or no instruction fetched yet"},
    [NCU_BRANCH_RESOLVING] = {"branch_resolving", NORM_FRONT_END, 1,
			      "waits for a branch target / PC update"},
    [NCU_SLEEPING] = {"sleeping", NORM_SYNCHRONIZATION, 1,
		      "the warp sleeps or yielded (nanosleep, spin-wait synchronisation)"},
    [NCU_GMMA] = {"gmma", NORM_FIXED_LATENCY, 1,
		  "waits on a warpgroup MMA (Hopper): the AMD MFMA dependency"},
    [NCU_NOT_SELECTED] = {"not_selected", NORM_SCHEDULER, 1,
			  "eligible, but another warp was picked: over-subscription, not a "
			  "latency problem"},
    [NCU_SELECTED] = {"selected", NORM_ISSUED, 0,
		      "not a stall: the warp issued in the sampled cycle"},
    [NCU_MISC] = {"misc", NORM_OTHER, 1, "an unspecified hardware reason"},
    [NCU_UNKNOWN] = {"unknown", NORM_OTHER, 1,
		     "a stall column this version of flyprof does not know"},
};

static const char *const norm_names[NORM__COUNT] = {
    "memory_dependency", "lds_dependency", "synchronization", "issue_throttle", "fixed_latency",
    "front_end",	 "scheduler",	   "issued",	      "other"};

const class_info *classes_of(vendor_id v, size_t *n)
{
	*n = v == VENDOR_NVIDIA ? NCU__COUNT : TAX__COUNT;
	return v == VENDOR_NVIDIA ? nvidia : amd;
}

int class_count(vendor_id v)
{
	return v == VENDOR_NVIDIA ? NCU__COUNT : TAX__COUNT;
}

static const class_info *row(vendor_id v, int id)
{
	size_t n;
	const class_info *t = classes_of(v, &n);
	return id >= 0 && (size_t)id < n ? &t[id] : NULL;
}

const char *class_name(vendor_id v, int id)
{
	const class_info *r = row(v, id);
	if (r)
		return r->name;
	return v == VENDOR_NVIDIA && id < 0 ? "unsampled" : "other";
}

tax_norm class_norm(vendor_id v, int id)
{
	const class_info *r = row(v, id);
	return r ? r->norm : NORM_OTHER;
}

int class_is_stall(vendor_id v, int id)
{
	const class_info *r = row(v, id);
	return r ? r->is_stall : 1;
}

const char *class_meaning(vendor_id v, int id)
{
	const class_info *r = row(v, id);
	return r ? r->meaning : nvidia[NCU_UNKNOWN].meaning;
}

int class_lookup(vendor_id v, const char *name)
{
	size_t n;
	const class_info *t = classes_of(v, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return (int)i;
	return -1;
}

const char *norm_name(tax_norm n)
{
	return (unsigned)n < NORM__COUNT ? norm_names[n] : "other";
}

int norm_lookup(const char *name)
{
	for (int i = 0; i < NORM__COUNT; i++)
		if (strcmp(norm_names[i], name) == 0)
			return i;
	return -1;
}

const char *vendor_name(vendor_id v)
{
	return v == VENDOR_NVIDIA ? "nvidia" : "amd";
}
