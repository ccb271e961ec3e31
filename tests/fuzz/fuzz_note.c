/* The NT_AMDGPU_METADATA MessagePack reader: any bytes give metadata or BAD_INPUT with an
 * offset inside the note; resources derived from any kernel stay sane. */
#include "fuzz.h"

#include "read/amd/amdgpu_note.h"

#include <stdlib.h>

FUZZ_TARGET(note)
{
	amdgpu_metadata md;
	fp_err e = FP_ERR_INIT;
	if (amdgpu_note_parse(data, size, "fuzz", 0, &md, &e) != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (uint64_t)off > size)
			abort();
		fp_err_clear(&e);
		return 0;
	}
	char arch[32];
	amdgpu_metadata_arch(&md, arch, sizeof arch);
	for (size_t i = 0; i < md.n_kernels; i++) {
		if (!md.kernels[i].name)
			abort();
		trace_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, NULL};
		amdgpu_kernel_resources(&md.kernels[i], -1, &r);
		if (amdgpu_metadata_kernel(&md, md.kernels[i].name) == NULL)
			abort();
	}
	amdgpu_metadata_release(&md);
	return 0;
}
