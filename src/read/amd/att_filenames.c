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

typedef struct fn_ctx {
	att_filenames *f;
	strbuf tmp;
	int depth;
} fn_ctx;

static int read_tree(att_scan *s, fn_ctx *c, strbuf *key);

static int tree_member(att_scan *s, const char *key, strbuf *scratch, void *ctx)
{
	(void)key;
	return read_tree(s, ctx, scratch);
}

/* Nested objects down to the leaves, at most 4 levels (se, simd, slot, n). */
static int read_tree(att_scan *s, fn_ctx *c, strbuf *key)
{
	int ch = att_scan_peek(s);
	if (ch == '[' && c->depth > 0) {
		s->pos++;
		return read_leaf(s, c->f, &c->tmp);
	}
	if (ch != '{' || c->depth > 4)
		return att_scan_fail(s, c->depth > 4 ? "a [file, begin, end] leaf"
						     : "an object of wave files");
	c->depth++;
	int rc = att_scan_object(s, NULL, key, tree_member, c);
	c->depth--;
	return rc;
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

static int member(att_scan *s, const char *k, strbuf *scratch, void *ctx)
{
	fn_ctx *c = ctx;
	if (strcmp(k, "gfxip") == 0)
		return att_scan_i64(s, &c->f->gfxip, "an integer (gfxip)");
	if (strcmp(k, "gfxv") == 0)
		return read_string(s, &c->tmp, &c->f->gfxv);
	if (strcmp(k, "version") == 0)
		return read_string(s, &c->tmp, &c->f->version);
	if (strcmp(k, "wave_filenames") == 0)
		return read_tree(s, c, scratch);
	return att_scan_skip(s);
}

/* from_file: read the file at name (buf and len unused). */
static int doc(const char *name, int from_file, const char *buf, size_t len, att_filenames *f,
	       fp_err *e)
{
	memset(f, 0, sizeof *f);
	f->gfxip = -1;
	fn_ctx c = {f, STRBUF_INIT, 0};
	int rc =
	    att_scan_doc(name, from_file, buf, len, "an object (filenames.json)", member, &c, e);
	sb_release(&c.tmp);
	if (rc)
		att_filenames_release(f);
	return rc;
}

int att_filenames_parse(const char *buf, size_t len, const char *name, att_filenames *f, fp_err *e)
{
	return doc(name, 0, buf, len, f, e);
}

int att_filenames_read(const char *path, att_filenames *f, fp_err *e)
{
	return doc(path, 1, NULL, 0, f, e);
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
