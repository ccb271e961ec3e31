/* Loading a whole code object, finding the ones rocprofv3 saved, and describing one. */
#include "read/amd/codeobj_load.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int finish(codeobj_full *cf, fp_err *e)
{
	if (cf->co.note_desc) {
		if (amdgpu_note_parse(cf->co.note_desc, cf->co.note_len, cf->co.path,
				      cf->co.note_offset, &cf->md, e) != 0)
			return -1;
		cf->has_md = 1;
	}
	return dwarf_lines_read(&cf->co, &cf->dl, e);
}

int codeobj_full_read(const char *path, codeobj_full *cf, fp_err *e)
{
	memset(cf, 0, sizeof *cf);
	if (codeobj_read_file(path, &cf->co, e) != 0 || finish(cf, e) != 0) {
		codeobj_full_release(cf);
		return -1;
	}
	return 0;
}

int codeobj_full_read_mem(const void *buf, size_t len, const char *name, codeobj_full *cf,
			  fp_err *e)
{
	memset(cf, 0, sizeof *cf);
	if (codeobj_read_mem(buf, len, name, &cf->co, e) != 0 || finish(cf, e) != 0) {
		codeobj_full_release(cf);
		return -1;
	}
	return 0;
}

void codeobj_full_release(codeobj_full *cf)
{
	dwarf_lines_release(&cf->dl);
	amdgpu_metadata_release(&cf->md);
	codeobj_release(&cf->co);
	cf->has_md = 0;
}

const char *codeobj_full_arch(const codeobj_full *cf, char *buf, size_t size)
{
	if (cf->has_md && amdgpu_metadata_arch(&cf->md, buf, size) == 0)
		return buf;
	return cf->co.mach;
}

int codeobj_kernel_resources(const codeobj_full *cf, const char *kernel, trace_resources *r)
{
	const amdgpu_kernel_md *k = cf->has_md ? amdgpu_metadata_kernel(&cf->md, kernel) : NULL;
	if (!k)
		return -1;
	const codeobj_kernel *ck = codeobj_kernel_find(&cf->co, k->name);
	amdgpu_kernel_resources(k, ck ? codeobj_kd_accum_offset(&cf->co, ck) : -1, r);
	return 0;
}

static int is_codeobj_name(const char *name, const char *suffix)
{
	size_t n = strlen(name), sn = strlen(suffix);
	return n > sn && strcmp(name + n - sn, suffix) == 0;
}

static int names_codeobj(const char *name, void *suffix)
{
	return is_codeobj_name(name, suffix);
}

/* The first file in dir whose name ends with suffix (owned path), or NULL. Only the names that
 * end so are listed: the dispatch directory holds thousands of wave files; or, when dir was
 * listed already (listed), its names are asked instead (sorted alike). */
static char *find_in(const char *dir, const char *suffix, int subdirs, file_listing *listed)
{
	fp_err e = FP_ERR_INIT;
	size_t n = 0;
	char **names = listed ? file_listing_names(listed, &n, &e)
			      : file_list_matching(dir, names_codeobj, (void *)suffix, &n, &e);
	fp_err_clear(&e);
	char *found = NULL;
	for (size_t i = 0; names && i < n && !found; i++) {
		char *p = path_join(dir, names[i]);
		if (is_codeobj_name(names[i], suffix) && file_is_reg(p))
			found = xstrdup(p);
		free(p);
	}
	/* One level down: rocprofv3's -o prefix puts files under <dir>/<hostname>/. Only the
	 * subdirectories are looked at (a dispatch directory holds thousands of wave files). */
	if (names && !listed) /* a listing's names are the listing's */
		file_list_free(names, n);
	names = found || !subdirs ? NULL : file_list_subdirs(dir, &n, &e);
	fp_err_clear(&e);
	for (size_t i = 0; names && i < n && !found; i++) {
		char *p = path_join(dir, names[i]);
		if (strncmp(names[i], "ui_output_", 10) != 0) {
			size_t m = 0;
			char **sub = file_list_matching(p, names_codeobj, (void *)suffix, &m, &e);
			fp_err_clear(&e);
			for (size_t j = 0; sub && j < m && !found; j++) {
				char *q = path_join(p, sub[j]);
				if (is_codeobj_name(sub[j], suffix) && file_is_reg(q))
					found = xstrdup(q);
				free(q);
			}
			if (sub)
				file_list_free(sub, m);
		}
		free(p);
	}
	if (names)
		file_list_free(names, n);
	return found;
}

char *codeobj_find_beside(const char *dispatch_dir, int64_t id, file_listing *listed)
{
	if (listed && (!listed->dir || strcmp(listed->dir, dispatch_dir) != 0))
		listed = NULL; /* another directory's names */
	char suffix[64];
	snprintf(suffix, sizeof suffix, "_code_object_id_%lld.out", (long long)id);
	char *dir = xstrdup(dispatch_dir);
	char *found = NULL;
	/* Only where the capture layout puts them: the dispatch directory, then the capture's
	 * output directory that holds it (and its <hostname>/ prefix directories). Never higher:
	 * a sibling capture's code object would be used, and copied into an example bundle. */
	for (int up = 0; up < 2 && !found; up++) {
		found = find_in(dir, suffix, up == 1, up == 0 ? listed : NULL);
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = 0;
	}
	free(dir);
	return found;
}
