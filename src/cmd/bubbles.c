/* `bubbles`: the stall taxonomy of one ATT dispatch — classes, hotspots, source lines, wait
 * attribution, observed occupancy and wave states (docs/bubbles.md). Reads --bundle, writes
 * bubbles.json through analysis_write (never into a raw or foreign directory). */
#include "core/amd/bubbles.h"
#include "cmd/analysis_input.h"
#include "cmd/cmds.h"
#include "base/fileio.h"
#include "base/signals.h"
#include "core/amd/wave_timeline.h"
#include "out/trace_events.h"

#include <stdlib.h>
#include <string.h>

const opt_spec bubbles_opts[] = {
    {"detail", 0, OPT_INT, "CODE_LINE", NULL, NULL, 0,
     "also show one instruction (code.json line index) with its per-wave distribution"},
    {"threads", 0, OPT_INT, "N", "0", NULL, 1, "wave-file parser threads (0: one per online core)"},
    {"timeline", 0, OPT_STR, "FILE", NULL, NULL, 0,
     "write the per-wave timeline as Chrome trace-event JSON (Perfetto; AMD ATT only)"},
    OPT_END,
};

static int read_opts(cmd_ctx *ctx, bubbles_params *o)
{
	int64_t top = opts_int(&ctx->opts, "top", 10);
	int64_t threads = opts_int(&ctx->opts, "threads", 0);
	if (top < 1)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--top must be at least 1 (got %lld)",
			       (long long)top);
	if (threads < 0 || threads > 256)
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--threads must be 0..256 (got %lld)",
			       (long long)threads);
	o->top = opts_flag(&ctx->opts, "all") ? 0 : (size_t)top;
	o->detail_line = -1;
	if (opts_given(&ctx->opts, "detail")) {
		o->detail_line = opts_int(&ctx->opts, "detail", -1);
		if (o->detail_line < 0)
			return fp_fail(&ctx->err, ERR_BAD_ARGS,
				       "--detail takes a code line index (>= 0)");
	}
	o->threads = (int)threads;
	return 0;
}

static void note_cut(cmd_ctx *ctx, const char *what, const jv *list, size_t total)
{
	size_t shown = jv_len(list);
	if (shown < total)
		ctx_truncated(ctx, what, shown, total, "--all or --top N");
}

/* trace_events_drain into the timeline's file: a failed write stops the writing, and
 * file_atomic_commit reports it (f keeps its errno) and removes the temporary. So does a
 * signal: a large trace's timeline takes seconds to write. */
static int drain_to_file(strbuf *out, void *f)
{
	int rc = signals_pending() ? -1 : file_atomic_write(f, out->buf, out->len);
	sb_reset(out);
	return rc;
}

/* --timeline FILE: the AMD per-wave timeline with the --top hottest instructions on companion
 * tracks. Nsight Compute samples warp states; it records no per-warp timeline to draw. */
static int write_timeline(cmd_ctx *ctx, const analysis_input *in, size_t top, const char *path)
{
	jv *o = jv_set(ctx->data, "timeline", jv_object());
	if (analysis_vendor(in) == VENDOR_NVIDIA) {
		jv_set(o, "written", jv_bool(0));
		ctx_warn(ctx,
			 "--timeline: Nsight Compute records warp-state samples, not a per-warp "
			 "timeline; there is nothing to draw for an NVIDIA capture");
		return 0;
	}
	wave_timeline t;
	if (wave_timeline_build(in->trace->dir, top, &t, &ctx->err))
		return -1;
	strbuf sb = STRBUF_INIT;
	file_atomic f;
	int rc = file_atomic_begin(&f, path, &ctx->err);
	if (rc == 0) {
		if (trace_events_write(&sb, &t, drain_to_file, &f) && !f.err) {
			file_atomic_abort(&f); /* a signal: main answers INTERRUPTED */
			rc =
			    fp_fail(&ctx->err, ERR_INTERRUPTED, "interrupted writing the timeline");
		} else {
			rc = file_atomic_commit(&f, &ctx->err);
		}
	}
	if (rc == 0) {
		char *abs = path_abs(path);
		jv_set(o, "written", jv_bool(1));
		jv_set(o, "file", jv_str(abs ? abs : path));
		jv_set(o, "waves", jv_int((int64_t)t.n_waves));
		jv_set(o, "tracks", jv_int((int64_t)t.n_tracks));
		jv_set(o, "hot_lines", jv_int((int64_t)t.n_hot));
		jv_set(o, "clock", jv_str(t.realtime ? "realtime" : "cycles"));
		free(abs);
	}
	sb_release(&sb);
	wave_timeline_release(&t);
	return rc;
}

int cmd_bubbles(cmd_ctx *ctx)
{
	bubbles_params o = {0, -1, 0, NULL};
	analysis_input in;
	memset(&in, 0, sizeof in);
	if (read_opts(ctx, &o) || analysis_open(ctx, &in)) {
		analysis_close(&in);
		return -1;
	}
	jv *r = NULL;
	bubbles_counts cnt;
	int rc = analysis_bubbles(ctx, &in, &o, &r, &cnt);
	if (rc == 0) {
		note_cut(ctx, "hotspots", jv_get(r, "hotspots"), cnt.hotspots);
		note_cut(ctx, "lines", jv_get(r, "lines"), cnt.lines);
		note_cut(ctx, "waits", jv_get(r, "waits"), cnt.waits);
		jv_set(r, "warnings", jv_copy(ctx->warnings));
		rc = analysis_write(ctx, &in, "bubbles.json", r);
		jv_free(jv_take(r, "warnings"));
		if (rc == 0 && in.out)
			jv_set(r, "artifact", jv_strf("%s/bubbles.json", in.out->dir));
		jv_merge(ctx->data, r); /* every key moves; r is freed */
	}
	const char *tl = opts_str(&ctx->opts, "timeline");
	if (rc == 0 && tl)
		rc = write_timeline(ctx, &in, o.top ? o.top : 10, tl);
	analysis_close(&in);
	return rc;
}
