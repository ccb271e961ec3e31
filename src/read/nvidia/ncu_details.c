/* Nsight Compute details-page reader (ncu_details.h). */
#include "read/nvidia/ncu_details.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/xalloc.h"
#include "read/nvidia/ncu_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_ID, C_KERNEL, C_BLOCK, C_GRID, C_CC, C_SECTION, C_MNAME, C_MUNIT, C_MVALUE, C__N };
static const char *const col_names[C__N] = {"ID",	   "Kernel Name", "Block Size",
					    "Grid Size",   "CC",	  "Section Name",
					    "Metric Name", "Metric Unit", "Metric Value"};
enum { R_NAME, R_TYPE, R_DESC, R_SPTYPE, R_SPEEDUP, R__N };
static const char *const rule_cols[R__N] = {"Rule Name", "Rule Type", "Rule Description",
					    "Estimated Speedup Type", "Estimated Speedup"};

typedef struct cols {
	long c[C__N], r[R__N];
} cols;

static int find_cols(const ncu_csv *c, const ncu_csv_row *h, cols *k, fp_err *e)
{
	for (int i = 0; i < C__N; i++) {
		k->c[i] = ncu_csv_col(h, col_names[i]);
		if (k->c[i] < 0 && i >= C_SECTION) /* ID/kernel/launch columns are optional */
			return ncu_csv_fail_at(c, h, 0, e, "an ncu details-page header",
					       "details header lacks the column \"%s\"",
					       col_names[i]);
	}
	for (int i = 0; i < R__N; i++)
		k->r[i] = ncu_csv_col(h, rule_cols[i]);
	return 0;
}

static char *get(const ncu_csv_row *r, long col)
{
	return xstrdup(col < 0 ? "" : ncu_csv_get(r, (size_t)col));
}

/* "9.0" -> "sm_90"; NULL when it does not look like a compute capability. */
static char *arch_of_cc(const char *cc)
{
	const char *dot = strchr(cc, '.');
	if (!dot || dot == cc || !dot[1] || strlen(cc) > 8)
		return NULL;
	for (const char *p = cc; *p; p++)
		if (p != dot && (*p < '0' || *p > '9'))
			return NULL;
	char buf[16];
	snprintf(buf, sizeof buf, "sm_%.*s%s", (int)(dot - cc), cc, dot + 1);
	return xstrdup(buf);
}

static void add_rule(ncu_details *d, const ncu_csv_row *r, const cols *k)
{
	d->r = xreallocarray(d->r, d->n_r + 1, sizeof *d->r);
	ncu_rule *x = &d->r[d->n_r++];
	memset(x, 0, sizeof *x);
	x->section = get(r, k->c[C_SECTION]);
	x->name = get(r, k->r[R_NAME]);
	x->type = get(r, k->r[R_TYPE]);
	x->description = get(r, k->r[R_DESC]);
	x->speedup_type = get(r, k->r[R_SPTYPE]);
	if (k->r[R_SPEEDUP] >= 0)
		x->has_speedup =
		    ncu_csv_number(ncu_csv_get(r, (size_t)k->r[R_SPEEDUP]), &x->speedup);
}

static void add_metric(ncu_details *d, const ncu_csv_row *r, const cols *k)
{
	d->m = xreallocarray(d->m, d->n_m + 1, sizeof *d->m);
	ncu_metric *x = &d->m[d->n_m++];
	x->section = get(r, k->c[C_SECTION]);
	x->name = get(r, k->c[C_MNAME]);
	x->unit = get(r, k->c[C_MUNIT]);
	x->value = get(r, k->c[C_MVALUE]);
	x->num = 0;
	x->is_num = ncu_csv_number(x->value, &x->num);
}

static void first_kernel(ncu_details *d, const ncu_csv_row *r, const cols *k)
{
	d->id = get(r, k->c[C_ID]);
	d->kernel = get(r, k->c[C_KERNEL]);
	d->block_size = get(r, k->c[C_BLOCK]);
	d->grid_size = get(r, k->c[C_GRID]);
	d->cc = get(r, k->c[C_CC]);
	d->arch = arch_of_cc(d->cc);
}

static int rows(const ncu_csv *c, void *arg, fp_err *e)
{
	ncu_details *d = arg;
	if (c->n_rows == 0)
		return fp_fail(e, ERR_EMPTY_ATT, "%s is empty", c->name);
	cols k;
	if (find_cols(c, &c->rows[0], &k, e))
		return -1;
	for (size_t i = 1; i < c->n_rows; i++) {
		const ncu_csv_row *r = &c->rows[i];
		if (!d->id)
			first_kernel(d, r, &k);
		if (k.c[C_ID] >= 0 && strcmp(ncu_csv_get(r, (size_t)k.c[C_ID]), d->id) != 0) {
			d->extra_kernels++;
			continue;
		}
		const char *rule = k.r[R_NAME] >= 0 ? ncu_csv_get(r, (size_t)k.r[R_NAME]) : "";
		if (rule[0])
			add_rule(d, r, &k);
		else if (ncu_csv_get(r, (size_t)k.c[C_MNAME])[0])
			add_metric(d, r, &k);
	}
	if (d->n_m == 0)
		return fp_fail(e, ERR_EMPTY_ATT, "%s has no metric rows", c->name);
	return 0;
}

int ncu_details_read(const char *buf, size_t len, const char *name, ncu_details *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	int rc = ncu_csv_walk(buf, len, name, rows, out, e);
	if (rc)
		ncu_details_release(out);
	return rc;
}

int ncu_details_read_file(const char *path, ncu_details *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CSV, &len, e);
	if (!buf)
		return -1;
	int rc = ncu_details_read(buf, len, path, out, e);
	free(buf);
	return rc;
}

void ncu_details_release(ncu_details *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n_m; i++) {
		free(d->m[i].section);
		free(d->m[i].name);
		free(d->m[i].unit);
		free(d->m[i].value);
	}
	for (size_t i = 0; i < d->n_r; i++) {
		free(d->r[i].section);
		free(d->r[i].name);
		free(d->r[i].type);
		free(d->r[i].description);
		free(d->r[i].speedup_type);
	}
	free(d->m);
	free(d->r);
	free(d->id);
	free(d->kernel);
	free(d->block_size);
	free(d->grid_size);
	free(d->cc);
	free(d->arch);
	memset(d, 0, sizeof *d);
}

const ncu_metric *ncu_details_metric(const ncu_details *d, const char *section, const char *name)
{
	for (size_t i = 0; i < d->n_m; i++)
		if (strcmp(d->m[i].name, name) == 0 &&
		    (!section || strcmp(d->m[i].section, section) == 0))
			return &d->m[i];
	return NULL;
}

int ncu_details_num(const ncu_details *d, const char *section, const char *name, double *out)
{
	const ncu_metric *m = ncu_details_metric(d, section, name);
	if (!m || !m->is_num)
		return 0;
	*out = m->num;
	return 1;
}

/* Key figures, grouped by the ncu section that shows them: JSON key, metric name, the unit the
 * key's name promises ("" = ncu shows none). A metric shown in another unit is converted when
 * the unit family is known (time -> us, frequency -> MHz) and left out of the key figures
 * otherwise (it stays in `metrics` with its own unit). */
typedef struct key_fig {
	const char *key, *name, *unit;
} key_fig;

static const key_fig launch_figs[] = {
    {"registers_per_thread", "Registers Per Thread", "register/thread"},
    {"block_size", "Block Size", ""},
    {"grid_size", "Grid Size", ""},
    {"threads", "Threads", "thread"},
    {"sm_count", "# SMs", "SM"},
    {"waves_per_sm", "Waves Per SM", ""},
};
static const key_fig speed_of_light_figs[] = {
    {"duration_us", "Duration", "us"},
    {"elapsed_cycles", "Elapsed Cycles", "cycle"},
    {"sm_frequency_mhz", "SM Frequency", "Mhz"},
    {"dram_throughput_pct_of_peak", "DRAM Throughput", "%"},
    {"memory_throughput_pct_of_peak", "Memory Throughput", "%"},
    {"sm_throughput_pct_of_peak", "Compute (SM) Throughput", "%"},
};
static const key_fig workload_figs[] = {
    {"issue_slots_busy_pct", "Issue Slots Busy", "%"},
};
static const key_fig warp_state_figs[] = {
    {"warp_cycles_per_issued_instruction", "Warp Cycles Per Issued Instruction", "cycle"},
};
static const key_fig scheduler_figs[] = {
    {"no_eligible_pct_of_cycles", "No Eligible", "%"},
    {"active_warps_per_scheduler", "Active Warps Per Scheduler", "warp"},
    {"eligible_warps_per_scheduler", "Eligible Warps Per Scheduler", "warp"},
};
static const key_fig occupancy_figs[] = {
    {"theoretical_pct", "Theoretical Occupancy", "%"},
    {"achieved_pct", "Achieved Occupancy", "%"},
    {"theoretical_warps_per_sm", "Theoretical Active Warps per SM", "warp"},
    {"achieved_warps_per_sm", "Achieved Active Warps Per SM", "warp"},
    {"block_limit_registers", "Block Limit Registers", "block"},
    {"block_limit_shared_mem", "Block Limit Shared Mem", "block"},
    {"block_limit_warps", "Block Limit Warps", "block"},
    {"block_limit_sm", "Block Limit SM", "block"},
    {"block_limit_barriers", "Block Limit Barriers", "block"},
};

/* In output order: the JSON object (group) each section's figures go to. */
static const struct key_section {
	const char *group, *section;
	const key_fig *figs;
	size_t n;
} key_sections[] = {
#define FIGS(a) a, sizeof a / sizeof a[0]
    {"launch", "Launch Statistics", FIGS(launch_figs)},
    {"throughput", "GPU Speed Of Light Throughput", FIGS(speed_of_light_figs)},
    {"throughput", "Compute Workload Analysis", FIGS(workload_figs)},
    {"throughput", "Warp State Statistics", FIGS(warp_state_figs)},
    {"throughput", "Scheduler Statistics", FIGS(scheduler_figs)},
    {"occupancy", "Occupancy", FIGS(occupancy_figs)},
#undef FIGS
};

/* Scale from `unit` to `want` within one family, or 0 when they are not comparable. */
static double unit_scale(const char *unit, const char *want)
{
	static const struct {
		const char *u;
		double v;
		int fam;
	} u[] = {{"ns", 1e-3, 1}, {"us", 1, 1},	    {"ms", 1e3, 1}, {"s", 1e6, 1},
		 {"hz", 1e-6, 2}, {"Khz", 1e-3, 2}, {"Mhz", 1, 2},  {"Ghz", 1e3, 2},
		 {"Hz", 1e-6, 2}, {"KHz", 1e-3, 2}, {"MHz", 1, 2},  {"GHz", 1e3, 2}};
	if (strcmp(unit, want) == 0)
		return 1;
	double a = 0, b = 0;
	int fa = -1, fb = -2;
	for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
		if (strcmp(u[i].u, unit) == 0)
			a = u[i].v, fa = u[i].fam;
		if (strcmp(u[i].u, want) == 0)
			b = u[i].v, fb = u[i].fam;
	}
	return fa == fb ? a / b : 0;
}

static void key_figure(const ncu_details *d, const char *section, const key_fig *k, jv *g)
{
	const ncu_metric *m = ncu_details_metric(d, section, k->name);
	double s = m && m->is_num ? unit_scale(m->unit, k->unit) : 0;
	if (s > 0)
		jv_set_round(g, k->key, m->num * s, 4);
	else
		jv_set(g, k->key, jv_null());
}

static void key_figures(const ncu_details *d, jv *out)
{
	for (size_t i = 0; i < sizeof key_sections / sizeof key_sections[0]; i++) {
		const struct key_section *ks = &key_sections[i];
		jv *g = jv_get(out, ks->group);
		if (!g)
			g = jv_set(out, ks->group, jv_object());
		for (size_t j = 0; j < ks->n; j++)
			key_figure(d, ks->section, &ks->figs[j], g);
	}
}

static jv *metric_json(const ncu_metric *m)
{
	jv *o = jv_object();
	jv_set_str(o, "section", m->section);
	jv_set_str(o, "name", m->name);
	jv_set_str(o, "unit", m->unit);
	if (m->is_num)
		jv_set_double(o, "value", m->num);
	else
		jv_set_str(o, "value", m->value);
	return o;
}

static jv *rule_json(const ncu_rule *r)
{
	jv *o = jv_object();
	jv_set_str(o, "section", r->section);
	jv_set_str(o, "rule", r->name);
	jv_set_str(o, "type", r->type);
	jv_set_str(o, "description", r->description);
	if (r->has_speedup) {
		jv_set_double(o, "estimated_speedup_pct", r->speedup);
		jv_set_str(o, "speedup_type", r->speedup_type);
	} else {
		jv_set(o, "estimated_speedup_pct", jv_null());
		jv_set(o, "speedup_type", jv_null());
	}
	return o;
}

jv *ncu_details_json(const ncu_details *d)
{
	jv *o = jv_object();
	jv_set_str(o, "id", d->id ? d->id : "");
	jv_set_str(o, "kernel", d->kernel ? d->kernel : "");
	jv_set(o, "arch", d->arch ? jv_str(d->arch) : jv_null());
	jv_set_str(o, "compute_capability", d->cc ? d->cc : "");
	jv_set_str(o, "block_size", d->block_size ? d->block_size : "");
	jv_set_str(o, "grid_size", d->grid_size ? d->grid_size : "");
	key_figures(d, o);
	jv *ms = jv_set(o, "metrics", jv_array());
	for (size_t i = 0; i < d->n_m; i++)
		jv_push(ms, metric_json(&d->m[i]));
	jv *rs = jv_set(o, "rules", jv_array());
	for (size_t i = 0; i < d->n_r; i++)
		jv_push(rs, rule_json(&d->r[i]));
	jv_set_int(o, "extra_kernel_rows", (int64_t)d->extra_kernels);
	return o;
}

/* Bytes of a shared-memory metric shown in byte/Kbyte/Mbyte per block (decimal prefixes, as
 * ncu prints them), or -1. */
static int64_t shared_bytes(const ncu_details *d, const char *name)
{
	const ncu_metric *m = ncu_details_metric(d, "Launch Statistics", name);
	if (!m || !m->is_num || m->num < 0)
		return -1;
	double scale = strncmp(m->unit, "byte", 4) == 0	   ? 1
		       : strncmp(m->unit, "Kbyte", 5) == 0 ? 1e3
		       : strncmp(m->unit, "Mbyte", 5) == 0 ? 1e6
							   : -1;
	if (scale < 0 || m->num * scale > 1e12)
		return -1;
	return (int64_t)(m->num * scale + 0.5);
}

static int int_metric(const ncu_details *d, const char *name, double max)
{
	double v;
	if (!ncu_details_num(d, "Launch Statistics", name, &v) || v < 0 || v > max)
		return -1;
	return (int)v;
}

void ncu_details_resources(const ncu_details *d, trace_resources *r)
{
	r->vgpr = int_metric(d, "Registers Per Thread", 65536);
	r->agpr = r->sgpr = 0;
	int64_t st = shared_bytes(d, "Static Shared Memory Per Block");
	int64_t dy = shared_bytes(d, "Dynamic Shared Memory Per Block");
	r->lds_bytes = st >= 0 && dy >= 0 ? st + dy : -1;
	r->scratch_bytes = -1;
	r->wg_size = int_metric(d, "Block Size", 1 << 20);
	r->wave_size = 32;
	double th;
	r->grid_size =
	    ncu_details_num(d, "Launch Statistics", "Threads", &th) && th >= 0 && th < 9e18
		? (int64_t)th
		: -1;
	r->source = "ncu_details";
}
