/* Building the flat signals object the rules read (rule_signals.h). */
#include "core/diagnose/rule_signals.h"

#include "core/diagnose/rules.h"

#include <stdio.h>
#include <string.h>

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static const jv *find_class(const jv *arr, const char *key, const char *name)
{
	for (size_t i = 0; i < jv_len(arr); i++) {
		const char *c = jv_string(jv_get(jv_at(arr, i), key));
		if (c && strcmp(c, name) == 0)
			return jv_at(arr, i);
	}
	return NULL;
}

double rule_signals_class_stall(const jv *bubbles, const char *klass)
{
	return jv_num(jv_get(find_class(jv_get(bubbles, "classes"), "class", klass), "stall"));
}

static void set_pct(jv *s, const char *cls, const char *what, double v)
{
	char key[96];
	snprintf(key, sizeof key, "%s.%s", cls, what);
	jv_set_round(s, key, v, 2);
}

static void class_signals(jv *s, const jv *b)
{
	const jv *tot = jv_get(b, "totals");
	double stall = jv_num(jv_get(tot, "stall")), lat = jv_num(jv_get(tot, "latency"));
	const jv *dyn = jv_get(jv_get(b, "mix"), "dynamic");
	double hits = 0;
	for (size_t i = 0; jv_type_of(dyn) == JV_OBJECT && i < jv_len(dyn); i++)
		hits += jv_num(jv_value_at(dyn, i));
	/* both vendors' native names (a class absent from this trace is 0; "barrier" is in
	 * both lists and is set twice with the same value) */
	const char *const *lists[] = {rules_native_classes, rules_nvidia_classes};
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; lists[l][i]; i++) {
			const char *c = lists[l][i];
			double cs = rule_signals_class_stall(b, c);
			set_pct(s, c, "pct_of_stall", pct(cs, stall));
			set_pct(s, c, "stall_pct_of_latency", pct(cs, lat));
			set_pct(s, c, "pct_of_hits", pct(jv_num(jv_get(dyn, c)), hits));
		}
	const jv *norm = jv_get(b, "normalized");
	for (size_t i = 0; rules_normalized_classes[i]; i++) {
		const char *c = rules_normalized_classes[i];
		double cs = jv_num(jv_get(find_class(norm, "class", c), "stall"));
		set_pct(s, c, "pct_of_stall", pct(cs, stall));
		set_pct(s, c, "stall_pct_of_latency", pct(cs, lat));
	}
	jv_set_round(s, "totals.stall_pct_of_latency", pct(stall, lat), 2);
	jv_set_round(s, "totals.idle_pct_of_latency", pct(jv_num(jv_get(tot, "idle")), lat), 2);
}

static void wait_signals(jv *s, const jv *b)
{
	const jv *waits = jv_get(b, "waits");
	double mem = 0, lds = 0, smem = 0, all = 0;
	for (size_t i = 0; i < jv_len(waits); i++) {
		const jv *sp = jv_get(jv_at(waits, i), "split");
		mem += jv_num(jv_get(sp, "memory"));
		lds += jv_num(jv_get(sp, "lds"));
		smem += jv_num(jv_get(sp, "smem"));
		all += jv_num(jv_get(sp, "memory")) + jv_num(jv_get(sp, "lds")) +
		       jv_num(jv_get(sp, "smem")) + jv_num(jv_get(sp, "other"));
	}
	if (all <= 0)
		return;
	jv_set_round(s, "waits.memory_pct", pct(mem, all), 2);
	jv_set_round(s, "waits.lds_pct", pct(lds, all), 2);
	jv_set_round(s, "waits.smem_pct", pct(smem, all), 2);
}

/* VMEM instructions narrower than 128 bits per lane (no dwordx4 / b128 in the opcode). */
static int vmem_kind(const char *isa)
{
	static const char *const pre[] = {"buffer_load",  "buffer_store", "global_load",
					  "global_store", "flat_load",	  "flat_store"};
	for (size_t i = 0; isa && i < 6; i++)
		if (strncmp(isa, pre[i], strlen(pre[i])) == 0) {
			size_t n = strcspn(isa, " ");
			int wide = (strstr(isa, "x4") && (size_t)(strstr(isa, "x4") - isa) < n) ||
				   (strstr(isa, "b128") && (size_t)(strstr(isa, "b128") - isa) < n);
			return wide ? 2 : 1;
		}
	return 0;
}

/* Share of the vmem_issue class's listed top stall that sits on narrow VMEM instructions:
 * tells "widen the loads" apart from "the queue is full of wide loads". */
static void narrow_signal(jv *s, const jv *b)
{
	const jv *arr = jv_get(b, "classes");
	const jv *top = NULL;
	for (size_t i = 0; i < jv_len(arr); i++)
		if (jv_string(jv_get(jv_at(arr, i), "class")) &&
		    strcmp(jv_string(jv_get(jv_at(arr, i), "class")), "vmem_issue") == 0)
			top = jv_get(jv_at(arr, i), "top");
	double narrow = 0, all = 0;
	for (size_t i = 0; i < jv_len(top); i++) {
		int k = vmem_kind(jv_string(jv_get(jv_at(top, i), "isa")));
		double st = jv_num(jv_get(jv_at(top, i), "stall"));
		all += k ? st : 0;
		narrow += k == 1 ? st : 0;
	}
	if (all > 0)
		jv_set_round(s, "vmem_issue.narrow_top_pct", pct(narrow, all), 2);
}

static void occupancy_signals(jv *s, const jv *occ)
{
	const jv *th = jv_get(occ, "theoretical");
	if (jv_is_num(jv_get(th, "waves_per_simd")))
		jv_set(s, "occupancy.theoretical_waves_per_simd",
		       jv_copy(jv_get(th, "waves_per_simd")));
	if (jv_string(jv_get(th, "limiter")))
		jv_set_str(s, "occupancy.limiter", jv_string(jv_get(th, "limiter")));
	const jv *ps = jv_get(jv_get(occ, "observed"), "per_simd");
	if (jv_is_num(jv_get(ps, "mean")))
		jv_set_round(s, "occupancy.observed_mean_per_simd", jv_num(jv_get(ps, "mean")), 3);
	if (jv_is_num(jv_get(ps, "peak")))
		jv_set_round(s, "occupancy.observed_peak_per_simd", jv_num(jv_get(ps, "peak")), 3);
}

static void copy_num(jv *s, const char *key, const jv *v)
{
	if (jv_is_num(v))
		jv_set(s, key, jv_copy(v));
}

static void counter_signals(jv *s, const jv *c)
{
	if (!c)
		return;
	const jv *mem = jv_get(c, "memory");
	copy_num(s, "counters.l2_hit_rate", jv_get(mem, "l2_hit_rate"));
	copy_num(s, "counters.partial_32b_frac", jv_get(mem, "partial_32b_frac"));
	copy_num(s, "counters.lds_bank_conflict_pct",
		 jv_get(jv_get(c, "lds"), "bank_conflict_pct"));
	copy_num(s, "counters.mfma_inst_frac", jv_get(jv_get(c, "compute"), "mfma_inst_frac"));
	const jv *cal = jv_get(mem, "calibrated");
	if (jv_is_true(cal)) /* never decide on uncalibrated bandwidth */
		copy_num(s, "counters.pct_of_hbm_roof", jv_get(mem, "pct_of_hbm_roof"));
}

jv *rule_signals_build(const jv *bubbles, const jv *counters, const jv *occupancy)
{
	jv *s = jv_object();
	class_signals(s, bubbles);
	wait_signals(s, bubbles);
	narrow_signal(s, bubbles);
	occupancy_signals(s, occupancy);
	counter_signals(s, counters);
	return s;
}
