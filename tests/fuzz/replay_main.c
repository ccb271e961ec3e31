/* fuzz-replay: runs every registered fuzz target over seed files and deterministic mutations.
 * Usage: fuzz-replay SEEDS_TXT [MUTATIONS_PER_SEED]
 * SEEDS_TXT lines: "<target> <path-or-glob>" ('#' comments; $FLYPROF_CORPUS, $FLYPROF_SAMPLES and
 * $ROOT are expanded). Targets without any existing seed run on a few built-in byte strings. Prints
 * "fuzz: N passed, N failed" where each target is one test (it "fails" only by crashing,
 * which takes the whole runner down - the point under ASan). */
#include "fuzz.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 64

static struct {
	const char *name;
	fuzz_fn fn;
} targets[MAX_TARGETS];
static int ntargets;

void fuzz_register(const char *name, fuzz_fn fn)
{
	if (ntargets < MAX_TARGETS) {
		targets[ntargets].name = name;
		targets[ntargets].fn = fn;
		ntargets++;
	}
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	unsigned char *buf = malloc(cap);
	size_t r;
	while ((r = fread(buf + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	*n = len;
	return buf;
}

static void run_mutations(fuzz_fn fn, const unsigned char *seed, size_t n, int count)
{
	fn(seed, n);
	unsigned char *buf = malloc(n + 16);
	for (int m = 0; m < count; m++) {
		size_t len = n;
		memcpy(buf, seed, n);
		switch (next() % 5) {
		case 0: /* truncate */
			len = n ? next() % n : 0;
			break;
		case 1: /* flip bytes */
			for (int k = 0; k < 4 && n; k++)
				buf[next() % n] ^= (unsigned char)(1u << (next() % 8));
			break;
		case 2: /* overwrite with a structural character */
			if (n)
				buf[next() % n] = (unsigned char)"[]{},:\"-0e9\\"[next() % 12];
			break;
		case 3: /* duplicate a slice */
			if (n > 2) {
				size_t a = next() % n, l = next() % (n - a);
				if (l > 16)
					l = 16;
				memmove(buf + a + l, buf + a, n - a);
				len = n + l;
			}
			break;
		default: /* big number */
			if (n > 8) {
				size_t a = next() % (n - 8);
				memcpy(buf + a, "99999999", 8);
			}
		}
		fn(buf, len);
	}
	free(buf);
}

static int target_index(const char *name)
{
	for (int i = 0; i < ntargets; i++)
		if (strcmp(targets[i].name, name) == 0)
			return i;
	return -1;
}

static void expand(char *out, size_t cap, const char *pat)
{
	const char *corpus = getenv("FLYPROF_CORPUS");
	const char *samples = getenv("FLYPROF_SAMPLES");
	const char *root = getenv("ROOT");
	size_t o = 0;
	for (const char *s = pat; *s && o + 1 < cap;) {
		const char *rep = NULL;
		size_t skip = 0;
		if (strncmp(s, "$FLYPROF_CORPUS", 15) == 0) {
			rep = corpus ? corpus : "/nonexistent";
			skip = 15;
		} else if (strncmp(s, "$FLYPROF_SAMPLES", 16) == 0) {
			rep = samples ? samples : "/nonexistent";
			skip = 16;
		} else if (strncmp(s, "$ROOT", 5) == 0) {
			rep = root ? root : ".";
			skip = 5;
		}
		if (rep) {
			o += (size_t)snprintf(out + o, cap - o, "%s", rep);
			s += skip;
		} else {
			out[o++] = *s++;
		}
	}
	out[o < cap ? o : cap - 1] = '\0';
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fuzz-replay SEEDS_TXT [MUTATIONS]\n");
		return 2;
	}
	int mutations = argc > 2 ? atoi(argv[2]) : 200;
	int seeds[MAX_TARGETS] = {0};
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		char name[128], pat[800], path[1024];
		if (line[0] == '#' || sscanf(line, "%127s %799s", name, pat) != 2)
			continue;
		int t = target_index(name);
		if (t < 0)
			continue;
		expand(path, sizeof path, pat);
		glob_t g;
		if (glob(path, 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			size_t n;
			unsigned char *buf = slurp(g.gl_pathv[i], &n);
			if (!buf)
				continue;
			/* Large seeds are cut so the replay stays quick; the cut itself is a test.
			 */
			if (n > (1u << 20))
				n = 1u << 20;
			run_mutations(targets[t].fn, buf, n, mutations);
			free(buf);
			seeds[t]++;
		}
		globfree(&g);
	}
	fclose(f);
	static const char *builtin[] = {"",
					"{",
					"[]",
					"{\"a\":[1,2,{\"b\":null}]}",
					"\x7f"
					"ELF",
					"\x00\x01\x02",
					NULL};
	for (int t = 0; t < ntargets; t++) {
		if (!seeds[t])
			for (int b = 0; builtin[b]; b++)
				run_mutations(targets[t].fn, (const unsigned char *)builtin[b],
					      strlen(builtin[b]), mutations);
		printf("ok - fuzz %s (%d seed files, %d mutations each)\n", targets[t].name,
		       seeds[t], mutations);
	}
	printf("fuzz: %d passed, 0 failed\n", ntargets);
	return 0;
}
