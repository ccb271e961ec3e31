/* Reading the signals' inputs from the documents at the edge (rule_signals.h): the one place the
 * signals look into the bubbles object, counters.json, the occupancy object and the facts. */
#include "core/diagnose/rule_signals.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const jv *find_class(const jv *arr, const char *name)
{
	for (size_t i = 0; i < jv_len(arr); i++) {
		const char *c = jv_string(jv_get(jv_at(arr, i), "class"));
		if (c && strcmp(c, name) == 0)
			return jv_at(arr, i);
	}
	return NULL;
}

double signal_inputs_class_stall(const signal_inputs *in, const char *klass)
{
	for (int v = 0; v < VENDOR__COUNT; v++) {
		int id = class_lookup((vendor_id)v, klass);
		if (id >= 0 && id < SIGNAL_MAX_CLASSES)
			return in->class_stall[v][id];
	}
	return 0;
}

/* The first class with the most stall (none when nothing stalls). */
static void read_largest(signal_inputs *in, const jv *classes)
{
	double best = 0;
	for (size_t i = 0; i < jv_len(classes); i++) {
		double s = jv_num(jv_get(jv_at(classes, i), "stall"));
		if (s > best)
			best = s, in->largest_class = jv_string(jv_get(jv_at(classes, i), "class"));
	}
	if (in->largest_class)
		in->largest_stall = jv_num(jv_get(find_class(classes, in->largest_class), "stall"));
}

static void read_classes(signal_inputs *in, const jv *b)
{
	const jv *dyn = jv_get(jv_get(b, "mix"), "dynamic");
	for (size_t i = 0; jv_type_of(dyn) == JV_OBJECT && i < jv_len(dyn); i++)
		in->hits += jv_num(jv_value_at(dyn, i));
	/* both vendors' tables by name: a class absent from this trace is 0 */
	for (int v = 0; v < VENDOR__COUNT; v++)
		for (int id = 0; id < class_count((vendor_id)v) && id < SIGNAL_MAX_CLASSES; id++) {
			const char *c = class_name((vendor_id)v, id);
			const jv *ce = find_class(jv_get(b, "classes"), c);
			in->class_stall[v][id] = jv_num(jv_get(ce, "stall"));
			in->class_latency[v][id] = jv_num(jv_get(ce, "latency"));
			in->class_hits[v][id] = jv_num(jv_get(dyn, c));
		}
	read_largest(in, jv_get(b, "classes"));
	const jv *norm = jv_get(b, "normalized");
	for (int id = 0; id < NORM__COUNT; id++)
		in->norm_stall[id] =
		    jv_num(jv_get(find_class(norm, norm_name((tax_norm)id)), "stall"));
}

static void read_waits(signal_inputs *in, const jv *b)
{
	static const char *const group[PROF_SPLIT__COUNT] = {[PROF_SPLIT_MEMORY] = "memory",
							     [PROF_SPLIT_LDS] = "lds",
							     [PROF_SPLIT_SMEM] = "smem",
							     [PROF_SPLIT_OTHER] = "other"};
	const jv *waits = jv_get(b, "waits");
	for (size_t i = 0; i < jv_len(waits); i++)
		for (size_t g = 0; g < PROF_SPLIT__COUNT; g++)
			in->wait_split[g] +=
			    jv_num(jv_get(jv_get(jv_at(waits, i), "split"), group[g]));
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

/* The vmem_issue class's listed top stall on VMEM opcodes (the last vmem_issue entry's list,
 * as it always was). */
static void read_vmem_top(signal_inputs *in, const jv *b)
{
	const jv *arr = jv_get(b, "classes");
	const jv *top = NULL;
	for (size_t i = 0; i < jv_len(arr); i++)
		if (jv_string(jv_get(jv_at(arr, i), "class")) &&
		    strcmp(jv_string(jv_get(jv_at(arr, i), "class")), "vmem_issue") == 0)
			top = jv_get(jv_at(arr, i), "top");
	for (size_t i = 0; i < jv_len(top); i++) {
		int k = vmem_kind(jv_string(jv_get(jv_at(top, i), "isa")));
		double st = jv_num(jv_get(jv_at(top, i), "stall"));
		in->vmem_top += k ? st : 0;
		in->vmem_top_narrow += k == 1 ? st : 0;
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

void signal_inputs_read(signal_inputs *in, const jv *bubbles, const jv *counters,
			const jv *occupancy, const jv *facts)
{
	memset(in, 0, sizeof *in);
	const char *be = jv_string(jv_get(bubbles, "backend"));
	in->vendor = be && strcmp(be, "nvidia") == 0 ? VENDOR_NVIDIA : VENDOR_AMD;
	in->has_counters = counters != NULL;
	const jv *tot = jv_get(bubbles, "totals");
	in->stall = jv_num(jv_get(tot, "stall"));
	in->latency = jv_num(jv_get(tot, "latency"));
	in->idle = jv_num(jv_get(tot, "idle"));
	read_classes(in, bubbles);
	read_waits(in, bubbles);
	read_vmem_top(in, bubbles);
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
