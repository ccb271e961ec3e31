/* Folded stacks and speedscope documents from weighted samples. Frames are interned by
 * (name, file, line) so the speedscope frame table has each frame once. */
#include "out/flame.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void flame_init(flame *f, const char *name, const char *unit)
{
	memset(f, 0, sizeof *f);
	f->name = xstrdup(name ? name : "flyprof");
	f->unit = xstrdup(unit ? unit : "none");
}

void flame_release(flame *f)
{
	for (size_t i = 0; i < f->n_frames; i++) {
		free(f->frames[i].name);
		free(f->frames[i].file);
	}
	for (size_t i = 0; i < f->n_samples; i++)
		free(f->stacks[i]);
	free(f->frames);
	free(f->stacks);
	free(f->depth);
	free(f->weights);
	free(f->name);
	free(f->unit);
	memset(f, 0, sizeof *f);
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static size_t intern(flame *f, const flame_frame *fr)
{
	const char *name = fr->name ? fr->name : "?";
	for (size_t i = f->n_frames; i-- > 0;)
		if (f->frames[i].line == fr->line && strcmp(f->frames[i].name, name) == 0 &&
		    same(f->frames[i].file, fr->file))
			return i;
	f->frames = xgrow(f->frames, &f->cap_frames, f->n_frames + 1, sizeof *f->frames);
	f->frames[f->n_frames].name = xstrdup(name);
	f->frames[f->n_frames].file = fr->file ? xstrdup(fr->file) : NULL;
	f->frames[f->n_frames].line = fr->line;
	return f->n_frames++;
}

void flame_add(flame *f, const flame_frame *frames, size_t n, int64_t weight)
{
	if (f->n_samples + 1 > f->cap_samples) {
		size_t cap = f->cap_samples;
		f->stacks = xgrow(f->stacks, &cap, f->n_samples + 1, sizeof *f->stacks);
		f->depth = xreallocarray(f->depth, cap, sizeof *f->depth);
		f->weights = xreallocarray(f->weights, cap, sizeof *f->weights);
		f->cap_samples = cap;
	}
	size_t *st = xcalloc(n ? n : 1, sizeof *st);
	for (size_t i = 0; i < n; i++)
		st[i] = intern(f, &frames[i]);
	f->stacks[f->n_samples] = st;
	f->depth[f->n_samples] = n;
	f->weights[f->n_samples] = weight > 0 ? weight : 0;
	f->n_samples++;
}

int64_t flame_total(const flame *f)
{
	int64_t t = 0;
	for (size_t i = 0; i < f->n_samples; i++)
		t += f->weights[i];
	return t;
}

static void add_clean(strbuf *sb, const char *s)
{
	for (; *s; s++)
		sb_addc(sb, (*s == ';' || *s == '\n' || *s == '\r') ? '_' : *s);
}

typedef struct folded_line {
	char *stack;
	int64_t weight;
} folded_line;

static int cmp_folded(const void *a, const void *b)
{
	return strcmp(((const folded_line *)a)->stack, ((const folded_line *)b)->stack);
}

void flame_folded(const flame *f, strbuf *out)
{
	folded_line *lines = xcalloc(f->n_samples ? f->n_samples : 1, sizeof *lines);
	size_t n = 0;
	for (size_t i = 0; i < f->n_samples; i++) {
		if (f->weights[i] <= 0 || f->depth[i] == 0)
			continue;
		strbuf sb = STRBUF_INIT;
		for (size_t j = 0; j < f->depth[i]; j++) {
			if (j)
				sb_addc(&sb, ';');
			add_clean(&sb, f->frames[f->stacks[i][j]].name);
		}
		lines[n++] = (folded_line){sb_detach(&sb), f->weights[i]};
	}
	qsort(lines, n, sizeof *lines, cmp_folded);
	for (size_t i = 0; i < n; i++) {
		int64_t w = lines[i].weight;
		while (i + 1 < n && strcmp(lines[i].stack, lines[i + 1].stack) == 0) {
			free(lines[i].stack);
			w += lines[++i].weight;
		}
		sb_addf(out, "%s %lld\n", lines[i].stack, (long long)w);
		free(lines[i].stack);
	}
	free(lines);
}

jv *flame_speedscope(const flame *f, const char *exporter)
{
	jv *doc = jv_object();
	jv_set_str(doc, "$schema", "https://www.speedscope.app/file-format-schema.json");
	jv *frames = jv_set(jv_set(doc, "shared", jv_object()), "frames", jv_array());
	for (size_t i = 0; i < f->n_frames; i++) {
		jv *o = jv_push(frames, jv_object());
		jv_set_str(o, "name", f->frames[i].name);
		if (f->frames[i].file)
			jv_set_str(o, "file", f->frames[i].file);
		if (f->frames[i].line > 0)
			jv_set_int(o, "line", f->frames[i].line);
	}
	jv *prof = jv_push(jv_set(doc, "profiles", jv_array()), jv_object());
	jv_set_str(prof, "type", "sampled");
	jv_set_str(prof, "name", f->name);
	jv_set_str(prof, "unit", f->unit);
	jv_set_int(prof, "startValue", 0);
	jv_set_int(prof, "endValue", flame_total(f));
	jv *samples = jv_set(prof, "samples", jv_array());
	jv *weights = jv_set(prof, "weights", jv_array());
	for (size_t i = 0; i < f->n_samples; i++) {
		if (f->weights[i] <= 0)
			continue;
		jv *st = jv_push(samples, jv_array());
		for (size_t j = 0; j < f->depth[i]; j++)
			jv_push(st, jv_int((int64_t)f->stacks[i][j]));
		jv_push(weights, jv_int(f->weights[i]));
	}
	jv_set_str(doc, "name", f->name);
	jv_set_int(doc, "activeProfileIndex", 0);
	jv_set_str(doc, "exporter", exporter ? exporter : "flyprof");
	return doc;
}
