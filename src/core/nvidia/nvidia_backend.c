/* The NVIDIA backend (core/backend/backend.h): Nsight Compute exports in <bundle>/ncu/ or in
 * the directory itself (docs/nvidia.md). --dispatch picks the export prefix when several
 * captures share the directory. The exports are loaded once at open; the warnings of loading
 * are kept and handed to the first fill. */
#include "core/backend/backend.h"
#include "core/nvidia/ncu_bubbles.h"
#include "read/nvidia/ncu_exports.h"

#include "base/fileio.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct nv_state {
	ncu_exports x;
	ncu_model m;
	jv *load_warnings;
} nv_state;

/* The directory of the exports when the bundle is an NVIDIA capture (and holds no ATT trace,
 * which wins when a bundle has both), else NULL. top: b->dir's names (the registry's listing,
 * which the AMD backend reads next when the answer is no). Caller frees. */
static char *exports_dir(const bundle *b, file_listing *top)
{
	char *att = path_join(b->dir, "att");
	int has_att = file_is_dir(att);
	free(att);
	if (has_att)
		return NULL;
	if (ncu_bundle_has_exports(b->dir))
		return path_join(b->dir, "ncu");
	return ncu_listing_has_exports(top) ? xstrdup(b->dir) : NULL;
}

static int nv_detect(const bundle *b, file_listing *top)
{
	char *d = exports_dir(b, top);
	free(d);
	return d != NULL;
}

/* The exports under the names a flyprof bundle gives them (read/nvidia/ncu_exports.h). */
static jv *inputs_of(const ncu_exports *x)
{
	const struct {
		const char *path, *as;
	} f[] = {{x->source_sass, "ncu/source_sass.csv"},
		 {x->source_correlated, "ncu/source_correlated.csv"},
		 {x->details, "ncu/details.csv"},
		 {x->report, "ncu/report.ncu-rep"}};
	jv *a = jv_array();
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		if (!f[i].path)
			continue;
		jv *o = jv_push(a, jv_object());
		jv_set_str(o, "path", f[i].path);
		jv_set_str(o, "as", f[i].as);
	}
	return a;
}

static int nv_open(const bundle *b, const char *tag, const char *dispatch, backend_dispatch *out,
		   fp_err *e)
{
	(void)tag;
	nv_state *s = xcalloc(1, sizeof *s);
	out->priv = s;
	s->load_warnings = jv_array();
	char *dir = exports_dir(b, &out->listing);
	int rc = dir ? ncu_exports_find(dir, dispatch, &s->x, e) : -1;
	if (!dir)
		fp_fail(e, ERR_NO_ARTIFACT, "%s holds no Nsight Compute exports", b->dir);
	free(dir);
	if (rc || ncu_model_load(&s->x, &s->m, s->load_warnings, e))
		return -1;
	ncu_model_take_trace(&s->m, &out->trace);
	free(out->trace.dir);
	out->trace.dir = xstrdup(s->x.dir);
	out->sources_from = s->x.source_correlated;
	out->inputs = inputs_of(&s->x);
	out->choice.dir = xstrdup(s->x.dir);
	out->choice.id = dispatch ? xstrdup(dispatch) : NULL;
	out->choice.why =
	    xstrdup(dispatch ? "the Nsight Compute exports named by --dispatch"
			     : "the only set of Nsight Compute exports in the directory");
	out->choice.candidates = jv_array();
	return 0;
}

static int nv_fill(backend_dispatch *d, const bubbles_params *p, stall_profile *out, jv *warnings,
		   fp_err *e)
{
	(void)p;
	(void)e;
	nv_state *s = d->priv;
	for (size_t i = 0; i < jv_len(s->load_warnings); i++)
		jv_push(warnings, jv_copy(jv_at(s->load_warnings, i)));
	ncu_profile_fill(&s->m, &s->x, &d->trace, out, warnings);
	return 0;
}

static void nv_close(backend_dispatch *d)
{
	nv_state *s = d->priv;
	if (!s)
		return;
	ncu_model_release(&s->m);
	ncu_exports_release(&s->x);
	jv_free(s->load_warnings);
	free(s);
	d->priv = NULL;
}

/* capture and counters: not built for this backend yet (NULL). */
const backend backend_nvidia = {
    .name = "ncu",
    .profiler = "Nsight Compute",
    .vendor = VENDOR_NVIDIA,
    .unit = UNIT_SAMPLES,
    .detect = nv_detect, /* ncu/ exports in a bundle, or a folder of them */
    .open = nv_open,	 /* the source and details exports of one capture */
    .fill = nv_fill,	 /* warp-state samples per SASS instruction */
    .close = nv_close,
};
