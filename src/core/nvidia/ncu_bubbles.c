/* The NVIDIA backend's stall analysis (ncu_bubbles.h): loading the exports and filling a
 * stall profile from the per-reason samples; occupancy is in ncu_occupancy.c. The ranking and
 * the writer are the vendor-neutral ones (src/model/profile*.c). */
#include "core/nvidia/ncu_bubbles_int.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void warn(jv *warnings, jv *msg)
{
	if (warnings)
		jv_push(warnings, msg);
	else
		jv_free(msg);
}

/* Reads the source export(s): the SASS one is the table of record; the correlated one adds
 * the source lines (and is the table when there is no SASS-only export). */
static int load_source(ncu_model *m, const ncu_exports *x, jv *warnings, fp_err *e)
{
	if (!x->source_sass)
		return ncu_source_read_file(x->source_correlated, &m->src, e);
	if (ncu_source_read_file(x->source_sass, &m->src, e))
		return -1;
	if (!x->source_correlated) {
		warn(warnings, jv_strf("no correlated source export in %s: instructions have no "
				       "source lines (export with --print-source cuda,sass, for "
				       "Triton too)",
				       x->dir ? x->dir : "the exports"));
		return 0;
	}
	ncu_source corr;
	if (ncu_source_read_file(x->source_correlated, &corr, e))
		return -1;
	size_t matched, missing, disagree;
	ncu_source_adopt_lines(&m->src, &corr, &matched, &missing, &disagree);
	if (missing)
		warn(warnings,
		     jv_strf("%zu SASS instructions are not in the correlated export", missing));
	if (disagree)
		warn(warnings, jv_strf("%zu instructions have different sample counts in the SASS "
				       "and correlated exports (not from one report?)",
				       disagree));
	if (corr.trace.kernel && m->src.trace.kernel &&
	    strcmp(corr.trace.kernel, m->src.trace.kernel) != 0)
		warn(warnings, jv_strf("the correlated export is of kernel \"%s\", the SASS export "
				       "of \"%s\"",
				       corr.trace.kernel, m->src.trace.kernel));
	ncu_source_release(&corr);
	return 0;
}

static int load_all(const ncu_exports *x, ncu_model *m, jv *warnings, fp_err *e)
{
	if (load_source(m, x, warnings, e))
		return -1;
	for (size_t i = 0; i < m->src.n_unknown_cols; i++)
		warn(warnings, jv_strf("unknown stall column \"%s\" counted as class \"unknown\"",
				       m->src.unknown_cols[i]));
	if (m->src.extra_kernels)
		warn(warnings, jv_strf("the source export holds more than one kernel; only the "
				       "first (%s) is analysed",
				       m->src.trace.kernel ? m->src.trace.kernel : "?"));
	if (!x->details) {
		warn(warnings,
		     jv_str("no details export (details.csv): occupancy and launch figures "
			    "are unknown"));
		return 0;
	}
	if (ncu_details_read_file(x->details, &m->det, e))
		return -1;
	m->has_details = 1;
	if (m->src.trace.kernel && m->det.kernel && m->det.kernel[0] &&
	    strcmp(m->src.trace.kernel, m->det.kernel) != 0)
		warn(warnings, jv_strf("the details export is of kernel \"%s\", the source export "
				       "of \"%s\"",
				       m->det.kernel, m->src.trace.kernel));
	if (m->det.extra_kernels)
		warn(warnings, jv_strf("the details export holds rows of other kernels; only ID %s "
				       "is used",
				       m->det.id));
	return 0;
}

void ncu_model_release(ncu_model *m);

int ncu_model_load(const ncu_exports *x, ncu_model *m, jv *warnings, fp_err *e)
{
	memset(m, 0, sizeof *m);
	if (load_all(x, m, warnings, e) == 0)
		return 0;
	ncu_model_release(m);
	return -1;
}

void ncu_model_release(ncu_model *m)
{
	ncu_source_release(&m->src);
	if (m->has_details)
		ncu_details_release(&m->det);
	memset(m, 0, sizeof *m);
}

void ncu_model_take_trace(ncu_model *m, trace_dispatch *out)
{
	*out = m->src.trace;
	out->unit = "samples";
	trace_dispatch_init(&m->src.trace);
	if (m->has_details) {
		ncu_details_resources(&m->det, &out->res);
		if (!out->arch && m->det.arch)
			out->arch = xstrdup(m->det.arch);
	}
}

/* Dominant reason of an instruction: most stall samples, else "selected" when it issued, else
 * -1 (never sampled). Ties go to the lower reason id. */
static int dominant(const ncu_inst_samples *s)
{
	int best = -1;
	for (int r = 0; r < NCU__COUNT; r++)
		if (ncu_reason_is_stall(r) && s->by_reason[r] > 0 &&
		    (best < 0 || s->by_reason[r] > s->by_reason[best]))
			best = r;
	if (best < 0 && s->by_reason[NCU_SELECTED] > 0)
		best = NCU_SELECTED;
	return best;
}

/* A scoreboard dependency: ncu names the stalled instruction, not its producer, so the wait is
 * split by reason (long_scoreboard + imc_miss -> memory, short_scoreboard -> lds). */
static void add_wait(stall_profile *p, size_t i, const ncu_inst_samples *s)
{
	int64_t mem = trace_add(s->by_reason[NCU_LONG_SCOREBOARD], s->by_reason[NCU_IMC_MISS]);
	int64_t lds = s->by_reason[NCU_SHORT_SCOREBOARD], dep = trace_add(mem, lds);
	if (dep <= 0)
		return;
	prof_wait *w = profile_add_wait(p, i);
	w->klass = lds > mem ? NCU_SHORT_SCOREBOARD
		   : s->by_reason[NCU_LONG_SCOREBOARD] >= s->by_reason[NCU_IMC_MISS]
		       ? NCU_LONG_SCOREBOARD
		       : NCU_IMC_MISS;
	w->stall = dep;
	w->producers_known = 0;
	w->split[PROF_SPLIT_MEMORY] = mem;
	w->split[PROF_SPLIT_LDS] = lds;
	w->method = "reason";
}

static void fill_insts(const ncu_model *m, trace_dispatch *t, stall_profile *p)
{
	size_t n = t->n_insts;
	p->not_issued = xcalloc(n + 1, sizeof *p->not_issued);
	p->address = xcalloc(n + 1, sizeof *p->address);
	for (size_t i = 0; i < n; i++) {
		const ncu_inst_samples *s = &m->src.s[i];
		t->insts[i].klass = (int16_t)dominant(s);
		p->not_issued[i] = s->not_issued;
		p->address[i] = s->address;
		p->totals.not_issued = trace_add(p->totals.not_issued, s->not_issued);
		p->totals.issue = trace_add(p->totals.issue, s->by_reason[NCU_SELECTED]);
		for (int r = 0; r < NCU__COUNT; r++)
			if (s->by_reason[r] || s->ni_by_reason[r])
				profile_add_part(p, i, r, s->by_reason[r],
						 ncu_reason_is_stall(r) ? s->by_reason[r] : 0,
						 s->ni_by_reason[r]);
		add_wait(p, i, s);
	}
}

/* Warps launched (Threads / 32) from the details, or -1. */
static int64_t warps_launched(const ncu_model *m)
{
	double th;
	if (m->has_details && ncu_details_num(&m->det, "Launch Statistics", "Threads", &th) &&
	    th > 0)
		return (int64_t)((th + 31) / 32);
	return -1;
}

static void fill_dispatch(const ncu_model *m, const ncu_exports *x, stall_profile *p)
{
	prof_dispatch *d = &p->dispatch;
	d->dir = xstrdup(x->dir ? x->dir : "");
	d->id = m->has_details && m->det.id ? xstrdup(m->det.id) : NULL;
	const char *k = m->src.trace.kernel ? m->src.trace.kernel
			: p->trace->kernel  ? p->trace->kernel
			: m->has_details    ? m->det.kernel
					    : NULL;
	d->kernel = k ? xstrdup(k) : NULL;
	d->arch = m->has_details && m->det.arch ? xstrdup(m->det.arch) : NULL;
	d->selection = xstrdup("the first (and with ncu -c 1 the only) kernel of the Nsight "
			       "Compute exports");
	d->candidates = jv_array();
	jv *c = jv_push(d->candidates, jv_object());
	jv_set(c, "id", d->id ? jv_str(d->id) : jv_null());
	jv_set_str(c, "dir", d->dir);
	jv_set(c, "waves", jv_null());
	jv_set_int(c, "hits", p->totals.hits);
	jv *ex = jv_object();
	jv_set(ex, "source_sass", x->source_sass ? jv_str(x->source_sass) : jv_null());
	jv_set(ex, "source_correlated",
	       x->source_correlated ? jv_str(x->source_correlated) : jv_null());
	jv_set(ex, "details", x->details ? jv_str(x->details) : jv_null());
	jv_set(ex, "report", x->report ? jv_str(x->report) : jv_null());
	profile_dispatch_extra(p, "exports", ex);
	profile_dispatch_extra(p, "sass_base_address",
			       jv_strf("0x%llx", (unsigned long long)m->src.base_address));
}

static jv *wave_states(void)
{
	jv *w = jv_object();
	jv_set_bool(w, "available", 0);
	jv_set_str(w, "denominator", "n/a");
	jv_set_str(w, "note",
		   "Nsight Compute source counters sample warp states per PC; there "
		   "is no per-warp timeline (see totals and classes for the state "
		   "shares as samples)");
	return w;
}

void ncu_profile_fill(const ncu_model *m, const ncu_exports *x, trace_dispatch *t, stall_profile *p,
		      jv *warnings)
{
	profile_init(p, VENDOR_NVIDIA, UNIT_SAMPLES, t);
	p->line_class_from_parts = 1;
	profile_sum_totals(p);
	p->totals.issue = 0;
	fill_insts(m, t, p);
	p->totals.waves = warps_launched(m);
	p->totals_note_key = "definitions";
	p->totals_note =
	    "latency: all warp-state samples; stall: samples in a stall reason (all minus "
	    "selected); issue: selected samples; not_issued: samples taken while the "
	    "scheduler issued nothing; hits: warp-level instructions executed; idle: not "
	    "measured by ncu (0); waves: warps launched (Threads / 32)";
	p->mix_basis = "each instruction counted under its dominant stall reason "
		       "(\"unsampled\": no sample at its PC)";
	p->waits_note = "NVIDIA: the producer of a scoreboard dependency is not "
			"recorded by Nsight Compute; waits lists the instructions "
			"stalled on long_scoreboard/short_scoreboard/imc_miss with the "
			"split by stall reason, producers unknown";
	fill_dispatch(m, x, p);
	p->occupancy = ncu_occupancy(m, warnings);
	p->wave_states = wave_states();
	profile_extra(p, "details", m->has_details ? ncu_details_json(&m->det) : jv_null());
}

int ncu_bubbles_from_exports(const ncu_exports *x, const ncu_bubbles_params *p, jv **out,
			     ncu_bubbles_counts *counts, jv *warnings, fp_err *e)
{
	ncu_model m;
	*out = NULL;
	if (ncu_model_load(x, &m, warnings, e))
		return -1;
	stall_profile prof;
	ncu_profile_fill(&m, x, &m.src.trace, &prof, warnings);
	profile_rank(&prof, p ? p->top : 10);
	*out = profile_to_json(&prof);
	if (counts)
		*counts = (ncu_bubbles_counts){prof.hot_total, prof.lines_total, prof.waits_total};
	profile_release(&prof);
	ncu_model_release(&m);
	return 0;
}

int ncu_trace_load(const ncu_exports *x, trace_dispatch *out, fp_err *e)
{
	ncu_model m;
	trace_dispatch_init(out);
	if (ncu_model_load(x, &m, NULL, e))
		return -1;
	ncu_model_take_trace(&m, out);
	ncu_model_release(&m);
	return 0;
}

int ncu_bubbles_compute(const char *ncu_dir, const ncu_bubbles_params *p, jv **out,
			ncu_bubbles_counts *counts, jv *warnings, fp_err *e)
{
	ncu_exports x;
	*out = NULL;
	if (ncu_exports_find(ncu_dir, NULL, &x, e))
		return -1;
	int rc = ncu_bubbles_from_exports(&x, p, out, counts, warnings, e);
	ncu_exports_release(&x);
	return rc;
}
