/* Element data types of GEMM-like kernels: canonical names, spellings accepted on the command
 * line, and storage size. Canonical names are the keys of the SoC rate tables (data/soc.json):
 * fp64 fp32 tf32 fp16 bf16 fp8 fp6 fp4 int8. */
#ifndef FLYPROF_CORE_DTYPE_H
#define FLYPROF_CORE_DTYPE_H

/* Canonical name for a spelling ("f16" -> "fp16", "e4m3fn" -> "fp8", "E2M1" -> "fp4", case-
 * insensitive), or NULL if unknown. Returns a static string. */
const char *dtype_canon(const char *name);
/* Bytes per element (0.5 for fp4, 0.75 for fp6); 0 if not canonical. */
double dtype_bytes(const char *canon);
/* 1 if canon is one of the canonical names. */
int dtype_is_canon(const char *canon);
/* The canonical names, NULL terminated. */
const char *const *dtype_names(void);

#endif
