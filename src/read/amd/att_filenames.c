#include "read/amd/att_filenames.h"

#include "base/xalloc.h"
#include "read/amd/att_scan.h"

#include <stdlib.h>
#include <string.h>

/* A leaf [file, begin, end] of wave_filenames. */
static int read_leaf(att_scan *s, att_filenames *f, strbuf *tmp)
{
	int64_t b, e2;
	if (att_scan_str(s, tmp, "a wave file name") || att_scan_expect(s, ',', NULL) ||
	    att_scan_i64(s, &b, "an integer (wave begin)") || att_scan_expect(s, ',', NULL) ||
	    att_scan_i64(s, &e2, "an integer (wave end)"))
		return -1;
	int first = 0, more;
	while ((more = att_scan_next(s, ']', &first)) == 1)
		if (att_scan_skip(s))
			return -1;
	if (more < 0)
		return -1;
	f->waves = xgrow(f->waves, &f->cap_waves, f->n_waves + 1, sizeof *f->waves);
	f->waves[f->n_waves++] = (att_wave_entry){xstrdup(sb_str(tmp)), b, e2};
	return 0;
}

/* Nested objects down to the leaves, at most 4 levels (se, simd, slot, n). */
static int read_tree(att_scan *s, att_filenames *f, strbuf *key, strbuf *tmp, int depth)
{
	int c = att_scan_peek(s);
	if (c == '[' && depth > 0) {
		s->pos++;
		return read_leaf(s, f, tmp);
	}
	if (c != '{' || depth > 4)
		return att_scan_fail(s, depth > 4 ? "a [file, begin, end] leaf"
						  : "an object of wave files");
	s->pos++;
	int first = 1, more;
	const char *k;
	while ((more = att_scan_next(s, '}', &first)) == 1)
		if (att_scan_key(s, key, &k) || read_tree(s, f, key, tmp, depth + 1))
			return -1;
	return more;
}

static int read_string(att_scan *s, strbuf *tmp, char **out)
{
	if (att_scan_peek(s) != '"')
		return att_scan_skip(s);
	if (att_scan_str(s, tmp, "a string"))
		return -1;
	free(*out);
	*out = xstrdup(sb_str(tmp));
	return 0;
}

int att_filenames_parse(const char *buf, size_t len, const char *name, att_filenames *f, fp_err *e)
{
	memset(f, 0, sizeof *f);
	f->gfxip = -1;
	att_scan s;
	att_scan_init(&s, buf, len, name, e);
	strbuf key = STRBUF_INIT, tmp = STRBUF_INIT;
	const char *k;
	int first = 1, more, rc = -1;
	if (att_scan_expect(&s, '{', "an object (filenames.json)"))
		goto out;
	while ((more = att_scan_next(&s, '}', &first)) == 1) {
		if (att_scan_key(&s, &key, &k))
			goto out;
		int r;
		if (strcmp(k, "gfxip") == 0)
			r = att_scan_i64(&s, &f->gfxip, "an integer (gfxip)");
		else if (strcmp(k, "gfxv") == 0)
			r = read_string(&s, &tmp, &f->gfxv);
		else if (strcmp(k, "version") == 0)
			r = read_string(&s, &tmp, &f->version);
		else if (strcmp(k, "wave_filenames") == 0)
			r = read_tree(&s, f, &key, &tmp, 0);
		else
			r = att_scan_skip(&s);
		if (r)
			goto out;
	}
	if (more < 0 || att_scan_end(&s))
		goto out;
	rc = 0;
out:
	sb_release(&key);
	sb_release(&tmp);
	if (rc)
		att_filenames_release(f);
	return rc;
}

int att_filenames_read(const char *path, att_filenames *f, fp_err *e)
{
	char *buf = NULL;
	size_t cap = 0, len = 0;
	memset(f, 0, sizeof *f);
	f->gfxip = -1;
	int rc = att_read_file(path, &buf, &cap, &len, e);
	if (rc == 0)
		rc = att_filenames_parse(buf, len, path, f, e);
	free(buf);
	return rc;
}

void att_filenames_release(att_filenames *f)
{
	for (size_t i = 0; i < f->n_waves; i++)
		free(f->waves[i].file);
	free(f->waves);
	free(f->gfxv);
	free(f->version);
	memset(f, 0, sizeof *f);
	f->gfxip = -1;
}
