#include "cmd/report_html_out.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/version.h"
#include "core/amd/wave_timeline.h"
#include "model/source_loc.h"
#include "out/flame.h"
#include "out/flame_stacks.h"
#include "out/flame_svg.h"
#include "out/report_html.h"
#include "out/roofline_svg.h"
#include "out/source_view.h"
#include "out/timeline_svg.h"
#include "read/amd/snapshots.h"
#include "read/nvidia/ncu_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* texts[path] = array of lines (line i+1 at index i). */
static jv *split_lines(const char *text, size_t len)
{
	jv *arr = jv_array();
	size_t i = 0;
	while (i < len) {
		size_t n = 0;
		while (i + n < len && text[i + n] != '\n')
			n++;
		size_t k = n;
		if (k && text[i + k - 1] == '\r')
			k--;
		jv_push(arr, jv_strn(text + i, k));
		i += n + 1;
	}
	return arr;
}

/* Every file the hotspots' innermost frames name, with its text from the snapshots. */
static jv *amd_texts(cmd_ctx *ctx, const char *dir, const jv *bubbles)
{
	jv *texts = jv_object();
	snapshots s;
	fp_err e = FP_ERR_INIT;
	if (snapshots_load(dir, &s, &e) != 0) {
		ctx_warn(ctx, "REPORT.html: snapshots.json unusable, source text omitted: %s",
			 e.message);
		fp_err_clear(&e);
		return texts;
	}
	const jv *hot = jv_get(bubbles, "hotspots");
	for (size_t i = 0; i < jv_len(hot); i++) {
		src_frame fr[1];
		if (srcmap_parse_chain(jv_string(jv_get(jv_at(hot, i), "source")), fr, 1) == 0)
			continue;
		char *path = strndup(fr[0].path, fr[0].path_len);
		if (!jv_get(texts, path)) {
			const snapshot_entry *ent =
			    snapshots_find(&s, fr[0].path, fr[0].path_len, NULL);
			jv *snip =
			    ent ? snapshots_snippet(&s, ent, 1, 0) : NULL; /* loads the copy */
			jv_set(texts, path,
			       ent && ent->text ? split_lines(ent->text, ent->len) : jv_array());
			jv_free(snip);
		}
		free(path);
	}
	snapshots_release(&s);
	return texts;
}

/* The lines the correlated export lists, at their line numbers (null between them). */
static jv *nvidia_texts(cmd_ctx *ctx, const char *csv)
{
	jv *texts = jv_object();
	if (!csv)
		return texts;
	ncu_source src;
	fp_err e = FP_ERR_INIT;
	if (ncu_source_read_file(csv, &src, &e) != 0) {
		ctx_warn(ctx, "REPORT.html: %s unreadable, source text omitted: %s", csv,
			 e.message);
		fp_err_clear(&e);
		return texts;
	}
	for (size_t i = 0; i < src.n_src_lines; i++) {
		const ncu_src_line *l = &src.src_lines[i];
		const char *path = src.files[l->file];
		jv *arr = jv_get(texts, path);
		if (!arr)
			arr = jv_set(texts, path, jv_array());
		if (l->line < 1 || l->line > 1000000)
			continue;
		while ((int64_t)jv_len(arr) < l->line - 1)
			jv_push(arr, jv_null());
		if ((int64_t)jv_len(arr) == l->line - 1)
			jv_push(arr, jv_str(l->text));
		else if (!jv_string(jv_at(arr, (size_t)(l->line - 1)))) {
			/* a line listed twice keeps its first text */
			jv_replace_at(arr, (size_t)(l->line - 1), jv_str(l->text));
		}
	}
	ncu_source_release(&src);
	return texts;
}

static char *flame_of(vendor_id v, const trace_dispatch *d)
{
	flame f;
	flame_init(&f, "stall", "none");
	flame_fill_trace(&f, v, d, 0);
	strbuf sb = STRBUF_INIT;
	if (flame_total(&f) > 0)
		flame_svg(&f, d->kernel ? d->kernel : "kernel",
			  d->unit && !strcmp(d->unit, "samples") ? "stall samples" : "stall cycles",
			  &sb);
	flame_release(&f);
	return sb.len ? sb_detach(&sb) : (sb_release(&sb), NULL);
}

static char *timeline_of(cmd_ctx *ctx, const char *dir, const wave_pass_timeline *tl,
			 const char **note)
{
	wave_timeline own;
	const wave_timeline *t = &own;
	fp_err e = FP_ERR_INIT;
	const char *why = NULL;
	if (tl && tl->built)
		t = &tl->t; /* built in the bubbles pass: the files are not read again */
	else if (tl && tl->err.set)
		why = tl->err.message ? tl->err.message : "";
	else if (wave_timeline_build(dir, 0, &own, &e) != 0)
		why = e.message;
	if (why) {
		ctx_warn(ctx, "REPORT.html: no wave timeline: %s", why);
		*note = "No wave timeline: the dispatch's wave files could not be read (see the "
			"warnings).";
		fp_err_clear(&e);
		return NULL;
	}
	strbuf sb = STRBUF_INIT;
	timeline_svg(t, &sb);
	if (t == &own)
		wave_timeline_release(&own);
	*note = "One CU's wave slots; `flyprof bubbles --timeline FILE` writes every slot of "
		"every traced CU for Perfetto / chrome://tracing.";
	return sb.len ? sb_detach(&sb) : (sb_release(&sb), NULL);
}

jv *report_source_texts(cmd_ctx *ctx, analysis_input *in, const jv *bubbles)
{
	return analysis_vendor(in) == VENDOR_NVIDIA ? nvidia_texts(ctx, in->disp.sources_from)
						    : amd_texts(ctx, in->choice->dir, bubbles);
}

int report_html_emit(cmd_ctx *ctx, analysis_input *in, const jv *rep, const jv *bubbles,
		     const wave_pass_timeline *tl, jv *arts)
{
	int nvidia = analysis_vendor(in) == VENDOR_NVIDIA;
	jv *texts = report_source_texts(ctx, in, bubbles);
	const jv *entry = jv_get(jv_get(rep, "entry_buckets"), "lines");
	jv *entry_lines = jv_array();
	for (size_t i = 0; i < jv_len(entry); i++) {
		const jv *x = jv_at(entry, i);
		const char *s = jv_string(x) ? jv_string(x) : jv_string(jv_get(x, "source"));
		if (s)
			jv_push(entry_lines, jv_str(s));
	}
	jv *view = source_view_build(bubbles, texts, entry_lines, 3);
	/* the version without the commit: a committed example's page stays byte-identical */
	report_html_in hi = {.report = rep, .source = view, .version = FLYPROF_VERSION};
	char *fsvg = flame_of(analysis_vendor(in), in->trace);
	hi.flame_svg = fsvg;
	if (!fsvg)
		hi.flame_note = "No stall to draw.";
	char *tlsvg = NULL;
	if (nvidia)
		hi.timeline_note = "Nsight Compute samples warp states per instruction; it records "
				   "no per-warp timeline, so none is drawn.";
	else
		tlsvg = timeline_of(ctx, in->choice->dir, tl, &hi.timeline_note);
	hi.timeline_svg = tlsvg;
	strbuf roof = STRBUF_INIT;
	int rc = 0;
	if (roofline_svg(jv_get(rep, "roofline"), jv_string(jv_get(rep, "kernel")), &roof) == 0) {
		hi.roofline_svg = sb_str(&roof);
		rc = bundle_write_file(in->out, "roofline.svg", roof.buf, roof.len, &ctx->err);
		if (!rc) {
			char *p = path_join(in->out->dir, "roofline.svg");
			jv_set_str(arts, "roofline_svg", p);
			free(p);
		}
	} else {
		hi.roofline_note =
		    "No roofline figures in this report: they need the kernel's "
		    "duration (the capture's kernel-trace rows) or hardware counters.";
	}
	strbuf sb = STRBUF_INIT;
	report_html_write(&sb, &hi);
	if (!rc)
		rc = bundle_write_file(in->out, "REPORT.html", sb.buf, sb.len, &ctx->err);
	if (!rc) {
		char *p = path_join(in->out->dir, "REPORT.html");
		jv_set_str(arts, "report_html", p);
		free(p);
	}
	sb_release(&sb);
	sb_release(&roof);
	free(fsvg);
	free(tlsvg);
	jv_free(view);
	jv_free(entry_lines);
	jv_free(texts);
	return rc;
}
