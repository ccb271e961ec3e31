/* The wave reader's fast paths (att_fastint.h rows, quick_wait for waitcnt entries) against its
 * general path, on whole wave files: each random file is read as written (compact, so the fast
 * paths take it) and again with a space after every '[' and ',' (the same JSON, which only the
 * general path reads). Both must give the same values, or both fail with the same error code.
 * The files are random in the shapes the fast paths decline too (long numbers, signs, extra or
 * missing columns, empty lists) and some are changed at one byte. Each file is allocated to its
 * exact size, so ASan (make asan) sees any read past its end. */
#include "t.h"

#include "read/amd/att_wave.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0xD1B54A32D192ED03ull;
static unsigned odd; /* 1 in odd integers or rows is unusual; 0: none */
static unsigned rnd(unsigned m)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % m);
}

typedef struct text {
	char *b;
	size_t n, cap;
} text;

static void put(text *t, const char *s)
{
	size_t k = strlen(s);
	if (t->n + k + 1 > t->cap) {
		t->cap = 2 * (t->n + k + 1);
		t->b = realloc(t->b, t->cap);
	}
	memcpy(t->b + t->n, s, k + 1);
	t->n += k;
}

/* An integer as a trace holds it (mostly short), sometimes long, signed or zero-led. */
static void put_int(text *t)
{
	char d[32];
	unsigned r = rnd(40), len = r < 30 ? 1 + rnd(5) : r < 39 ? 6 + rnd(13) : 17 + rnd(2);
	if (odd && rnd(odd) == 0)
		len = 19 + rnd(2); /* over int64, or not */
	size_t k = 0;
	if (odd && rnd(odd) == 0)
		d[k++] = '-';
	int zero_led = odd && rnd(odd) == 0;
	for (unsigned i = 0; i < len; i++)
		d[k++] = (char)('0' + (i == 0 && len > 1 && !zero_led ? 1 + rnd(9) : rnd(10)));
	d[k] = 0;
	put(t, d);
}

/* "[i,i,...]" with n integers, now and then one more or one less. */
static void put_row(text *t, int n)
{
	int r = odd ? (int)rnd(odd) : 2, k = r == 0 ? n + 1 : r == 1 && n > 1 ? n - 1 : n;
	put(t, "[");
	for (int i = 0; i < k; i++) {
		if (i)
			put(t, ",");
		put_int(t);
	}
	put(t, "]");
}

static void put_rows(text *t, int n, unsigned most)
{
	unsigned rows = rnd(most + 1);
	put(t, "[");
	for (unsigned i = 0; i < rows; i++) {
		if (i)
			put(t, ",");
		put_row(t, n);
	}
	put(t, "]");
}

static void make_wave(text *t)
{
	t->n = 0;
	put(t, "{\"duration\":5,\"name\":\"SE0\",\"wave\":{\"begin\":");
	put_int(t);
	put(t, ",\"cu\":1,\"end\":");
	put_int(t);
	put(t, ",\"instructions\":");
	put_rows(t, 5, rnd(4) ? 40 : 300);
	put(t, ",\"timeline\":");
	put_rows(t, 2, rnd(4) ? 30 : 200);
	put(t, ",\"waitcnt\":[");
	unsigned entries = rnd(30);
	for (unsigned i = 0; i < entries; i++) {
		put(t, i ? ",[" : "[");
		put_int(t);
		put(t, ",");
		put_rows(t, 2, rnd(3) ? 1 : 6);
		put(t, "]");
	}
	put(t, "]}}");
}

/* The same document with a space after every '[' and ',' (no strings hold either). */
static void spaced(const text *t, text *s)
{
	s->n = 0;
	char c[3] = {0, ' ', 0};
	for (size_t i = 0; i < t->n; i++) {
		c[0] = t->b[i];
		c[1] = c[0] == '[' || c[0] == ',' ? ' ' : 0;
		put(s, c);
	}
}

static int parse_exact(const text *t, att_wave *w, fp_err *e)
{
	char *b = malloc(t->n ? t->n : 1);
	memcpy(b, t->b, t->n);
	int rc = att_wave_parse(b, t->n, "w.json", w, e);
	free(b);
	return rc;
}

static int same_wave(const att_wave *a, const att_wave *b)
{
	return a->begin == b->begin && a->end == b->end && a->n_insts == b->n_insts &&
	       a->n_timeline == b->n_timeline && a->n_waits == b->n_waits &&
	       !memcmp(a->insts, b->insts, a->n_insts * sizeof *a->insts) &&
	       !memcmp(a->timeline, b->timeline, a->n_timeline * sizeof *a->timeline) &&
	       !memcmp(a->waits, b->waits, a->n_waits * sizeof *a->waits);
}

TEST(att_wave_fast_paths_match_the_general_path)
{
	static const char bytes[] = " -0,]x.e[9\n{}:1";
	text t = {0}, s = {0};
	att_wave a, b;
	att_wave_init(&a);
	att_wave_init(&b);
	int ok = 0, failed = 0;
	for (int it = 0; it < 3000; it++) {
		odd = it % 2 ? 0 : 50 + rnd(400);
		make_wave(&t);
		if (it % 3 == 1) /* one byte changed, outside the first key */
			t.b[10 + rnd((unsigned)t.n - 10)] = bytes[rnd(sizeof bytes - 1)];
		spaced(&t, &s);
		fp_err ea = FP_ERR_INIT, eb = FP_ERR_INIT;
		int ra = parse_exact(&t, &a, &ea), rb = parse_exact(&s, &b, &eb);
		CHECK_INT(ra, rb);
		if (ra == 0 && rb == 0) {
			ok++;
			if (!same_wave(&a, &b))
				t_fail(__FILE__, __LINE__, "values differ: %.*s", (int)t.n, t.b);
		} else if (ra && rb) {
			failed++;
			CHECK_INT(ea.code, eb.code);
		}
		fp_err_clear(&ea);
		fp_err_clear(&eb);
	}
	/* Both kinds are common enough to mean something. */
	if (ok < 600 || failed < 300)
		t_fail(__FILE__, __LINE__, "%d files read, %d failed", ok, failed);
	att_wave_release(&a);
	att_wave_release(&b);
	free(t.b);
	free(s.b);
}
