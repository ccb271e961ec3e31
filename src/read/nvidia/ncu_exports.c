/* Finding Nsight Compute exports by name (ncu_exports.h). */
#include "read/nvidia/ncu_exports.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *const SASS_SUFFIX = "_src_sass.csv";
static const char *const CORR_SUFFIXES[] = {"_src_cuda_sass.csv", "_src_py_sass.csv"};
static const char *const DETAILS_SUFFIX = "_details.csv";

static char *existing(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	if (file_is_reg(p))
		return p;
	free(p);
	return NULL;
}

static char *with_prefix(const char *dir, const char *prefix, const char *suffix)
{
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s%s", prefix, suffix);
	char *p = existing(dir, sb_str(&sb));
	sb_release(&sb);
	return p;
}

static int ends_with(const char *s, const char *suf, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suf);
	if (n <= m || strcmp(s + n - m, suf) != 0)
		return 0;
	*stem = n - m;
	return 1;
}

typedef struct {
	const char *name;
	size_t stem, index;
} stem_ref;

static int cmp_stem(const void *a, const void *b)
{
	const stem_ref *x = a, *y = b;
	size_t n = x->stem < y->stem ? x->stem : y->stem;
	int c = memcmp(x->name, y->name, n);
	if (c == 0 && x->stem != y->stem)
		c = x->stem < y->stem ? -1 : 1;
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int cmp_index(const void *a, const void *b)
{
	const stem_ref *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

/* The prefixes <p> of <p>_src_sass.csv / <p>_src_{cuda,py}_sass.csv in dir, as a JSON array
 * of distinct strings in name order. Duplicates are found by sorting, not by comparing every
 * pair: a directory of 60,000 export names stays fast. */
static jv *prefixes(char **names, size_t n)
{
	stem_ref *r = xcalloc(n ? n : 1, sizeof *r);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t stem = 0;
		if (ends_with(names[i], SASS_SUFFIX, &stem) ||
		    ends_with(names[i], CORR_SUFFIXES[0], &stem) ||
		    ends_with(names[i], CORR_SUFFIXES[1], &stem))
			r[m++] = (stem_ref){names[i], stem, i};
	}
	qsort(r, m, sizeof *r, cmp_stem);
	size_t k = 0; /* keep the first name of each stem */
	for (size_t i = 0; i < m; i++)
		if (k == 0 || r[i].stem != r[k - 1].stem ||
		    memcmp(r[i].name, r[k - 1].name, r[i].stem) != 0)
			r[k++] = r[i];
	qsort(r, k, sizeof *r, cmp_index);
	jv *a = jv_array();
	for (size_t i = 0; i < k; i++)
		jv_push(a, jv_strn(r[i].name, r[i].stem));
	free(r);
	return a;
}

static void by_prefix(const char *dir, const char *p, ncu_exports *out)
{
	out->source_sass = with_prefix(dir, p, SASS_SUFFIX);
	for (int k = 0; k < 2 && !out->source_correlated; k++)
		out->source_correlated = with_prefix(dir, p, CORR_SUFFIXES[k]);
	out->details = with_prefix(dir, p, DETAILS_SUFFIX);
	out->report = with_prefix(dir, p, ".ncu-rep");
}

static int fallback(const char *dir, const char *prefix, ncu_exports *out, fp_err *e)
{
	size_t n = 0;
	char **names = file_list_dir(dir, &n, e);
	if (!names)
		return -1;
	jv *ps = prefixes(names, n);
	file_list_free(names, n);
	int rc = 0;
	if (prefix) {
		by_prefix(dir, prefix, out);
	} else if (jv_len(ps) == 1) {
		by_prefix(dir, jv_string(jv_at(ps, 0)), out);
	} else if (jv_len(ps) > 1) {
		rc = fp_fail(e, ERR_NO_MATCH,
			     "%s holds Nsight Compute exports of %zu captures; name one", dir,
			     jv_len(ps));
		fp_err_extra(e, "available", ps);
		ps = NULL;
	}
	jv_free(ps);
	return rc;
}

int ncu_exports_find(const char *dir, const char *prefix, ncu_exports *out, fp_err *e)
{
	memset(out, 0, sizeof *out);
	if (!file_is_dir(dir))
		return fp_fail(e, ERR_NO_ARTIFACT, "no Nsight Compute export directory %s", dir);
	out->dir = xstrdup(dir);
	if (!prefix) {
		out->source_sass = existing(dir, "source_sass.csv");
		out->source_correlated = existing(dir, "source_correlated.csv");
		out->details = existing(dir, "details.csv");
		out->report = existing(dir, "report.ncu-rep");
	}
	if (!out->source_sass && !out->source_correlated) {
		ncu_exports_release(out);
		out->dir = xstrdup(dir);
		if (fallback(dir, prefix, out, e)) {
			ncu_exports_release(out);
			return -1;
		}
	}
	if (!out->source_sass && !out->source_correlated) {
		ncu_exports_release(out);
		return fp_fail(e, ERR_NO_ARTIFACT,
			       "%s has no Nsight Compute source export (source_sass.csv or "
			       "source_correlated.csv)",
			       dir);
	}
	return 0;
}

int ncu_bundle_find(const char *bundle_dir, ncu_exports *out, fp_err *e)
{
	char *dir = path_join(bundle_dir, "ncu");
	int rc = ncu_exports_find(dir, NULL, out, e);
	free(dir);
	return rc;
}

/* A name ncu_exports_find would take: one of the source exports, by prefix or by its plain
 * name. */
static int names_export(const char *name, void *ctx)
{
	size_t stem = 0;
	(void)ctx;
	return ends_with(name, SASS_SUFFIX, &stem) || ends_with(name, CORR_SUFFIXES[0], &stem) ||
	       ends_with(name, CORR_SUFFIXES[1], &stem) || strcmp(name, "source_sass.csv") == 0 ||
	       strcmp(name, "source_correlated.csv") == 0;
}

int ncu_dir_has_exports(const char *dir)
{
	/* asked of every input, AMD dispatch directories of thousands of wave files included */
	return file_is_dir(dir) && file_dir_any(dir, names_export, NULL);
}

int ncu_listing_has_exports(file_listing *names)
{
	return file_listing_any(names, names_export, NULL);
}

int ncu_bundle_has_exports(const char *bundle_dir)
{
	char *dir = path_join(bundle_dir, "ncu");
	int found = ncu_dir_has_exports(dir);
	free(dir);
	return found;
}

void ncu_exports_release(ncu_exports *x)
{
	free(x->dir);
	free(x->source_sass);
	free(x->source_correlated);
	free(x->details);
	free(x->report);
	memset(x, 0, sizeof *x);
}
