/* Kernel traits from the trace or the bubbles object (kernel_traits.h). */
#include "core/diagnose/kernel_traits.h"

#include <stdlib.h>
#include <string.h>

const char *const kernel_trait_names[] = {"has_mfma", "has_lds_traffic", "has_lds_dma", "has_loop",
					  "kind",     "backend",	 "language",	NULL};

int kernel_trait_known(const char *name)
{
	for (size_t i = 0; kernel_trait_names[i]; i++)
		if (strcmp(kernel_trait_names[i], name) == 0)
			return 1;
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ds_swizzle / ds_permute / ds_bpermute are cross-lane moves through the LDS crossbar that
 * read and write no LDS memory; a shuffle-only reduction is not LDS traffic. */
static int is_lds_access(const char *isa)
{
	return starts(isa, "ds_") && !starts(isa, "ds_swizzle") && !starts(isa, "ds_permute") &&
	       !starts(isa, "ds_bpermute");
}

/* " lds" as a separate operand modifier of a buffer/global load (DMA into LDS). */
static int is_lds_dma(const char *isa)
{
	if (!starts(isa, "buffer_load") && !starts(isa, "global_load"))
		return 0;
	for (const char *p = strstr(isa, " lds"); p; p = strstr(p + 1, " lds"))
		if (p[4] == '\0' || p[4] == ' ' || p[4] == ',')
			return 1;
	return 0;
}

/* A branch whose simm16 operand (the last token, in dwords, printed unsigned by the ATT
 * decoder: "s_cbranch_scc1 65109") is negative jumps backwards. */
static int is_backward_branch(const char *isa)
{
	if (!starts(isa, "s_cbranch") && !starts(isa, "s_branch"))
		return 0;
	const char *sp = strrchr(isa, ' ');
	if (!sp || !sp[1])
		return 0;
	char *end = NULL;
	long v = strtol(sp + 1, &end, 10);
	return end && *end == '\0' && v >= 32768 && v <= 65535;
}

typedef struct counts {
	int64_t mfma, lds, lds_dma, back, entry, mfma_latency;
} counts;

/* The SASS opcode after an optional predicate ("@!P0  HMMA.16816.F32 ..." -> "HMMA..."). */
static const char *sass_op(const char *isa)
{
	if (*isa == '@')
		isa += strcspn(isa, " ");
	return isa + strspn(isa, " ");
}

static int starts_any(const char *s, const char *const *pre)
{
	for (; *pre; pre++)
		if (starts(s, *pre))
			return 1;
	return 0;
}

/* Tensor-core (matrix) instructions of sm_70..sm_100 SASS. */
static int is_sass_matrix(const char *op)
{
	static const char *const pre[] = {"HMMA", "HGMMA",   "IMMA",	"IGMMA",   "DMMA", "QMMA",
					  "OMMA", "UTCHMMA", "UTCQMMA", "UTCIMMA", NULL};
	return starts_any(op, pre);
}

static int is_sass_shared(const char *op)
{
	static const char *const pre[] = {"LDS", "STS", "ATOMS", NULL}; /* LDS covers LDSM */
	return starts_any(op, pre);
}

static void count_sass(const trace_dispatch *d, counts *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa || t->hits <= 0)
			continue;
		const char *op = sass_op(t->isa);
		if (is_sass_matrix(op)) {
			c->mfma = trace_add(c->mfma, t->hits);
			c->mfma_latency = trace_add(c->mfma_latency, t->latency);
		} else if (is_sass_shared(op))
			c->lds = trace_add(c->lds, t->hits);
	}
}

static jv *traits_from_sass(const trace_dispatch *d)
{
	counts c;
	count_sass(d, &c);
	jv *o = jv_object();
	jv_set_bool(o, "has_mfma", c.mfma > 0);
	jv_set_bool(o, "has_lds_traffic", c.lds > 0);
	jv_set(o, "has_lds_dma", jv_null());
	jv_set(o, "has_loop", jv_null());
	jv_set_str(o, "kind", c.mfma > 0 ? "matrix" : "streaming");
	jv *ev = jv_set(o, "evidence", jv_object());
	jv_set_int(ev, "mfma_hits", c.mfma);
	jv_set_int(ev, "matrix_latency", c.mfma_latency);
	jv_set_int(ev, "lds_access_hits", c.lds);
	jv_set_str(o, "basis",
		   "SASS instructions (Nsight Compute samples): executed HMMA/HGMMA/IMMA/DMMA/QMMA/"
		   "OMMA/UTC*MMA (tensor cores; matrix_latency = their samples) and LDS/STS/LDSM/"
		   "ATOMS (shared memory); has_lds_dma and has_loop are not judged from SASS");
	return o;
}

static void count_trace(const trace_dispatch *d, counts *c)
{
	memset(c, 0, sizeof *c);
	int seen_first = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *t = &d->insts[i];
		if (t->is_label || !t->isa)
			continue;
		if (!seen_first)
			c->entry = t->hits, seen_first = 1;
		if (t->hits <= 0)
			continue;
		if (starts(t->isa, "v_mfma") || starts(t->isa, "v_smfma"))
			c->mfma = trace_add(c->mfma, t->hits);
		else if (is_lds_access(t->isa))
			c->lds = trace_add(c->lds, t->hits);
		else if (is_lds_dma(t->isa))
			c->lds_dma = trace_add(c->lds_dma, t->hits);
		else if (is_backward_branch(t->isa) && t->hits > c->back)
			c->back = t->hits; /* the busiest loop */
	}
}

jv *kernel_traits_from_trace(const trace_dispatch *d)
{
	if (d->unit && strcmp(d->unit, "samples") == 0)
		return traits_from_sass(d);
	counts c;
	count_trace(d, &c);
	double iters = c.entry > 0 ? (double)c.back / (double)c.entry : 0;
	jv *o = jv_object();
	jv_set_bool(o, "has_mfma", c.mfma > 0);
	jv_set_bool(o, "has_lds_traffic", c.lds > 0);
	jv_set_bool(o, "has_lds_dma", c.lds_dma > 0);
	jv_set_bool(o, "has_loop", iters >= KERNEL_TRAITS_LOOP_MIN);
	jv_set_str(o, "kind", c.mfma > 0 ? "matrix" : "streaming");
	jv *ev = jv_set(o, "evidence", jv_object());
	jv_set_int(ev, "mfma_hits", c.mfma);
	jv_set_int(ev, "lds_access_hits", c.lds);
	jv_set_int(ev, "lds_dma_hits", c.lds_dma);
	jv_set_int(ev, "loop_branch_hits", c.back);
	jv_set_int(ev, "entry_hits", c.entry);
	jv_set_round(ev, "loop_iterations_per_wave", iters, 2);
	jv_set_str(o, "basis",
		   "trace instructions: executed v_mfma/v_smfma, ds_* (not swizzle/permute), "
		   "buffer/global_load ... lds, and the busiest backward branch's hits per wave "
		   "(its hits / the first instruction's hits)");
	return o;
}

jv *kernel_traits_from_bubbles(const jv *bubbles)
{
	const jv *dyn = jv_get(jv_get(bubbles, "mix"), "dynamic");
	double mfma = jv_num(jv_get(dyn, "mfma")), lds = jv_num(jv_get(dyn, "lds_issue"));
	jv *o = jv_object();
	jv_set_bool(o, "has_mfma", mfma > 0);
	jv_set_bool(o, "has_lds_traffic", lds > 0);
	jv_set(o, "has_lds_dma", jv_null());
	jv_set(o, "has_loop", jv_null());
	jv_set_str(o, "kind", mfma > 0 ? "matrix" : "streaming");
	jv *ev = jv_set(o, "evidence", jv_object());
	jv_set_round(ev, "mfma_hits", mfma, 0);
	jv_set_round(ev, "lds_issue_hits", lds, 0);
	jv_set_str(o, "basis",
		   "bubbles mix.dynamic only (no trace): has_lds_dma and has_loop unknown; "
		   "has_lds_traffic counts every lds_issue instruction");
	return o;
}

/* The language of the source files holding most stall among bubbles.lines (.py = Triton,
 * .cu/.cuh = CUDA), or NULL. */
static const char *nvidia_language(const jv *bubbles)
{
	const jv *lines = jv_get(bubbles, "lines");
	double py = 0, cu = 0;
	for (size_t i = 0; i < jv_len(lines); i++) {
		const char *src = jv_string(jv_get(jv_at(lines, i), "source"));
		double st = jv_num(jv_get(jv_at(lines, i), "stall"));
		const char *colon = src ? strrchr(src, ':') : NULL;
		size_t n = colon ? (size_t)(colon - src) : (src ? strlen(src) : 0);
		if (n >= 3 && strncmp(src + n - 3, ".py", 3) == 0)
			py += st > 0 ? st : 0;
		else if ((n >= 3 && strncmp(src + n - 3, ".cu", 3) == 0) ||
			 (n >= 4 && strncmp(src + n - 4, ".cuh", 4) == 0))
			cu += st > 0 ? st : 0;
	}
	if (py <= 0 && cu <= 0)
		return NULL;
	return py >= cu ? "triton" : "cuda";
}

void kernel_traits_add_platform(jv *traits, const jv *bubbles)
{
	const char *be = jv_string(jv_get(bubbles, "backend"));
	int nv = be && strcmp(be, "nvidia") == 0;
	jv_set_str(traits, "backend", nv ? "nvidia" : "amd");
	const char *lang = nv ? nvidia_language(bubbles) : "flydsl";
	jv_set(traits, "language", lang ? jv_str(lang) : jv_null());
	jv_set_str(traits, "platform_basis",
		   nv ? "backend from bubbles.backend; language from the extension of the source "
			"files holding most stall in bubbles.lines (.py = triton, .cu/.cuh = cuda)"
		      : "backend amd (bubbles.backend absent or amd): FlyDSL kernels");
}

const char *kernel_trait_values(const char *name)
{
	if (strcmp(name, "backend") == 0)
		return "amd or nvidia";
	if (strcmp(name, "language") == 0)
		return "flydsl, triton or cuda";
	return "true, false or a string";
}

int kernel_trait_value_ok(const char *name, const jv *v)
{
	const char *s = jv_string(v);
	if (strcmp(name, "backend") == 0)
		return s && (!strcmp(s, "amd") || !strcmp(s, "nvidia"));
	if (strcmp(name, "language") == 0)
		return s && (!strcmp(s, "flydsl") || !strcmp(s, "triton") || !strcmp(s, "cuda"));
	return 1;
}
