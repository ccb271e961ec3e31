/* Findings from Nsight Compute exports (ncu_findings.h). Each check reads the counters that
 * define its defect, picks the instruction that carries most of it, and emits a
 * recommendation-shaped object with the facts it fired on. Thresholds and knobs come from
 * data/ncu_findings.json so they can be tuned without a rebuild (FLYPROF_DATA_DIR). */
#include "core/nvidia/ncu_findings.h"

#include "base/data.h"
#include "base/json/json_parse.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct fctx {
	const ncu_findings_in *in;
	const jv *cfg;
	jv *findings;
	double total; /* all warp-state samples of the kernel */
} fctx;

static const jv *finding_cfg(const jv *cfg, const char *id)
{
	const jv *fs = jv_get(cfg, "findings");
	for (size_t i = 0; i < jv_len(fs); i++)
		if (jv_string(jv_get(jv_at(fs, i), "id")) &&
		    strcmp(jv_string(jv_get(jv_at(fs, i), "id")), id) == 0)
			return jv_at(fs, i);
	return NULL;
}

static double cfg_num(const jv *fc, const char *key, double dflt)
{
	const jv *v = jv_get(fc, key);
	return jv_is_num(v) ? jv_num(v) : dflt;
}

static int names_rule(const jv *names, const char *rule)
{
	for (size_t i = 0; i < jv_len(names); i++)
		if (jv_string(jv_at(names, i)) && strcmp(jv_string(jv_at(names, i)), rule) == 0)
			return 1;
	return 0;
}

/* The named ncu rule with the largest estimated speedup, or NULL. */
static const ncu_rule *rule_for(const ncu_details *d, const jv *names)
{
	const ncu_rule *best = NULL;
	for (size_t i = 0; d && i < d->n_r; i++) {
		const ncu_rule *r = &d->r[i];
		if (!r->has_speedup || !names_rule(names, r->name))
			continue;
		if (!best || r->speedup > best->speedup)
			best = r;
	}
	return best;
}

static int det_num(const fctx *f, const char *name, double *out)
{
	return f->in->det && ncu_details_num(f->in->det, NULL, name, out);
}

static jv *fact(const char *metric, double v, const char *where)
{
	jv *o = jv_object();
	jv_set_str(o, "metric", metric);
	jv_set_round(o, "value", v, 2);
	jv_set_str(o, "where", where);
	return o;
}

static long inst_at(const fctx *f, uint64_t addr)
{
	return ncu_source_find_address(f->in->src, addr);
}

static double samples_at(const fctx *f, long i)
{
	return i < 0 ? 0 : (double)f->in->src->s[i].all;
}

static double reason_at(const fctx *f, long i, int reason)
{
	return i < 0 ? 0 : (double)f->in->src->s[i].by_reason[reason];
}

/* % of all samples in the given stall reasons (terminated by -1). */
static double reasons_pct(const fctx *f, const int *reasons)
{
	double n = 0;
	for (size_t i = 0; i < f->in->src->trace.n_insts; i++)
		for (const int *r = reasons; *r >= 0; r++)
			n += (double)f->in->src->s[i].by_reason[*r];
	return f->total > 0 ? 100.0 * n / f->total : 0;
}

/* The first instruction with a source line: the kernel's own entry, where kernel-level
 * findings (launch configuration, occupancy) are anchored. */
static long entry_inst(const fctx *f)
{
	const trace_dispatch *t = &f->in->src->trace;
	for (size_t i = 0; i < t->n_insts; i++)
		if (t->insts[i].source && t->insts[i].source[0])
			return (long)i;
	return t->n_insts ? 0 : -1;
}

static jv *hotspot(const fctx *f, long i, const char *kind)
{
	jv *h = jv_object();
	if (i < 0) {
		jv_set(h, "source", jv_null());
		jv_set_str(h, "source_kind", "none");
		return h;
	}
	const trace_inst *ti = &f->in->src->trace.insts[i];
	const char *src = ti->source && ti->source[0] ? ti->source : NULL;
	jv_set(h, "source", src ? jv_str(src) : jv_null());
	jv_set_str(h, "source_kind", src ? kind : "none");
	jv_set(h, "isa", ti->isa ? jv_str(ti->isa) : jv_null());
	jv_set(h, "address", jv_strf("0x%llx", (unsigned long long)f->in->src->s[i].address));
	jv_set_int(h, "samples", (int64_t)samples_at(f, i));
	return h;
}

/* Adds one finding. own_gain/own_basis are flyprof's estimate, used when no ncu rule of the
 * finding carries an estimated speedup. */
static void emit(fctx *f, const char *id, long inst, const char *kind, jv *facts, double own_gain,
		 const char *own_basis)
{
	const jv *fc = finding_cfg(f->cfg, id);
	if (!fc) {
		jv_free(facts);
		return;
	}
	const jv *knobs = jv_get(fc, "knobs");
	const jv *knob = jv_get(knobs, f->in->language);
	if (!knob)
		knob = jv_get(knobs, "cuda");
	const ncu_rule *r = rule_for(f->in->det, jv_get(fc, "ncu_rules"));
	jv *o = jv_object();
	jv_set_int(o, "rank", 0);
	jv_set(o, "rule", jv_strf("ncu_%s", id));
	jv_set_str(o, "finding", id);
	jv_set(o, "class", jv_copy(jv_get(fc, "class")));
	jv_set(o, "title", jv_copy(jv_get(fc, "title")));
	jv_set(o, "knob", jv_copy(knob));
	jv_set(o, "change", jv_copy(jv_get(knob, "api")));
	jv_set(o, "expected", jv_copy(jv_get(knob, "effect")));
	jv_set_str(o, "verify",
		   "capture again (flyprof run) and compare: the facts under evidence should drop");
	jv_set_str(o, "confidence", r ? "high" : "medium");
	jv *ev = jv_set(o, "evidence", jv_object());
	jv_set_str(ev, "signal", id);
	jv_set(ev, "facts", facts);
	jv *hs = jv_set(ev, "hotspot", hotspot(f, inst, kind));
	jv_set(ev, "actionable_source", jv_copy(jv_get(hs, "source")));
	jv *g = jv_set(o, "gain", jv_object());
	if (r) {
		jv_set_round(g, "upper_bound_pct", r->speedup, 2);
		jv_set_str(g, "kind", "ncu_estimated_speedup");
		jv_set_str(g, "denominator", "kernel duration");
		jv_set(g, "basis",
		       jv_strf("ncu rule %s: estimated speedup %.2f%% (%s)", r->name, r->speedup,
			       r->speedup_type ? r->speedup_type : "?"));
		jv *nr = jv_set(o, "ncu_rule", jv_object());
		jv_set_str(nr, "name", r->name);
		jv_set_str(nr, "type", r->type ? r->type : "");
		jv_set_round(nr, "estimated_speedup_pct", r->speedup, 2);
		jv_set_str(nr, "speedup_type", r->speedup_type ? r->speedup_type : "");
	} else {
		jv_set_round(g, "upper_bound_pct", own_gain, 2);
		jv_set_str(g, "kind", "estimate");
		jv_set_str(g, "denominator", "all warp-state samples");
		jv_set_str(g, "basis", own_basis);
		jv_set(o, "ncu_rule", jv_null());
	}
	jv_push(f->findings, o);
}

static const ncu_mem_row *row(const fctx *f, size_t i)
{
	return &f->in->mem->rows[i];
}

static void check_uncoalesced(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "uncoalesced_global");
	const ncu_memtab *m = f->in->mem;
	if (!fc || !m->has_sectors)
		return;
	double sec = 0, exc = 0;
	long best = -1;
	for (size_t i = 0; i < m->n; i++) {
		sec += row(f, i)->sectors;
		exc += row(f, i)->sectors_excessive;
		if (row(f, i)->sectors_excessive > 0 &&
		    (best < 0 ||
		     row(f, i)->sectors_excessive > row(f, (size_t)best)->sectors_excessive))
			best = (long)i;
	}
	double ratio = sec > 0 ? exc / sec : 0;
	if (best < 0 || ratio < cfg_num(fc, "min_excessive_ratio", 0.25))
		return;
	const ncu_mem_row *b = row(f, (size_t)best);
	jv *facts = jv_array();
	jv_push(facts, fact("L2 Theoretical Sectors Global Excessive", exc, "kernel"));
	jv_push(facts, fact("L2 Theoretical Sectors Global", sec, "kernel"));
	jv_push(facts, fact("excessive sectors, % of global sectors", 100 * ratio, "kernel"));
	jv_push(facts, fact("L2 Theoretical Sectors Global Excessive", b->sectors_excessive,
			    "instruction"));
	jv_push(facts, fact("L2 Theoretical Sectors Global", b->sectors, "instruction"));
	jv_push(facts,
		fact("L2 Theoretical Sectors Global Ideal", b->sectors_ideal, "instruction"));
	jv_push(facts, fact("Access Size (bits)", b->access_bits, "instruction"));
	static const int mem[] = {NCU_LONG_SCOREBOARD, NCU_LG_THROTTLE, NCU_TEX_THROTTLE, NCU_DRAIN,
				  -1};
	double share = reasons_pct(f, mem);
	emit(f, "uncoalesced_global", inst_at(f, b->address), "line", facts, ratio * share,
	     "excessive share of the global sectors x the % of samples stalled on memory "
	     "(long_scoreboard, lg_throttle, tex_throttle, drain)");
}

static void check_bank_conflicts(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "shared_bank_conflicts");
	const ncu_memtab *m = f->in->mem;
	if (!fc || !m->has_shared)
		return;
	double wf = 0, exc = 0;
	long best = -1;
	for (size_t i = 0; i < m->n; i++) {
		wf += row(f, i)->shared_wf;
		exc += row(f, i)->shared_wf_excessive;
		if (row(f, i)->shared_wf_excessive > 0 &&
		    (best < 0 ||
		     row(f, i)->shared_wf_excessive > row(f, (size_t)best)->shared_wf_excessive))
			best = (long)i;
	}
	double ratio = wf > 0 ? exc / wf : 0;
	if (best < 0 || ratio < cfg_num(fc, "min_excessive_ratio", 0.25))
		return;
	const ncu_mem_row *b = row(f, (size_t)best);
	jv *facts = jv_array();
	jv_push(facts, fact("L1 Conflicts Shared N-Way", b->shared_nway, "instruction"));
	jv_push(facts,
		fact("L1 Wavefronts Shared Excessive", b->shared_wf_excessive, "instruction"));
	jv_push(facts, fact("L1 Wavefronts Shared", b->shared_wf, "instruction"));
	jv_push(facts, fact("L1 Wavefronts Shared Ideal", b->shared_wf_ideal, "instruction"));
	jv_push(facts, fact("excessive wavefronts, % of shared wavefronts", 100 * ratio, "kernel"));
	static const int sh[] = {NCU_MIO_THROTTLE, NCU_SHORT_SCOREBOARD, -1};
	double share = reasons_pct(f, sh);
	emit(f, "shared_bank_conflicts", inst_at(f, b->address), "line", facts, ratio * share,
	     "excessive share of the shared wavefronts x the % of samples stalled on the shared "
	     "memory pipe (mio_throttle, short_scoreboard)");
}

static void check_local(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "local_memory");
	const ncu_memtab *m = f->in->mem;
	if (!fc)
		return;
	double n = 0, exec = 0, samples = 0;
	long best = -1;
	double best_s = -1;
	for (size_t i = 0; i < m->n; i++) {
		if (!strstr(row(f, i)->space, "Local"))
			continue;
		n++;
		exec += row(f, i)->executed;
		long k = inst_at(f, row(f, i)->address);
		samples += samples_at(f, k);
		if (samples_at(f, k) > best_s)
			best_s = samples_at(f, k), best = k;
	}
	double spill = 0;
	int has_spill = det_num(f, "Local Memory Spilling Requests", &spill);
	/* the samples of local accesses show up where their results are used: the long
	 * scoreboard samples of the kernel are the upper bound of what local memory costs */
	static const int lsb[] = {NCU_LONG_SCOREBOARD, -1};
	double lsb_pct = reasons_pct(f, lsb);
	double pct = f->total > 0 ? 100.0 * samples / f->total : 0;
	if (n == 0 || exec == 0 || lsb_pct + pct < cfg_num(fc, "min_sample_pct", 2.0))
		return;
	jv *facts = jv_array();
	jv_push(facts, fact("local-memory instructions (Address Space = Local)", n, "kernel"));
	jv_push(facts, fact("their Instructions Executed", exec, "kernel"));
	jv_push(facts, fact("samples at them, % of all", pct, "kernel"));
	jv_push(facts, fact("long_scoreboard samples, % of all", lsb_pct, "kernel"));
	if (has_spill)
		jv_push(facts, fact("Local Memory Spilling Requests", spill, "kernel"));
	emit(f, "local_memory", best, "line", facts, pct + lsb_pct,
	     "samples at the local-memory instructions plus the long_scoreboard samples (where "
	     "the local loads' results are waited for), % of all samples");
}

static void check_divergence(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "divergence");
	const ncu_memtab *m = f->in->mem;
	double avg = 32;
	if (!fc || !det_num(f, "Avg. Active Threads Per Warp", &avg) ||
	    avg >= cfg_num(fc, "max_avg_active_threads", 24))
		return;
	long best = -1;
	double best_v = 0;
	for (size_t i = 0; i < m->n; i++) /* the branch that diverges most often */
		if (row(f, i)->divergent_branches > best_v)
			best_v = row(f, i)->divergent_branches, best = (long)i;
	if (best < 0) { /* no branch column: the partial-width instruction with most samples */
		for (size_t i = 0; i < m->n; i++) {
			double v = (32 - row(f, i)->avg_threads) *
				   samples_at(f, inst_at(f, row(f, i)->address));
			if (row(f, i)->executed > 0 && v > best_v)
				best_v = v, best = (long)i;
		}
	}
	jv *facts = jv_array();
	jv_push(facts, fact("Avg. Active Threads Per Warp", avg, "kernel"));
	double v = 0;
	if (det_num(f, "Branch Efficiency", &v))
		jv_push(facts, fact("Branch Efficiency (%)", v, "kernel"));
	if (det_num(f, "Avg. Divergent Branches", &v))
		jv_push(facts, fact("Avg. Divergent Branches", v, "kernel"));
	if (best >= 0) {
		jv_push(facts, fact("Divergent Branches", row(f, (size_t)best)->divergent_branches,
				    "instruction"));
		jv_push(facts, fact("Avg. Threads Executed", row(f, (size_t)best)->avg_threads,
				    "instruction"));
	}
	emit(f, "divergence", best >= 0 ? inst_at(f, row(f, (size_t)best)->address) : -1, "line",
	     facts, 100.0 * (1 - avg / 32),
	     "the idle share of a warp's lanes: 1 - Avg. Active Threads Per Warp / 32");
}

static void check_occupancy(fctx *f)
{
	double theo = 100;
	if (!det_num(f, "Theoretical Occupancy", &theo))
		return;
	static const char *const lim_names[] = {"Block Limit Registers", "Block Limit Shared Mem",
						"Block Limit Warps", "Block Limit SM"};
	double lim[4];
	int have[4], k_min = -1;
	for (int k = 0; k < 4; k++) {
		have[k] = det_num(f, lim_names[k], &lim[k]);
		if (have[k] && (k_min < 0 || lim[k] < lim[k_min]))
			k_min = k;
	}
	if (k_min < 0)
		return;
	/* SM and warp slots are the block-size limiter */
	const char *limiter = lim_names[k_min == 3 ? 2 : k_min];
	const jv *fs = jv_get(f->cfg, "findings");
	for (size_t i = 0; i < jv_len(fs); i++) {
		const jv *fc = jv_at(fs, i);
		const char *l = jv_string(jv_get(fc, "limiter"));
		if (!l || strcmp(l, limiter) != 0 || theo >= cfg_num(fc, "max_theoretical_pct", 50))
			continue;
		jv *facts = jv_array();
		jv_push(facts, fact("Theoretical Occupancy (%)", theo, "kernel"));
		double v = 0;
		if (det_num(f, "Achieved Occupancy", &v))
			jv_push(facts, fact("Achieved Occupancy (%)", v, "kernel"));
		for (int k = 0; k < 4; k++)
			if (have[k])
				jv_push(facts, fact(lim_names[k], lim[k], "kernel"));
		if (det_num(f, "Registers Per Thread", &v))
			jv_push(facts, fact("Registers Per Thread", v, "kernel"));
		if (det_num(f, "Static Shared Memory Per Block", &v))
			jv_push(facts, fact("Static Shared Memory Per Block (byte)", v, "kernel"));
		if (det_num(f, "Dynamic Shared Memory Per Block", &v))
			jv_push(facts, fact("Dynamic Shared Memory Per Block (byte)", v, "kernel"));
		static const int dep[] = {NCU_LONG_SCOREBOARD, NCU_SHORT_SCOREBOARD, NCU_BARRIER,
					  NCU_WAIT, -1};
		emit(f, jv_string(jv_get(fc, "id")), entry_inst(f), "kernel_entry", facts,
		     reasons_pct(f, dep) * (1 - theo / 100),
		     "dependency stall samples (long/short scoreboard, barrier, wait), % of all, x "
		     "the missing share of theoretical occupancy");
	}
}

static void check_grid(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "grid_too_small");
	double blocks = 0, sms = 0, v = 0;
	if (!fc || !det_num(f, "Grid Size", &blocks) || !det_num(f, "# SMs", &sms) || sms <= 0 ||
	    blocks / sms >= cfg_num(fc, "max_blocks_per_sm", 1.0))
		return;
	jv *facts = jv_array();
	jv_push(facts, fact("Grid Size (blocks)", blocks, "kernel"));
	jv_push(facts, fact("# SMs", sms, "kernel"));
	if (det_num(f, "Block Size", &v))
		jv_push(facts, fact("Block Size", v, "kernel"));
	if (det_num(f, "Waves Per SM", &v))
		jv_push(facts, fact("Waves Per SM", v, "kernel"));
	emit(f, "grid_too_small", entry_inst(f), "kernel_entry", facts, 100.0 * (1 - blocks / sms),
	     "the share of SMs without a block: 1 - blocks / SMs");
}

static int isa_has(const char *isa, const char *op)
{
	return isa && strstr(isa, op) != NULL;
}

static void check_pipelining(fctx *f)
{
	const jv *fc = finding_cfg(f->cfg, "no_software_pipelining");
	const trace_dispatch *t = &f->in->src->trace;
	if (!fc)
		return;
	size_t mma = 0, async = 0;
	for (size_t i = 0; i < t->n_insts; i++) {
		const char *isa = t->insts[i].isa;
		mma += isa_has(isa, "MMA") != 0;
		async +=
		    isa_has(isa, "LDGSTS") || isa_has(isa, "UTMALDG") || isa_has(isa, "UBLKCP");
	}
	if (!mma || async)
		return;
	/* shared stores fed by registers: the global -> register -> shared staging; their
	 * long_scoreboard samples are the wait for the same step's global loads */
	const ncu_memtab *m = f->in->mem;
	double sts = 0, lsb = 0, best_v = -1;
	long best = -1;
	for (size_t i = 0; i < m->n; i++) {
		const ncu_mem_row *r = row(f, i);
		if (strcmp(r->space, "Shared") != 0 || strcmp(r->op, "Store") != 0)
			continue;
		long k = inst_at(f, r->address);
		double v = reason_at(f, k, NCU_LONG_SCOREBOARD);
		sts++;
		lsb += v;
		if (v > best_v)
			best_v = v, best = k;
	}
	double pct = f->total > 0 ? 100.0 * lsb / f->total : 0;
	if (!sts || pct < cfg_num(fc, "min_sample_pct", 10.0))
		return;
	jv *facts = jv_array();
	jv_push(facts, fact("MMA instructions", (double)mma, "kernel"));
	jv_push(facts, fact("asynchronous copies (LDGSTS, UTMALDG, UBLKCP)", 0, "kernel"));
	jv_push(facts, fact("shared stores from registers (STS)", sts, "kernel"));
	jv_push(facts, fact("long_scoreboard samples at them, % of all", pct, "kernel"));
	emit(f, "no_software_pipelining", best, "line", facts, pct,
	     "long_scoreboard samples at the shared stores that wait for the same step's global "
	     "loads, % of all samples");
}

static jv *ncu_rules_list(const fctx *f)
{
	jv *a = jv_array();
	const ncu_details *d = f->in->det;
	double min = cfg_num(f->cfg, "report_ncu_rules_min_speedup_pct", 5);
	for (size_t i = 0; d && i < d->n_r; i++) {
		const ncu_rule *r = &d->r[i];
		if (!r->has_speedup || r->speedup < min)
			continue;
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "rule", r->name);
		jv_set_str(o, "section", r->section ? r->section : "");
		jv_set_str(o, "type", r->type ? r->type : "");
		jv_set_round(o, "estimated_speedup_pct", r->speedup, 2);
		jv_set_str(o, "speedup_type", r->speedup_type ? r->speedup_type : "");
		jv_set_str(o, "description", r->description ? r->description : "");
		const char *by = NULL;
		for (size_t k = 0; k < jv_len(f->findings) && !by; k++) {
			const jv *fi = jv_at(f->findings, k);
			const jv *nr = jv_get(fi, "ncu_rule");
			const jv *fc = finding_cfg(f->cfg, jv_string(jv_get(fi, "finding")));
			if ((jv_string(jv_get(nr, "name")) &&
			     strcmp(jv_string(jv_get(nr, "name")), r->name) == 0) ||
			    names_rule(jv_get(fc, "ncu_rules"), r->name))
				by = jv_string(jv_get(fi, "finding"));
		}
		jv_set(o, "finding", by ? jv_str(by) : jv_null());
		jv_set_str(o, "status", by ? "flyprof finding" : "reported by ncu, no knob known");
	}
	return a;
}

/* The bound from the speed-of-light section: the busier of the memory and compute (SM) roofs
 * when it reaches sol_bound_pct of its peak, else latency (neither roof is near). NULL
 * without the figures. */
static jv *sol_bound(const fctx *f)
{
	const char *sec = "GPU Speed Of Light Throughput";
	double mem = 0, sm = 0;
	if (!f->in->det || !ncu_details_num(f->in->det, sec, "Memory Throughput", &mem) ||
	    !ncu_details_num(f->in->det, sec, "Compute (SM) Throughput", &sm))
		return NULL;
	double th = cfg_num(f->cfg, "sol_bound_pct", 60), top = mem > sm ? mem : sm;
	jv *b = jv_object();
	jv_set_str(b, "bound", top < th ? "latency" : mem >= sm ? "memory" : "compute");
	jv_set_str(b, "basis", "speed_of_light");
	/* far from the threshold either way is a clear verdict; near it, a medium one */
	jv_set_str(b, "confidence", top >= th + 20 || top < th - 20 ? "high" : "medium");
	jv_set(b, "calibrated", jv_null());
	jv_set(b, "why",
	       jv_strf("Nsight Compute speed of light: memory %.1f%% and compute (SM) %.1f%% of "
		       "peak; a roof at %.0f%% or more of its peak bounds the kernel, below it "
		       "neither does",
		       mem, sm, th));
	jv_set_round(b, "memory_pct_of_peak", mem, 2);
	jv_set_round(b, "compute_pct_of_peak", sm, 2);
	return b;
}

jv *ncu_findings_build(const ncu_findings_in *in, const jv *cfg)
{
	fctx f = {.in = in, .cfg = cfg, .findings = jv_array()};
	for (size_t i = 0; i < in->src->trace.n_insts; i++)
		f.total += (double)in->src->s[i].all;
	check_uncoalesced(&f);
	check_bank_conflicts(&f);
	check_local(&f);
	check_divergence(&f);
	check_occupancy(&f);
	check_grid(&f);
	check_pipelining(&f);
	jv *out = jv_object();
	jv_set_str(out, "language", in->language);
	jv *b = sol_bound(&f);
	jv_set(out, "bound", b ? b : jv_null());
	jv_set(out, "ncu_rules", ncu_rules_list(&f));
	jv_set(out, "findings", f.findings);
	return out;
}

static const char *language_of(const ncu_source *s)
{
	for (size_t i = 0; i < s->n_files; i++) {
		size_t n = strlen(s->files[i]);
		if (n > 3 && strcmp(s->files[i] + n - 3, ".py") == 0)
			return "triton";
	}
	return "cuda";
}

jv *ncu_findings_from_exports(const ncu_exports *x, jv *warnings, fp_err *e)
{
	ncu_source src = {0}, corr = {0};
	ncu_memtab mem = {0};
	ncu_details det = {0};
	int have_det = 0;
	jv *cfg = NULL, *out = NULL;
	const char *primary = x->source_sass ? x->source_sass : x->source_correlated;
	if (!primary) {
		fp_fail(e, ERR_NO_ARTIFACT, "%s: no Nsight Compute source export", x->dir);
		return NULL;
	}
	if (ncu_source_read_file(primary, &src, e) || ncu_memtab_read_file(primary, &mem, e))
		goto done;
	if (x->source_sass && x->source_correlated) {
		if (ncu_source_read_file(x->source_correlated, &corr, e))
			goto done;
		size_t matched = 0, missing = 0, disagree = 0;
		ncu_source_adopt_lines(&src, &corr, &matched, &missing, &disagree);
		/* the file list (for the language) lives in the correlated export */
		for (size_t i = 0; i < corr.n_files; i++) {
			src.files = xreallocarray(src.files, src.n_files + 1, sizeof(char *));
			src.files[src.n_files++] = xstrdup(corr.files[i]);
		}
	}
	if (x->details) {
		if (ncu_details_read_file(x->details, &det, e))
			goto done;
		have_det = 1;
	} else if (warnings)
		jv_push(warnings, jv_str("findings: no details export; occupancy, launch and "
					 "ncu rule results are left out"));
	size_t len = 0;
	char *text = data_load("ncu_findings.json", &len, NULL, e);
	if (!text)
		goto done;
	cfg = json_parse(text, len, "ncu_findings.json", e);
	free(text);
	if (!cfg)
		goto done;
	ncu_findings_in in = {
	    .src = &src, .mem = &mem, .det = have_det ? &det : NULL, .language = language_of(&src)};
	out = ncu_findings_build(&in, cfg);
done:
	jv_free(cfg);
	ncu_source_release(&src);
	ncu_source_release(&corr);
	ncu_memtab_release(&mem);
	if (have_det)
		ncu_details_release(&det);
	return out;
}
