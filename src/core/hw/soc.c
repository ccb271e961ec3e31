/* Loading, validation and lookup of the SoC tables (see soc.h). Validation is strict because a
 * wrong hardware number silently corrupts every occupancy and roofline figure downstream:
 * each field must be present, numeric, in a plausible range and carry a "ref". */
#include "core/hw/soc.h"

#include "base/data.h"
#include "base/xalloc.h"
#include "base/json/json_parse.h"
#include "core/hw/dtype.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct soc_table {
	jv *root; /* the parsed soc.json; specs borrow its strings */
	soc_spec *specs;
	size_t n;
	char *origin;
};

/* Validation context: the file name for errors and the path of the object being read. */
typedef struct vctx {
	const char *file;
	const char *where; /* "socs[1].products[0]" style, for messages */
	fp_err *e;
} vctx;

static int bad(vctx *v, const char *field, const char *what)
{
	fp_fail(v->e, ERR_BAD_RULES, "%s: %s%s%s: %s", v->file, v->where, field ? "." : "",
		field ? field : "", what);
	fp_err_extra(v->e, "file", jv_str(v->file));
	if (field)
		fp_err_extra(v->e, "field", jv_strf("%s.%s", v->where, field));
	return -1;
}

/* Reads {"v": number, "ref": "..."} at obj.key into *out, checking [lo, hi]. */
static int get_num(vctx *v, const jv *obj, const char *key, double lo, double hi, double *out)
{
	const jv *f = jv_get(obj, key);
	if (jv_type_of(f) != JV_OBJECT)
		return bad(v, key, "missing or not an object {\"v\": number, \"ref\": text}");
	const jv *val = jv_get(f, "v");
	const char *ref = jv_string(jv_get(f, "ref"));
	if (!val || !jv_is_num(val))
		return bad(v, key, "\"v\" missing or not a number");
	if (!ref || !*ref)
		return bad(v, key, "\"ref\" missing: every number must say where it comes from");
	double d = jv_num(val);
	if (!(d >= lo && d <= hi))
		return bad(v, key, "value out of the plausible range");
	*out = d;
	return 0;
}

/* get_num for a whole number. */
static int get_whole(vctx *v, const jv *obj, const char *key, double lo, double hi, double *out)
{
	double d;
	if (get_num(v, obj, key, lo, hi, &d) < 0)
		return -1;
	if (d != floor(d))
		return bad(v, key, "must be an integer");
	*out = d;
	return 0;
}

static int get_int(vctx *v, const jv *obj, const char *key, double lo, double hi, int *out)
{
	double d = 0;
	int rc = get_whole(v, obj, key, lo, hi, &d);
	if (rc == 0)
		*out = (int)d;
	return rc;
}

static int get_i64(vctx *v, const jv *obj, const char *key, double lo, double hi, int64_t *out)
{
	double d = 0;
	int rc = get_whole(v, obj, key, lo, hi, &d);
	if (rc == 0)
		*out = (int64_t)d;
	return rc;
}

static int get_str(vctx *v, const jv *obj, const char *key, const char **out)
{
	const char *s = jv_string(jv_get(obj, key));
	if (!s || !*s)
		return bad(v, key, "missing or not a non-empty string");
	*out = s;
	return 0;
}

static int read_rates(vctx *v, const jv *arch, const char *key, double clock, soc_rate *rates,
		      size_t *n)
{
	const jv *obj = jv_get(arch, key);
	*n = 0;
	if (jv_type_of(obj) != JV_OBJECT)
		return bad(v, key, "missing or not an object of dtype -> rate");
	for (size_t i = 0; i < jv_len(obj); i++) {
		const char *dt = jv_key_at(obj, i);
		const jv *r = jv_value_at(obj, i);
		if (!dtype_is_canon(dt) || strcmp(dtype_canon(dt), dt) != 0)
			return bad(v, key, "rate key is not a canonical dtype name");
		if (*n >= SOC_MAX_RATES)
			return bad(v, key, "too many rates");
		double rate, clk = clock;
		if (get_num(v, obj, dt, 1, 1e6, &rate) < 0)
			return -1;
		const jv *c = jv_get(r, "clock_mhz");
		if (c) {
			if (!jv_is_num(c) || jv_num(c) < 100 || jv_num(c) > 10000)
				return bad(v, key, "rate clock_mhz out of range");
			clk = jv_num(c);
		}
		int64_t k = 0;
		const jv *pk = jv_get(r, "peak_k");
		if (pk && (!jv_int_ok(pk, &k) || k < 1 || k > 1024))
			return bad(v, key, "rate peak_k must be an integer 1..1024");
		rates[*n] = (soc_rate){dt, rate, clk, (int)k, jv_string(jv_get(r, "ref"))};
		(*n)++;
	}
	return 0;
}

static int read_sgpr_limits(vctx *v, const jv *arch, soc_spec *s)
{
	const jv *f = jv_get(arch, "sgpr_wave_limits");
	const jv *list = f ? jv_get(f, "v") : NULL;
	if (jv_type_of(list) != JV_ARRAY || jv_len(list) == 0 ||
	    jv_len(list) > SOC_MAX_SGPR_LIMITS || !jv_string(jv_get(f, "ref")))
		return bad(v, "sgpr_wave_limits",
			   "expected {\"v\": [[max_sgprs, waves], ...], "
			   "\"ref\": text} with 1-8 pairs");
	int prev = -1;
	for (size_t i = 0; i < jv_len(list); i++) {
		const jv *p = jv_at(list, i);
		int64_t a, b;
		if (jv_type_of(p) != JV_ARRAY || jv_len(p) != 2 || !jv_int_ok(jv_at(p, 0), &a) ||
		    !jv_int_ok(jv_at(p, 1), &b) || a <= prev || a > 1000000 || b < 1 || b > 64)
			return bad(v, "sgpr_wave_limits",
				   "each pair is [ascending max SGPRs, waves 1..64]");
		s->sgpr_limit[i][0] = (int)a;
		s->sgpr_limit[i][1] = (int)b;
		prev = (int)a;
	}
	s->n_sgpr_limits = (int)jv_len(list);
	return 0;
}

/* A whole-number field of an arch: its key in socs.json (the member's name), where it goes
 * and its size (int or int64_t), and the plausible range. */
typedef struct whole_field {
	const char *key;
	size_t off, size;
	double lo, hi;
} whole_field;

#define FIELD(name) #name, offsetof(soc_spec, name), sizeof(((soc_spec *)0)->name)

static const whole_field arch_fields[] = {
    {FIELD(wave_size), 32, 64},		{FIELD(simds_per_cu), 1, 16},
    {FIELD(max_waves_per_simd), 1, 64}, {FIELD(max_waves_per_cu), 1, 256},
    {FIELD(max_wg_size), 32, 4096},	{FIELD(max_wgs_per_cu), 1, 256},
    {FIELD(lds_per_cu), 1024, 1 << 24}, {FIELD(lds_max_per_wg), 1024, 1 << 24},
    {FIELD(lds_granule), 4, 65536},	{FIELD(lds_reserved_per_wg), 0, 65536},
    {FIELD(lds_banks), 1, 256},		{FIELD(lds_bank_bytes), 1, 64},
    {FIELD(l2_bytes), 0, 1e12},		{FIELD(mall_bytes), 0, 1e12},
};

/* AMD register files: VGPRs per lane, AGPRs, SGPRs per wave. */
static const whole_field amd_register_fields[] = {
    {FIELD(vgprs_per_lane), 64, 4096}, {FIELD(max_arch_vgprs), 1, 4096},
    {FIELD(max_agprs), 0, 4096},       {FIELD(vgpr_granule), 1, 64},
    {FIELD(agpr_align), 1, 64},	       {FIELD(max_sgprs_per_wave), 1, 1024},
    {FIELD(sgpr_granule), 1, 64},
};

/* NVIDIA: one register file per SM. */
static const whole_field nvidia_register_fields[] = {
    {FIELD(regs_per_cu), 1024, 1 << 22},
    {FIELD(reg_alloc_unit), 1, 4096},
    {FIELD(max_regs_per_thread), 1, 4096},
};

#undef FIELD

/* Reads the n fields f of obj into s, stopping at the first bad one. */
static int read_fields(vctx *v, const jv *obj, const whole_field *f, size_t n, soc_spec *s)
{
	for (size_t i = 0; i < n; i++) {
		char *dst = (char *)s + f[i].off;
		int rc = f[i].size == sizeof(int64_t)
			     ? get_i64(v, obj, f[i].key, f[i].lo, f[i].hi, (int64_t *)dst)
			     : get_int(v, obj, f[i].key, f[i].lo, f[i].hi, (int *)dst);
		if (rc < 0)
			return -1;
	}
	return 0;
}

#define FIELDS(a) a, sizeof a / sizeof a[0]

/* Fields shared by all products of an arch. */
static int read_arch(vctx *v, const jv *a, soc_spec *s)
{
	const char *vendor = NULL;
	if (get_str(v, a, "arch", &s->arch) < 0 || get_str(v, a, "vendor", &vendor) < 0 ||
	    get_str(v, a, "family", &s->family) < 0)
		return -1;
	if (strcmp(vendor, "amd") == 0)
		s->vendor = SOC_AMD;
	else if (strcmp(vendor, "nvidia") == 0)
		s->vendor = SOC_NVIDIA;
	else
		return bad(v, "vendor", "must be \"amd\" or \"nvidia\"");
	if (read_fields(v, a, FIELDS(arch_fields), s) < 0)
		return -1;
	if (s->max_waves_per_cu > s->max_waves_per_simd * s->simds_per_cu)
		return bad(v, "max_waves_per_cu", "exceeds simds_per_cu x max_waves_per_simd");
	if (s->lds_max_per_wg > s->lds_per_cu)
		return bad(v, "lds_max_per_wg", "exceeds lds_per_cu");
	if (s->vendor == SOC_NVIDIA)
		return read_fields(v, a, FIELDS(nvidia_register_fields), s);
	if (read_fields(v, a, FIELDS(amd_register_fields), s) < 0)
		return -1;
	return read_sgpr_limits(v, a, s);
}

#undef FIELDS

static int read_product(vctx *v, const jv *a, const jv *p, soc_spec *s)
{
	if (get_str(v, p, "name", &s->product) < 0 || get_int(v, p, "cus", 1, 4096, &s->cus) < 0 ||
	    get_int(v, p, "xcds", 1, 64, &s->xcds) < 0 ||
	    get_num(v, p, "clock_mhz", 100, 10000, &s->clock_mhz) < 0 ||
	    get_i64(v, p, "hbm_bytes", 0, 1e15, &s->hbm_bytes) < 0 ||
	    get_num(v, p, "hbm_tbps", 0.01, 1000, &s->hbm_tbps) < 0)
		return -1;
	const jv *d = jv_get(p, "default");
	if (d && jv_type_of(d) != JV_BOOL)
		return bad(v, "default", "must be true or false");
	s->is_default = jv_is_true(d);
	s->arch_entry = a;
	s->product_entry = p;
	if (read_rates(v, a, "matrix_rates", s->clock_mhz, s->matrix, &s->n_matrix) < 0 ||
	    read_rates(v, a, "vector_rates", s->clock_mhz, s->vector, &s->n_vector) < 0)
		return -1;
	return 0;
}

static int check_aliases(vctx *v, const jv *obj)
{
	const jv *al = jv_get(obj, "aliases");
	if (!al)
		return 0;
	if (jv_type_of(al) != JV_ARRAY)
		return bad(v, "aliases", "must be an array of strings");
	for (size_t i = 0; i < jv_len(al); i++)
		if (!jv_string(jv_at(al, i)) || !*jv_string(jv_at(al, i)))
			return bad(v, "aliases", "must be an array of non-empty strings");
	return 0;
}

/* Expands one arch object into one spec per product. */
static int read_arch_products(soc_table *t, vctx *v, const jv *a, size_t ai)
{
	char where[96];
	snprintf(where, sizeof where, "socs[%zu]", ai);
	v->where = where;
	if (jv_type_of(a) != JV_OBJECT)
		return bad(v, NULL, "expected an object");
	soc_spec base;
	memset(&base, 0, sizeof base);
	if (read_arch(v, a, &base) < 0 || check_aliases(v, a) < 0)
		return -1;
	const jv *prods = jv_get(a, "products");
	if (jv_type_of(prods) != JV_ARRAY || jv_len(prods) == 0)
		return bad(v, "products", "missing or empty array");
	int defaults = 0;
	for (size_t i = 0; i < jv_len(prods); i++) {
		const jv *p = jv_at(prods, i);
		snprintf(where, sizeof where, "socs[%zu].products[%zu]", ai, i);
		if (jv_type_of(p) != JV_OBJECT)
			return bad(v, NULL, "expected an object");
		soc_spec s = base;
		if (read_product(v, a, p, &s) < 0 || check_aliases(v, p) < 0)
			return -1;
		defaults += s.is_default;
		t->specs = xrealloc(t->specs, (t->n + 1) * sizeof *t->specs);
		t->specs[t->n++] = s;
	}
	snprintf(where, sizeof where, "socs[%zu]", ai);
	if (defaults != 1)
		return bad(v, "products", "exactly one product must be marked \"default\": true");
	return 0;
}

/* Every name (arch, product, alias) must resolve to exactly one spec. */
static int check_unique_names(soc_table *t, vctx *v)
{
	jv *names = soc_names(t);
	for (size_t i = 0; i < jv_len(names); i++)
		for (size_t j = i + 1; j < jv_len(names); j++)
			if (strcasecmp(jv_string(jv_at(names, i)), jv_string(jv_at(names, j))) ==
			    0) {
				v->where = "socs";
				bad(v, NULL, "a name or alias is used twice");
				fp_err_extra(v->e, "name", jv_copy(jv_at(names, i)));
				jv_free(names);
				return -1;
			}
	jv_free(names);
	return 0;
}

soc_table *soc_table_parse(const char *buf, size_t len, const char *name, fp_err *e)
{
	fp_err pe = FP_ERR_INIT;
	jv *root = json_parse(buf, len, name, &pe);
	if (!root) {
		/* Keep the position keys of the parser's error, relabelled as a data-file error. */
		pe.code = ERR_BAD_RULES;
		fp_err_move(e, &pe);
		return NULL;
	}
	soc_table *t = xcalloc(1, sizeof *t);
	t->root = root;
	t->origin = xstrdup(name);
	vctx v = {name, "", e};
	const jv *socs = jv_get(root, "socs");
	if (jv_type_of(root) != JV_OBJECT || jv_type_of(socs) != JV_ARRAY || jv_len(socs) == 0) {
		bad(&v, "socs", "the top level must be an object with a non-empty \"socs\" array");
		soc_table_free(t);
		return NULL;
	}
	for (size_t i = 0; i < jv_len(socs); i++)
		if (read_arch_products(t, &v, jv_at(socs, i), i) < 0) {
			soc_table_free(t);
			return NULL;
		}
	if (check_unique_names(t, &v) < 0) {
		soc_table_free(t);
		return NULL;
	}
	return t;
}

soc_table *soc_table_load(fp_err *e)
{
	size_t len = 0;
	const char *origin = NULL;
	char *buf = data_load("soc.json", &len, &origin, e);
	if (!buf)
		return NULL;
	soc_table *t = soc_table_parse(buf, len, origin, e);
	free(buf);
	return t;
}

void soc_table_free(soc_table *t)
{
	if (!t)
		return;
	jv_free(t->root);
	free(t->specs);
	free(t->origin);
	free(t);
}

size_t soc_count(const soc_table *t)
{
	return t ? t->n : 0;
}

const soc_spec *soc_at(const soc_table *t, size_t i)
{
	return t && i < t->n ? &t->specs[i] : NULL;
}

const char *soc_origin(const soc_table *t)
{
	return t ? t->origin : NULL;
}

/* Compares a query with a table name: case-insensitive, the query's target-id features
 * (":sramecc+:xnack-") ignored. */
static int name_eq(const char *query, size_t qlen, const char *name)
{
	return strlen(name) == qlen && strncasecmp(query, name, qlen) == 0;
}

static int in_aliases(const jv *obj, const char *q, size_t qlen)
{
	const jv *al = jv_get(obj, "aliases");
	for (size_t i = 0; i < jv_len(al); i++)
		if (name_eq(q, qlen, jv_string(jv_at(al, i))))
			return 1;
	return 0;
}

const soc_spec *soc_lookup(const soc_table *t, const char *name)
{
	if (!t || !name)
		return NULL;
	size_t qlen = strcspn(name, ":");
	if (qlen == 0)
		return NULL;
	/* Product names first: "MI355X" must not fall back to the arch default. */
	for (size_t i = 0; i < t->n; i++) {
		const soc_spec *s = &t->specs[i];
		if (name_eq(name, qlen, s->product) || in_aliases(s->product_entry, name, qlen))
			return s;
	}
	for (size_t i = 0; i < t->n; i++) {
		const soc_spec *s = &t->specs[i];
		if (s->is_default &&
		    (name_eq(name, qlen, s->arch) || in_aliases(s->arch_entry, name, qlen)))
			return s;
	}
	return NULL;
}

jv *soc_names(const soc_table *t)
{
	jv *out = jv_array();
	for (size_t i = 0; t && i < t->n; i++) {
		const soc_spec *s = &t->specs[i];
		if (s->is_default) {
			jv_push(out, jv_str(s->arch));
			const jv *al = jv_get(s->arch_entry, "aliases");
			for (size_t k = 0; k < jv_len(al); k++)
				jv_push(out, jv_copy(jv_at(al, k)));
		}
		jv_push(out, jv_str(s->product));
		const jv *al = jv_get(s->product_entry, "aliases");
		for (size_t k = 0; k < jv_len(al); k++)
			jv_push(out, jv_copy(jv_at(al, k)));
	}
	return out;
}

const soc_spec *soc_find(const soc_table *t, const char *name, fp_err *e)
{
	const soc_spec *s = soc_lookup(t, name);
	if (s)
		return s;
	fp_fail(e, ERR_BAD_ARGS, "unknown architecture or product '%s'", name ? name : "");
	fp_err_extra(e, "available", soc_names(t));
	return NULL;
}

static const soc_rate *find_rate(const soc_rate *r, size_t n, const char *dtype)
{
	for (size_t i = 0; dtype && i < n; i++)
		if (strcmp(r[i].dtype, dtype) == 0)
			return &r[i];
	return NULL;
}

const soc_rate *soc_matrix_rate(const soc_spec *s, const char *dtype)
{
	return s ? find_rate(s->matrix, s->n_matrix, dtype) : NULL;
}

const soc_rate *soc_vector_rate(const soc_spec *s, const char *dtype)
{
	return s ? find_rate(s->vector, s->n_vector, dtype) : NULL;
}

double soc_peak_flops(const soc_spec *s, const soc_rate *r)
{
	if (!s || !r)
		return 0;
	return (double)s->cus * r->clock_mhz * 1e6 * r->flops_per_cu_clk;
}

double soc_hbm_bytes_per_s(const soc_spec *s)
{
	return s ? s->hbm_tbps * 1e12 : 0;
}

double soc_ridge(const soc_spec *s, const soc_rate *r)
{
	double bw = soc_hbm_bytes_per_s(s);
	return bw > 0 ? soc_peak_flops(s, r) / bw : 0;
}

const char *soc_ref(const soc_spec *s, const char *field)
{
	if (!s)
		return NULL;
	const jv *f = jv_get(s->product_entry, field);
	if (!f)
		f = jv_get(s->arch_entry, field);
	return f ? jv_string(jv_get(f, "ref")) : NULL;
}

jv *soc_to_json(const soc_spec *s)
{
	jv *o = jv_object();
	jv_set_str(o, "arch", s->arch);
	jv_set_str(o, "product", s->product);
	jv_set_str(o, "family", s->family);
	jv_set_str(o, "vendor", s->vendor == SOC_AMD ? "amd" : "nvidia");
	jv_set_int(o, "cus", s->cus);
	jv_set_int(o, "simds_per_cu", s->simds_per_cu);
	jv_set_int(o, "wave_size", s->wave_size);
	jv_set_int(o, "max_waves_per_simd", s->max_waves_per_simd);
	jv_set_int(o, "max_waves_per_cu", s->max_waves_per_cu);
	jv_set_int(o, "lds_per_cu", s->lds_per_cu);
	jv_set_int(o, "lds_granule", s->lds_granule);
	if (s->vendor == SOC_AMD) {
		jv_set_int(o, "vgprs_per_lane", s->vgprs_per_lane);
		jv_set_int(o, "vgpr_granule", s->vgpr_granule);
	} else {
		jv_set_int(o, "regs_per_cu", s->regs_per_cu);
	}
	jv_set_round(o, "clock_mhz", s->clock_mhz, 1);
	jv_set_round(o, "hbm_tbps", s->hbm_tbps, 2);
	jv_set_int(o, "l2_bytes", s->l2_bytes);
	return o;
}
