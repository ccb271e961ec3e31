/* Per-instruction memory and thread columns of an ncu source-page export (ncu_memtab.h). */
#include "read/nvidia/ncu_memtab.h"

#include "base/input_open.h"
#include "base/xalloc.h"
#include "read/nvidia/ncu_csv.h"

#include <stdlib.h>
#include <string.h>

enum {
	C_SPACE,
	C_OP,
	C_BITS,
	C_EXEC,
	C_TEXEC,
	C_AVGT,
	C_DIV,
	C_NWAY,
	C_WF,
	C_WFX,
	C_WFI,
	C_SEC,
	C_SECX,
	C_SECI,
	C__N
};

static const char *const COLS[C__N] = {
    "Address Space",
    "Access Operation",
    "Access Size",
    "Instructions Executed",
    "Thread Instructions Executed",
    "Avg. Threads Executed",
    "Divergent Branches",
    "L1 Conflicts Shared N-Way",
    "L1 Wavefronts Shared",
    "L1 Wavefronts Shared Excessive",
    "L1 Wavefronts Shared Ideal",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Excessive",
    "L2 Theoretical Sectors Global Ideal",
};

typedef struct walk {
	const ncu_csv *c;
	fp_err *e;
	long addr;
	long col[C__N];
	int have_header, kernels;
	size_t cap;
} walk;

static void header(walk *w, const ncu_csv_row *r, ncu_memtab *m)
{
	w->addr = ncu_csv_col(r, "Address");
	for (int k = 0; k < C__N; k++)
		w->col[k] = ncu_csv_col(r, COLS[k]);
	m->has_shared = w->col[C_WF] >= 0 && w->col[C_WFX] >= 0;
	m->has_sectors = w->col[C_SEC] >= 0 && w->col[C_SECX] >= 0;
	m->has_threads = w->col[C_AVGT] >= 0;
	m->has_divergent = w->col[C_DIV] >= 0;
	w->have_header = 1;
}

/* A number field; "-", "" and a missing column read as 0. */
static int num(walk *w, const ncu_csv_row *r, int k, double *out)
{
	*out = 0;
	long i = w->col[k];
	if (i < 0 || (size_t)i >= r->n)
		return 0;
	const char *s = r->f[i];
	while (*s == ' ')
		s++;
	if (!*s || strcmp(s, "-") == 0)
		return 0;
	if (ncu_csv_number(s, out))
		return 0;
	return ncu_csv_fail_at(w->c, r, (size_t)i, w->e, "a number or \"-\"",
			       "column \"%s\" holds \"%.40s\"", COLS[k], s);
}

static char *text(walk *w, const ncu_csv_row *r, int k)
{
	const char *s = w->col[k] >= 0 ? ncu_csv_get(r, (size_t)w->col[k]) : "";
	return xstrdup(strcmp(s, "-") == 0 ? "" : s);
}

static int is_hex_address(const char *s, uint64_t *out)
{
	char *end = NULL;
	if (strncmp(s, "0x", 2) != 0 || !s[2] || strlen(s) > 18)
		return 0;
	*out = strtoull(s + 2, &end, 16);
	return end && !*end;
}

static int sass_row(walk *w, const ncu_csv_row *r, ncu_memtab *m)
{
	uint64_t a = 0;
	if ((size_t)w->addr >= r->n || !is_hex_address(r->f[w->addr], &a))
		return 0; /* a source-line row or a gap */
	if (m->n == w->cap)
		m->rows = xgrow(m->rows, &w->cap, m->n + 1, sizeof *m->rows);
	ncu_mem_row *x = &m->rows[m->n];
	memset(x, 0, sizeof *x);
	x->address = a;
	double *dst[C__N] = {NULL,
			     NULL,
			     &x->access_bits,
			     &x->executed,
			     &x->thread_executed,
			     &x->avg_threads,
			     &x->divergent_branches,
			     &x->shared_nway,
			     &x->shared_wf,
			     &x->shared_wf_excessive,
			     &x->shared_wf_ideal,
			     &x->sectors,
			     &x->sectors_excessive,
			     &x->sectors_ideal};
	for (int k = C_BITS; k < C__N; k++)
		if (num(w, r, k, dst[k]))
			return -1;
	x->space = text(w, r, C_SPACE);
	x->op = text(w, r, C_OP);
	m->n++;
	return 0;
}

static int rows(const ncu_csv *c, void *arg, fp_err *e)
{
	ncu_memtab *out = arg;
	const char *name = c->name;
	walk w = {.c = c, .e = e};
	int rc = 0;
	for (size_t i = 0; i < c->n_rows && !rc; i++) {
		const ncu_csv_row *r = &c->rows[i];
		if (r->n >= 1 && strcmp(r->f[0], "Kernel Name") == 0) {
			if (++w.kernels > 1)
				break;
			continue;
		}
		if (ncu_csv_col(r, "Address") >= 0 && ncu_csv_col(r, "Source") >= 0) {
			if (w.have_header)
				break; /* the next table belongs to another view */
			header(&w, r, out);
			continue;
		}
		if (w.have_header)
			rc = sass_row(&w, r, out);
	}
	if (!rc && !w.have_header)
		rc =
		    fp_fail_input(e, name, 0, "an ncu source-page table with an \"Address\" column",
				  "%s: no source-page table", name);
	else if (!rc && out->n == 0) {
		rc = fp_fail(e, ERR_EMPTY_ATT, "%s: the source-page table has no SASS row", name);
		fp_err_extra(e, "file", jv_str(name));
	}
	return rc;
}

int ncu_memtab_read(const char *buf, size_t len, const char *name, ncu_memtab *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	int rc = ncu_csv_walk(buf, len, name, rows, out, e);
	if (rc)
		ncu_memtab_release(out);
	return rc;
}

int ncu_memtab_read_file(const char *path, ncu_memtab *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CSV, &len, e);
	if (!buf)
		return -1;
	int rc = ncu_memtab_read(buf, len, path, out, e);
	free(buf);
	return rc;
}

void ncu_memtab_release(ncu_memtab *m)
{
	for (size_t i = 0; m && i < m->n; i++) {
		free(m->rows[i].space);
		free(m->rows[i].op);
	}
	if (m) {
		free(m->rows);
		memset(m, 0, sizeof *m);
	}
}

const ncu_mem_row *ncu_memtab_at(const ncu_memtab *m, uint64_t address)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) { /* rows are in address order in ncu's exports */
		size_t mid = lo + (hi - lo) / 2;
		if (m->rows[mid].address < address)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && m->rows[lo].address == address)
		return &m->rows[lo];
	for (size_t i = 0; i < m->n; i++) /* not sorted after all: fall back to a scan */
		if (m->rows[i].address == address)
			return &m->rows[i];
	return NULL;
}
