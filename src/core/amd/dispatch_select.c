#include "core/amd/dispatch_select.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/amd/att_code.h"
#include "base/json/json_parse.h"
#include "model/trace.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cand {
	char *dir;  /* absolute */
	char *name; /* directory name */
	long long id;
	int64_t waves, hits;
	file_listing *names; /* its listing (borrowed), or NULL: count its waves by a walk */
} cand;

typedef struct cand_list {
	cand *v;
	size_t n, cap;
} cand_list;

static int digits(const char **p)
{
	const char *s = *p;
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	*p = s;
	return 1;
}

/* The digits at *p as strtoll reads them (past INT64_MAX: INT64_MAX), moving *p past them; 0
 * when there is none. Asked of every name of a dispatch directory of thousands of wave files:
 * one pass over the characters, where strtoll then a second walk cost ~800 instructions a name
 * (a digit is '0'..'9' as isdigit has it in the C locale flyprof runs in, without its call). */
static int number(const char **p, int64_t *v)
{
	const char *s = *p;
	if ((unsigned)(*s - '0') >= 10)
		return 0;
	uint64_t x = 0;
	int over = 0;
	for (unsigned d; (d = (unsigned)(*s - '0')) < 10; s++) {
		if (x > (uint64_t)INT64_MAX / 10 || (x == (uint64_t)INT64_MAX / 10 && d > 7))
			over = 1; /* x * 10 + d > INT64_MAX (its last digit is 7) */
		else
			x = x * 10 + d;
	}
	*v = over ? INT64_MAX : (int64_t)x;
	*p = s;
	return 1;
}

int dispatch_wave_file_name(const char *name, wave_file_name *out)
{
	static const char parts[4][4] = {"se", "_sm", "_sl", "_wv"};
	int64_t v[4];
	const char *p = name;
	for (int i = 0; i < 4; i++) {
		for (const char *q = parts[i]; *q; q++, p++)
			if (*p != *q)
				return 0;
		if (!number(&p, &v[i]))
			return 0;
	}
	if (strcmp(p, ".json") != 0)
		return 0;
	if (out)
		*out = (wave_file_name){v[0], v[1], v[2], v[3]};
	return 1;
}

int dispatch_is_wave_file(const char *name)
{
	return dispatch_wave_file_name(name, NULL);
}

long long dispatch_id_of(const char *dirname)
{
	const char *d = strstr(dirname, "_dispatch_");
	if (strncmp(dirname, "ui_output_agent_", 16) != 0 || !d)
		return -1;
	const char *p = d + 10;
	const char *start = p;
	if (!digits(&p) || *p)
		return -1;
	return strtoll(start, NULL, 10);
}

static int is_wave_name(const char *name, void *ctx)
{
	(void)ctx;
	return dispatch_is_wave_file(name);
}

/* From the candidate's listing when it has one (the only candidate: the listing the wave pass
 * then reads), else counted by a walk that copies nothing: among several candidates, every one
 * would otherwise be listed just to count its waves. */
static int64_t count_waves(const cand *c)
{
	if (c->names)
		return (int64_t)file_listing_count(c->names, is_wave_name, NULL);
	return (int64_t)file_dir_count(c->dir, is_wave_name, NULL);
}

/* keep (or NULL): where the code.json read to count the hits is moved, instead of freed. */
static int measure(cand *c, trace_dispatch *keep, fp_err *e)
{
	c->waves = count_waves(c);
	trace_dispatch d;
	trace_dispatch_init(&d);
	int rc = att_code_read(c->dir, &d, e);
	for (size_t i = 0; rc == 0 && i < d.n_insts; i++)
		if (!d.insts[i].is_label && d.insts[i].hits > 0)
			c->hits = trace_add(c->hits, d.insts[i].hits);
	if (rc == 0 && keep) {
		trace_dispatch_release(keep);
		*keep = d;
		trace_dispatch_init(&d);
	}
	trace_dispatch_release(&d);
	return rc;
}

static void add_cand(cand_list *l, const char *dir, const char *name)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	cand *c = &l->v[l->n++];
	memset(c, 0, sizeof *c);
	c->dir = path_join(dir, name);
	c->name = xstrdup(name);
	c->id = dispatch_id_of(name);
}

static void cand_list_release(cand_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].dir);
		free(l->v[i].name);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Adds every ui_output_agent_*_dispatch_* directory of dir; returns how many. */
static size_t scan_tag_dir(cand_list *l, const char *dir)
{
	size_t n = 0, before = l->n;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	fp_err_clear(&e);
	for (size_t i = 0; i < n; i++) {
		char *p = path_join(dir, names[i]);
		if (dispatch_id_of(names[i]) >= 0 && file_is_dir(p))
			add_cand(l, dir, names[i]);
		free(p);
	}
	file_list_free(names, n);
	return l->n - before;
}

static jv *list_tags(const char *root)
{
	jv *tags = jv_array();
	static const char *tops[] = {"att", "att_viewer"};
	for (int t = 0; t < 2; t++) {
		char *top = path_join(root, tops[t]);
		size_t n = 0;
		fp_err e = FP_ERR_INIT;
		char **names = file_list_dir(top, &n, &e);
		fp_err_clear(&e);
		for (size_t i = 0; i < n; i++) {
			char *p = path_join(top, names[i]);
			if (file_is_dir(p) && dispatch_id_of(names[i]) < 0)
				jv_push(tags, jv_str(names[i]));
			free(p);
		}
		file_list_free(names, n);
		free(top);
	}
	return tags;
}

static int collect(const bundle *b, const char *tag, cand_list *l, fp_err *e)
{
	if (b->kind == BUNDLE_DISPATCH) {
		add_cand(l, "", path_base(b->dir));
		free(l->v[0].dir);
		l->v[0].dir = xstrdup(b->dir);
		return 0;
	}
	static const char *tops[] = {"att", "att_viewer"};
	for (int t = 0; t < 2 && l->n == 0; t++) {
		char *top = path_join(b->dir, tops[t]);
		char *tagdir = path_join(top, tag);
		if (file_is_dir(tagdir))
			scan_tag_dir(l, tagdir);
		if (l->n == 0 && file_is_dir(top))
			scan_tag_dir(l, top); /* a capture without a tag level */
		free(tagdir);
		free(top);
	}
	if (l->n)
		return 0;
	fp_fail(e, ERR_NO_ARTIFACT,
		"%s has no ATT dispatch directory for tag '%s' (looked in att/%s/)", b->dir, tag,
		tag);
	fp_err_extra(e, "available", list_tags(b->dir));
	fp_err_set_help(e, "pick a tag from error.available with --tag, or point --bundle at a "
			   "ui_output_agent_*_dispatch_* directory");
	return -1;
}

static int is_nonempty(const cand *c)
{
	return c->waves > 0 && c->hits > 0;
}

/* 1 if a is a better automatic choice than b (more hits, then lower id, then name). */
static int better(const cand *a, const cand *b)
{
	if (a->hits != b->hits)
		return a->hits > b->hits;
	if (a->id != b->id)
		return a->id < b->id;
	return strcmp(a->name, b->name) < 0;
}

static int matches(const cand *c, const char *want)
{
	if (strcmp(c->name, want) == 0 || strcmp(c->dir, want) == 0)
		return 1;
	char idtext[32];
	snprintf(idtext, sizeof idtext, "%lld", c->id);
	return c->id >= 0 && strcmp(idtext, want) == 0;
}

static jv *all_ids(const cand_list *l)
{
	jv *a = jv_array();
	for (size_t i = 0; i < l->n; i++)
		jv_push(a, l->v[i].id >= 0 ? jv_int(l->v[i].id) : jv_str(l->v[i].name));
	return a;
}

/* capture.json's kept dispatch for tag, as a candidate index, or -1. */
static long kept_by_capture(const bundle *b, const char *tag, const cand_list *l)
{
	if (b->kind != BUNDLE_FLYPROF || !bundle_has(b, "capture.json"))
		return -1;
	fp_err e = FP_ERR_INIT;
	char *path = path_join(b->dir, "capture.json");
	jv *cap = json_parse_file(path, &e);
	free(path);
	fp_err_clear(&e);
	long found = -1;
	jv *t = jv_get(jv_get(cap, "tags"), tag);
	const char *kept = jv_string(jv_get(t, "kept_dir"));
	jv *id = jv_get(t, "dispatch");
	for (size_t i = 0; t && i < l->n && found < 0; i++) {
		if (kept && (strcmp(path_base(kept), l->v[i].name) == 0))
			found = (long)i;
		else if (id && jv_is_num(id) && jv_i64(id) == l->v[i].id)
			found = (long)i;
		else if (jv_string(id) && matches(&l->v[i], jv_string(id)))
			found = (long)i;
	}
	jv_free(cap);
	return found;
}

static long pick(const bundle *b, const char *tag, const char *dispatch, const cand_list *l,
		 strbuf *why, fp_err *e)
{
	if (b->kind == BUNDLE_DISPATCH && !dispatch) {
		sb_adds(why, "--bundle is itself a dispatch directory");
		return is_nonempty(&l->v[0]) ? 0 : -1;
	}
	if (dispatch) {
		for (size_t i = 0; i < l->n; i++)
			if (matches(&l->v[i], dispatch)) {
				sb_addf(why, "--dispatch %s", dispatch);
				return is_nonempty(&l->v[i]) ? (long)i : -1;
			}
		fp_fail(e, ERR_DISPATCH_OUT_OF_RANGE, "no dispatch '%s' in %s", dispatch, b->dir);
		fp_err_extra(e, "available", all_ids(l));
		return -1;
	}
	long k = kept_by_capture(b, tag, l);
	if (k >= 0) {
		sb_addf(why, "capture.json names it as the kept dispatch of tag '%s'", tag);
		return k;
	}
	long best = -1;
	size_t nonempty = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (!is_nonempty(&l->v[i]))
			continue;
		nonempty++;
		if (best < 0 || better(&l->v[i], &l->v[best]))
			best = (long)i;
	}
	if (best >= 0 && nonempty == 1)
		sb_addf(why, "the only non-empty dispatch of %zu", l->n);
	else if (best >= 0)
		sb_addf(why, "most hits among %zu non-empty dispatches (ties: lowest dispatch id)",
			nonempty);
	return best;
}

static jv *candidates_json(const cand_list *l)
{
	jv *a = jv_array();
	for (size_t i = 0; i < l->n; i++) {
		const cand *c = &l->v[i];
		if (!is_nonempty(c))
			continue;
		jv *o = jv_push(a, jv_object());
		if (c->id >= 0)
			jv_set(o, "id", jv_strf("%lld", c->id));
		else
			jv_set_str(o, "id", c->name);
		jv_set_str(o, "dir", c->name);
		jv_set_int(o, "waves", c->waves);
		jv_set_int(o, "hits", c->hits);
	}
	return a;
}

static int fill_choice(const cand *c, const char *tag, strbuf *why, const cand_list *l,
		       dispatch_choice *out)
{
	char t[32];
	snprintf(t, sizeof t, "%lld", c->id);
	out->dir = xstrdup(c->dir);
	out->id = xstrdup(c->id >= 0 ? t : c->name);
	out->tag = tag ? xstrdup(tag) : NULL;
	out->why = sb_detach(why);
	out->candidates = candidates_json(l);
	return 0;
}

/* The only candidate is listed once, in *names: the listing the caller passed when it is of the
 * same directory (--bundle is the dispatch directory), else a new one in its place. */
static void list_only(cand_list *l, file_listing *names)
{
	if (!names || l->n != 1)
		return;
	if (strcmp(names->dir, l->v[0].dir) != 0) {
		file_listing_release(names);
		file_listing_init(names, l->v[0].dir);
	}
	l->v[0].names = names;
}

int dispatch_select_listed(const bundle *b, const char *tag, const char *dispatch,
			   dispatch_choice *out, trace_dispatch *code, file_listing *names,
			   fp_err *e)
{
	memset(out, 0, sizeof *out);
	if (!tag)
		tag = "big";
	cand_list l = {NULL, 0, 0};
	strbuf why = STRBUF_INIT;
	trace_dispatch measured; /* the only candidate's code.json, when code wants it */
	trace_dispatch_init(&measured);
	int rc = -1, have = 0;
	if (collect(b, tag, &l, e))
		goto done;
	list_only(&l, names);
	for (size_t i = 0; i < l.n; i++)
		if (measure(&l.v[i], code && l.n == 1 ? &measured : NULL, e))
			goto done;
	have = code && l.n == 1;
	long k = pick(b, tag, dispatch, &l, &why, e);
	if (k < 0 && !e->set) {
		fp_fail(e, ERR_EMPTY_ATT, "%s: %s empty (no wave file or no executed instruction)",
			b->dir,
			dispatch || l.n == 1 ? "the chosen ATT dispatch is"
					     : "every ATT dispatch is");
		fp_err_extra(e, "available", all_ids(&l));
	}
	if (k < 0)
		goto done;
	rc = fill_choice(&l.v[k], b->kind == BUNDLE_DISPATCH ? NULL : tag, &why, &l, out);
	if (rc == 0 && code && have) {
		trace_dispatch_release(code);
		*code = measured;
		trace_dispatch_init(&measured);
	} else if (rc == 0 && code) {
		rc = att_code_read(out->dir, code, e);
	}
done:
	trace_dispatch_release(&measured);
	sb_release(&why);
	cand_list_release(&l);
	return rc;
}

int dispatch_select_read(const bundle *b, const char *tag, const char *dispatch,
			 dispatch_choice *out, trace_dispatch *code, fp_err *e)
{
	return dispatch_select_listed(b, tag, dispatch, out, code, NULL, e);
}

int dispatch_select(const bundle *b, const char *tag, const char *dispatch, dispatch_choice *out,
		    fp_err *e)
{
	return dispatch_select_listed(b, tag, dispatch, out, NULL, NULL, e);
}
