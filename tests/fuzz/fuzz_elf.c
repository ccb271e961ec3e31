/* The AMDGPU ELF reader: any bytes give a code object or BAD_INPUT with an offset inside the
 * input; kernel lookups on what was read stay inside it. */
#include "fuzz.h"

#include "read/amd/elf_codeobj.h"

#include <stdlib.h>

FUZZ_TARGET(elf)
{
	codeobj co;
	fp_err e = FP_ERR_INIT;
	if (codeobj_read_mem(data, size, "fuzz", &co, &e) != 0) {
		int64_t off = jv_i64(jv_get(e.extra, "offset"));
		if (e.code != ERR_BAD_INPUT || off < 0 || (uint64_t)off > size)
			abort();
		fp_err_clear(&e);
		codeobj_release(&co);
		return 0;
	}
	for (size_t i = 0; i < co.n_kernels; i++) {
		if (codeobj_kernel_find(&co, co.kernels[i].name) == NULL)
			abort();
		(void)codeobj_kernel_at(&co, co.kernels[i].addr);
		(void)codeobj_kd_vgpr_alloc(&co.kernels[i]);
	}
	if (co.note_desc &&
	    (co.note_desc < co.image || co.note_desc + co.note_len > co.image + co.len))
		abort();
	codeobj_release(&co);
	return 0;
}
