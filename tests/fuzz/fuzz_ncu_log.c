/* ncu's kernel list in its output ("No kernels were profiled." / "Available Kernels:" then
 * "N. name" lines), read by the capture driver for KERNEL_NOT_MATCHED: any text yields an
 * array of strings, each without a line break. */
#include "fuzz.h"

#include "drive/ncu_capture.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(ncu_log)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	jv *a = ncu_available_kernels(s);
	for (size_t i = 0; i < jv_len(a); i++) {
		const char *k = jv_string(jv_at(a, i));
		if (!k || strchr(k, '\n'))
			abort();
	}
	jv_free(a);
	free(s);
	return 0;
}
