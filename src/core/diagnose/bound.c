/* The one bound verdict (bound.h). Thresholds are named here once so the docs, tests and the
 * code agree. */
#include "core/diagnose/bound.h"

#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/rule_signals.h"

#include <stdio.h>
#include <string.h>

#define MFMA_FRAC_COMPUTE 0.5  /* counters: MFMA share of instructions */
#define HBM_ROOF_MEMORY	  70.0 /* counters: % of calibrated HBM roof */
#define L2_HIT_MEMORY	  50.0 /* counters: L2 hit rate in % */
#define MFMA_LAT_COMPUTE  40.0 /* trace: matrix (mfma / tensor) % of totals.latency */
#define MEM_STALL_MEMORY  40.0 /* trace: global-memory classes % of totals.stall */
#define SHARE_HIGH	  60.0

static int counters_decide(const signal_inputs *in, bound_verdict *v)
{
	const sig_value *mf = &in->counter[SIGC_MFMA_FRAC];
	const sig_value *roof = &in->counter[SIGC_HBM_ROOF];
	const sig_value *l2 = &in->counter[SIGC_L2_HIT_RATE];
	v->calibrated = in->calibrated;
	v->basis = "counters";
	if (sig_is_num(mf) && mf->num >= MFMA_FRAC_COMPUTE) {
		v->bound = "compute", v->confidence = "medium", v->share = mf->num;
		snprintf(v->why, sizeof v->why,
			 "counters: MFMA instructions are %.1f%% of instructions (>= %.0f%%)",
			 100 * mf->num, 100 * MFMA_FRAC_COMPUTE);
		return 1;
	}
	if (v->calibrated && sig_is_num(roof) && roof->num >= HBM_ROOF_MEMORY) {
		v->bound = "memory", v->confidence = "high", v->share = roof->num;
		snprintf(v->why, sizeof v->why,
			 "counters: calibrated HBM traffic at %.1f%% of the HBM roof (>= %.0f%%)",
			 roof->num, HBM_ROOF_MEMORY);
		return 1;
	}
	if (sig_is_num(l2) && l2->num < L2_HIT_MEMORY) {
		v->bound = "memory", v->confidence = "medium", v->share = l2->num;
		snprintf(v->why, sizeof v->why, "counters: L2 hit rate %.1f%% (< %.0f%%)", l2->num,
			 L2_HIT_MEMORY);
		return 1;
	}
	return 0;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* The memory measure per backend: the native classes that are a global-memory dependency
 * (normalised memory_dependency without the scalar / constant loads: AMD smem_wait and NVIDIA
 * imc_miss wait on kernel arguments and constants, not on the data stream) plus the
 * global-memory issue throttle (the part of issue_throttle that is the memory queue). -1 ends
 * a list. */
static const int mem_amd[] = {TAX_VMEM_WAIT, TAX_VMEM_ISSUE, -1};
static const int mem_nvidia[] = {NCU_LONG_SCOREBOARD, NCU_LG_THROTTLE, NCU_TEX_THROTTLE, -1};

static double sum_stall(const signal_inputs *in, vendor_id v, const int *classes)
{
	double s = 0;
	for (size_t i = 0; classes[i] >= 0; i++)
		s += in->class_stall[v][classes[i]];
	return s;
}

typedef struct shares {
	int nvidia;
	double mem, matrix; /* matrix < 0: unknown */
	const char *mem_what, *matrix_what, *stall_unit, *lat_unit;
} shares;

static void measure(const signal_inputs *in, const kernel_traits *traits, shares *m)
{
	m->nvidia = in->vendor == VENDOR_NVIDIA;
	if (!m->nvidia) {
		m->mem = pct(sum_stall(in, VENDOR_AMD, mem_amd), in->stall);
		m->matrix = pct(in->class_latency[VENDOR_AMD][TAX_MFMA], in->latency);
		m->mem_what = "vmem_wait + vmem_issue", m->matrix_what = "mfma instructions";
		m->stall_unit = "stall cycles", m->lat_unit = "total wave latency";
		return;
	}
	m->mem = pct(sum_stall(in, VENDOR_NVIDIA, mem_nvidia), in->stall);
	int64_t ml = traits ? traits->evidence.matrix_latency : -1;
	m->matrix = ml >= 0 ? pct((double)ml, in->latency) : -1;
	m->mem_what = "long_scoreboard + lg_throttle + tex_throttle";
	m->matrix_what = "tensor-core instructions (HMMA/HGMMA/IMMA/...)";
	m->stall_unit = "stall samples", m->lat_unit = "all warp-state samples";
}

static void trace_decide(const signal_inputs *in, const kernel_traits *traits, bound_verdict *v,
			 const char *prefix)
{
	shares m;
	measure(in, traits, &m);
	v->basis = "trace";
	if (in->latency <= 0) {
		v->bound = "unknown", v->confidence = "low", v->share = -1;
		snprintf(v->why, sizeof v->why, "%strace: no %s to judge from", prefix,
			 m.nvidia ? "warp-state samples" : "latency cycles");
		return;
	}
	char mx[96];
	if (m.matrix < 0)
		snprintf(mx, sizeof mx,
			 "matrix share unknown: no SASS to look for tensor-core "
			 "instructions");
	else
		snprintf(mx, sizeof mx, "%s %.1f%% of %s", m.nvidia ? "tensor" : "mfma", m.matrix,
			 m.lat_unit);
	if (m.matrix >= MFMA_LAT_COMPUTE) {
		v->bound = "compute", v->share = m.matrix;
		v->confidence = m.matrix >= SHARE_HIGH ? "high" : "medium";
		snprintf(v->why, sizeof v->why, "%strace: %s hold %.1f%% of %s (>= %.0f%%)", prefix,
			 m.matrix_what, m.matrix, m.lat_unit, MFMA_LAT_COMPUTE);
	} else if (m.mem >= MEM_STALL_MEMORY) {
		v->bound = "memory", v->share = m.mem;
		v->confidence = m.mem >= SHARE_HIGH ? "high" : "medium";
		snprintf(v->why, sizeof v->why,
			 "%strace: %s hold %.1f%% of %s (>= %.0f%%); "
			 "the trace cannot tell bandwidth from latency, counters can",
			 prefix, m.mem_what, m.mem, m.stall_unit, MEM_STALL_MEMORY);
	} else {
		v->bound = "latency", v->confidence = "low", v->share = m.mem;
		snprintf(v->why, sizeof v->why,
			 "%strace: neither memory (%s %.1f%% of %s) nor matrix (%s) dominates",
			 prefix, m.mem_what, m.mem, m.stall_unit, mx);
	}
}

void bound_decide_inputs(const signal_inputs *in, const kernel_traits *traits, bound_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->calibrated = -1;
	v->share = -1;
	if (in->has_counters && counters_decide(in, v))
		return;
	trace_decide(in, traits, v, in->has_counters ? "counters inconclusive; " : "");
}

void bound_decide(const stall_profile *p, const jv *counters, bound_verdict *v)
{
	stall_profile none;
	if (!p) {
		profile_init(&none, VENDOR_AMD, UNIT_CYCLES, NULL);
		p = &none;
	}
	signal_inputs in;
	signal_inputs_fill(&in, p, counters, NULL, NULL);
	bound_decide_inputs(&in, NULL, v);
	signal_inputs_release(&in);
	if (p == &none)
		profile_release(&none);
}

jv *bound_to_jv(const bound_verdict *v)
{
	jv *o = jv_object();
	const jv_str_field f[] = {
	    {"bound", v->bound}, {"basis", v->basis}, {"confidence", v->confidence}};
	jv_set_strs(o, f, sizeof f / sizeof f[0]);
	jv_set(o, "calibrated", jv_bool_or_null(v->calibrated));
	jv_set_str(o, "why", v->why);
	return o;
}

int bound_gates(const bound_verdict *v)
{
	return strcmp(v->bound, "unknown") != 0;
}
