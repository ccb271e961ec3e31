/* codeobj_fill_sources: code.json without sources (debug info was missing when the decoder
 * ran, or the sources were not on disk) still has Codeobj ids and Vaddrs, and rocprofv3
 * saved the code objects themselves; their DWARF line tables give the sources back. */
#include "read/amd/codeobj_load.h"

#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct loaded {
	int64_t id;
	int ok;
	codeobj_full cf;
} loaded;

static size_t distinct_ids(const trace_dispatch *d, int64_t *ids, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		size_t j = 0;
		while (j < n && ids[j] != d->insts[i].codeobj)
			j++;
		if (j == n && n < max)
			ids[n++] = d->insts[i].codeobj;
	}
	return n;
}

static jv *load_one(const trace_dispatch *d, loaded *l, file_listing *listed)
{
	jv *o = jv_object();
	jv_set_int(o, "id", l->id);
	char *path = d->dir ? codeobj_find_beside(d->dir, l->id, listed) : NULL;
	jv_set(o, "path", path ? jv_str(path) : jv_null());
	if (!path)
		return o;
	fp_err e = FP_ERR_INIT;
	if (codeobj_full_read(path, &l->cf, &e) == 0) {
		char arch[32];
		l->ok = 1;
		jv_set_str(o, "arch", codeobj_full_arch(&l->cf, arch, sizeof arch));
		jv_set_bool(o, "debug_line", l->cf.dl.has_debug);
	} else {
		jv_set_str(o, "error", e.message ? e.message : err_name(e.code));
	}
	fp_err_clear(&e);
	free(path);
	return o;
}

static const loaded *find_loaded(const loaded *l, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (l[i].id == id && l[i].ok)
			return &l[i];
	return NULL;
}

static const char *origin(size_t had, size_t filled, size_t total)
{
	if (had == total && total > 0)
		return "code.json";
	if (had > 0 && filled > 0)
		return "code.json+code_object";
	if (had > 0)
		return "code.json";
	return filled > 0 ? "code_object" : "none";
}

jv *codeobj_fill_sources(trace_dispatch *d, file_listing *listed)
{
	int64_t ids[CODEOBJ_FILL_MAX];
	size_t n = distinct_ids(d, ids, CODEOBJ_FILL_MAX);
	loaded *l = xcalloc(n ? n : 1, sizeof *l);
	jv *rep = jv_object();
	jv *objs = jv_array();
	for (size_t i = 0; i < n; i++) {
		l[i].id = ids[i];
		jv_push(objs, load_one(d, &l[i], listed));
	}
	size_t total = 0, had = 0, filled = 0;
	for (size_t i = 0; i < d->n_insts; i++) {
		trace_inst *in = &d->insts[i];
		if (in->is_label)
			continue;
		total++;
		if (in->source && *in->source) {
			had++;
			continue;
		}
		const loaded *lo = find_loaded(l, n, in->codeobj);
		strbuf sb = STRBUF_INIT;
		if (lo && in->vaddr >= 0 &&
		    dwarf_lines_source(&lo->cf.dl, (uint64_t)in->vaddr, &sb)) {
			free(in->source);
			in->source = sb_detach(&sb);
			filled++;
		}
		sb_release(&sb);
	}
	if (!d->res.source && d->kernel) {
		for (size_t i = 0; i < n; i++)
			if (l[i].ok && codeobj_kernel_resources(&l[i].cf, d->kernel, &d->res) == 0)
				break;
	}
	jv_set_str(rep, "origin", origin(had, filled, total));
	jv_set_int(rep, "instructions", (int64_t)total);
	jv_set_int(rep, "with_source_in_code_json", (int64_t)had);
	jv_set_int(rep, "filled_from_code_object", (int64_t)filled);
	jv_set(rep, "code_objects", objs);
	for (size_t i = 0; i < n; i++)
		codeobj_full_release(&l[i].cf);
	free(l);
	return rep;
}
