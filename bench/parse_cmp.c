/* parse_cmp: the wave-file scanner against the generic JSON parser on the same files, one
 * thread each, files read once into memory first (so only parsing is timed).
 *   parse_cmp DISPATCH_DIR  ->  one line per phase: files, MB, CPU seconds, MB per CPU second
 *   (reading the files, then the generic parser, then the scanner, each over the same bytes)
 *   parse_cmp DISPATCH_DIR N  ->  the scanner alone, the best of N passes, and its CPU
 *   nanoseconds per instruction row (for A/B runs of the scanner on a busy machine: one pass
 *   is ~30 ms, so a single one mostly measures the neighbours)
 * Times are the process's CPU time, not wall time: on a machine shared with other work the wall
 * clock mostly measures the others. docs/architecture.md#json-hot-path accepts a hand-written
 * scanner on the hot path only if it is measured faster than the library; this prints that
 * measurement. */
#include "base/fileio.h"
#include "base/xalloc.h"
#include "core/amd/dispatch_select.h"
#include "read/amd/att_scan.h"
#include "read/amd/att_wave.h"
#include "base/json/json_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) /* CPU seconds of this process */
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The scanner alone: the best of `passes` passes over the files in memory. */
static int scanner_only(char **bufs, const size_t *lens, size_t m, size_t bytes, int passes)
{
	fp_err e = FP_ERR_INIT;
	att_wave w;
	att_wave_init(&w);
	double best = 1e30;
	size_t rows = 0;
	for (int r = 0; r < passes; r++) {
		rows = 0;
		double t = now();
		for (size_t i = 0; i < m; i++) {
			if (att_wave_parse(bufs[i], lens[i], "w", &w, &e))
				return 65;
			rows += w.n_insts;
		}
		t = now() - t;
		best = t < best ? t : best;
	}
	double mb = (double)bytes / 1048576.0;
	printf("att_wave scanner        : %zu files, %.1f MB, %zu rows, best of %d: %.4f s, %.0f "
	       "MB/s, %.1f ns/row\n",
	       m, mb, rows, passes, best, mb / best, best * 1e9 / (double)rows);
	att_wave_release(&w);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fputs("usage: parse_cmp DISPATCH_DIR [PASSES]\n", stderr);
		return 64;
	}
	int passes = argc == 3 ? atoi(argv[2]) : 0;
	fp_err e = FP_ERR_INIT;
	size_t n = 0, m = 0, bytes = 0;
	char **names = file_list_dir(argv[1], &n, &e);
	if (!names) {
		fprintf(stderr, "parse_cmp: %s\n", e.message);
		return 66;
	}
	char **bufs = xcalloc(n + 1, sizeof *bufs);
	size_t *lens = xcalloc(n + 1, sizeof *lens);
	/* The I/O floor: every file read once into one reused buffer, as bubbles' workers do. */
	char *rb = NULL;
	size_t rcap = 0, rlen = 0, rbytes = 0;
	double tr = now();
	for (size_t i = 0; i < n; i++) {
		if (!dispatch_is_wave_file(names[i]))
			continue;
		char *p = path_join(argv[1], names[i]);
		if (att_read_file(p, &rb, &rcap, &rlen, &e) == 0)
			rbytes += rlen;
		free(p);
	}
	tr = now() - tr;
	free(rb);
	for (size_t i = 0; i < n; i++) {
		if (!dispatch_is_wave_file(names[i]))
			continue;
		char *p = path_join(argv[1], names[i]);
		bufs[m] = file_read_all(p, &lens[m], &e);
		free(p);
		if (bufs[m])
			bytes += lens[m++];
	}
	if (passes > 0)
		return scanner_only(bufs, lens, m, bytes, passes);
	double t0 = now();
	for (size_t i = 0; i < m; i++) {
		jv *v = json_parse(bufs[i], lens[i], "w", &e);
		if (!v)
			return 65;
		jv_free(v);
	}
	double t1 = now();
	att_wave w;
	att_wave_init(&w);
	for (size_t i = 0; i < m; i++)
		if (att_wave_parse(bufs[i], lens[i], "w", &w, &e))
			return 65;
	double t2 = now();
	double mb = (double)bytes / 1048576.0;
	printf("read only (open+read)   : %zu files, %.1f MB, %.3f s, %.0f MB/s\n", m,
	       (double)rbytes / 1048576.0, tr, (double)rbytes / 1048576.0 / tr);
	printf("generic json_parse (DOM): %zu files, %.1f MB, %.3f s, %.0f MB/s\n", m, mb, t1 - t0,
	       mb / (t1 - t0));
	printf("att_wave scanner        : %zu files, %.1f MB, %.3f s, %.0f MB/s (%.1fx faster)\n",
	       m, mb, t2 - t1, mb / (t2 - t1), (t1 - t0) / (t2 - t1));
	att_wave_release(&w);
	for (size_t i = 0; i < m; i++)
		free(bufs[i]);
	free(bufs);
	free(lens);
	file_list_free(names, n);
	return 0;
}
