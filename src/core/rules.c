/* Loading, validating and evaluating the rules (rules.h). Validation is strict on purpose: a
 * typo in a class, signal or knob name would otherwise make a rule silently never fire. */
#include "rules.h"

#include "../base/data.h"
#include "../base/xalloc.h"
#include "../read/json_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rules_native_classes[] = {"vmem_wait",  "lds_wait",  "smem_wait",  "barrier",
					    "vmem_issue", "lds_issue", "smem_issue", "mfma",
					    "valu",	  "salu",      "branch",     "nop",
					    "message",	  "other",     NULL};
const char *const rules_normalized_classes[] = {
    "memory_dependency", "lds_dependency", "synchronization", "issue_throttle", "fixed_latency",
    "front_end",	 "scheduler",	   "issued",	      "other",		NULL};

/* Signals that are not per class (rule_signals.c provides them). */
static const char *const fixed_signals[] = {"totals.stall_pct_of_latency",
					    "totals.idle_pct_of_latency",
					    "waits.memory_pct",
					    "waits.lds_pct",
					    "waits.smem_pct",
					    "vmem_issue.narrow_top_pct",
					    "occupancy.theoretical_waves_per_simd",
					    "occupancy.observed_mean_per_simd",
					    "occupancy.observed_peak_per_simd",
					    "occupancy.limiter",
					    "counters.l2_hit_rate",
					    "counters.lds_bank_conflict_pct",
					    "counters.mfma_inst_frac",
					    "counters.partial_32b_frac",
					    "counters.pct_of_hbm_roof",
					    NULL};

static int in_list(const char *const *list, const char *s, size_t n)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && strncmp(list[i], s, n) == 0)
			return 1;
	return 0;
}

int rules_signal_known(const char *name)
{
	if (in_list(fixed_signals, name, strlen(name)))
		return 1;
	const char *dot = strrchr(name, '.');
	if (!dot)
		return 0;
	size_t n = (size_t)(dot - name);
	const char *suffix = dot + 1;
	if (in_list(rules_native_classes, name, n))
		return strcmp(suffix, "pct_of_stall") == 0 ||
		       strcmp(suffix, "stall_pct_of_latency") == 0 ||
		       strcmp(suffix, "pct_of_hits") == 0;
	if (in_list(rules_normalized_classes, name, n))
		return strcmp(suffix, "pct_of_stall") == 0 ||
		       strcmp(suffix, "stall_pct_of_latency") == 0;
	return 0;
}

int rules_class_known(const char *c)
{
	return in_list(rules_native_classes, c, strlen(c)) || strcmp(c, "occupancy") == 0 ||
	       strcmp(c, "roofline") == 0;
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

/* ---- locating a JSON pointer in the raw text (the DOM keeps no positions) ---- */

static size_t skip_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	return i;
}

static size_t skip_string(const char *b, size_t n, size_t i)
{
	for (i++; i < n && b[i] != '"'; i++)
		if (b[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

static size_t skip_value(const char *b, size_t n, size_t i)
{
	if (i >= n)
		return n;
	if (b[i] == '"')
		return skip_string(b, n, i);
	if (b[i] != '{' && b[i] != '[') {
		while (i < n && !strchr(",]} \t\r\n", b[i]))
			i++;
		return i;
	}
	int depth = 0;
	while (i < n) {
		if (b[i] == '"') {
			i = skip_string(b, n, i);
			continue;
		}
		if (b[i] == '{' || b[i] == '[')
			depth++;
		else if ((b[i] == '}' || b[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return n;
}

/* Steps from the container at i into member `comp` (a key, or an index for arrays); returns
 * the offset of that member's value or -1. */
static long step_into(const char *b, size_t n, size_t i, const char *comp)
{
	int is_obj = b[i] == '{';
	long want = is_obj ? -1 : strtol(comp, NULL, 10);
	long k = 0;
	i = skip_ws(b, n, i + 1);
	while (i < n && b[i] != '}' && b[i] != ']') {
		int match = 0;
		if (is_obj) {
			size_t ks = i + 1, ke = skip_string(b, n, i);
			match =
			    ke - 1 - ks == strlen(comp) && strncmp(b + ks, comp, ke - 1 - ks) == 0;
			i = skip_ws(b, n, ke);
			if (i >= n || b[i] != ':')
				return -1;
			i = skip_ws(b, n, i + 1);
		} else
			match = k == want;
		if (match)
			return (long)i;
		i = skip_ws(b, n, skip_value(b, n, i));
		if (i < n && b[i] == ',')
			i = skip_ws(b, n, i + 1);
		k++;
	}
	return -1;
}

/* Offset of the value at a JSON pointer ("/rules/3/class"); the deepest found prefix when
 * the full path is absent (a missing key is reported at its parent). */
static long locate(const char *b, size_t n, const char *pointer)
{
	size_t i = skip_ws(b, n, 0);
	char comp[128];
	const char *p = pointer;
	while (*p == '/') {
		p++;
		size_t len = strcspn(p, "/");
		snprintf(comp, sizeof comp, "%.*s", (int)(len < 127 ? len : 127), p);
		p += len;
		if (i >= n || (b[i] != '{' && b[i] != '['))
			break;
		long next = step_into(b, n, i, comp);
		if (next < 0)
			break;
		i = (size_t)next;
	}
	return (long)i;
}

typedef struct vctx {
	const char *text, *name;
	size_t len;
	fp_err *e;
} vctx;

static int bad(vctx *c, const char *pointer, const char *expected, const char *fmt, const char *arg)
{
	long off = locate(c->text, c->len, pointer);
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

static const char *const rule_keys[] = {"id",	  "class",	"signal",   "also",
					"gate",	  "knob",	"change",   "expected",
					"verify", "confidence", "priority", NULL};

static const char *get_str(vctx *c, const jv *obj, const char *key, const char *ptr)
{
	char p[160];
	snprintf(p, sizeof p, "%s/%s", ptr, key);
	const char *s = jv_string(jv_get(obj, key));
	if (!s || !*s) {
		bad(c, jv_get(obj, key) ? p : ptr, "a non-empty string", "missing or empty \"%s\"",
		    key);
		return NULL;
	}
	return s;
}

static int parse_cond(vctx *c, const jv *v, const char *ptr, rule_cond *out)
{
	char p[160];
	if (!v || v->type != JV_OBJECT)
		return bad(c, ptr, "an object {field, op, threshold}", "%s",
			   "a condition is not an object");
	const char *field = get_str(c, v, "field", ptr);
	const char *op = field ? get_str(c, v, "op", ptr) : NULL;
	if (!op)
		return -1;
	snprintf(p, sizeof p, "%s/field", ptr);
	if (!rules_signal_known(field))
		return bad(c, p, "a known signal name (docs/report.md)", "unknown signal \"%s\"",
			   field);
	int k = -1;
	for (int i = 0; i < 6; i++)
		if (strcmp(op, op_names[i]) == 0)
			k = i;
	snprintf(p, sizeof p, "%s/op", ptr);
	if (k < 0)
		return bad(c, p, "one of > >= < <= == !=", "unknown op \"%s\"", op);
	const jv *t = jv_get(v, "threshold");
	snprintf(p, sizeof p, "%s/threshold", ptr);
	out->field = xstrdup(field);
	out->op = (rule_op)k;
	if (t && t->type == JV_STRING && (k == RULE_EQ || k == RULE_NE)) {
		out->is_str = 1;
		out->str = xstrdup(jv_string(t));
	} else if (jv_is_num(t))
		out->num = jv_num(t);
	else
		return bad(c, p, "a number (or a string with == / !=)", "%s", "bad threshold");
	return 0;
}

static int parse_gate(vctx *c, const jv *g, const char *ptr, unsigned *gate)
{
	char p[160];
	*gate = 0;
	if (!g)
		return 0;
	snprintf(p, sizeof p, "%s/gate", ptr);
	if (g->type != JV_ARRAY)
		return bad(c, p, "an array of bound names", "%s", "gate is not an array");
	for (size_t i = 0; i < jv_len(g); i++) {
		const char *s = jv_string(jv_at(g, i));
		snprintf(p, sizeof p, "%s/gate/%zu", ptr, i);
		if (s && strcmp(s, "memory") == 0)
			*gate |= RULE_GATE_MEMORY;
		else if (s && strcmp(s, "compute") == 0)
			*gate |= RULE_GATE_COMPUTE;
		else if (s && strcmp(s, "latency") == 0)
			*gate |= RULE_GATE_LATENCY;
		else
			return bad(c, p, "memory, compute or latency", "unknown bound \"%s\"",
				   s ? s : "(not a string)");
	}
	return 0;
}

static int check_keys(vctx *c, const jv *v, const char *ptr)
{
	char p[160];
	for (size_t i = 0; i < v->v.obj.n; i++) {
		const char *k = v->v.obj.keys[i];
		int known = 0;
		for (size_t j = 0; rule_keys[j]; j++)
			known |= strcmp(k, rule_keys[j]) == 0;
		snprintf(p, sizeof p, "%s/%s", ptr, k);
		if (!known)
			return bad(c, p, "a rule key (docs/report.md)", "unknown key \"%s\"", k);
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
	if (!v || v->type != JV_OBJECT)
		return bad(c, ptr, "a rule object", "%s", "a rule is not an object");
	if (check_keys(c, v, ptr) || parse_texts(c, v, ptr, ru))
		return -1;
	snprintf(p, sizeof p, "%s/class", ptr);
	if (!rules_class_known(ru->klass))
		return bad(c, p, "a native AMD class, occupancy or roofline",
			   "unknown class \"%s\"", ru->klass);
	snprintf(p, sizeof p, "%s/knob", ptr);
	if (!(ru->knob_v = rules_knob(r, ru->knob)))
		return bad(c, p, "a knob id of the vocabulary", "unknown knob \"%s\"", ru->knob);
	snprintf(p, sizeof p, "%s/confidence", ptr);
	if (strcmp(ru->confidence, "high") && strcmp(ru->confidence, "medium") &&
	    strcmp(ru->confidence, "low"))
		return bad(c, p, "high, medium or low", "bad confidence \"%s\"", ru->confidence);
	const jv *pr = jv_get(v, "priority");
	snprintf(p, sizeof p, "%s/priority", ptr);
	if (!jv_is_num(pr) || jv_num(pr) <= 0 || jv_num(pr) > 2)
		return bad(c, pr ? p : ptr, "a number in (0, 2]", "%s", "bad or missing priority");
	ru->priority = jv_num(pr);
	snprintf(p, sizeof p, "%s/signal", ptr);
	if (parse_cond(c, jv_get(v, "signal"), p, &ru->conds[0]))
		return -1;
	ru->n_conds = 1;
	const jv *also = jv_get(v, "also");
	snprintf(p, sizeof p, "%s/also", ptr);
	if (also && (also->type != JV_ARRAY || jv_len(also) >= RULES_MAX_CONDS))
		return bad(c, p, "an array of up to 3 conditions", "%s", "bad \"also\"");
	for (size_t i = 0; also && i < jv_len(also); i++) {
		snprintf(p, sizeof p, "%s/also/%zu", ptr, i);
		if (parse_cond(c, jv_at(also, i), p, &ru->conds[ru->n_conds]))
			return -1;
		ru->n_conds++;
	}
	return parse_gate(c, jv_get(v, "gate"), ptr, &ru->gate);
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
	if (!ks || ks->type != JV_ARRAY || !jv_len(ks))
		return bad(c, "/knobs", "a non-empty array of knobs", "%s", "missing \"knobs\"");
	char p[64];
	for (size_t i = 0; i < jv_len(ks); i++) {
		const jv *k = jv_at(ks, i);
		snprintf(p, sizeof p, "/knobs/%zu", i);
		const char *id = k && k->type == JV_OBJECT ? get_str(c, k, "id", p) : NULL;
		if (!id || !get_str(c, k, "kind", p) || !get_str(c, k, "api", p) ||
		    !get_str(c, k, "effect", p))
			return c->e->set ? -1 : bad(c, p, "a knob object", "%s", "bad knob");
		const char *kind = jv_string(jv_get(k, "kind"));
		snprintf(p, sizeof p, "/knobs/%zu/kind", i);
		if (!jv_get(jv_get(doc, "kinds"), kind))
			return bad(c, p, "a kind listed under \"kinds\"",
				   "unknown knob kind \"%s\"", kind);
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
	if (!doc || doc->type != JV_OBJECT || !arr || arr->type != JV_ARRAY || !jv_len(arr))
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

int rules_parse(rules *r, const char *text, size_t len, const char *name, const char *knobs_text,
		size_t knobs_len, const char *knobs_name, fp_err *e)
{
	memset(r, 0, sizeof *r);
	r->origin = xstrdup(name);
	r->knobs = parse_doc(knobs_text, knobs_len, knobs_name, e);
	vctx kc = {knobs_text, knobs_name, knobs_len, e};
	int kfail = !r->knobs;
	if (!kfail && r->knobs->type != JV_OBJECT)
		kfail = bad(&kc, "", "an object", "%s", "the vocabulary is not an object");
	else if (!kfail)
		kfail = check_knobs(&kc, r->knobs);
	jv *doc = kfail ? NULL : parse_doc(text, len, name, e);
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

int rules_load(rules *r, fp_err *e)
{
	size_t len = 0, klen = 0;
	const char *origin = NULL;
	memset(r, 0, sizeof *r);
	char *text = data_load("rules.json", &len, &origin, e);
	if (!text)
		return -1;
	char *name = xstrdup(origin);
	char *ktext = data_load("knobs_flydsl.json", &klen, &origin, e);
	int rc = -1;
	if (ktext)
		rc = rules_parse(r, text, len, name, ktext, klen, origin, e);
	free(text);
	free(ktext);
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
		}
	}
	free(r->v);
	jv_free(r->knobs);
	free(r->origin);
	memset(r, 0, sizeof *r);
}

/* ---- evaluation ---- */

static int cond_true(const rule_cond *c, const jv *v)
{
	if (c->is_str) {
		const char *s = jv_string(v);
		int eq = s && strcmp(s, c->str) == 0;
		return c->op == RULE_EQ ? eq : !eq;
	}
	if (!jv_is_num(v))
		return 0;
	double x = jv_num(v);
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

void rule_eval(const rule *ru, const jv *signals, const char *bound, int gating, rule_outcome *o)
{
	memset(o, 0, sizeof *o);
	o->value = jv_get(signals, ru->conds[0].field);
	for (size_t i = 0; i < ru->n_conds; i++) {
		const jv *v = jv_get(signals, ru->conds[i].field);
		if (!v || v->type == JV_NULL) {
			o->status = RULE_NO_SIGNAL;
			o->missing = ru->conds[i].field;
			return;
		}
		if (!cond_true(&ru->conds[i], v)) {
			o->status = RULE_NOT_FIRED;
			return;
		}
	}
	unsigned b = bound_bit(bound);
	o->status = gating && ru->gate && b && !(ru->gate & b) ? RULE_GATED : RULE_FIRED;
}
