/* Data-type names and sizes (see dtype.h). The spellings cover the ones kernel code and the
 * prior tool used (docs/facts-hardware.md#dtypes) plus the OCP/FNUZ FP8 and MX format names. */
#include "core/hw/dtype.h"

#include <stddef.h>
#include <strings.h>

static const struct {
	const char *name;
	double bytes;
} canon_types[] = {
    {"fp64", 8}, {"fp32", 4}, {"tf32", 4},   {"fp16", 2},  {"bf16", 2},
    {"fp8", 1},	 {"int8", 1}, {"fp6", 0.75}, {"fp4", 0.5},
};

static const struct {
	const char *spelling;
	const char *canon;
} aliases[] = {
    {"f64", "fp64"},   {"double", "fp64"},  {"float64", "fp64"},  {"f32", "fp32"},
    {"float", "fp32"}, {"float32", "fp32"}, {"xf32", "tf32"},	  {"f16", "fp16"},
    {"half", "fp16"},  {"float16", "fp16"}, {"bfloat16", "bf16"}, {"e4m3", "fp8"},
    {"e5m2", "fp8"},   {"e4m3fn", "fp8"},   {"e4m3fnuz", "fp8"},  {"e5m2fnuz", "fp8"},
    {"f8", "fp8"},     {"bf8", "fp8"},	    {"float8", "fp8"},	  {"i8", "int8"},
    {"s8", "int8"},    {"e2m3", "fp6"},	    {"e3m2", "fp6"},	  {"f6", "fp6"},
    {"mxfp6", "fp6"},  {"e2m1", "fp4"},	    {"f4", "fp4"},	  {"mxfp4", "fp4"},
    {"mxfp8", "fp8"},
};

static const char *const canon_list[] = {"fp64", "fp32", "tf32", "fp16", "bf16",
					 "fp8",	 "int8", "fp6",	 "fp4",	 NULL};

const char *dtype_canon(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof canon_types / sizeof canon_types[0]; i++)
		if (strcasecmp(name, canon_types[i].name) == 0)
			return canon_types[i].name;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcasecmp(name, aliases[i].spelling) == 0)
			return aliases[i].canon;
	return NULL;
}

double dtype_bytes(const char *canon)
{
	for (size_t i = 0; canon && i < sizeof canon_types / sizeof canon_types[0]; i++)
		if (strcasecmp(canon, canon_types[i].name) == 0)
			return canon_types[i].bytes;
	return 0;
}

int dtype_is_canon(const char *canon)
{
	return dtype_bytes(canon) > 0;
}

const char *const *dtype_names(void)
{
	return canon_list;
}
