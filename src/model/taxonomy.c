#include "model/taxonomy.h"

#include "model/trace.h"

#include <string.h>

static const char *const prod_names[PROD__COUNT] = {"VMEM", "FLAT", "LDS", "SMEM", "OTHER"};

const char *tax_class_name(tax_class c)
{
	return class_name(VENDOR_AMD, (int)c);
}

const char *tax_norm_name(tax_norm n)
{
	return norm_name(n);
}

const char *tax_prod_name(tax_prod p)
{
	return (unsigned)p < PROD__COUNT ? prod_names[p] : "OTHER";
}

int tax_class_lookup(const char *name)
{
	return class_lookup(VENDOR_AMD, name);
}

tax_norm tax_normalize(tax_class c)
{
	return class_norm(VENDOR_AMD, (int)c);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int starts_any(const char *s, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (starts(s, *prefixes))
			return 1;
	return 0;
}

int tax_is_wait(const char *isa)
{
	if (starts(isa, "s_waitcnt"))
		return 1;
	/* gfx12 splits the counters: s_wait_loadcnt, s_wait_dscnt, ..., s_wait_idle. */
	return starts(isa, "s_wait_") && !starts(isa, "s_wait_event");
}

unsigned tax_wait_counters(const char *isa)
{
	static const char *const vm[] = {"vmcnt",     "vscnt",	"loadcnt", "storecnt",
					 "samplecnt", "bvhcnt", NULL};
	static const char *const lgkm[] = {"lgkmcnt", "dscnt", "kmcnt", NULL};
	unsigned bits = 0;
	for (int i = 0; vm[i]; i++)
		if (strstr(isa, vm[i]))
			bits |= WAIT_VM;
	for (int i = 0; lgkm[i]; i++)
		if (strstr(isa, lgkm[i]))
			bits |= WAIT_LGKM;
	if (strstr(isa, "expcnt"))
		bits |= WAIT_EXP;
	return bits ? bits : WAIT_VM | WAIT_LGKM | WAIT_EXP;
}

int tax_is_smem_text(const char *isa)
{
	static const char *const p[] = {
	    "s_load",	 "s_buffer_load", "s_store",  "s_buffer_store", "s_dcache",
	    "s_memtime", "s_memrealtime", "s_atomic", "s_scratch",	NULL};
	return starts_any(isa, p);
}

static int is_vmem_text(const char *isa)
{
	static const char *const p[] = {"buffer_", "global_", "scratch_", "tbuffer_",
					"flat_",   "image_",  NULL};
	return starts_any(isa, p);
}

static tax_class from_category(int category)
{
	switch (category) {
	case TRACE_CAT_SMEM:
		return TAX_SMEM_ISSUE;
	case TRACE_CAT_SALU:
		return TAX_SALU;
	case TRACE_CAT_VMEM:
	case TRACE_CAT_FLAT:
		return TAX_VMEM_ISSUE;
	case TRACE_CAT_LDS:
		return TAX_LDS_ISSUE;
	case TRACE_CAT_VALU:
		return TAX_VALU;
	case TRACE_CAT_JUMP:
	case TRACE_CAT_NEXT:
		return TAX_BRANCH;
	case TRACE_CAT_MESSAGE:
		return TAX_MESSAGE;
	default:
		return TAX__COUNT; /* IMMED, NONE, CONTEXT, BVH, unknown: decide from the text */
	}
}

static tax_class from_text(const char *isa)
{
	static const char *const branch[] = {"s_branch", "s_cbranch", "s_setpc",
					     "s_swappc", "s_call",    NULL};
	static const char *const msg[] = {"s_sendmsg", "s_ttracedata", NULL};
	if (is_vmem_text(isa))
		return TAX_VMEM_ISSUE;
	if (starts(isa, "ds_"))
		return TAX_LDS_ISSUE;
	if (tax_is_smem_text(isa))
		return TAX_SMEM_ISSUE;
	if (starts_any(isa, branch))
		return TAX_BRANCH;
	if (starts_any(isa, msg))
		return TAX_MESSAGE;
	if (starts(isa, "v_"))
		return TAX_VALU;
	if (starts(isa, "s_") && !starts(isa, "s_endpgm") && !starts(isa, "s_trap") &&
	    !starts(isa, "s_icache"))
		return TAX_SALU;
	return TAX_OTHER;
}

tax_class tax_classify(const char *isa, int category)
{
	if (tax_is_wait(isa))
		return tax_wait_counters(isa) & (WAIT_VM | WAIT_EXP) ? TAX_VMEM_WAIT : TAX_LDS_WAIT;
	if (starts(isa, "s_barrier"))
		return TAX_BARRIER;
	if (starts(isa, "v_mfma") || starts(isa, "v_smfma"))
		return TAX_MFMA;
	if (starts(isa, "s_nop") || starts(isa, "s_sleep"))
		return TAX_NOP;
	tax_class c = from_category(category);
	return c != TAX__COUNT ? c : from_text(isa);
}

tax_prod tax_producer_type(const char *isa, int category)
{
	switch (category) {
	case TRACE_CAT_VMEM:
		return PROD_VMEM;
	case TRACE_CAT_FLAT:
		return PROD_FLAT;
	case TRACE_CAT_LDS:
		return PROD_LDS;
	case TRACE_CAT_SMEM:
		return PROD_SMEM;
	default:
		break;
	}
	if (starts(isa, "flat_"))
		return PROD_FLAT;
	if (is_vmem_text(isa))
		return PROD_VMEM;
	if (starts(isa, "ds_"))
		return PROD_LDS;
	if (tax_is_smem_text(isa))
		return PROD_SMEM;
	return PROD_OTHER;
}
