/* A code object with everything flyprof reads from it: the ELF (elf_codeobj.h), the metadata
 * note (amdgpu_note.h) and the DWARF line table (dwarf_lines.h); plus finding the code objects
 * rocprofv3 saved beside a trace, filling missing code.json sources from them, and the
 * kernel resources for the occupancy model.
 *
 * Ownership: a codeobj_full owns its three parts (codeobj_full_release). Failure: BAD_INPUT from
 * any part (file and offset), NO_ARTIFACT for a missing file. */
#ifndef FLYPROF_READ_CODEOBJ_LOAD_H
#define FLYPROF_READ_CODEOBJ_LOAD_H

#include "base/err.h"
#include "base/fileio.h"
#include "base/json/jv.h"
#include "model/trace.h"
#include "read/amd/amdgpu_note.h"
#include "read/amd/dwarf_lines.h"
#include "read/amd/elf_codeobj.h"

typedef struct codeobj_full {
	codeobj co;
	amdgpu_metadata md; /* empty when the object has no metadata note */
	int has_md;
	dwarf_lines dl;
} codeobj_full;

/* Reads path completely. 0 or -1 with e filled (cf is then empty). */
int codeobj_full_read(const char *path, codeobj_full *cf, fp_err *e);
/* The same from memory (fuzz targets, tests). */
int codeobj_full_read_mem(const void *buf, size_t len, const char *name, codeobj_full *cf,
			  fp_err *e);
void codeobj_full_release(codeobj_full *cf);

/* The processor name: from amdhsa.target when present, else from e_flags. Borrowed/static. */
const char *codeobj_full_arch(const codeobj_full *cf, char *buf, size_t size);

/* Fills r with the resources of `kernel` from the metadata note (with the descriptor's
 * ACCUM_OFFSET for the arch/acc VGPR split). Returns 0, or -1 when the note has no such
 * kernel (r untouched). */
int codeobj_kernel_resources(const codeobj_full *cf, const char *kernel, trace_resources *r);

/* Finds the file rocprofv3 wrote for code object `id` (`*_code_object_id_<id>.out`) beside the
 * dispatch directory: in the dispatch directory, then in its parent (the capture's output
 * directory) and the parent's direct subdirectories other than ui_output_* (the -o prefix
 * directory); never in siblings of the parent. Returns the first match in sorted order
 * (owned) or NULL. listed (may be NULL): dispatch_dir's names when a caller listed them already
 * (base/fileio.h file_listing; ignored when it is another directory's), so that a directory of
 * thousands of wave files is not walked again. */
char *codeobj_find_beside(const char *dispatch_dir, int64_t id, file_listing *listed);

/* The description `map --code-object` prints: header facts, kernels with resources and
 * descriptor fields, the line table (at most max_rows rows, all when max_rows is 0; *total
 * receives the row count) and the inlined call sites. */
jv *codeobj_describe(const codeobj_full *cf, size_t max_rows, size_t *total);

/* Fills what code.json lacks from the code objects saved beside d->dir: the source of every
 * non-label instruction whose Source is empty (looked up by its Codeobj id and Vaddr in that
 * object's line table), and d->res from the metadata of d->kernel when d->res.source is NULL.
 * At most CODEOBJ_FILL_MAX distinct ids are read. Never fails: a code object that is missing
 * or does not parse is reported in the returned object, which says what was done:
 *   {"origin": "code.json" | "code_object" | "code.json+code_object" | "none",
 *    "instructions", "with_source_in_code_json", "filled_from_code_object",
 *    "code_objects": [{"id", "path" (or null), "arch", "debug_line", "error"?}]} */
#define CODEOBJ_FILL_MAX 16
/* listed: d->dir's names if listed already, or NULL (codeobj_find_beside) */
jv *codeobj_fill_sources(trace_dispatch *d, file_listing *listed);

#endif
