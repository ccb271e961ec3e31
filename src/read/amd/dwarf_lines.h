/* DWARF line tables and inlined call chains of an AMDGPU code object, through libdw.
 *
 * The rows map ELF virtual addresses (the space of symbol values and code.json's Vaddr) to
 * file:line:column. Where .debug_info has DW_TAG_inlined_subroutine entries, the call sites
 * that enclose an address are kept too, so a location can be credited to the kernel's call
 * site rather than to a helper (docs/architecture.md#decision-inlined-calls).
 *
 * Ownership: a dwarf_lines owns its rows, file names and inline ranges; dwarf_lines_release
 * releases them. Failure: a code object without .debug_line / .debug_info gives an empty
 * table (has_debug 0), not an error; debug sections that libdw cannot read are BAD_INPUT with
 * the file and the section's offset. */
#ifndef FLYPROF_READ_DWARF_LINES_H
#define FLYPROF_READ_DWARF_LINES_H

#include "base/err.h"
#include "base/strbuf.h"
#include "read/amd/elf_codeobj.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dwarf_line_row {
	uint64_t addr;
	const char *file; /* borrowed from the table's file list; NULL when unknown */
	int line, col;	  /* line 0 = no source (compiler-generated code) */
	uint8_t is_stmt, end_sequence;
	size_t seq; /* position in the tables as read (ties at one address keep it) */
} dwarf_line_row;

typedef struct dwarf_inline {
	uint64_t lo, hi;       /* [lo, hi) */
	int depth;	       /* nesting depth, 1 = inlined directly into a subprogram */
	const char *call_file; /* borrowed; NULL when unknown */
	int call_line;
} dwarf_inline;

typedef struct dwarf_lines {
	int has_debug;	      /* 1 when the object has .debug_line */
	dwarf_line_row *rows; /* sorted by address, ties in table order */
	size_t n_rows;
	dwarf_inline *inl; /* sorted by lo */
	size_t n_inl;
	char **files; /* interned file names (owned) */
	size_t n_files;
} dwarf_lines;

/* Reads every compilation unit of co. Returns 0 (possibly with no rows) or -1 with e filled. */
int dwarf_lines_read(const codeobj *co, dwarf_lines *dl, fp_err *e);
void dwarf_lines_release(dwarf_lines *dl);

/* The row that covers addr (the last row at the greatest address <= addr), or NULL when addr
 * is outside every sequence. */
const dwarf_line_row *dwarf_lines_lookup(const dwarf_lines *dl, uint64_t addr);
/* Appends the source location of addr in code.json's form: "file:line", followed by
 * " -> file:line" for each enclosing inlined call site, innermost first. Returns 1 when
 * something was appended, 0 when addr has no source (no row, or line 0). */
int dwarf_lines_source(const dwarf_lines *dl, uint64_t addr, strbuf *out);

#endif
