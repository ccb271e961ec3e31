/* gen_att: writes a synthetic ATT dispatch in the real rocprofv3 ui_output format, of any
 * size, for benchmarks and demos. Everything it writes is consistent with itself the way the
 * decoder's output is: code.json's Hit/Latency/Stall/Idle are the sums of
 * docs/facts-rocprofv3.md#metric-semantics over the wave files, waitcnt lists name the loads each
 * wait covers, occupancy/filenames/realtime match the waves, and wstates<k>.json are the exact step
 * functions of the timelines (written when the trace has at most --wstates-max records; beyond that
 * they are omitted and said so on stderr).
 *
 *   gen_att --out DIR [--raw] [--waves N] [--iters K | --size-mb MB] [--seed S]
 *
 * Without --raw, DIR becomes a flyprof bundle (manifest.json marked "synthetic": true) holding
 * att/big/ui_output_agent_1_dispatch_1/; with --raw, DIR is the dispatch directory itself.
 * The kernel is a small GEMM-like loop: scalar loads, vector and global loads, LDS writes and
 * reads, combined and single waits, a barrier, 8 MFMAs, VALU/SALU work and a back branch. */
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/bundle/bundle.h"
#include "gen_att_kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
	const char *dir;
	int waves, iters;
	uint64_t seed;
	long long wstates_max;
	line_stat stats[GK_LINES];
	seg_list segs; /* for wstates; NULL when the trace is too large */
	wave_pos *pos;
	long long records;
} gen;

static void die(const char *msg)
{
	fprintf(stderr, "gen_att: %s\n", msg);
	exit(2);
}

static void write_file(const char *dir, const char *name, const strbuf *sb)
{
	char *p = path_join(dir, name);
	FILE *f = fopen(p, "wb");
	if (!f || fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f) != 0) {
		fprintf(stderr, "gen_att: %s: %s\n", p, strerror(errno));
		exit(2);
	}
	free(p);
}

/* Byte size of one wave file with `iters` loop iterations (wave 0, not written). */
static size_t wave_bytes(const gen *g, int iters)
{
	strbuf sb = STRBUF_INIT;
	line_stat st[GK_LINES];
	memset(st, 0, sizeof st);
	wave_pos p = gk_layout(0, g->waves);
	gk_wave(&sb, &p, iters, g->seed, st, NULL);
	size_t n = sb.len;
	sb_release(&sb);
	return n;
}

static int iters_for(const gen *g, double mb)
{
	size_t b1 = wave_bytes(g, 1), b3 = wave_bytes(g, 3);
	double per_iter = (double)(b3 - b1) / 2.0;
	double want = mb * 1048576.0 / g->waves - (double)b1;
	int it = want > 0 ? 1 + (int)(want / per_iter) : 1;
	return it < 1 ? 1 : it;
}

static void gen_waves(gen *g)
{
	strbuf sb = STRBUF_INIT;
	g->pos = xcalloc((size_t)g->waves, sizeof *g->pos);
	gk_schedule(g->pos, g->waves, g->iters);
	long long est = (long long)g->waves * (long long)(g->iters * GK_BODY + GK_FIXED);
	if (est <= g->wstates_max)
		g->segs.on = 1;
	else
		fprintf(stderr,
			"gen_att: %lld records > --wstates-max %lld: wstates*.json omitted\n", est,
			g->wstates_max);
	for (int w = 0; w < g->waves; w++) {
		sb_reset(&sb);
		/* A slot's next wave starts 64 cycles after the previous one there ends. */
		g->pos[w].begin =
		    w < GK_POSITIONS ? 5000 + 40 * w : g->pos[w - GK_POSITIONS].end + 64;
		g->records += gk_wave(&sb, &g->pos[w], g->iters, g->seed, g->stats,
				      g->segs.on ? &g->segs : NULL);
		char name[96];
		snprintf(name, sizeof name, "se%d_sm%d_sl%d_wv%d.json", g->pos[w].se,
			 g->pos[w].simd, g->pos[w].slot, g->pos[w].n);
		write_file(g->dir, name, &sb);
	}
	sb_release(&sb);
}

static void gen_side_files(gen *g)
{
	strbuf sb = STRBUF_INIT;
	gk_code_json(&sb, g->stats);
	write_file(g->dir, "code.json", &sb);
	sb_reset(&sb);
	gk_filenames_json(&sb, g->pos, g->waves);
	write_file(g->dir, "filenames.json", &sb);
	sb_reset(&sb);
	gk_occupancy_json(&sb, g->pos, g->waves);
	write_file(g->dir, "occupancy.json", &sb);
	sb_reset(&sb);
	gk_realtime_json(&sb, g->pos, g->waves);
	write_file(g->dir, "realtime.json", &sb);
	for (int k = 1; g->segs.on && k <= 4; k++) {
		sb_reset(&sb);
		if (gk_wstates_json(&sb, &g->segs, k)) {
			char name[32];
			snprintf(name, sizeof name, "wstates%d.json", k);
			write_file(g->dir, name, &sb);
		}
	}
	sb_release(&sb);
}

static char *make_bundle(const char *out, int raw)
{
	fp_err e = FP_ERR_INIT;
	if (raw) {
		if (file_mkdirs(out, &e))
			die(e.message);
		return xstrdup(out);
	}
	bundle b;
	if (bundle_open_write(&b, out, "example", &e))
		die(e.message);
	bundle_set_meta(&b, "kernel", jv_str(GK_KERNEL));
	bundle_set_meta(&b, "backend", jv_str("rocprofv3"));
	bundle_set_meta(&b, "arch", jv_str("gfx950"));
	bundle_set_meta(&b, "synthetic", jv_bool(1));
	bundle_set_meta(&b, "generator", jv_str("bench/gen_att (flyprof)"));
	char *dir = path_join(b.dir, "att/big/ui_output_agent_1_dispatch_1");
	bundle_close(&b);
	if (file_mkdirs(dir, &e))
		die(e.message);
	return dir;
}

static void usage(void)
{
	fputs("usage: gen_att --out DIR [--raw] [--waves N] [--iters K | --size-mb MB] [--seed S] "
	      "[--wstates-max RECORDS]\n",
	      stderr);
	exit(64);
}

int main(int argc, char **argv)
{
	gen g;
	memset(&g, 0, sizeof g);
	g.waves = 16;
	g.iters = 8;
	g.seed = 1;
	g.wstates_max = 4000000;
	const char *out = NULL;
	double size_mb = 0;
	int raw = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--raw") == 0) {
			raw = 1;
			continue;
		}
		if (!v)
			usage();
		if (strcmp(a, "--out") == 0)
			out = v;
		else if (strcmp(a, "--waves") == 0)
			g.waves = atoi(v);
		else if (strcmp(a, "--iters") == 0)
			g.iters = atoi(v);
		else if (strcmp(a, "--size-mb") == 0)
			size_mb = atof(v);
		else if (strcmp(a, "--seed") == 0)
			g.seed = strtoull(v, NULL, 10);
		else if (strcmp(a, "--wstates-max") == 0)
			g.wstates_max = atoll(v);
		else
			usage();
		i++;
	}
	if (!out || g.waves < 1 || g.waves > 1000000 || g.iters < 1)
		usage();
	if (size_mb > 0)
		g.iters = iters_for(&g, size_mb);
	char *dir = make_bundle(out, raw);
	g.dir = dir;
	gen_waves(&g);
	gen_side_files(&g);
	fprintf(stderr, "gen_att: %d waves x %d iterations, %lld records -> %s\n", g.waves, g.iters,
		g.records, dir);
	printf("%s\n", dir);
	gk_segs_release(&g.segs);
	free(g.pos);
	free(dir);
	return 0;
}
