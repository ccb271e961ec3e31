/* The one bound verdict (bound.h). Thresholds are named here once so the docs, tests and the
 * code agree. */
#include "bound.h"

#include "rule_signals.h"

#include <stdio.h>
#include <string.h>

#define MFMA_FRAC_COMPUTE 0.5  /* counters: MFMA share of instructions */
#define HBM_ROOF_MEMORY	  70.0 /* counters: % of calibrated HBM roof */
#define L2_HIT_MEMORY	  50.0 /* counters: L2 hit rate in % */
#define MFMA_LAT_COMPUTE  40.0 /* trace: mfma class % of totals.latency */
#define MEM_STALL_MEMORY  40.0 /* trace: vmem_wait + vmem_issue % of totals.stall */
#define SHARE_HIGH	  60.0

static int counters_decide(const jv *c, bound_verdict *v)
{
	const jv *mem = jv_get(c, "memory");
	const jv *cal = jv_get(mem, "calibrated");
	v->calibrated = cal && cal->type == JV_BOOL ? cal->v.b : 0;
	const jv *mf = jv_get(jv_get(c, "compute"), "mfma_inst_frac");
	const jv *roof = jv_get(mem, "pct_of_hbm_roof");
	const jv *l2 = jv_get(mem, "l2_hit_rate");
	v->basis = "counters";
	if (jv_is_num(mf) && jv_num(mf) >= MFMA_FRAC_COMPUTE) {
		v->bound = "compute", v->confidence = "medium", v->share = jv_num(mf);
		snprintf(v->why, sizeof v->why,
			 "counters: MFMA instructions are %.1f%% of instructions (>= %.0f%%)",
			 100 * jv_num(mf), 100 * MFMA_FRAC_COMPUTE);
		return 1;
	}
	if (v->calibrated && jv_is_num(roof) && jv_num(roof) >= HBM_ROOF_MEMORY) {
		v->bound = "memory", v->confidence = "high", v->share = jv_num(roof);
		snprintf(v->why, sizeof v->why,
			 "counters: calibrated HBM traffic at %.1f%% of the HBM roof (>= %.0f%%)",
			 jv_num(roof), HBM_ROOF_MEMORY);
		return 1;
	}
	if (jv_is_num(l2) && jv_num(l2) < L2_HIT_MEMORY) {
		v->bound = "memory", v->confidence = "medium", v->share = jv_num(l2);
		snprintf(v->why, sizeof v->why, "counters: L2 hit rate %.1f%% (< %.0f%%)",
			 jv_num(l2), L2_HIT_MEMORY);
		return 1;
	}
	return 0;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static double class_latency(const jv *b, const char *klass)
{
	const jv *arr = jv_get(b, "classes");
	for (size_t i = 0; i < jv_len(arr); i++) {
		const char *c = jv_string(jv_get(jv_at(arr, i), "class"));
		if (c && strcmp(c, klass) == 0)
			return jv_num(jv_get(jv_at(arr, i), "latency"));
	}
	return 0;
}

static void trace_decide(const jv *b, bound_verdict *v, const char *prefix)
{
	const jv *tot = jv_get(b, "totals");
	double lat = jv_num(jv_get(tot, "latency")), stall = jv_num(jv_get(tot, "stall"));
	v->basis = "trace";
	if (lat <= 0) {
		v->bound = "unknown", v->confidence = "low", v->share = -1;
		snprintf(v->why, sizeof v->why, "%strace: no latency cycles to judge from", prefix);
		return;
	}
	double mfma = pct(class_latency(b, "mfma"), lat);
	double mem = pct(rule_signals_class_stall(b, "vmem_wait") +
			     rule_signals_class_stall(b, "vmem_issue"),
			 stall);
	if (mfma >= MFMA_LAT_COMPUTE) {
		v->bound = "compute", v->share = mfma;
		v->confidence = mfma >= SHARE_HIGH ? "high" : "medium";
		snprintf(v->why, sizeof v->why,
			 "%strace: mfma instructions hold %.1f%% of total wave latency (>= %.0f%%)",
			 prefix, mfma, MFMA_LAT_COMPUTE);
	} else if (mem >= MEM_STALL_MEMORY) {
		v->bound = "memory", v->share = mem;
		v->confidence = mem >= SHARE_HIGH ? "high" : "medium";
		snprintf(v->why, sizeof v->why,
			 "%strace: vmem_wait + vmem_issue hold %.1f%% of stall cycles (>= %.0f%%); "
			 "the trace cannot tell bandwidth from latency, counters can",
			 prefix, mem, MEM_STALL_MEMORY);
	} else {
		v->bound = "latency", v->confidence = "low", v->share = mem;
		snprintf(
		    v->why, sizeof v->why,
		    "%strace: neither memory (vmem %.1f%% of stall cycles) nor mfma (%.1f%% of "
		    "latency) dominates",
		    prefix, mem, mfma);
	}
}

void bound_decide(const jv *bubbles, const jv *counters, bound_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->calibrated = -1;
	v->share = -1;
	if (counters && counters_decide(counters, v))
		return;
	trace_decide(bubbles, v, counters ? "counters inconclusive; " : "");
}

jv *bound_to_jv(const bound_verdict *v)
{
	jv *o = jv_object();
	jv_set_str(o, "bound", v->bound);
	jv_set_str(o, "basis", v->basis);
	jv_set_str(o, "confidence", v->confidence);
	jv_set(o, "calibrated", v->calibrated < 0 ? jv_null() : jv_bool(v->calibrated));
	jv_set_str(o, "why", v->why);
	return o;
}

int bound_gates(const bound_verdict *v)
{
	return strcmp(v->bound, "unknown") != 0;
}
