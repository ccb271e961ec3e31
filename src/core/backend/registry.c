/* The list of backends and the one place the vendor of an input is decided (backend.h). */
#include "core/backend/backend.h"

#include <string.h>

/* Asked in order; the last one is the fallback. */
static const backend *const all[] = {&backend_nvidia, &backend_amd};

/* top: b->dir's names, for every detect to ask (listed at most once, by the first that asks). */
static const backend *detect_in(const bundle *b, file_listing *top)
{
	size_t n = sizeof all / sizeof all[0];
	for (size_t i = 0; i + 1 < n; i++)
		if (all[i]->detect(b, top))
			return all[i];
	return all[n - 1];
}

const backend *backend_for(const bundle *b)
{
	file_listing top;
	file_listing_init(&top, b->dir);
	const backend *be = detect_in(b, &top);
	file_listing_release(&top);
	return be;
}

const backend *backend_of_vendor(vendor_id v)
{
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (all[i]->vendor == v)
			return all[i];
	return &backend_amd;
}

int backend_open(const bundle *b, const char *tag, const char *dispatch, backend_dispatch *out,
		 fp_err *e)
{
	memset(out, 0, sizeof *out);
	trace_dispatch_init(&out->trace);
	/* the listing detection made is the one open reads (a dispatch directory listed once) */
	file_listing_init(&out->listing, b->dir);
	out->be = detect_in(b, &out->listing);
	if (out->be->open(b, tag, dispatch, out, e) == 0)
		return 0;
	backend_close(out);
	return -1;
}

int backend_open_sibling(const backend_dispatch *like, const char *dir, backend_dispatch *out,
			 fp_err *e)
{
	memset(out, 0, sizeof *out);
	trace_dispatch_init(&out->trace);
	file_listing_init(&out->listing, dir);
	out->be = like->be;
	if (!like->be->open_sibling)
		return fp_fail(e, ERR_NO_ARTIFACT, "%s captures have no sibling dispatches",
			       like->be->profiler);
	if (like->be->open_sibling(like, dir, out, e) == 0)
		return 0;
	backend_close(out);
	return -1;
}

void backend_close(backend_dispatch *d)
{
	if (d->be && d->be->close)
		d->be->close(d);
	dispatch_choice_release(&d->choice);
	trace_dispatch_release(&d->trace);
	jv_free(d->inputs);
	file_listing_release(&d->listing);
	memset(d, 0, sizeof *d);
	trace_dispatch_init(&d->trace);
}

int backend_profile(backend_dispatch *d, const bubbles_params *p, stall_profile *out, jv *warnings,
		    fp_err *e)
{
	int rc = d->be->fill(d, p, out, warnings, e);
	if (rc == 0)
		profile_rank(out, p->top);
	return rc;
}

int backend_bubbles(backend_dispatch *d, const bubbles_params *p, jv **out, bubbles_counts *counts,
		    jv *warnings, fp_err *e)
{
	stall_profile prof;
	*out = NULL;
	int rc = backend_profile(d, p, &prof, warnings, e);
	if (rc == 0) {
		*out = profile_to_json(&prof);
		if (counts)
			*counts =
			    (bubbles_counts){prof.hot_total, prof.lines_total, prof.waits_total};
	}
	profile_release(&prof);
	return rc;
}
