/* Nsight Compute source-page exports -> trace model (ncu_source.h). The row walk recognises
 * the metadata lines ("Kernel Name", "Function Name", "File Path"), the table header (it has
 * an "Address" column; the correlated form starts with "Line No"), source-line rows of the
 * correlated form (Line No set) and SASS rows; each SASS row becomes one instruction. */
#include "read/nvidia/ncu_source.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/strbuf.h"
#include "base/lower_bound.h"
#include "base/xalloc.h"
#include "read/nvidia/ncu_csv.h"

#include <stdlib.h>
#include <string.h>

#define MAX_STALL_COLS 128

typedef struct colmap {
	long addr, text, all, ni, exec;
	size_t n_stall;
	struct {
		size_t col;
		int reason, ni;
	} stall[MAX_STALL_COLS];
	size_t need; /* fields a SASS row must have */
	int correlated;
} colmap;

typedef struct walk {
	const ncu_csv *c;
	ncu_source *out;
	fp_err *e;
	colmap m;
	int have_header;
	const char *file; /* current "File Path" (borrowed from c) */
	int64_t line;	  /* current source line, -1 before the first of a file */
	size_t cap;
} walk;

static long need_col(walk *w, const ncu_csv_row *r, long from, const char *name)
{
	for (size_t i = (size_t)from; i < r->n; i++)
		if (strcmp(r->f[i], name) == 0)
			return (long)i;
	ncu_csv_fail_at(w->c, r, 0, w->e, "an ncu source-page header",
			"source-page header lacks the column \"%s\"", name);
	return -1;
}

static void note_unknown(ncu_source *s, const char *label)
{
	for (size_t i = 0; i < s->n_unknown_cols; i++)
		if (strcmp(s->unknown_cols[i], label) == 0)
			return;
	s->unknown_cols = xreallocarray(s->unknown_cols, s->n_unknown_cols + 1, sizeof(char *));
	s->unknown_cols[s->n_unknown_cols++] = xstrdup(label);
}

static long max_l(long a, long b)
{
	return a > b ? a : b;
}

static int header(walk *w, const ncu_csv_row *r)
{
	colmap *m = &w->m;
	memset(m, 0, sizeof *m);
	m->correlated = strcmp(r->f[0], "Line No") == 0;
	m->addr = ncu_csv_col(r, "Address");
	m->text = m->addr + 1;
	if (m->text >= (long)r->n || strcmp(r->f[m->text], "Source") != 0)
		return ncu_csv_fail_at(w->c, r, (size_t)m->addr, w->e,
				       "a \"Source\" column after \"Address\"",
				       "source-page header: no SASS text column");
	if ((m->all = need_col(w, r, m->text, "Warp Stall Sampling (All Samples)")) < 0 ||
	    (m->ni = need_col(w, r, m->text, "Warp Stall Sampling (Not-issued Samples)")) < 0 ||
	    (m->exec = need_col(w, r, m->text, "Instructions Executed")) < 0)
		return -1;
	long need = max_l(max_l(m->text, m->all), max_l(m->ni, m->exec));
	for (size_t i = (size_t)m->text + 1; i < r->n; i++) {
		int ni = 0, reason = ncu_reason_from_label(r->f[i], &ni);
		if (reason < 0 || m->n_stall == MAX_STALL_COLS)
			continue;
		if (reason == NCU_UNKNOWN)
			note_unknown(w->out, r->f[i]);
		m->stall[m->n_stall].col = i;
		m->stall[m->n_stall].reason = reason;
		m->stall[m->n_stall++].ni = ni;
		need = max_l(need, (long)i);
	}
	m->need = (size_t)need + 1;
	w->have_header = 1;
	return 0;
}

static int parse_address(walk *w, const ncu_csv_row *r, uint64_t *out)
{
	const char *s = r->f[w->m.addr];
	char *end = NULL;
	if (strncmp(s, "0x", 2) != 0 || !s[2] || strlen(s) > 18)
		goto bad;
	*out = strtoull(s + 2, &end, 16);
	if (end && !*end)
		return 0;
bad:
	return ncu_csv_fail_at(w->c, r, (size_t)w->m.addr, w->e, "a hex address (0x...)",
			       "SASS row with address \"%.40s\"", s);
}

static char *trimmed(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

static int sass_row(walk *w, const ncu_csv_row *r)
{
	const ncu_csv *c = w->c;
	colmap *m = &w->m;
	if (r->n < m->need)
		return ncu_csv_fail_at(c, r, r->n, w->e, "as many fields as the header",
				       "SASS row has %zu fields, the header needs %zu", r->n,
				       m->need);
	ncu_source *s = w->out;
	if (s->trace.n_insts == w->cap) {
		size_t cap = w->cap;
		s->trace.insts = xgrow(s->trace.insts, &w->cap, cap + 1, sizeof *s->trace.insts);
		s->s = xreallocarray(s->s, w->cap, sizeof *s->s);
	}
	ncu_inst_samples *x = &s->s[s->trace.n_insts];
	memset(x, 0, sizeof *x);
	if (parse_address(w, r, &x->address) ||
	    ncu_csv_count(c, r, (size_t)m->all, &x->all, w->e) ||
	    ncu_csv_count(c, r, (size_t)m->ni, &x->not_issued, w->e) ||
	    ncu_csv_count(c, r, (size_t)m->exec, &x->executed, w->e))
		return -1;
	for (size_t k = 0; k < m->n_stall; k++) {
		int64_t v;
		if (ncu_csv_count(c, r, m->stall[k].col, &v, w->e))
			return -1;
		int64_t *dst = m->stall[k].ni ? x->ni_by_reason : x->by_reason;
		dst[m->stall[k].reason] = trace_add(dst[m->stall[k].reason], v);
	}
	trace_inst *t = &s->trace.insts[s->trace.n_insts++];
	memset(t, 0, sizeof *t);
	t->isa = trimmed(r->f[m->text]);
	if (w->file && w->line > 0) {
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s:%lld", w->file, (long long)w->line);
		t->source = sb_detach(&sb);
	} else {
		t->source = xstrdup("");
	}
	t->hits = x->executed;
	t->latency = x->all;
	t->stall = trace_sub(x->all, x->by_reason[NCU_SELECTED]);
	t->category = TRACE_CAT_UNKNOWN;
	t->klass = -1;
	return 0;
}

/* A source-line row of the correlated form: "Line No" holds the line, the first "Source"
 * column its text (kept for annotated-source views). */
static int line_row(walk *w, const ncu_csv_row *r)
{
	int64_t line;
	if (ncu_csv_count(w->c, r, 0, &line, w->e))
		return -1;
	w->line = line;
	ncu_source *s = w->out;
	if (w->file && r->n > 1) {
		s->src_lines =
		    xreallocarray(s->src_lines, s->n_src_lines + 1, sizeof *s->src_lines);
		s->src_lines[s->n_src_lines++] =
		    (ncu_src_line){s->n_files - 1, line, xstrdup(ncu_csv_get(r, 1))};
	}
	return 0;
}

static void add_file(ncu_source *s, const char *path)
{
	s->files = xreallocarray(s->files, s->n_files + 1, sizeof(char *));
	s->files[s->n_files++] = xstrdup(path);
}

/* Returns 1 to stop (a second kernel), 0 to go on, -1 on error. */
static int one_row(walk *w, const ncu_csv_row *r)
{
	const char *f0 = r->f[0];
	ncu_source *s = w->out;
	if (strcmp(f0, "Kernel Name") == 0 || strcmp(f0, "Function Name") == 0) {
		if (!s->trace.kernel) {
			s->trace.kernel = xstrdup(ncu_csv_get(r, 1));
		} else if (strcmp(f0, "Kernel Name") == 0) {
			s->extra_kernels++;
			return 1;
		}
		return 0;
	}
	if (strcmp(f0, "File Path") == 0) {
		w->file = ncu_csv_get(r, 1);
		w->line = -1;
		s->has_sources = 1;
		add_file(s, w->file);
		w->have_header = 0;
		return 0;
	}
	if ((strcmp(f0, "Address") == 0 || strcmp(f0, "Line No") == 0) &&
	    ncu_csv_col(r, "Address") >= 0)
		return header(w, r);
	if (!w->have_header)
		return ncu_csv_fail_at(w->c, r, 0, w->e,
				       "\"Kernel Name\", \"File Path\" or a table header",
				       "row before the source-page table header");
	if (w->m.correlated && f0[0])
		return line_row(w, r);
	if (w->m.addr < (long)r->n && strcmp(r->f[w->m.addr], "...") == 0)
		return 0; /* the correlated form marks a jump in the address range with "..." */
	return sass_row(w, r);
}

typedef struct addr_key {
	uint64_t address;
	size_t idx;
} addr_key;

static int cmp_addr(const void *a, const void *b)
{
	const addr_key *x = a, *y = b;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Puts the instructions in address order (stable: equal addresses keep file order) and
 * numbers them. */
static void order(ncu_source *s)
{
	size_t n = s->trace.n_insts;
	addr_key *key = xreallocarray(NULL, n, sizeof *key);
	for (size_t i = 0; i < n; i++)
		key[i] = (addr_key){s->s[i].address, i};
	qsort(key, n, sizeof *key, cmp_addr);
	trace_inst *ti = xreallocarray(NULL, n, sizeof *ti);
	ncu_inst_samples *si = xreallocarray(NULL, n, sizeof *si);
	for (size_t i = 0; i < n; i++) {
		ti[i] = s->trace.insts[key[i].idx];
		si[i] = s->s[key[i].idx];
	}
	free(key);
	free(s->trace.insts);
	free(s->s);
	s->trace.insts = ti;
	s->s = si;
	s->base_address = n ? si[0].address : 0;
	for (size_t i = 0; i < n; i++) {
		ti[i].code_line = (int64_t)i + 1;
		ti[i].vaddr = (int64_t)(si[i].address - s->base_address);
	}
}

static int rows(const ncu_csv *c, void *arg, fp_err *e)
{
	ncu_source *out = arg;
	walk w = {.c = c, .out = out, .e = e, .line = -1};
	int rc = 0;
	for (size_t i = 0; i < c->n_rows && rc == 0; i++)
		rc = one_row(&w, &c->rows[i]);
	if (rc >= 0 && out->trace.n_insts == 0)
		rc = fp_fail(e, ERR_EMPTY_ATT, "%s has no SASS instruction rows", c->name);
	return rc;
}

int ncu_source_read(const char *buf, size_t len, const char *name, ncu_source *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	trace_dispatch_init(&out->trace);
	int rc = ncu_csv_walk(buf, len, name, rows, out, e);
	if (rc < 0) {
		ncu_source_release(out);
		return -1;
	}
	order(out);
	return 0;
}

int ncu_source_read_file(const char *path, ncu_source *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	trace_dispatch_init(&out->trace);
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CSV, &len, e);
	if (!buf)
		return -1;
	int rc = ncu_source_read(buf, len, path, out, e);
	free(buf);
	return rc;
}

void ncu_source_release(ncu_source *s)
{
	if (!s)
		return;
	trace_dispatch_release(&s->trace);
	free(s->s);
	for (size_t i = 0; i < s->n_src_lines; i++)
		free(s->src_lines[i].text);
	free(s->src_lines);
	for (size_t i = 0; i < s->n_unknown_cols; i++)
		free(s->unknown_cols[i]);
	free(s->unknown_cols);
	for (size_t i = 0; i < s->n_files; i++)
		free(s->files[i]);
	free(s->files);
	memset(s, 0, sizeof *s);
	trace_dispatch_init(&s->trace);
}

long ncu_source_find_address(const ncu_source *s, uint64_t address)
{
	size_t lo = lower_bound_u64(s->s, s->trace.n_insts, sizeof *s->s,
				    offsetof(ncu_inst_samples, address), address);
	return lo < s->trace.n_insts && s->s[lo].address == address ? (long)lo : -1;
}

static int same_samples(const ncu_inst_samples *a, const ncu_inst_samples *b)
{
	return a->all == b->all && a->not_issued == b->not_issued && a->executed == b->executed;
}

void ncu_source_adopt_lines(ncu_source *dst, const ncu_source *corr, size_t *matched,
			    size_t *missing, size_t *disagree)
{
	*matched = *missing = *disagree = 0;
	for (size_t i = 0; i < dst->trace.n_insts; i++) {
		long j = ncu_source_find_address(corr, dst->s[i].address);
		if (j < 0) {
			(*missing)++;
			continue;
		}
		if (!same_samples(&dst->s[i], &corr->s[j]))
			(*disagree)++;
		const char *src = corr->trace.insts[j].source;
		if (src && src[0]) {
			char *copy = xstrdup(src); /* before the free: dst may be corr */
			free(dst->trace.insts[i].source);
			dst->trace.insts[i].source = copy;
			(*matched)++;
		}
	}
	size_t n_files = dst == corr ? 0 : corr->n_files;
	for (size_t i = 0; i < n_files; i++) {
		dst->files = xreallocarray(dst->files, dst->n_files + 1, sizeof(char *));
		dst->files[dst->n_files++] = xstrdup(corr->files[i]);
	}
	dst->has_sources = 1;
}
