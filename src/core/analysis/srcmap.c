/* Source mapping: roll-ups per line and per file over the trace model. Grouping is done by
 * sorting (file, line) keys rather than hashing: dispatches hold at most a few tens of
 * thousands of rows and sorted groups also give the deterministic order the output needs. */
#include "core/analysis/srcmap.h"

#include "base/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One credited (instruction, frame) pair, sorted to group lines. */
typedef struct key_row {
	src_frame f;
	size_t inst;
} key_row;

static int frame_cmp(const src_frame *a, const src_frame *b)
{
	size_t n = a->path_len < b->path_len ? a->path_len : b->path_len;
	int c = memcmp(a->path, b->path, n);
	if (c == 0 && a->path_len != b->path_len)
		c = a->path_len < b->path_len ? -1 : 1;
	if (c == 0 && a->line != b->line)
		c = a->line < b->line ? -1 : 1;
	return c;
}

static int cmp_key(const void *a, const void *b)
{
	const key_row *x = a, *y = b;
	int c = frame_cmp(&x->f, &y->f);
	return c ? c : (x->inst > y->inst) - (x->inst < y->inst);
}

static int credited(const trace_inst *in, srcmap_credit credit, src_frame *f)
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	size_t n = srcmap_parse_chain(in->source, fr, SRCMAP_MAX_FRAMES);
	if (n == 0)
		return 0;
	*f = credit == SRCMAP_CALL_SITE ? fr[n - 1] : fr[0];
	return (int)n;
}

static int cmp_by_cost(int64_t s1, int64_t l1, int64_t s2, int64_t l2)
{
	if (s1 != s2)
		return s1 > s2 ? -1 : 1;
	if (l1 != l2)
		return l1 > l2 ? -1 : 1;
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	const srcmap_line *x = a, *y = b;
	int c = cmp_by_cost(x->stall, x->latency, y->stall, y->latency);
	if (c == 0)
		c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_file(const void *a, const void *b)
{
	const srcmap_file *x = a, *y = b;
	int c = cmp_by_cost(x->stall, x->latency, y->stall, y->latency);
	return c ? c : strcmp(x->file, y->file);
}

static void add_cost(const trace_inst *in, size_t *n, int64_t *h, int64_t *l, int64_t *s,
		     int64_t *i)
{
	(*n)++;
	*h += in->hits, *l += in->latency, *s += in->stall, *i += in->idle;
}

/* Groups sorted keys into lines (keys with equal frames are adjacent); line_of[inst] = the
 * line an instruction went to. */
static void group_lines(const trace_dispatch *d, const key_row *k, size_t nk, srcmap_summary *o,
			size_t *line_of)
{
	o->lines = xcalloc(nk ? nk : 1, sizeof *o->lines);
	for (size_t i = 0; i < nk; i++) {
		if (i == 0 || frame_cmp(&k[i].f, &k[i - 1].f) != 0) {
			srcmap_line *ln = &o->lines[o->n_lines++];
			ln->file = xstrndup(k[i].f.path, k[i].f.path_len);
			ln->line = k[i].f.line;
		}
		line_of[k[i].inst] = o->n_lines - 1;
		srcmap_line *ln = &o->lines[o->n_lines - 1];
		add_cost(&d->insts[k[i].inst], &ln->instructions, &ln->hits, &ln->latency,
			 &ln->stall, &ln->idle);
	}
}

/* Lines are still in (file, line) order here, so equal files are adjacent. */
static void group_files(srcmap_summary *o)
{
	o->files = xcalloc(o->n_lines ? o->n_lines : 1, sizeof *o->files);
	for (size_t i = 0; i < o->n_lines; i++) {
		const srcmap_line *ln = &o->lines[i];
		if (i == 0 || strcmp(ln->file, o->lines[i - 1].file) != 0)
			o->files[o->n_files++].file = xstrdup(ln->file);
		srcmap_file *f = &o->files[o->n_files - 1];
		f->lines++;
		f->instructions += ln->instructions;
		f->hits += ln->hits, f->latency += ln->latency;
		f->stall += ln->stall, f->idle += ln->idle;
	}
}

/* Flags the entry line of every kernel (see the heuristic in srcmap.h). The line of the entry
 * instruction comes from line_of: one lookup per kernel, not a scan of every line (a code.json
 * of 40,000 one-instruction kernels made that quadratic). */
static void flag_entries(const trace_dispatch *d, srcmap_credit credit, srcmap_summary *o,
			 const size_t *line_of)
{
	for (size_t i = 0; i < d->n_insts; i++) {
		if (d->insts[i].is_label || (i > 0 && !d->insts[i - 1].is_label))
			continue;
		src_frame entry, f;
		if (!credited(&d->insts[i], credit, &entry))
			continue;
		int prologue = 0;
		for (size_t j = i; j < d->n_insts && !d->insts[j].is_label; j++) {
			if (!credited(&d->insts[j], credit, &f) || frame_cmp(&f, &entry) != 0)
				break;
			if (strncmp(d->insts[j].isa, "s_load", 6) == 0)
				prologue = 1;
		}
		if (prologue && line_of[i] < o->n_lines)
			o->lines[line_of[i]].entry_bucket = 1;
	}
}

void srcmap_build(const trace_dispatch *d, srcmap_credit credit, srcmap_summary *o)
{
	memset(o, 0, sizeof *o);
	key_row *keys = xcalloc(d->n_insts ? d->n_insts : 1, sizeof *keys);
	size_t nk = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *in = &d->insts[i];
		if (in->is_label)
			continue;
		size_t dummy = 0;
		add_cost(in, &o->instructions, &o->hits, &o->latency, &o->stall, &o->idle);
		o->executed_instructions += in->hits > 0;
		int nf = credited(in, credit, &keys[nk].f);
		if (nf == 0)
			continue;
		o->chained_instructions += nf > 1;
		o->mapped_executed += in->hits > 0;
		int64_t ignore_idle = 0;
		add_cost(in, &dummy, &o->mapped_hits, &o->mapped_latency, &o->mapped_stall,
			 &ignore_idle);
		o->mapped_instructions++;
		keys[nk++].inst = i;
	}
	qsort(keys, nk, sizeof *keys, cmp_key);
	size_t *line_of = xmalloc((d->n_insts ? d->n_insts : 1) * sizeof *line_of);
	for (size_t i = 0; i < d->n_insts; i++)
		line_of[i] = SIZE_MAX;
	group_lines(d, keys, nk, o, line_of);
	free(keys);
	group_files(o);
	flag_entries(d, credit, o, line_of);
	free(line_of);
	qsort(o->lines, o->n_lines, sizeof *o->lines, cmp_line);
	qsort(o->files, o->n_files, sizeof *o->files, cmp_file);
}

void srcmap_summary_release(srcmap_summary *s)
{
	for (size_t i = 0; i < s->n_lines; i++)
		free(s->lines[i].file);
	for (size_t i = 0; i < s->n_files; i++)
		free(s->files[i].file);
	free(s->lines);
	free(s->files);
	memset(s, 0, sizeof *s);
}

const srcmap_line *srcmap_find_line(const srcmap_summary *s, const char *file, int64_t line)
{
	for (size_t i = 0; i < s->n_lines; i++)
		if (s->lines[i].line == line && strcmp(s->lines[i].file, file) == 0)
			return &s->lines[i];
	return NULL;
}
