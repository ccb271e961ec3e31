/* The AMD backend (core/backend/backend.h): rocprofv3 ATT dispatches of a flyprof bundle, a
 * capture directory or one raw ui_output_agent_*_dispatch_* directory. It is the registry's
 * fallback, so its open gives the typed errors for anything that is not a capture at all. */
#include "core/amd/bubbles.h"
#include "core/amd/dispatch_select.h"
#include "core/backend/backend.h"
#include "core/backend/capture.h"
#include "read/amd/att_code.h"

#include "base/xalloc.h"

static int amd_detect(const bundle *b, file_listing *top)
{
	(void)b;
	(void)top;
	return 1;
}

static int amd_open(const bundle *b, const char *tag, const char *dispatch, backend_dispatch *out,
		    fp_err *e)
{
	/* code.json read once: the selection reads it to count hits; the dispatch directory's
	 * names too: they count its waves, then the wave pass reads them (out->listing) */
	return dispatch_select_listed(b, tag, dispatch, &out->choice, &out->trace, &out->listing,
				      e);
}

static int amd_open_sibling(const backend_dispatch *like, const char *dir, backend_dispatch *out,
			    fp_err *e)
{
	const dispatch_choice *c = &like->choice;
	out->choice.dir = xstrdup(dir);
	out->choice.id = c->id ? xstrdup(c->id) : NULL;
	out->choice.tag = c->tag ? xstrdup(c->tag) : NULL;
	out->choice.why = c->why ? xstrdup(c->why) : NULL;
	out->choice.candidates = c->candidates ? jv_copy(c->candidates) : NULL;
	return att_code_read(dir, &out->trace, e);
}

static int amd_fill(backend_dispatch *d, const bubbles_params *p, stall_profile *out, jv *warnings,
		    fp_err *e)
{
	return amd_profile_fill(&d->trace, &d->choice, &d->listing, p, out, warnings, e);
}

const backend backend_amd = {
    .name = "rocprofv3",
    .profiler = "rocprofv3 ATT",
    .vendor = VENDOR_AMD,
    .unit = UNIT_CYCLES,
    .detect = amd_detect,	      /* att/<tag>/ui_output_*, or a dispatch directory */
    .open = amd_open,		      /* the chosen dispatch's code.json */
    .open_sibling = amd_open_sibling, /* the other dispatches, for run-to-run variation */
    .fill = amd_fill,		      /* the wave files, folded per instruction */
    .capture = amd_capture_slot,      /* discovery, then ATT passes (capture_att.c) */
    .counters = amd_counters_slot,    /* counter passes (capture_pmc.c) */
};
