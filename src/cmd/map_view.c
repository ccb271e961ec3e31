/* `map` data objects. Percentages name their denominator in the key (pct_of_stall = share of
 * totals.stall, the stall of every non-label instruction of the dispatch) or in a
 * "denominator" field next to them. */
#include "cmd/map_view.h"

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "model/classes.h"
#include "model/profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

const char *map_view_class(vendor_id vendor, const trace_inst *in)
{
	return class_name(vendor, in->klass);
}

/* Addresses are written as in bubbles.json: a hex string. */
static jv *vaddr_json(const trace_inst *in)
{
	return jv_strf("0x%llx", (unsigned long long)in->vaddr);
}

void map_view_init(map_view *v, cmd_ctx *ctx, vendor_id vendor, const trace_dispatch *d,
		   snapshots *snaps)
{
	memset(v, 0, sizeof *v);
	v->ctx = ctx;
	v->vendor = vendor;
	v->d = d;
	v->snaps = snaps;
	int64_t top = opts_int(&ctx->opts, "top", 10);
	v->top = opts_flag(&ctx->opts, "all") || top <= 0 ? SIZE_MAX : (size_t)top;
	int64_t c = opts_int(&ctx->opts, "context", 3);
	v->context = c < 0 ? 0 : c > 50 ? 50 : (int)c;
	srcmap_build(d, SRCMAP_LEAF, &v->leaf);
}

void map_view_release(map_view *v)
{
	srcmap_summary_release(&v->leaf);
}

static int is_entry_line(const map_view *v, const src_frame *f)
{
	char *file = xstrndup(f->path, f->path_len);
	const srcmap_line *ln = srcmap_find_line(&v->leaf, file, f->line);
	free(file);
	return ln && ln->entry_bucket;
}

/* Snippet of frame f and how sure the match is (docs/map.md "confidence"). */
static jv *snippet_of(map_view *v, const src_frame *f, const char **confidence)
{
	int ambiguous = 0;
	const snapshot_entry *ent = snapshots_find(v->snaps, f->path, f->path_len, &ambiguous);
	if (!ent) {
		*confidence = ambiguous ? "ambiguous" : "no_snapshot";
		return jv_null();
	}
	jv *s = snapshots_snippet(v->snaps, ent, f->line, v->context);
	if (!s) {
		*confidence = "line_outside_snapshot";
		return jv_null();
	}
	int exact = strlen(ent->path) == f->path_len && !memcmp(ent->path, f->path, f->path_len);
	*confidence = exact ? "exact" : "suffix";
	return s;
}

static jv *frames_json(const src_frame *fr, size_t n)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < n; i++) {
		jv *o = jv_push(arr, jv_object());
		jv_set(o, "file", jv_strn(fr[i].path, fr[i].path_len));
		jv_set_int(o, "line", fr[i].line);
	}
	return arr;
}

/* One instruction with its source, cost, class, snippet and confidence. */
static jv *inst_json(map_view *v, const trace_inst *in, size_t rank)
{
	jv *o = jv_object();
	if (rank)
		jv_set_int(o, "rank", (int64_t)rank);
	jv_set_int(o, "code_line", in->code_line);
	jv_set(o, "vaddr", vaddr_json(in));
	jv_set_int(o, "codeobj", in->codeobj);
	jv_set_str(o, "isa", in->isa ? in->isa : "");
	jv_set_str(o, "class", map_view_class(v->vendor, in));
	jv_set_str(o, "source", in->source ? in->source : "");
	profile_set_costs(o, in->hits, in->latency, in->stall, in->idle);
	jv_set_round(o, "pct_of_stall", pct(in->stall, v->leaf.stall), 2);
	src_frame fr[SRCMAP_MAX_FRAMES];
	size_t n = srcmap_parse_chain(in->source, fr, SRCMAP_MAX_FRAMES);
	const char *conf = "unmapped";
	if (n > 1)
		jv_set(o, "frames", frames_json(fr, n));
	jv_set_bool(o, "entry_bucket", n > 0 && is_entry_line(v, &fr[0]));
	jv_set(o, "snippet", n > 0 ? snippet_of(v, &fr[0], &conf) : jv_null());
	jv_set_str(o, "confidence", conf);
	return o;
}

static int cmp_cost_desc(const trace_inst *x, const trace_inst *y)
{
	if (x->stall != y->stall)
		return x->stall > y->stall ? -1 : 1;
	if (x->latency != y->latency)
		return x->latency > y->latency ? -1 : 1;
	return (x->code_line > y->code_line) - (x->code_line < y->code_line);
}

static const trace_dispatch *sort_d; /* qsort has no context argument; one sort at a time */

static int cmp_idx(const void *a, const void *b)
{
	return cmp_cost_desc(&sort_d->insts[*(const size_t *)a],
			     &sort_d->insts[*(const size_t *)b]);
}

/* Indices of the instructions accepted by keep(), sorted by stall, latency, code line. */
static size_t *ranked(const trace_dispatch *d, int (*keep)(const trace_inst *, const void *),
		      const void *arg, size_t *n)
{
	size_t *idx = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *idx);
	*n = 0;
	for (size_t i = 0; i < d->n_insts; i++)
		if (!d->insts[i].is_label && keep(&d->insts[i], arg))
			idx[(*n)++] = i;
	sort_d = d;
	qsort(idx, *n, sizeof *idx, cmp_idx);
	return idx;
}

static int keep_hot(const trace_inst *in, const void *arg)
{
	return in->stall > 0 || in->latency > 0;
}

static int keep_unmapped(const trace_inst *in, const void *arg)
{
	src_frame f;
	return srcmap_parse_chain(in->source, &f, 1) == 0;
}

static jv *share(int64_t mapped, int64_t total, const char *denominator)
{
	jv *o = jv_object();
	jv_set_int(o, "mapped", mapped);
	jv_set_int(o, "total", total);
	jv_set_round(o, "pct", pct(mapped, total), 2);
	jv_set_str(o, "denominator", denominator);
	return o;
}

static void add_totals(map_view *v, jv *data)
{
	const srcmap_summary *s = &v->leaf;
	jv *t = jv_set(data, "totals", jv_object());
	jv_set_int(t, "instructions", (int64_t)s->instructions);
	jv_set_int(t, "executed_instructions", (int64_t)s->executed_instructions);
	profile_set_costs(t, s->hits, s->latency, s->stall, s->idle);
	jv *m = jv_set(data, "mapped", jv_object());
	jv_set(m, "by_instructions",
	       share((int64_t)s->mapped_instructions, (int64_t)s->instructions,
		     "non-label instructions of the trace"));
	jv_set(m, "by_executed_instructions",
	       share((int64_t)s->mapped_executed, (int64_t)s->executed_instructions,
		     "instructions with hits > 0"));
	char lat[96], st[96];
	snprintf(lat, sizeof lat, "latency %s of all instructions", v->d->unit);
	snprintf(st, sizeof st, "stall %s of all instructions", v->d->unit);
	jv_set(m, "by_latency", share(s->mapped_latency, s->latency, lat));
	jv_set(m, "by_stall", share(s->mapped_stall, s->stall, st));
}

static void add_unmapped(map_view *v, jv *data)
{
	const srcmap_summary *s = &v->leaf;
	size_t n;
	size_t *idx = ranked(v->d, keep_unmapped, NULL, &n);
	jv *u = jv_set(data, "unmapped", jv_object());
	jv_set_int(u, "instructions", (int64_t)(s->instructions - s->mapped_instructions));
	jv_set_int(u, "executed_instructions",
		   (int64_t)(s->executed_instructions - s->mapped_executed));
	jv_set_int(u, "hits", s->hits - s->mapped_hits);
	jv_set_int(u, "latency", s->latency - s->mapped_latency);
	jv_set_int(u, "stall", s->stall - s->mapped_stall);
	jv_set_round(u, "pct_of_stall", pct(s->stall - s->mapped_stall, s->stall), 2);
	jv *top = jv_set(u, "top", jv_array());
	for (size_t i = 0; i < n && i < v->top; i++) {
		const trace_inst *in = &v->d->insts[idx[i]];
		jv *o = jv_push(top, jv_object());
		jv_set_int(o, "code_line", in->code_line);
		jv_set(o, "vaddr", vaddr_json(in));
		jv_set_str(o, "isa", in->isa ? in->isa : "");
		jv_set_int(o, "latency", in->latency);
		jv_set_int(o, "stall", in->stall);
	}
	if (n > v->top)
		ctx_truncated(v->ctx, "unmapped.top", v->top, n, "--all");
	free(idx);
}

static jv *line_json(const srcmap_line *ln, const srcmap_summary *s)
{
	jv *o = jv_object();
	jv_set(o, "source", jv_strf("%s:%lld", ln->file, (long long)ln->line));
	jv_set_str(o, "file", ln->file);
	jv_set_int(o, "line", ln->line);
	jv_set_int(o, "instructions", (int64_t)ln->instructions);
	profile_set_costs(o, ln->hits, ln->latency, ln->stall, ln->idle);
	jv_set_round(o, "pct_of_stall", pct(ln->stall, s->stall), 2);
	jv_set_round(o, "pct_of_latency", pct(ln->latency, s->latency), 2);
	jv_set_bool(o, "entry_bucket", ln->entry_bucket);
	return o;
}

static jv *lines_json(map_view *v, const srcmap_summary *s, const char *what)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < s->n_lines && i < v->top; i++)
		jv_push(arr, line_json(&s->lines[i], s));
	if (s->n_lines > v->top)
		ctx_truncated(v->ctx, what, v->top, s->n_lines, "--all");
	return arr;
}

static void add_rollups(map_view *v, jv *data)
{
	const srcmap_summary *s = &v->leaf;
	jv *eb = jv_set(data, "entry_buckets", jv_array());
	for (size_t i = 0; i < s->n_lines; i++)
		if (s->lines[i].entry_bucket)
			jv_push(eb, line_json(&s->lines[i], s));
	jv_set(data, "lines", lines_json(v, s, "lines"));
	jv *files = jv_set(data, "files", jv_array());
	for (size_t i = 0; i < s->n_files && i < v->top; i++) {
		const srcmap_file *f = &s->files[i];
		jv *o = jv_push(files, jv_object());
		jv_set_str(o, "file", f->file);
		jv_set_int(o, "lines", (int64_t)f->lines);
		jv_set_int(o, "instructions", (int64_t)f->instructions);
		profile_set_costs(o, f->hits, f->latency, f->stall, f->idle);
		jv_set_round(o, "pct_of_stall", pct(f->stall, s->stall), 2);
		jv_set_round(o, "pct_of_latency", pct(f->latency, s->latency), 2);
	}
	if (s->n_files > v->top)
		ctx_truncated(v->ctx, "files", v->top, s->n_files, "--all");
	if (s->chained_instructions > 0) {
		srcmap_summary cs;
		srcmap_build(v->d, SRCMAP_CALL_SITE, &cs);
		jv_set(data, "call_sites", lines_json(v, &cs, "call_sites"));
		srcmap_summary_release(&cs);
	}
}

void map_view_summary(map_view *v, jv *data)
{
	add_totals(v, data);
	add_unmapped(v, data);
	size_t n;
	size_t *idx = ranked(v->d, keep_hot, NULL, &n);
	jv *hot = jv_array();
	for (size_t i = 0; i < n && i < v->top; i++)
		jv_push(hot, inst_json(v, &v->d->insts[idx[i]], i + 1));
	if (n > v->top)
		ctx_truncated(v->ctx, "hotspots", v->top, n, "--all");
	free(idx);
	jv_set(data, "hotspots", hot);
	add_rollups(v, data);
}

int map_view_code_line(map_view *v, int64_t code_line, jv *data)
{
	long i = trace_find_line(v->d, code_line);
	while (i >= 0 && (size_t)i + 1 < v->d->n_insts && v->d->insts[i].is_label &&
	       v->d->insts[i + 1].code_line == code_line)
		i++;
	if (i < 0 || v->d->insts[i].is_label) {
		fp_fail(&v->ctx->err, ERR_NO_MATCH, "no instruction has code line %lld",
			(long long)code_line);
		jv *av = jv_array();
		if (v->d->n_insts)
			jv_push(av, jv_strf("code lines %lld..%lld",
					    (long long)v->d->insts[0].code_line,
					    (long long)v->d->insts[v->d->n_insts - 1].code_line));
		fp_err_extra(&v->ctx->err, "available", av);
		return -1;
	}
	jv *q = jv_set(data, "query", jv_object());
	jv_set_int(q, "code_line", code_line);
	jv_push(jv_set(data, "matches", jv_array()), inst_json(v, &v->d->insts[i], 0));
	return 0;
}

static int keep_query(const trace_inst *in, const void *arg)
{
	return srcmap_source_matches(in->source, arg);
}

/* Snippet of the queried line, from the frame of `in` that matched the query. */
static jv *query_snippet(map_view *v, const trace_inst *in, const srcmap_query *q)
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	size_t n = srcmap_parse_chain(in->source, fr, SRCMAP_MAX_FRAMES);
	const char *conf;
	for (size_t i = 0; i < n; i++)
		if (fr[i].line == q->line &&
		    srcmap_path_matches(fr[i].path, fr[i].path_len, q->file))
			return snippet_of(v, &fr[i], &conf);
	return jv_null();
}

static void no_source_match(map_view *v, const srcmap_query *q, const char *text)
{
	fp_fail(&v->ctx->err, ERR_NO_MATCH, "no instruction maps to %s (line %lld exactly)", text,
		(long long)q->line);
	jv *av = jv_array();
	for (size_t i = 0; i < v->leaf.n_lines && jv_len(av) < 20; i++)
		jv_push(av, jv_strf("%s:%lld", v->leaf.lines[i].file,
				    (long long)v->leaf.lines[i].line));
	fp_err_extra(&v->ctx->err, "available", av);
}

int map_view_source_line(map_view *v, const char *text, jv *data)
{
	srcmap_query q;
	if (srcmap_query_parse(text, &q) != 0) {
		fp_fail(&v->ctx->err, ERR_BAD_ARGS, "--source-line wants FILE:LINE, got '%s'",
			text);
		return -1;
	}
	size_t n;
	size_t *idx = ranked(v->d, keep_query, &q, &n);
	if (n == 0) {
		no_source_match(v, &q, text);
		free(idx);
		srcmap_query_release(&q);
		return -1;
	}
	jv *qo = jv_set(data, "query", jv_object());
	jv_set_str(qo, "source_line", text);
	jv_set_str(qo, "file", q.file);
	jv_set_int(qo, "line", q.line);
	jv_set_str(qo, "rule", "line equal; path matched by suffix on whole components");
	int64_t hits = 0, lat = 0, st = 0;
	for (size_t i = 0; i < n; i++) {
		hits += v->d->insts[idx[i]].hits;
		lat += v->d->insts[idx[i]].latency;
		st += v->d->insts[idx[i]].stall;
	}
	jv *t = jv_set(data, "totals", jv_object());
	jv_set_int(t, "instructions", (int64_t)n);
	jv_set_int(t, "hits", hits);
	jv_set_int(t, "latency", lat);
	jv_set_int(t, "stall", st);
	jv_set_round(t, "pct_of_stall", pct(st, v->leaf.stall), 2);
	jv_set_round(t, "pct_of_latency", pct(lat, v->leaf.latency), 2);
	jv_set(data, "snippet", query_snippet(v, &v->d->insts[idx[0]], &q));
	jv *m = jv_set(data, "matches", jv_array());
	for (size_t i = 0; i < n && i < v->top; i++)
		jv_push(m, inst_json(v, &v->d->insts[idx[i]], i + 1));
	if (n > v->top)
		ctx_truncated(v->ctx, "matches", v->top, n, "--all");
	free(idx);
	srcmap_query_release(&q);
	return 0;
}
