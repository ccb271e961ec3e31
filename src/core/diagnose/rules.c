/* Loading, validating and evaluating the rules (rules.h). Validation is strict on purpose: a
 * typo in a class, signal or knob name would otherwise make a rule silently never fire. */
#include "core/diagnose/rules.h"

#include "base/data.h"
#include "base/xalloc.h"
#include "base/json/json_parse.h"
#include "core/diagnose/pseudo_class.h"
#include "core/diagnose/kernel_traits.h"
#include "core/diagnose/rule_signals.h"
#include "core/diagnose/rules_locate.h"
#include "model/classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rules_signal_known(const char *name)
{
	return rule_signal_find(name) != NULL;
}

int rules_class_known(const char *c)
{
	int nv = class_lookup(VENDOR_NVIDIA, c);
	return class_lookup(VENDOR_AMD, c) >= 0 || (nv >= 0 && nv != NCU_UNKNOWN) ||
	       pseudo_class_find(c) != NULL;
}

static const char *const op_names[] = {">", ">=", "<", "<=", "==", "!="};

const char *rule_op_name(rule_op op)
{
	return op_names[op];
}

const char *rule_gate_text(unsigned gate)
{
	static char buf[64];
	if (!gate)
		return "any";
	buf[0] = '\0';
	const char *names[] = {"memory", "compute", "latency"};
	for (int i = 0; i < 3; i++)
		if (gate & (1u << i))
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
				 buf[0] ? "|" : "", names[i]);
	return buf;
}

typedef struct vctx {
	const char *text, *name;
	size_t len;
	fp_err *e;
} vctx;

static int bad(vctx *c, const char *pointer, const char *expected, const char *fmt, const char *arg)
{
	long off = rules_locate(c->text, c->len, pointer);
	long long line = 0, col = 0;
	json_line_col(c->text, (size_t)off, &line, &col);
	char msg[512];
	snprintf(msg, sizeof msg, fmt, arg);
	fp_fail(c->e, ERR_BAD_RULES, "%s: %s at %s (line %lld, column %lld)", c->name, msg, pointer,
		line, col);
	fp_err_extra(c->e, "file", jv_str(c->name));
	fp_err_extra(c->e, "pointer", jv_str(pointer));
	fp_err_extra(c->e, "offset", jv_int(off));
	fp_err_extra(c->e, "line", jv_int(line));
	fp_err_extra(c->e, "column", jv_int(col));
	fp_err_extra(c->e, "expected", jv_str(expected));
	return -1;
}

/* ---- validation ---- */

static const char *const rule_keys[] = {
    "id",	"class",  "signal",	"also",	    "gate",	  "knob",   "change",
    "expected", "verify", "confidence", "priority", "applies_to", "unless", NULL};

static const char *get_str(vctx *c, const jv *obj, const char *key, const char *ptr)
{
	const char *s = jv_string(jv_get(obj, key));
	if (!s || !*s) {
		char p[160];
		snprintf(p, sizeof p, "%s/%s", ptr, key);
		bad(c, jv_get(obj, key) ? p : ptr, "a non-empty string", "missing or empty \"%s\"",
		    key);
		return NULL;
	}
	return s;
}

static int parse_cond(vctx *c, const jv *v, const char *ptr, rule_cond *out)
{
	char p[160];
	if (jv_type_of(v) != JV_OBJECT)
		return bad(c, ptr, "an object {field, op, threshold}", "%s",
			   "a condition is not an object");
	const char *field = get_str(c, v, "field", ptr);
	const char *op = field ? get_str(c, v, "op", ptr) : NULL;
	if (!op)
		return -1;
	if (!rules_signal_known(field)) {
		snprintf(p, sizeof p, "%s/field", ptr);
		return bad(c, p, "a known signal name (docs/report.md)", "unknown signal \"%s\"",
			   field);
	}
	int k = -1;
	for (int i = 0; i < 6; i++)
		if (strcmp(op, op_names[i]) == 0)
			k = i;
	if (k < 0) {
		snprintf(p, sizeof p, "%s/op", ptr);
		return bad(c, p, "one of > >= < <= == !=", "unknown op \"%s\"", op);
	}
	const jv *t = jv_get(v, "threshold");
	out->field = xstrdup(field);
	out->op = (rule_op)k;
	if (jv_type_of(t) == JV_STRING && (k == RULE_EQ || k == RULE_NE)) {
		out->is_str = 1;
		out->str = xstrdup(jv_string(t));
	} else if (jv_is_num(t))
		out->num = jv_num(t);
	else {
		snprintf(p, sizeof p, "%s/threshold", ptr);
		return bad(c, p, "a number (or a string with == / !=)", "%s", "bad threshold");
	}
	return 0;
}

/* An optional member of a rule object: its key, JSON type, how many items (or keys) it may
 * hold, and what the error says when it is not so. */
typedef struct member_spec {
	const char *key;
	jv_type type;
	size_t min, max;
	const char *expected, *msg;
} member_spec;

static const member_spec m_gate = {
    "gate", JV_ARRAY, 0, (size_t)-1, "an array of bound names", "gate is not an array"};
static const member_spec m_applies = {"applies_to",
				      JV_OBJECT,
				      1,
				      RULES_MAX_TRAITS,
				      "an object {trait: value} with 1 to 4 kernel traits",
				      "bad \"applies_to\""};
static const member_spec m_also = {
    "also", JV_ARRAY, 0, RULES_MAX_CONDS - 1, "an array of up to 3 conditions", "bad \"also\""};
static const member_spec m_unless = {
    "unless", JV_ARRAY, 0, RULES_MAX_CONDS, "an array of up to 4 conditions", "bad \"unless\""};

#define PTR_MAX 192

/* The member m of the rule object v at ptr: 0 when absent, 1 when it is as m says (*out set),
 * else BAD_RULES at its pointer (-1). */
static int member(vctx *c, const jv *v, const member_spec *m, const char *ptr, const jv **out)
{
	char p[PTR_MAX];
	*out = jv_get(v, m->key);
	if (!*out)
		return 0;
	if (jv_type_of(*out) != m->type || jv_len(*out) < m->min || jv_len(*out) > m->max) {
		snprintf(p, sizeof p, "%s/%s", ptr, m->key);
		return bad(c, p, m->expected, "%s", m->msg);
	}
	return 1;
}

/* The conditions of list member m ("also", "unless"), appended to out[*n]. */
static int parse_cond_list(vctx *c, const jv *v, const member_spec *m, const char *ptr,
			   rule_cond *out, size_t *n)
{
	char p[PTR_MAX];
	const jv *arr;
	int rc = member(c, v, m, ptr, &arr);
	for (size_t i = 0; rc > 0 && i < jv_len(arr); i++) {
		snprintf(p, sizeof p, "%s/%s/%zu", ptr, m->key, i);
		if (parse_cond(c, jv_at(arr, i), p, &out[*n]))
			return -1;
		(*n)++;
	}
	return rc < 0 ? -1 : 0;
}

static int parse_gate(vctx *c, const jv *v, const char *ptr, unsigned *gate)
{
	char p[PTR_MAX];
	const jv *g;
	*gate = 0;
	int rc = member(c, v, &m_gate, ptr, &g);
	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < jv_len(g); i++) {
		const char *s = jv_string(jv_at(g, i));
		if (s && strcmp(s, "memory") == 0)
			*gate |= RULE_GATE_MEMORY;
		else if (s && strcmp(s, "compute") == 0)
			*gate |= RULE_GATE_COMPUTE;
		else if (s && strcmp(s, "latency") == 0)
			*gate |= RULE_GATE_LATENCY;
		else {
			snprintf(p, sizeof p, "%s/gate/%zu", ptr, i);
			return bad(c, p, "memory, compute or latency", "unknown bound \"%s\"",
				   s ? s : "(not a string)");
		}
	}
	return 0;
}

static int parse_applies(vctx *c, const jv *ro, const char *ptr, rule *ru)
{
	char p[PTR_MAX];
	const jv *a;
	int rc = member(c, ro, &m_applies, ptr, &a);
	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < jv_len(a); i++) {
		const char *k = jv_key_at(a, i);
		const jv *v = jv_value_at(a, i);
		snprintf(p, sizeof p, "%s/applies_to/%s", ptr, k);
		if (!kernel_trait_known(k))
			return bad(c, p,
				   "a kernel trait (has_mfma, has_lds_traffic, has_lds_dma, "
				   "has_loop, kind, backend, language)",
				   "unknown trait \"%s\"", k);
		if (jv_type_of(v) != JV_BOOL && jv_type_of(v) != JV_STRING)
			return bad(c, p, "true, false or a string", "%s",
				   "a trait value must be a boolean or a string");
		trait_value want = {TRAIT_STR, 0, jv_string(v)};
		if (jv_type_of(v) == JV_BOOL)
			want = (trait_value){TRAIT_BOOL, jv_is_true(v), NULL};
		if (!kernel_trait_value_ok(k, want))
			return bad(c, p, kernel_trait_values(k), "bad value for trait \"%s\"", k);
		if (want.s)
			want.s = xstrdup(want.s);
		ru->applies[i].name = xstrdup(k);
		ru->applies[i].want = want;
		ru->n_applies = i + 1;
	}
	return 0;
}

static const char *applies_str(const rule *ru, const char *trait)
{
	for (size_t i = 0; i < ru->n_applies; i++)
		if (strcmp(ru->applies[i].name, trait) == 0)
			return ru->applies[i].want.s;
	return NULL;
}

/* A knob belongs to one language's vocabulary, so the rule must say it applies only there:
 * a Triton or CUDA knob needs applies_to.language = that language; a FlyDSL knob must not be
 * offered to an NVIDIA kernel (applies_to.backend = nvidia or a language other than flydsl).
 * Without this a FlyDSL rule would fire on a CUDA kernel's stall classes. */
static int check_language(vctx *c, const rule *ru, const char *ptr)
{
	char p[160];
	const char *kl = jv_string(jv_get(ru->knob_v, "language"));
	const char *lang = applies_str(ru, "language"), *be = applies_str(ru, "backend");
	snprintf(p, sizeof p, "%s/knob", ptr);
	if (!kl || strcmp(kl, "flydsl") == 0) {
		if ((lang && strcmp(lang, "flydsl") != 0) || (be && strcmp(be, "amd") != 0))
			return bad(c, p, "a knob of the rule's own language",
				   "knob \"%s\" is a FlyDSL knob but the rule applies elsewhere",
				   ru->knob);
		return 0;
	}
	if (!lang || strcmp(lang, kl) != 0) {
		char msg[96];
		snprintf(msg, sizeof msg, "applies_to.language = \"%s\" (the knob's vocabulary)",
			 kl);
		return bad(c, p, msg, "knob \"%s\" belongs to another language's vocabulary",
			   ru->knob);
	}
	return 0;
}

static int check_keys(vctx *c, const jv *v, const char *ptr)
{
	char p[160];
	for (size_t i = 0; i < jv_len(v); i++) {
		const char *k = jv_key_at(v, i);
		int known = 0;
		for (size_t j = 0; rule_keys[j]; j++)
			known |= strcmp(k, rule_keys[j]) == 0;
		if (!known) {
			snprintf(p, sizeof p, "%s/%s", ptr, k);
			return bad(c, p, "a rule key (docs/report.md)", "unknown key \"%s\"", k);
		}
	}
	return 0;
}

static int parse_texts(vctx *c, const jv *v, const char *ptr, rule *ru)
{
	const char *id = get_str(c, v, "id", ptr);
	const char *cl = id ? get_str(c, v, "class", ptr) : NULL;
	const char *kn = cl ? get_str(c, v, "knob", ptr) : NULL;
	const char *ch = kn ? get_str(c, v, "change", ptr) : NULL;
	const char *ex = ch ? get_str(c, v, "expected", ptr) : NULL;
	const char *ve = ex ? get_str(c, v, "verify", ptr) : NULL;
	const char *co = ve ? get_str(c, v, "confidence", ptr) : NULL;
	if (!co)
		return -1;
	ru->id = xstrdup(id);
	ru->klass = xstrdup(cl);
	ru->knob = xstrdup(kn);
	ru->change = xstrdup(ch);
	ru->expected = xstrdup(ex);
	ru->verify = xstrdup(ve);
	ru->confidence = xstrdup(co);
	return 0;
}

static int parse_rule(vctx *c, const rules *r, const jv *v, const char *ptr, rule *ru)
{
	char p[160];
	if (jv_type_of(v) != JV_OBJECT)
		return bad(c, ptr, "a rule object", "%s", "a rule is not an object");
	if (check_keys(c, v, ptr) || parse_texts(c, v, ptr, ru))
		return -1;
	if (!rules_class_known(ru->klass)) {
		snprintf(p, sizeof p, "%s/class", ptr);
		return bad(c, p, "a native AMD or NVIDIA class, occupancy or roofline",
			   "unknown class \"%s\"", ru->klass);
	}
	if (!(ru->knob_v = rules_knob(r, ru->knob))) {
		snprintf(p, sizeof p, "%s/knob", ptr);
		return bad(c, p, "a knob id of the vocabulary", "unknown knob \"%s\"", ru->knob);
	}
	if (strcmp(ru->confidence, "high") && strcmp(ru->confidence, "medium") &&
	    strcmp(ru->confidence, "low")) {
		snprintf(p, sizeof p, "%s/confidence", ptr);
		return bad(c, p, "high, medium or low", "bad confidence \"%s\"", ru->confidence);
	}
	const jv *pr = jv_get(v, "priority");
	if (!jv_is_num(pr) || jv_num(pr) <= 0 || jv_num(pr) > 2) {
		snprintf(p, sizeof p, "%s/priority", ptr);
		return bad(c, pr ? p : ptr, "a number in (0, 2]", "%s", "bad or missing priority");
	}
	ru->priority = jv_num(pr);
	snprintf(p, sizeof p, "%s/signal", ptr);
	if (parse_cond(c, jv_get(v, "signal"), p, &ru->conds[0]))
		return -1;
	ru->n_conds = 1;
	if (parse_cond_list(c, v, &m_also, ptr, ru->conds, &ru->n_conds) ||
	    parse_cond_list(c, v, &m_unless, ptr, ru->unless, &ru->n_unless) ||
	    parse_applies(c, v, ptr, ru) || check_language(c, ru, ptr))
		return -1;
	return parse_gate(c, v, ptr, &ru->gate);
}

static int valid_id(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int check_knobs(vctx *c, const jv *doc)
{
	const jv *ks = jv_get(doc, "knobs");
	if (jv_type_of(ks) != JV_ARRAY || !jv_len(ks))
		return bad(c, "/knobs", "a non-empty array of knobs", "%s", "missing \"knobs\"");
	char p[64];
	for (size_t i = 0; i < jv_len(ks); i++) {
		const jv *k = jv_at(ks, i);
		snprintf(p, sizeof p, "/knobs/%zu", i);
		const char *id = jv_type_of(k) == JV_OBJECT ? get_str(c, k, "id", p) : NULL;
		if (!id || !get_str(c, k, "kind", p) || !get_str(c, k, "api", p) ||
		    !get_str(c, k, "effect", p))
			return c->e->set ? -1 : bad(c, p, "a knob object", "%s", "bad knob");
		const char *kind = jv_string(jv_get(k, "kind"));
		if (!jv_get(jv_get(doc, "kinds"), kind)) {
			snprintf(p, sizeof p, "/knobs/%zu/kind", i);
			return bad(c, p, "a kind listed under \"kinds\"",
				   "unknown knob kind \"%s\"", kind);
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(jv_string(jv_get(jv_at(ks, j), "id")), id) == 0) {
				snprintf(p, sizeof p, "/knobs/%zu/id", i);
				return bad(c, p, "a unique id", "duplicate knob \"%s\"", id);
			}
	}
	return 0;
}

static jv *parse_doc(const char *text, size_t len, const char *name, fp_err *e)
{
	jv *doc = json_parse(text, len, name, e);
	if (!doc)
		e->code = ERR_BAD_RULES; /* keeps file/offset/line/column from the parser */
	return doc;
}

const jv *rules_knob(const rules *r, const char *id)
{
	const jv *ks = jv_get(r->knobs, "knobs");
	for (size_t i = 0; i < jv_len(ks); i++)
		if (jv_string(jv_get(jv_at(ks, i), "id")) &&
		    strcmp(jv_string(jv_get(jv_at(ks, i), "id")), id) == 0)
			return jv_at(ks, i);
	return NULL;
}

static int parse_rules_doc(vctx *c, rules *r, const jv *doc)
{
	const jv *arr = jv_get(doc, "rules");
	if (jv_type_of(doc) != JV_OBJECT || jv_type_of(arr) != JV_ARRAY || !jv_len(arr))
		return bad(c, "", "an object with a non-empty \"rules\" array", "%s",
			   "missing \"rules\"");
	r->v = xcalloc(jv_len(arr), sizeof *r->v);
	char p[64];
	for (size_t i = 0; i < jv_len(arr); i++) {
		snprintf(p, sizeof p, "/rules/%zu", i);
		r->n = i + 1; /* so rules_release frees a partly filled rule */
		if (parse_rule(c, r, jv_at(arr, i), p, &r->v[i]))
			return -1;
		snprintf(p, sizeof p, "/rules/%zu/id", i);
		if (!valid_id(r->v[i].id))
			return bad(c, p, "[a-z0-9_]+", "bad rule id \"%s\"", r->v[i].id);
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->v[j].id, r->v[i].id) == 0)
				return bad(c, p, "a unique id", "duplicate rule id \"%s\"",
					   r->v[i].id);
	}
	return 0;
}

/* The language a vocabulary document is for: its "vocabulary" name (flydsl, triton, cuda;
 * absent means flydsl, the original single vocabulary). */
static const char *vocab_language(vctx *c, const jv *doc)
{
	const jv *v = jv_get(doc, "vocabulary");
	if (!v)
		return "flydsl";
	const char *s = jv_string(v);
	if (s && (!strcmp(s, "flydsl") || !strcmp(s, "triton") || !strcmp(s, "cuda")))
		return s;
	bad(c, "/vocabulary", "flydsl, triton or cuda", "unknown vocabulary \"%s\"",
	    s ? s : "(not a string)");
	return NULL;
}

/* Validates one vocabulary and appends its knobs (each tagged with "language") and kinds to
 * the merged document; a knob id already defined by an earlier vocabulary is BAD_RULES. */
static int merge_vocab(rules *r, const rules_vocab *v, fp_err *e)
{
	vctx kc = {v->text, v->name, v->len, e};
	jv *doc = parse_doc(v->text, v->len, v->name, e);
	if (!doc)
		return -1;
	const char *lang = NULL;
	int fail = jv_type_of(doc) != JV_OBJECT
		       ? bad(&kc, "", "an object", "%s", "the vocabulary is not an object")
		       : check_knobs(&kc, doc);
	if (!fail && !(lang = vocab_language(&kc, doc)))
		fail = -1;
	const jv *ks = jv_get(doc, "knobs");
	for (size_t i = 0; !fail && i < jv_len(ks); i++) {
		const char *id = jv_string(jv_get(jv_at(ks, i), "id"));
		if (rules_knob(r, id)) {
			char p[64];
			snprintf(p, sizeof p, "/knobs/%zu/id", i);
			fail = bad(&kc, p, "a knob id unique across all vocabularies",
				   "knob \"%s\" is already defined by another vocabulary", id);
			break;
		}
		jv *k = jv_push(jv_get(r->knobs, "knobs"), jv_copy(jv_at(ks, i)));
		jv_set_str(k, "language", lang);
	}
	if (!fail) {
		const jv *kinds = jv_get(doc, "kinds");
		jv *mk = (jv *)jv_get(r->knobs, "kinds");
		for (size_t i = 0; i < jv_len(kinds); i++)
			if (!jv_get(mk, jv_key_at(kinds, i)))
				jv_set(mk, jv_key_at(kinds, i), jv_copy(jv_value_at(kinds, i)));
		jv *vi = jv_push(jv_get(r->knobs, "vocabularies"), jv_object());
		jv_set_str(vi, "language", lang);
		jv_set_str(vi, "file", v->name);
		jv_set(vi, "source",
		       jv_get(doc, "source") ? jv_copy(jv_get(doc, "source")) : jv_null());
	}
	jv_free(doc);
	return fail ? -1 : 0;
}

int rules_parse_vocabs(rules *r, const char *text, size_t len, const char *name,
		       const rules_vocab *vocabs, size_t n_vocabs, fp_err *e)
{
	memset(r, 0, sizeof *r);
	r->origin = xstrdup(name);
	r->knobs = jv_object();
	jv_set(r->knobs, "vocabularies", jv_array());
	jv_set(r->knobs, "kinds", jv_object());
	jv_set(r->knobs, "knobs", jv_array());
	for (size_t i = 0; i < n_vocabs; i++)
		if (merge_vocab(r, &vocabs[i], e)) {
			rules_release(r);
			return -1;
		}
	jv *doc = parse_doc(text, len, name, e);
	if (!doc) {
		rules_release(r);
		return -1;
	}
	vctx c = {text, name, len, e};
	int rc = parse_rules_doc(&c, r, doc);
	jv_free(doc);
	if (rc)
		rules_release(r);
	return rc;
}

int rules_parse(rules *r, const char *text, size_t len, const char *name, const char *knobs_text,
		size_t knobs_len, const char *knobs_name, fp_err *e)
{
	rules_vocab v = {knobs_text, knobs_len, knobs_name};
	return rules_parse_vocabs(r, text, len, name, &v, 1, e);
}

const char *const rules_vocab_files[] = {"knobs_flydsl.json", "knobs_triton.json",
					 "knobs_cuda.json", NULL};

int rules_load(rules *r, fp_err *e)
{
	enum { NV = 3 };
	size_t len = 0;
	const char *origin = NULL;
	memset(r, 0, sizeof *r);
	char *text = data_load("rules.json", &len, &origin, e);
	if (!text)
		return -1;
	char *name = xstrdup(origin);
	rules_vocab v[NV];
	char *vt[NV] = {0}, *vn[NV] = {0};
	int ok = 1;
	for (size_t i = 0; i < NV && ok; i++) {
		vt[i] = data_load(rules_vocab_files[i], &v[i].len, &origin, e);
		ok = vt[i] != NULL;
		vn[i] = ok ? xstrdup(origin) : NULL;
		v[i].text = vt[i], v[i].name = vn[i];
	}
	int rc = ok ? rules_parse_vocabs(r, text, len, name, v, NV, e) : -1;
	for (size_t i = 0; i < NV; i++)
		free(vt[i]), free(vn[i]);
	free(text);
	free(name);
	return rc;
}

void rules_release(rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		rule *ru = &r->v[i];
		free(ru->id);
		free(ru->klass);
		free(ru->knob);
		free(ru->change);
		free(ru->expected);
		free(ru->verify);
		free(ru->confidence);
		for (size_t k = 0; k < RULES_MAX_CONDS; k++) {
			free(ru->conds[k].field);
			free(ru->conds[k].str);
			free(ru->unless[k].field);
			free(ru->unless[k].str);
		}
		for (size_t k = 0; k < ru->n_applies; k++) {
			free(ru->applies[k].name);
			free((char *)ru->applies[k].want.s);
		}
	}
	free(r->v);
	jv_free(r->knobs);
	free(r->origin);
	memset(r, 0, sizeof *r);
}

/* ---- evaluation ---- */

static int cond_true(const rule_cond *c, const sig_value *v)
{
	if (c->is_str) {
		const char *s = sig_string(v);
		int eq = s && strcmp(s, c->str) == 0;
		return c->op == RULE_EQ ? eq : !eq;
	}
	if (!sig_is_num(v))
		return 0;
	double x = v->num;
	switch (c->op) {
	case RULE_GT:
		return x > c->num;
	case RULE_GE:
		return x >= c->num;
	case RULE_LT:
		return x < c->num;
	case RULE_LE:
		return x <= c->num;
	case RULE_EQ:
		return x == c->num;
	case RULE_NE:
		return x != c->num;
	}
	return 0;
}

static unsigned bound_bit(const char *bound)
{
	if (!bound)
		return 0;
	if (strcmp(bound, "memory") == 0)
		return RULE_GATE_MEMORY;
	if (strcmp(bound, "compute") == 0)
		return RULE_GATE_COMPUTE;
	if (strcmp(bound, "latency") == 0)
		return RULE_GATE_LATENCY;
	return 0;
}

void rule_eval(const rule *ru, const signal_map *signals, const char *bound, int gating,
	       rule_outcome *o)
{
	memset(o, 0, sizeof *o);
	o->value = signal_map_get(signals, ru->conds[0].field);
	for (size_t i = 0; i < ru->n_conds; i++) {
		const sig_value *v = signal_map_get(signals, ru->conds[i].field);
		if (!v || v->kind == SIG_NULL) {
			o->status = RULE_NO_SIGNAL;
			o->missing = ru->conds[i].field;
			return;
		}
		if (!cond_true(&ru->conds[i], v)) {
			o->status = RULE_NOT_FIRED;
			return;
		}
	}
	for (size_t i = 0; i < ru->n_unless; i++) {
		const sig_value *v = signal_map_get(signals, ru->unless[i].field);
		if (v && v->kind != SIG_NULL && cond_true(&ru->unless[i], v)) {
			o->status = RULE_CONTRADICTED;
			o->contradicted_by = &ru->unless[i];
			return;
		}
	}
	unsigned b = bound_bit(bound);
	o->status = gating && ru->gate && b && !(ru->gate & b) ? RULE_GATED : RULE_FIRED;
}

static void value_text(trait_value v, char *buf, size_t n)
{
	snprintf(buf, n, "%s",
		 v.kind == TRAIT_BOOL  ? (v.b ? "true" : "false")
		 : v.kind == TRAIT_STR ? v.s
				       : "?");
}

int rule_for_platform(const rule *ru, const kernel_traits *traits)
{
	for (size_t i = 0; i < ru->n_applies; i++) {
		const kernel_trait_def *d = kernel_trait_find(ru->applies[i].name);
		if (!d || !d->platform)
			continue;
		trait_value have = kernel_trait_get(traits, d->name);
		if (have.kind != TRAIT_UNKNOWN && !trait_value_equal(have, ru->applies[i].want))
			return 0;
	}
	return 1;
}

int rule_applies(const rule *ru, const kernel_traits *traits, char *why, size_t whysz)
{
	if (whysz)
		why[0] = '\0';
	for (size_t i = 0; i < ru->n_applies; i++) {
		trait_value have = kernel_trait_get(traits, ru->applies[i].name);
		if (have.kind == TRAIT_UNKNOWN || trait_value_equal(have, ru->applies[i].want))
			continue;
		char w[32], h[32];
		value_text(ru->applies[i].want, w, sizeof w);
		value_text(have, h, sizeof h);
		snprintf(why, whysz, "needs %s = %s; this kernel has %s = %s", ru->applies[i].name,
			 w, ru->applies[i].name, h);
		return 0;
	}
	return 1;
}
