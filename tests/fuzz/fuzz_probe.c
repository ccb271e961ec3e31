/* The probe parsers (rocminfo agents, nvidia-smi CSV, tool versions) on arbitrary program
 * output: they never crash, and every GPU they report has a non-empty arch or name. */
#include "fuzz.h"

#include "base/xalloc.h"
#include "drive/probe.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(probe)
{
	char *text = xstrndup((const char *)data, size); /* programs' output is text up to NUL */
	probe_gpus g = {0};
	probe_parse_rocminfo(text, &g);
	probe_parse_nvidia_smi(text, &g);
	for (size_t i = 0; i < g.n; i++)
		if (g.v[i].arch && !*g.v[i].arch && !g.v[i].name)
			abort();
	jv_free(probe_gpus_json(&g));
	probe_gpus_release(&g);
	free(probe_parse_rocprof_version(text));
	free(probe_parse_ncu_version(text));
	free(text);
	return 0;
}
