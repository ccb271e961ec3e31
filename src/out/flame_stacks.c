#include "out/flame_stacks.h"

#include "model/source_loc.h"

#include <stdio.h>

/* Stack of one instruction below the kernel root: the outermost frame's file, every frame of
 * the chain from the outermost call site to the innermost line, then the class. */
static size_t inst_stack(vendor_id v, const trace_inst *in, flame_frame *st, char names[][256])
{
	src_frame fr[SRCMAP_MAX_FRAMES];
	size_t n = srcmap_parse_chain(in->source, fr, SRCMAP_MAX_FRAMES), k = 0;
	if (n == 0) {
		st[k++] = (flame_frame){"<unmapped>", NULL, 0};
	} else {
		snprintf(names[0], 256, "%.*s", (int)fr[n - 1].path_len, fr[n - 1].path);
		st[k++] = (flame_frame){names[0], NULL, 0};
		for (size_t i = n; i-- > 0;) {
			const char *p = fr[i].path;
			size_t base = 0;
			for (size_t j = 0; j < fr[i].path_len; j++)
				if (p[j] == '/')
					base = j + 1;
			snprintf(names[k], 256, "%.*s:%lld", (int)(fr[i].path_len - base), p + base,
				 (long long)fr[i].line);
			snprintf(names[k + SRCMAP_MAX_FRAMES + 1], 256, "%.*s", (int)fr[i].path_len,
				 p);
			st[k] =
			    (flame_frame){names[k], names[k + SRCMAP_MAX_FRAMES + 1], fr[i].line};
			k++;
		}
	}
	st[k++] = (flame_frame){class_name(v, in->klass), NULL, 0};
	return k;
}

/* Every stack starts at the kernel, so stacks of several kernels never merge. */
void flame_fill_trace(flame *f, vendor_id v, const trace_dispatch *d, int by_latency)
{
	char names[2 * SRCMAP_MAX_FRAMES + 2][256];
	flame_frame st[SRCMAP_MAX_FRAMES + 3];
	st[0] = (flame_frame){d->kernel ? d->kernel : "<kernel>", NULL, 0};
	for (size_t i = 0; i < d->n_insts; i++) {
		const trace_inst *in = &d->insts[i];
		if (in->is_label)
			continue;
		size_t n = 1 + inst_stack(v, in, st + 1, names);
		flame_add(f, st, n, by_latency ? in->latency : in->stall);
	}
}
