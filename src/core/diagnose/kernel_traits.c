/* Kernel traits from the trace or the stall profile (kernel_traits.h). */
#include "core/diagnose/kernel_traits.h"

#include <stdlib.h>
#include <string.h>

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

static void traits_from_sass(const trace_dispatch *d, kernel_traits *t)
{
	counts c;
	count_sass(d, &c);
	t->basis = TRAITS_FROM_SASS;
	t->has_matrix_ops = c.mfma > 0 ? TRI_YES : TRI_NO;
	t->has_shared_mem_traffic = c.lds > 0 ? TRI_YES : TRI_NO;
	t->evidence.matrix_hits = c.mfma;
	t->evidence.matrix_latency = c.mfma_latency;
	t->evidence.shared_hits = c.lds;
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

void kernel_traits_init(kernel_traits *t)
{
	memset(t, 0, sizeof *t);
	t->has_matrix_ops = t->has_shared_mem_traffic = TRI_UNKNOWN;
	t->has_shared_mem_dma = t->has_loop = TRI_UNKNOWN;
	t->basis = TRAITS_FROM_MIX;
	t->evidence.matrix_latency = -1;
	t->language = LANG_UNKNOWN;
}

void kernel_traits_from_trace(const trace_dispatch *d, kernel_traits *t)
{
	kernel_traits_init(t);
	if (d->unit && strcmp(d->unit, "samples") == 0) {
		traits_from_sass(d, t);
		return;
	}
	counts c;
	count_trace(d, &c);
	double iters = c.entry > 0 ? (double)c.back / (double)c.entry : 0;
	t->basis = TRAITS_FROM_TRACE;
	t->has_matrix_ops = c.mfma > 0 ? TRI_YES : TRI_NO;
	t->has_shared_mem_traffic = c.lds > 0 ? TRI_YES : TRI_NO;
	t->has_shared_mem_dma = c.lds_dma > 0 ? TRI_YES : TRI_NO;
	t->has_loop = iters >= KERNEL_TRAITS_LOOP_MIN ? TRI_YES : TRI_NO;
	t->evidence.matrix_hits = c.mfma;
	t->evidence.shared_hits = c.lds;
	t->evidence.shared_dma_hits = c.lds_dma;
	t->evidence.loop_branch_hits = c.back;
	t->evidence.entry_hits = c.entry;
	t->evidence.loop_iterations_per_wave = iters;
}

void kernel_traits_from_profile(const stall_profile *p, kernel_traits *t)
{
	kernel_traits_init(t);
	double mfma = (double)profile_mix_hits(p, "mfma");
	double lds = (double)profile_mix_hits(p, "lds_issue");
	t->has_matrix_ops = mfma > 0 ? TRI_YES : TRI_NO;
	t->has_shared_mem_traffic = lds > 0 ? TRI_YES : TRI_NO;
	t->evidence.mix_matrix = mfma;
	t->evidence.mix_lds_issue = lds;
}

/* The language of the source files holding most stall among the profile's lines (.py =
 * Triton, .cu/.cuh = CUDA), or unknown. */
static kernel_language nvidia_language(const stall_profile *p)
{
	double py = 0, cu = 0;
	for (size_t i = 0; i < p->n_lines; i++) {
		const char *src = p->lines[i].source;
		double st = (double)p->lines[i].stall;
		const char *colon = src ? strrchr(src, ':') : NULL;
		size_t n = colon ? (size_t)(colon - src) : (src ? strlen(src) : 0);
		if (n >= 3 && strncmp(src + n - 3, ".py", 3) == 0)
			py += st > 0 ? st : 0;
		else if ((n >= 3 && strncmp(src + n - 3, ".cu", 3) == 0) ||
			 (n >= 4 && strncmp(src + n - 4, ".cuh", 4) == 0))
			cu += st > 0 ? st : 0;
	}
	if (py <= 0 && cu <= 0)
		return LANG_UNKNOWN;
	return py >= cu ? LANG_TRITON : LANG_CUDA;
}

void kernel_traits_add_platform(kernel_traits *t, const stall_profile *p)
{
	t->platform_known = 1;
	t->vendor = p->vendor;
	t->language = p->vendor == VENDOR_NVIDIA ? nvidia_language(p) : LANG_FLYDSL;
}

/* ---- the trait table: struct fields under their external names ---- */

static trait_value tv_tri(tristate v)
{
	trait_value r = {v == TRI_UNKNOWN ? TRAIT_UNKNOWN : TRAIT_BOOL, v == TRI_YES, NULL};
	return r;
}

static trait_value tv_str(const char *s)
{
	trait_value r = {s ? TRAIT_STR : TRAIT_UNKNOWN, 0, s};
	return r;
}

static trait_value get_matrix(const kernel_traits *t)
{
	return tv_tri(t->has_matrix_ops);
}

static trait_value get_shared(const kernel_traits *t)
{
	return tv_tri(t->has_shared_mem_traffic);
}

static trait_value get_shared_dma(const kernel_traits *t)
{
	return tv_tri(t->has_shared_mem_dma);
}

static trait_value get_loop(const kernel_traits *t)
{
	return tv_tri(t->has_loop);
}

static trait_value get_kind(const kernel_traits *t)
{
	return tv_str(t->has_matrix_ops == TRI_UNKNOWN ? NULL
		      : t->has_matrix_ops == TRI_YES   ? "matrix"
						       : "streaming");
}

static trait_value get_backend(const kernel_traits *t)
{
	return tv_str(t->platform_known ? vendor_name(t->vendor) : NULL);
}

static const char *const language_names[] = {NULL, "flydsl", "triton", "cuda"};

static trait_value get_language(const kernel_traits *t)
{
	return tv_str(t->platform_known ? language_names[t->language] : NULL);
}

static const char *const backends[] = {"amd", "nvidia", NULL};
static const char *const languages[] = {"flydsl", "triton", "cuda", NULL};
#define ANY_VALUE "true, false or a string"

const kernel_trait_def kernel_trait_table[] = {
    {"has_mfma", get_matrix, NULL, ANY_VALUE, 0},
    {"has_lds_traffic", get_shared, NULL, ANY_VALUE, 0},
    {"has_lds_dma", get_shared_dma, NULL, ANY_VALUE, 0},
    {"has_loop", get_loop, NULL, ANY_VALUE, 0},
    {"kind", get_kind, NULL, ANY_VALUE, 0},
    {"backend", get_backend, backends, "amd or nvidia", 1},
    {"language", get_language, languages, "flydsl, triton or cuda", 1},
    {NULL, NULL, NULL, NULL, 0}};

const kernel_trait_def *kernel_trait_find(const char *name)
{
	for (size_t i = 0; kernel_trait_table[i].name; i++)
		if (strcmp(kernel_trait_table[i].name, name) == 0)
			return &kernel_trait_table[i];
	return NULL;
}

int kernel_trait_known(const char *name)
{
	return kernel_trait_find(name) != NULL;
}

trait_value kernel_trait_get(const kernel_traits *t, const char *name)
{
	const kernel_trait_def *d = kernel_trait_find(name);
	if (!t || !d)
		return tv_str(NULL);
	return d->get(t);
}

int trait_value_equal(trait_value a, trait_value b)
{
	if (a.kind == TRAIT_UNKNOWN || a.kind != b.kind)
		return 0;
	return a.kind == TRAIT_BOOL ? !a.b == !b.b : strcmp(a.s, b.s) == 0;
}

const char *kernel_trait_values(const char *name)
{
	const kernel_trait_def *d = kernel_trait_find(name);
	return d ? d->values : ANY_VALUE;
}

int kernel_trait_value_ok(const char *name, trait_value v)
{
	const kernel_trait_def *d = kernel_trait_find(name);
	if (!d || !d->allowed)
		return 1;
	for (size_t i = 0; v.kind == TRAIT_STR && d->allowed[i]; i++)
		if (strcmp(d->allowed[i], v.s) == 0)
			return 1;
	return 0;
}

/* ---- report.json ---- */

static jv *trait_jv(trait_value v)
{
	return v.kind == TRAIT_BOOL ? jv_bool(v.b) : v.kind == TRAIT_STR ? jv_str(v.s) : jv_null();
}

static void evidence_jv(jv *ev, const kernel_traits *t)
{
	const traits_evidence *e = &t->evidence;
	switch (t->basis) {
	case TRAITS_FROM_SASS: {
		const jv_int_field f[] = {{"mfma_hits", e->matrix_hits},
					  {"matrix_latency", e->matrix_latency},
					  {"lds_access_hits", e->shared_hits}};
		jv_set_ints(ev, f, sizeof f / sizeof f[0]);
		break;
	}
	case TRAITS_FROM_TRACE: {
		const jv_int_field f[] = {{"mfma_hits", e->matrix_hits},
					  {"lds_access_hits", e->shared_hits},
					  {"lds_dma_hits", e->shared_dma_hits},
					  {"loop_branch_hits", e->loop_branch_hits},
					  {"entry_hits", e->entry_hits}};
		jv_set_ints(ev, f, sizeof f / sizeof f[0]);
		jv_set_round(ev, "loop_iterations_per_wave", e->loop_iterations_per_wave, 2);
		break;
	}
	case TRAITS_FROM_MIX:
		jv_set_round(ev, "mfma_hits", e->mix_matrix, 0);
		jv_set_round(ev, "lds_issue_hits", e->mix_lds_issue, 0);
		break;
	}
}

static const char *const basis_text[] = {
    [TRAITS_FROM_MIX] = "bubbles mix.dynamic only (no trace): has_lds_dma and has_loop unknown; "
			"has_lds_traffic counts every lds_issue instruction",
    [TRAITS_FROM_TRACE] = "trace instructions: executed v_mfma/v_smfma, ds_* (not "
			  "swizzle/permute), buffer/global_load ... lds, and the busiest backward "
			  "branch's hits per wave (its hits / the first instruction's hits)",
    [TRAITS_FROM_SASS] = "SASS instructions (Nsight Compute samples): executed HMMA/HGMMA/IMMA/"
			 "DMMA/QMMA/OMMA/UTC*MMA (tensor cores; matrix_latency = their samples) "
			 "and LDS/STS/LDSM/ATOMS (shared memory); has_lds_dma and has_loop are not "
			 "judged from SASS"};

jv *kernel_traits_to_jv(const kernel_traits *t)
{
	jv *o = jv_object();
	for (size_t i = 0; kernel_trait_table[i].name; i++)
		if (!kernel_trait_table[i].platform)
			jv_set(o, kernel_trait_table[i].name,
			       trait_jv(kernel_trait_table[i].get(t)));
	evidence_jv(jv_set(o, "evidence", jv_object()), t);
	jv_set_str(o, "basis", basis_text[t->basis]);
	if (!t->platform_known)
		return o;
	for (size_t i = 0; kernel_trait_table[i].name; i++)
		if (kernel_trait_table[i].platform)
			jv_set(o, kernel_trait_table[i].name,
			       trait_jv(kernel_trait_table[i].get(t)));
	jv_set_str(o, "platform_basis",
		   t->vendor == VENDOR_NVIDIA
		       ? "backend from bubbles.backend; language from the extension of the source "
			 "files holding most stall in bubbles.lines (.py = triton, .cu/.cuh = cuda)"
		       : "backend amd (bubbles.backend absent or amd): FlyDSL kernels");
	return o;
}
