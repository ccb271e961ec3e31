/* `diff --before B --after A [--gate PCT]`: per-class deltas, totals, occupancy, bound change,
 * a verdict on the before side's rank-1 bubble with a noise floor, and a CI gate (exit 1 with
 * REGRESSION). Each side is a report.json or bubbles.json file, a directory holding one of
 * them (report.json preferred), or any bundle kind whose trace is analysed on the fly. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "base/xalloc.h"
#include "core/backend/backend.h"
#include "model/profile.h"
#include "core/bundle/bundle.h"
#include "core/diagnose/diff.h"
#include "base/json/json_parse.h"

#include <stdlib.h>
#include <string.h>

const opt_spec diff_opts[] = {
    {"before", 0, OPT_STR, "DIR", NULL, NULL, 0,
     "the baseline: a bundle (report.json or bubbles.json, else its trace) or such a file"},
    {"after", 0, OPT_STR, "DIR", NULL, NULL, 0, "the changed kernel, same forms as --before"},
    {"gate", 0, OPT_NUM, "PCT", NULL, NULL, 0,
     "fail with REGRESSION (exit 1) when the targeted bubble or the total stall grew by more "
     "than PCT points (or the noise floor, if larger)"},
    OPT_END,
};

/* Analyses the trace of a bundle that has no report.json/bubbles.json, through its backend
 * (an ATT dispatch, or Nsight Compute exports). */
static jv *from_trace(cmd_ctx *ctx, const char *path, const char **source)
{
	bundle b;
	backend_dispatch d;
	jv *out = NULL;
	*source = "trace (analysed now)";
	if (bundle_open(&b, path, &ctx->err))
		return NULL;
	bubbles_params o = {3, -1, 0, NULL};
	if (backend_open(&b, opts_str(&ctx->opts, "tag"), opts_str(&ctx->opts, "dispatch"), &d,
			 &ctx->err) == 0 &&
	    backend_bubbles(&d, &o, &out, NULL, ctx->warnings, &ctx->err) != 0)
		out = NULL;
	backend_close(&d);
	bundle_close(&b);
	return out;
}

static jv *load_side(cmd_ctx *ctx, const char *path, jv *desc)
{
	const char *source = NULL;
	char *file = NULL;
	jv *doc = NULL;
	if (file_is_reg(path))
		file = xstrdup(path);
	else if (file_is_dir(path)) {
		static const char *const names[] = {"report.json", "bubbles.json"};
		for (size_t i = 0; i < 2 && !file; i++) {
			char *p = path_join(path, names[i]);
			if (file_is_reg(p))
				file = p;
			else
				free(p);
		}
	} else {
		fp_fail(&ctx->err, ERR_NO_ARTIFACT, "no such file or directory: %s", path);
		return NULL;
	}
	if (file) {
		doc = json_parse_file(file, &ctx->err);
		source = path_base(file);
	} else
		doc = from_trace(ctx, path, &source);
	char *abs = path_abs(file ? file : path);
	jv_set_str(desc, "path", abs ? abs : path);
	jv_set_str(desc, "source", source ? source : "?");
	free(abs);
	free(file);
	if (doc && (jv_type_of(doc) != JV_OBJECT || !jv_get(doc, "totals"))) {
		fp_fail(&ctx->err, ERR_BAD_INPUT,
			"%s holds no \"totals\": not a report or bubbles "
			"document",
			path);
		jv_free(doc);
		return NULL;
	}
	if (doc) {
		const jv *k = jv_get(doc, "kernel") ? jv_get(doc, "kernel")
						    : jv_get(jv_get(doc, "dispatch"), "kernel");
		jv_set(desc, "kernel", k ? jv_copy(k) : jv_null());
		jv_set(desc, "dispatch",
		       jv_get(jv_get(doc, "dispatch"), "id")
			   ? jv_copy(jv_get(jv_get(doc, "dispatch"), "id"))
			   : jv_null());
	}
	return doc;
}

/* Reads both sides as profiles (the one bubbles.json reader): they must be of one vendor and
 * unit, else shares of different things would be compared. Different kernels are compared, with
 * a warning. *pb / *pa are released by the caller. */
static int comparable(cmd_ctx *ctx, const jv *b, const jv *a, stall_profile *pb, stall_profile *pa)
{
	if (profile_from_json(b, opts_str(&ctx->opts, "before"), pb, &ctx->err) ||
	    profile_from_json(a, opts_str(&ctx->opts, "after"), pa, &ctx->err))
		return -1;
	if (pb->vendor != pa->vendor || pb->unit != pa->unit) {
		fp_fail(&ctx->err, ERR_INCOMPARABLE,
			"cannot compare --before (%s, %s) with --after (%s, %s): the classes and "
			"their shares measure different things",
			vendor_name(pb->vendor), prof_unit_name(pb->unit), vendor_name(pa->vendor),
			prof_unit_name(pa->unit));
		jv *sides = jv_object();
		jv_set_str(sides, "before", vendor_name(pb->vendor));
		jv_set_str(sides, "after", vendor_name(pa->vendor));
		fp_err_extra(&ctx->err, "vendors", sides);
		return -1;
	}
	const char *kb = pb->dispatch.kernel, *ka = pa->dispatch.kernel;
	if (kb && ka && strcmp(kb, ka) != 0)
		ctx_warn(ctx,
			 "the two sides are different kernels (%s, %s): the deltas compare "
			 "shares, not the same code",
			 kb, ka);
	return 0;
}

static jv *duration_side(const stall_profile *p)
{
	if (p->duration_us < 0)
		return jv_null();
	jv *o = jv_object();
	jv_set_round(o, "us", p->duration_us, 3);
	jv_set_str(o, "source", p->duration_source);
	return o;
}

/* The kernel durations where the captures have them; delta_pct when both do. */
static jv *durations(const stall_profile *b, const stall_profile *a)
{
	jv *o = jv_object();
	jv_set(o, "before", duration_side(b));
	jv_set(o, "after", duration_side(a));
	if (b->duration_us > 0 && a->duration_us >= 0)
		jv_set_round(o, "delta_pct",
			     100.0 * (a->duration_us - b->duration_us) / b->duration_us, 2);
	else
		jv_set(o, "delta_pct", jv_null());
	return o;
}

int cmd_diff(cmd_ctx *ctx)
{
	const char *bp = opts_str(&ctx->opts, "before"), *ap = opts_str(&ctx->opts, "after");
	if (!bp || !ap)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "diff needs --before DIR and --after DIR");
	if (opts_given(&ctx->opts, "gate") && opts_num(&ctx->opts, "gate", 0) < 0)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--gate must be >= 0 (points)");
	jv *bd = jv_object(), *ad = jv_object();
	jv *b = load_side(ctx, bp, bd);
	jv *a = b ? load_side(ctx, ap, ad) : NULL;
	int rc = -1;
	stall_profile pb, pa;
	profile_init(&pb, VENDOR_AMD, UNIT_CYCLES, NULL);
	profile_init(&pa, VENDOR_AMD, UNIT_CYCLES, NULL);
	if (a && comparable(ctx, b, a, &pb, &pa) == 0) {
		diff_side sb, sa;
		diff_side_of(&sb, b, &pb);
		diff_side_of(&sa, a, &pa);
		jv *d = diff_build_sides(&sb, &sa);
		jv_set(d, "durations", durations(&pb, &pa));
		jv_set(d, "before_input", jv_copy(bd));
		jv_set(d, "after_input", jv_copy(ad));
		rc = 0;
		jv *reasons = NULL;
		if (opts_given(&ctx->opts, "gate") &&
		    diff_gate(d, opts_num(&ctx->opts, "gate", 0), &reasons)) {
			fp_fail(&ctx->err, ERR_REGRESSION, "gate failed: %s",
				jv_string(jv_at(reasons, 0)));
			fp_err_extra(&ctx->err, "reasons", jv_copy(reasons));
			fp_err_extra(&ctx->err, "verdict", jv_copy(jv_get(d, "verdict")));
			fp_err_extra(&ctx->err, "headline", jv_copy(jv_get(d, "headline")));
			/* the whole comparison stays in the envelope: a CI log shows what changed
			 */
			fp_err_extra(&ctx->err, "data", jv_copy(d));
			rc = -1;
		}
		jv_free(reasons);
		jv_free(ctx->data);
		ctx->data = d;
	}
	profile_release(&pb);
	profile_release(&pa);
	jv_free(bd);
	jv_free(ad);
	jv_free(b);
	jv_free(a);
	return rc;
}
