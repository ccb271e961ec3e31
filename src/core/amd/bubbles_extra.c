/* bubbles sections that come from the optional files of a dispatch directory: observed
 * occupancy (occupancy.json), the shader clock (realtime.json) and the index (filenames.json).
 * A missing file degrades to "available": false plus a warning; a malformed one is BAD_INPUT. */
#include "core/amd/bubbles_int.h"

#include "base/fileio.h"
#include "read/amd/att_filenames.h"
#include "read/amd/att_occupancy.h"
#include "read/amd/att_realtime.h"
#include "core/amd/occupancy_observed.h"

#include <stdlib.h>

/* 1 if present, 0 if absent (warning added), -1 never: absence is not an error. */
static int present(const bub *b, const char *name, char **path, jv *warnings)
{
	*path = path_join(b->d->dir, name);
	if (file_is_reg(*path))
		return 1;
	jv_push(warnings,
		jv_strf("%s is missing in %s; that section is unavailable", name, b->d->dir));
	return 0;
}

static jv *unavailable(const char *why)
{
	jv *o = jv_object();
	jv_set_bool(o, "available", 0);
	jv_set_str(o, "why", why);
	return o;
}

jv *bub_occupancy(const bub *b, jv *warnings, fp_err *e)
{
	jv *r = jv_object();
	char *path = NULL;
	if (!present(b, "occupancy.json", &path, warnings)) {
		jv_set(r, "observed", unavailable("occupancy.json is missing"));
	} else {
		att_occupancy o;
		if (att_occupancy_read(path, &o, e)) {
			free(path);
			jv_free(r);
			return NULL;
		}
		jv_set(r, "observed",
		       occupancy_observed(&o, b->agg.cus, b->agg.n_cus, b->d->kernel));
		att_occupancy_release(&o);
	}
	free(path);
	/* Theoretical occupancy needs the kernel's resources (code object metadata or the
	 * kernel-trace CSV), which the ATT directory does not hold: see `report`. */
	jv_set(r, "theoretical", jv_null());
	return r;
}

jv *bub_clock(const bub *b, jv *warnings, fp_err *e)
{
	char *path = NULL;
	if (!present(b, "realtime.json", &path, warnings)) {
		free(path);
		return unavailable("realtime.json is missing");
	}
	att_realtime rt;
	int rc = att_realtime_read(path, &rt, e);
	free(path);
	if (rc)
		return NULL;
	jv *r = jv_object();
	jv *per = jv_array();
	double sum_mhz = 0, max_us = 0;
	size_t n = 0;
	for (size_t i = 0; i < rt.n; i++) {
		const att_rt_se *s = &rt.v[i];
		int64_t dg = s->last_gfx - s->first_gfx, dr = s->last_rt - s->first_rt;
		if (s->n_pairs < 2 || dg <= 0 || dr <= 0)
			continue;
		double us = (double)dr * 1e6 / (double)rt.frequency;
		double mhz = (double)dg / us;
		jv *o = jv_push(per, jv_object());
		jv_set_int(o, "se", s->se);
		jv_set_round(o, "mhz", mhz, 1);
		jv_set_round(o, "span_us", us, 3);
		sum_mhz += mhz;
		max_us = us > max_us ? us : max_us;
		n++;
	}
	jv_set_bool(r, "available", n > 0);
	jv_set_int(r, "realtime_hz", rt.frequency);
	jv_set_round(r, "shader_mhz", n ? sum_mhz / (double)n : 0.0, 1);
	jv_set_round(r, "trace_span_us", max_us, 3);
	jv_set(r, "per_se", per);
	jv_set_str(r, "definition",
		   "shader cycles / realtime ticks between the first and last "
		   "pair of each SE; shader_mhz is the mean over SEs");
	att_realtime_release(&rt);
	return r;
}

int bub_filenames(const bub *b, stall_profile *p, jv *warnings, fp_err *e)
{
	char *path = NULL;
	if (!present(b, "filenames.json", &path, warnings)) {
		free(path);
		profile_dispatch_extra(p, "gfxip", jv_null());
		return 0;
	}
	att_filenames f;
	int rc = att_filenames_read(path, &f, e);
	free(path);
	if (rc)
		return -1;
	profile_dispatch_extra(p, "gfxip", f.gfxip >= 0 ? jv_int(f.gfxip) : jv_null());
	profile_dispatch_extra(p, "format_version", f.version ? jv_str(f.version) : jv_null());
	if (f.n_waves != b->agg.n_files)
		jv_push(warnings, jv_strf("filenames.json lists %zu wave files but %zu are present",
					  f.n_waves, b->agg.n_files));
	att_filenames_release(&f);
	return 0;
}
