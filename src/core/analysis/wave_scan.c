/* Reading wave files one SIMD group at a time (wave_scan.h). */
#include "core/analysis/wave_scan.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/signals.h"
#include "base/xalloc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct wfile {
	char *name;
	size_t rank; /* place in the directory listing (strcmp order) */
	long se, simd, slot, n;
} wfile;

static int wfile_cmp(const void *pa, const void *pb)
{
	const wfile *a = pa, *b = pb;
	if (a->se != b->se)
		return a->se < b->se ? -1 : 1;
	if (a->simd != b->simd)
		return a->simd < b->simd ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int parse_name(const char *s, wfile *f)
{
	int used = 0;
	if (sscanf(s, "se%ld_sm%ld_sl%ld_wv%ld.json%n", &f->se, &f->simd, &f->slot, &f->n, &used) !=
		4 ||
	    s[used] != '\0')
		return 0;
	return 1;
}

/* The directory, open (files are opened relative to it: one path component for the kernel
 * to walk), and one read buffer reused for every file. */
typedef struct reader {
	const char *dir;
	int dirfd; /* -1 when the directory could not be opened: each file by its path */
	char *buf;
	size_t cap;
	wave_file_fn file_fn;
	wave_keep *keep; /* files an earlier pass kept: not read again */
} reader;

/* Parses files [from, to) of one (SE, SIMD) and calls fn per CU among them. */
static int one_group(reader *rd, const wfile *fs, size_t from, size_t to, att_wave *ws,
		     wave_group_fn fn, void *ctx, fp_err *e)
{
	for (size_t i = from; i < to; i++) {
		if (signals_pending())
			return fp_fail(e, ERR_INTERRUPTED, "interrupted while reading wave files");
		if (rd->keep && wave_keep_take(rd->keep, fs[i].name, &ws[i - from])) {
			if (rd->file_fn)
				rd->file_fn(ctx, fs[i].name, fs[i].rank, &ws[i - from]);
			continue;
		}
		char *p = path_join(rd->dir, fs[i].name);
		size_t len = 0;
		int rc = input_read_into_at(rd->dirfd, fs[i].name, p, INPUT_ANY, &rd->buf, &rd->cap,
					    &len, e);
		if (rc == 0)
			rc = att_wave_parse(rd->buf, len, p, &ws[i - from], e);
		free(p);
		if (rc)
			return -1;
		if (rd->file_fn)
			rd->file_fn(ctx, fs[i].name, fs[i].rank, &ws[i - from]);
	}
	/* a SIMD index is per CU: split the group by the waves' CU (one target CU per SE in
	 * practice) */
	size_t n = to - from;
	char *done = xcalloc(n ? n : 1, 1);
	att_wave *sub = xcalloc(n ? n : 1, sizeof *sub);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		size_t k = 0;
		for (size_t j = i; j < n; j++)
			if (!done[j] && ws[j].cu == ws[i].cu)
				sub[k++] = ws[j], done[j] = 1;
		wave_group g = {fs[from].se, ws[i].cu, fs[from].simd, sub, k};
		fn(ctx, &g);
	}
	free(sub);
	free(done);
	return 0;
}

int wave_scan(const char *dir, wave_group_fn fn, void *ctx, fp_err *e)
{
	return wave_scan_each(dir, NULL, fn, NULL, ctx, e);
}

int wave_scan_each(const char *dir, wave_keep *keep, wave_group_fn fn, wave_file_fn file_fn,
		   void *ctx, fp_err *e)
{
	size_t n = 0;
	char **names = file_list_dir(dir, &n, e);
	if (!names)
		return -1;
	wfile *fs = xcalloc(n ? n : 1, sizeof *fs);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (parse_name(names[i], &fs[m])) {
			fs[m].rank = i;
			fs[m++].name = names[i];
		}
	qsort(fs, m, sizeof *fs, wfile_cmp);
	reader rd = {dir, open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), NULL, 0, file_fn, keep};
	int rc = 0;
	for (size_t i = 0; i < m && !rc;) {
		size_t j = i;
		while (j < m && fs[j].se == fs[i].se && fs[j].simd == fs[i].simd)
			j++;
		att_wave *ws = xcalloc(j - i, sizeof *ws);
		for (size_t k = 0; k < j - i; k++)
			att_wave_init(&ws[k]);
		rc = one_group(&rd, fs, i, j, ws, fn, ctx, e);
		for (size_t k = 0; k < j - i; k++)
			att_wave_release(&ws[k]);
		free(ws);
		i = j;
	}
	if (rd.dirfd >= 0)
		close(rd.dirfd);
	free(rd.buf);
	free(fs);
	file_list_free(names, n);
	return rc;
}
