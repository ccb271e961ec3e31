/* Reader of the NT_AMDGPU_METADATA note of an AMDGPU code object (v3+): a MessagePack map
 * with amdhsa.version, amdhsa.target and amdhsa.kernels (docs/facts-flydsl.md#metadata-note).
 *
 * Ownership: an amdgpu_metadata owns its strings and kernel array; amdgpu_metadata_release
 * releases them. Failure: bytes that are not valid MessagePack, or a document of the wrong
 * shape (top level not a map, a kernel without .name, a count field that is not an integer),
 * are BAD_INPUT with the file and the byte offset of the offending item. The bytes are
 * checked before msgpack-c unpacks them so that a hostile element count cannot make it
 * allocate more than the note's size justifies. */
#ifndef FLYPROF_READ_AMDGPU_NOTE_H
#define FLYPROF_READ_AMDGPU_NOTE_H

#include "base/err.h"
#include "model/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Per-kernel metadata; every number is -1 when the key is absent. */
typedef struct amdgpu_kernel_md {
	char *name;   /* .name (owned) */
	char *symbol; /* .symbol, "<name>.kd" (owned; NULL if absent) */
	int64_t vgpr_count, agpr_count, sgpr_count;
	int64_t vgpr_spill_count, sgpr_spill_count;
	int64_t group_segment_fixed_size;   /* static LDS bytes */
	int64_t private_segment_fixed_size; /* scratch bytes per work-item */
	int64_t kernarg_segment_size;
	int64_t wavefront_size;
	int64_t max_flat_workgroup_size;
	int64_t reqd_workgroup_size[3];
} amdgpu_kernel_md;

typedef struct amdgpu_metadata {
	char *target; /* amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx950" (owned; NULL if absent) */
	int64_t version[2]; /* amdhsa.version, -1 if absent */
	amdgpu_kernel_md *kernels;
	size_t n_kernels;
} amdgpu_metadata;

/* Decodes the note descriptor desc[0..len). `file` and `file_offset` (offset of desc in the
 * file) place errors. Returns 0, or -1 with e filled (md is then empty). */
int amdgpu_note_parse(const void *desc, size_t len, const char *file, int64_t file_offset,
		      amdgpu_metadata *md, fp_err *e);
void amdgpu_metadata_release(amdgpu_metadata *md);
/* The kernel whose .name or .symbol (with or without ".kd") equals name, or NULL. */
const amdgpu_kernel_md *amdgpu_metadata_kernel(const amdgpu_metadata *md, const char *name);
/* The gfx processor of amdhsa.target ("gfx950" from "amdgcn-amd-amdhsa--gfx950:xnack-") into
 * buf; returns 0, or -1 when there is no target. */
int amdgpu_metadata_arch(const amdgpu_metadata *md, char *buf, size_t size);

/* Fills r from kernel metadata (source "metadata"). accum_offset is the kernel descriptor's
 * first AGPR index (codeobj_kd_accum_offset) or -1: with AGPRs in use the arch VGPR count is
 * accum_offset when known, else .vgpr_count - .agpr_count (on gfx90a-class targets
 * .vgpr_count is arch + acc). wg_size is set only from .reqd_workgroup_size; unknown fields
 * of r are left as they were. */
void amdgpu_kernel_resources(const amdgpu_kernel_md *k, int accum_offset, trace_resources *r);

#endif
