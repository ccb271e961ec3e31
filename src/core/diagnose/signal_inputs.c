/* Reading the signals' inputs (rule_signals.h): the stall figures from a stall profile (the live
 * one, or one profile_from_json read back from a bubbles object), and the one place the signals
 * look into counters.json, the occupancy object and the facts. */
#include "core/diagnose/rule_signals.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

double signal_inputs_class_stall(const signal_inputs *in, const char *klass)
{
	for (int v = 0; v < VENDOR__COUNT; v++) {
		int id = class_lookup((vendor_id)v, klass);
		if (id >= 0 && id < SIGNAL_MAX_CLASSES)
			return in->class_stall[v][id];
	}
	return 0;
}

/* The profile's class of this name (either vendor's table names it), or NULL: a class of the
 * other vendor's table that this profile's vendor also has ("barrier") reads the same figures,
 * as a lookup by name in bubbles.classes always did. */
static const prof_class *class_named(const stall_profile *p, const char *name)
{
	int id = p->classes ? class_lookup(p->vendor, name) : -1;
	return id >= 0 ? &p->classes[id] : NULL;
}

static void read_classes(signal_inputs *in, const stall_profile *p)
{
	/* mix.dynamic: the unclassed entry first, then the classes with instructions */
	const char *none = class_name(p->vendor, -1);
	const prof_class *none_class = class_named(p, none);
	if (p->n_unclassed && !(none_class && none_class->hits))
		in->hits += (double)p->unclassed_hits;
	for (int id = 0; p->classes && id < class_count(p->vendor); id++)
		in->hits += (double)p->classes[id].hits;
	/* both vendors' tables by name: a class absent from this trace is 0 */
	for (int v = 0; v < VENDOR__COUNT; v++)
		for (int id = 0; id < class_count((vendor_id)v) && id < SIGNAL_MAX_CLASSES; id++) {
			const char *name = class_name((vendor_id)v, id);
			const prof_class *c = class_named(p, name);
			in->class_stall[v][id] = c ? (double)c->stall : 0;
			in->class_latency[v][id] = c ? (double)c->latency : 0;
			in->class_hits[v][id] = (double)profile_mix_hits(p, name);
		}
	int largest = profile_largest_class(p);
	if (largest >= 0) {
		in->largest_class = class_name(p->vendor, largest);
		in->largest_stall = (double)p->classes[largest].stall;
	}
	for (int id = 0; id < NORM__COUNT; id++)
		in->norm_stall[id] = p->norm[id].used ? (double)p->norm[id].stall : 0;
}

/* The listed waits (the wait order, cut as the bubbles object's "waits" is). */
static void read_waits(signal_inputs *in, const stall_profile *p)
{
	for (size_t k = 0; k < p->n_wait_order; k++)
		for (size_t g = 0; g < PROF_SPLIT__COUNT; g++)
			in->wait_split[g] += (double)p->waits[p->wait_order[k]].split[g];
}

/* VMEM instructions: 1 narrower than 128 bits per lane (no dwordx4 / b128 in the opcode), 2
 * wide, 0 not VMEM. */
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

/* The vmem_issue class's top instructions' stall on VMEM opcodes (AMD: no NVIDIA class has
 * that name). */
static void read_vmem_top(signal_inputs *in, const stall_profile *p)
{
	const prof_class *c = class_named(p, "vmem_issue");
	for (size_t k = 0; c && p->trace && k < c->n_top; k++) {
		int kind = vmem_kind(p->trace->insts[c->top[k].inst].isa);
		double st = (double)c->top[k].stall;
		in->vmem_top += kind ? st : 0;
		in->vmem_top_narrow += kind == 1 ? st : 0;
	}
}

static sig_value num_or_null(const jv *v)
{
	return jv_is_num(v) ? sig_num(jv_num(v)) : sig_null();
}

static void read_occupancy(signal_inputs *in, const jv *occ)
{
	const jv *th = jv_get(occ, "theoretical");
	const jv *ps = jv_get(jv_get(occ, "observed"), "per_simd");
	in->occ[SIGO_THEORETICAL] = num_or_null(jv_get(th, "waves_per_simd"));
	in->occ[SIGO_OBSERVED_MEAN] = num_or_null(jv_get(ps, "mean"));
	in->occ[SIGO_OBSERVED_PEAK] = num_or_null(jv_get(ps, "peak"));
	in->limiter = jv_string(jv_get(th, "limiter"));
	in->max_waves_per_simd = num_or_null(jv_get(th, "max_waves_per_simd"));
}

static void read_counters(signal_inputs *in, const jv *c)
{
	const jv *mem = jv_get(c, "memory");
	in->counter[SIGC_L2_HIT_RATE] = num_or_null(jv_get(mem, "l2_hit_rate"));
	in->counter[SIGC_PARTIAL_32B] = num_or_null(jv_get(mem, "partial_32b_frac"));
	in->counter[SIGC_LDS_BANK_CONFLICT] =
	    num_or_null(jv_get(jv_get(c, "lds"), "bank_conflict_pct"));
	in->counter[SIGC_MFMA_FRAC] = num_or_null(jv_get(jv_get(c, "compute"), "mfma_inst_frac"));
	in->counter[SIGC_HBM_ROOF] = num_or_null(jv_get(mem, "pct_of_hbm_roof"));
	in->calibrated = jv_is_true(jv_get(mem, "calibrated"));
}

/* A value at a dotted path ("launch_geometry.cu_fill_pct"). */
static const jv *at_path(const jv *root, const char *path)
{
	const jv *v = root;
	char key[64];
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = jv_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

static void read_facts(signal_inputs *in, const jv *facts)
{
	for (size_t i = 0; signal_table[i].name && i < SIGNAL_TABLE_MAX; i++) {
		const signal_def *row = &signal_table[i];
		if (row->scope == SIG_SCOPE_KERNEL && row->path) {
			const jv *v = at_path(facts, row->path);
			in->fact_set[i] = jv_type_of(v) == JV_BOOL || jv_is_num(v);
			in->fact[i] =
			    jv_type_of(v) == JV_BOOL ? sig_num(jv_is_true(v)) : num_or_null(v);
		} else if (row->scope == SIG_SCOPE_FACT_CLASS) {
			struct sig_fact_classes *l = &in->fact_classes[row->arg];
			const jv *arr = jv_get(jv_get(facts, row->path), "classes");
			l->v = xcalloc(jv_len(arr) ? jv_len(arr) : 1, sizeof *l->v);
			for (size_t k = 0; k < jv_len(arr); k++) {
				const char *c = jv_string(jv_get(jv_at(arr, k), "class"));
				const jv *v = jv_get(jv_at(arr, k), row->key);
				if (c && jv_is_num(v))
					l->v[l->n++] = (sig_fact_class){c, jv_num(v)};
			}
		}
	}
}

void signal_inputs_fill(signal_inputs *in, const stall_profile *p, const jv *counters,
			const jv *occupancy, const jv *facts)
{
	memset(in, 0, sizeof *in);
	in->vendor = p->vendor;
	in->has_counters = counters != NULL;
	in->stall = (double)p->totals.stall;
	in->latency = (double)p->totals.latency;
	in->idle = (double)p->totals.idle;
	read_classes(in, p);
	read_waits(in, p);
	read_vmem_top(in, p);
	read_occupancy(in, occupancy);
	read_counters(in, counters);
	read_facts(in, facts);
}

void signal_inputs_release(signal_inputs *in)
{
	for (size_t i = 0; i < SIGF__COUNT; i++)
		free(in->fact_classes[i].v);
	memset(in, 0, sizeof *in);
}
