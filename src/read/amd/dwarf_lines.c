/* Line tables and inlined call sites through libdw. libdw does the DWARF decoding; this file
 * copies what flyprof needs into plain arrays (so the Dwarf handle can be closed at once) and
 * bounds the DIE walk so hostile nesting cannot exhaust the stack. */
#include "read/amd/dwarf_lines.h"

#include "base/xalloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

/* Deeper DIE nesting than this is not walked (real kernels nest a handful of levels). */
#define DWARF_MAX_DIE_DEPTH 64

typedef struct reader {
	const codeobj *co;
	dwarf_lines *dl;
	size_t cap_rows, cap_inl, cap_files;
	Dwarf_Files *cu_files; /* file table of the current CU, for DW_AT_call_file */
	size_t cu_nfiles;
	const char *comp_dir; /* DW_AT_comp_dir of the current CU, or NULL */
} reader;

/* Interns a file name; a relative one is resolved against the CU's compilation directory,
 * the way llvm-dwarfdump and the decoder present it. */
static const char *intern(reader *r, const char *name)
{
	if (!name)
		return NULL;
	strbuf sb = STRBUF_INIT;
	if (name[0] != '/' && r->comp_dir && *r->comp_dir)
		sb_addf(&sb, "%s/%s", r->comp_dir, name);
	else
		sb_adds(&sb, name);
	const char *s = sb_str(&sb);
	dwarf_lines *dl = r->dl;
	for (size_t i = dl->n_files; i-- > 0;)
		if (strcmp(dl->files[i], s) == 0) {
			sb_release(&sb);
			return dl->files[i];
		}
	dl->files = xgrow(dl->files, &r->cap_files, dl->n_files + 1, sizeof *dl->files);
	dl->files[dl->n_files] = sb_detach(&sb);
	return dl->files[dl->n_files++];
}

static int dw_bad(reader *r, const char *section, fp_err *e)
{
	const codeobj_section *s = codeobj_section_find(r->co, section);
	int64_t off = s && s->offset <= r->co->len ? (int64_t)s->offset : 0;
	return fp_fail_input(e, r->co->path, off, "readable DWARF", "%s: %s: %s", r->co->path,
			     section, dwarf_errmsg(-1));
}

static int read_cu_lines(reader *r, Dwarf_Die *cu, fp_err *e)
{
	if (!dwarf_hasattr(cu, DW_AT_stmt_list))
		return 0;
	Dwarf_Lines *lines;
	size_t n;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return dw_bad(r, ".debug_line", e);
	dwarf_lines *dl = r->dl;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln = 0, col = 0;
		bool stmt = false, end = false;
		if (!l || dwarf_lineaddr(l, &a) != 0)
			return dw_bad(r, ".debug_line", e);
		dwarf_lineno(l, &ln);
		dwarf_linecol(l, &col);
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &end);
		dl->rows = xgrow(dl->rows, &r->cap_rows, dl->n_rows + 1, sizeof *dl->rows);
		size_t seq = dl->n_rows;
		dl->rows[seq] = (dwarf_line_row){
		    a, intern(r, dwarf_linesrc(l, NULL, NULL)), ln, col, stmt, end, seq};
		dl->n_rows++;
	}
	return 0;
}

static void add_inline(reader *r, Dwarf_Die *die, int depth)
{
	Dwarf_Attribute at;
	Dwarf_Word fidx = 0, line = 0;
	const char *file = NULL;
	if (dwarf_attr(die, DW_AT_call_file, &at) && dwarf_formudata(&at, &fidx) == 0 &&
	    r->cu_files && fidx < r->cu_nfiles)
		file = dwarf_filesrc(r->cu_files, fidx, NULL, NULL);
	if (dwarf_attr(die, DW_AT_call_line, &at))
		dwarf_formudata(&at, &line);
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	dwarf_lines *dl = r->dl;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		dl->inl = xgrow(dl->inl, &r->cap_inl, dl->n_inl + 1, sizeof *dl->inl);
		dl->inl[dl->n_inl++] = (dwarf_inline){lo, hi, depth, intern(r, file),
						      line > INT32_MAX ? 0 : (int)line};
	}
}

/* Walks the children of die; depth counts enclosing inlined subroutines. */
static void walk(reader *r, Dwarf_Die *die, int depth, int nest)
{
	Dwarf_Die child;
	if (nest > DWARF_MAX_DIE_DEPTH || dwarf_child(die, &child) != 0)
		return;
	do {
		int d = depth;
		if (dwarf_tag(&child) == DW_TAG_inlined_subroutine) {
			d = depth + 1;
			add_inline(r, &child, d);
		}
		walk(r, &child, d, nest + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_row(const void *a, const void *b)
{
	const dwarf_line_row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* table order breaks ties */
}

static int cmp_inl(const void *a, const void *b)
{
	const dwarf_inline *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth - y->depth;
}

static int read_units(reader *r, Dwarf *dw, fp_err *e)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t type;
	int rc;
	while ((rc = dwarf_get_units(dw, cu, &cu, &version, &type, &cudie, NULL)) == 0) {
		Dwarf_Attribute at;
		r->comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &at));
		if (read_cu_lines(r, &cudie, e) != 0)
			return -1;
		r->cu_files = NULL;
		r->cu_nfiles = 0;
		if (dwarf_getsrcfiles(&cudie, &r->cu_files, &r->cu_nfiles) != 0)
			r->cu_files = NULL;
		walk(r, &cudie, 0, 0);
	}
	return rc < 0 ? dw_bad(r, ".debug_info", e) : 0;
}

int dwarf_lines_read(const codeobj *co, dwarf_lines *dl, fp_err *e)
{
	memset(dl, 0, sizeof *dl);
	if (!codeobj_section_find(co, ".debug_line") && !codeobj_section_find(co, ".debug_info"))
		return 0;
	reader r = {.co = co, .dl = dl};
	Dwarf *dw = dwarf_begin_elf(co->elf, DWARF_C_READ, NULL);
	if (!dw) {
		dw_bad(&r, ".debug_info", e);
		dwarf_lines_release(dl);
		return -1;
	}
	dl->has_debug = codeobj_section_find(co, ".debug_line") != NULL;
	int rc = read_units(&r, dw, e);
	dwarf_end(dw);
	if (rc != 0) {
		dwarf_lines_release(dl);
		return -1;
	}
	if (dl->n_rows > 1)
		qsort(dl->rows, dl->n_rows, sizeof *dl->rows, cmp_row);
	if (dl->n_inl > 1)
		qsort(dl->inl, dl->n_inl, sizeof *dl->inl, cmp_inl);
	return 0;
}

void dwarf_lines_release(dwarf_lines *dl)
{
	if (!dl)
		return;
	for (size_t i = 0; i < dl->n_files; i++)
		free(dl->files[i]);
	free(dl->files);
	free(dl->rows);
	free(dl->inl);
	memset(dl, 0, sizeof *dl);
}

const dwarf_line_row *dwarf_lines_lookup(const dwarf_lines *dl, uint64_t addr)
{
	size_t lo = 0, hi = dl->n_rows; /* first row with address > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dl->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const dwarf_line_row *row = &dl->rows[lo - 1];
	return row->end_sequence ? NULL : row;
}

int dwarf_lines_source(const dwarf_lines *dl, uint64_t addr, strbuf *out)
{
	const dwarf_line_row *row = dwarf_lines_lookup(dl, addr);
	if (!row || row->line <= 0 || !row->file)
		return 0;
	sb_addf(out, "%s:%d", row->file, row->line);
	/* Enclosing inlined call sites, innermost (deepest) first. */
	int best = -1;
	for (;;) {
		const dwarf_inline *next = NULL;
		for (size_t i = 0; i < dl->n_inl && dl->inl[i].lo <= addr; i++) {
			const dwarf_inline *in = &dl->inl[i];
			if (addr < in->hi && (best < 0 || in->depth < best) &&
			    (!next || in->depth > next->depth))
				next = in;
		}
		if (!next)
			break;
		best = next->depth;
		if (next->call_file && next->call_line > 0)
			sb_addf(out, " -> %s:%d", next->call_file, next->call_line);
	}
	return 1;
}
