/* Reader of AMDGPU code objects (ELF64, e_machine EM_AMDGPU): header facts (arch from
 * e_flags, code object version), sections, kernel symbols with their 64-byte kernel
 * descriptors (<name>.kd), and where the NT_AMDGPU_METADATA note lies (decoded by
 * amdgpu_note.h). DWARF line tables are read from the same open image by dwarf_lines.h.
 *
 * Ownership: a codeobj owns a private copy of the file bytes and the libelf handle on them;
 * codeobj_release releases everything. Failure: anything that is not a well-formed AMDGPU ELF is
 * BAD_INPUT with the file name and the byte offset of the offending structure; a missing file
 * is NO_ARTIFACT (from file_read_all). Sources of facts: docs/facts-flydsl.md#code-object. */
#ifndef FLYPROF_READ_ELF_CODEOBJ_H
#define FLYPROF_READ_ELF_CODEOBJ_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>

struct Elf;

/* Size of a kernel descriptor (AMDHSA ABI). */
#define CODEOBJ_KD_SIZE 64

typedef struct codeobj_kernel {
	char *name;	  /* kernel function symbol (owned) */
	uint64_t addr;	  /* st_value of the function: ELF virtual address of its entry */
	uint64_t size;	  /* st_size: code bytes */
	int has_kd;	  /* 1 when <name>.kd was found and lies inside an allocated section */
	uint64_t kd_addr; /* st_value of <name>.kd */
	uint32_t kd_group_segment_fixed_size;
	uint32_t kd_private_segment_fixed_size;
	uint32_t kd_kernarg_size;
	int64_t kd_entry_offset; /* kernel_code_entry_byte_offset, relative to the descriptor */
	uint32_t kd_rsrc1, kd_rsrc2, kd_rsrc3;
	uint16_t kd_code_properties;
} codeobj_kernel;

typedef struct codeobj_section {
	char *name; /* owned; "" when the name does not resolve */
	uint32_t type;
	uint64_t flags, addr, offset, size;
} codeobj_section;

typedef struct codeobj {
	char *path;	      /* as given (owned) */
	unsigned char *image; /* owned copy of the file */
	size_t len;
	struct Elf *elf; /* libelf handle on image */
	int abi_version; /* EI_ABIVERSION: 1 = code object v3, 2 = v4, 3 = v5, 4 = v6 */
	int co_version;	 /* code object version derived from abi_version (0 if unknown) */
	uint32_t e_flags;
	char mach[24];	     /* "gfx90a", "gfx950", or "unknown(0xNN)" from e_flags */
	const char *xnack;   /* "any", "off", "on" or "unsupported" (v4+ feature bits) */
	const char *sramecc; /* same */
	codeobj_section *sections;
	size_t n_sections;
	codeobj_kernel *kernels; /* sorted by addr */
	size_t n_kernels;
	/* The NT_AMDGPU_METADATA descriptor, borrowed from image; NULL if absent. */
	const unsigned char *note_desc;
	size_t note_len;
	int64_t note_offset; /* file offset of note_desc */
} codeobj;

/* Parses an in-memory image (copied; `name` is used in errors). 0 or -1 with e filled. */
int codeobj_read_mem(const void *buf, size_t len, const char *name, codeobj *co, fp_err *e);
/* Reads and parses a file. */
int codeobj_read_file(const char *path, codeobj *co, fp_err *e);
void codeobj_release(codeobj *co);

/* The section with this name, or NULL. */
const codeobj_section *codeobj_section_find(const codeobj *co, const char *name);
/* The kernel whose code contains addr ([addr, addr+size), or the entry itself when size is
 * 0), or NULL. */
const codeobj_kernel *codeobj_kernel_at(const codeobj *co, uint64_t addr);
/* The kernel named `name` (also accepts "<name>.kd"), or NULL. */
const codeobj_kernel *codeobj_kernel_find(const codeobj *co, const char *name);
/* Allocated VGPRs per lane from GRANULATED_WORKITEM_VGPR_COUNT of rsrc1 for wave64 on
 * gfx90a-class targets ((g+1)*8, arch + acc), or -1 without a descriptor. */
int codeobj_kd_vgpr_alloc(const codeobj_kernel *k);
/* First AGPR index from ACCUM_OFFSET of rsrc3 ((v+1)*4) on gfx90a/gfx94x/gfx950, or -1. */
int codeobj_kd_accum_offset(const codeobj *co, const codeobj_kernel *k);

#endif
