#include "model/trace.h"

#include "base/lower_bound.h"

#include <stdlib.h>
#include <string.h>

/* The categories are numbered as the decoder numbers them (trace.h lists them in order). */
_Static_assert(TRACE_CAT_VMEM == 3 && TRACE_CAT_BVH == 12, "decoder category numbers");

void trace_dispatch_init(trace_dispatch *d)
{
	memset(d, 0, sizeof *d);
	d->res.vgpr = d->res.agpr = d->res.sgpr = -1;
	d->res.lds_bytes = d->res.scratch_bytes = -1;
	d->res.wg_size = d->res.wave_size = -1;
	d->res.grid_size = -1;
	d->unit = "cycles";
}

void trace_dispatch_release(trace_dispatch *d)
{
	for (size_t i = 0; i < d->n_insts; i++) {
		free(d->insts[i].isa);
		free(d->insts[i].source);
	}
	free(d->insts);
	free(d->dir);
	free(d->kernel);
	free(d->arch);
	trace_dispatch_init(d);
}

long trace_find_line(const trace_dispatch *d, int64_t code_line)
{
	size_t lo = lower_bound_i64(d->insts, d->n_insts, sizeof *d->insts,
				    offsetof(trace_inst, code_line), code_line);
	/* A label row may share its line index with the instruction that follows it. */
	if (lo + 1 < d->n_insts && d->insts[lo].is_label && d->insts[lo + 1].code_line == code_line)
		lo++;
	return lo < d->n_insts && d->insts[lo].code_line == code_line ? (long)lo : -1;
}
