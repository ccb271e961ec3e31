/* The timeline's packed state segments against the plain rule they pack: rows with a positive
 * duration, a run of one state (compared as the row has it, kept as an int) one segment, sums
 * wrapping. Values at the edges of the short form (state 6 and 7, cycles 2^60) and past it
 * (negative, wrapped, states that do not fit an int) come back as they went in, whichever
 * block the wave landed in and after parts are merged. */
#include "t.h"

#include "base/fileio.h"
#include "base/xalloc.h"
#include "core/amd/wave_timeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The rule, unpacked: what the timeline must give back. Returns the count; *end the end. */
static size_t ref_segments(const att_wave *w, tl_state *out, int64_t *end)
{
	size_t n = 0;
	int64_t at = w->begin, cycles = 0;
	int state = 0, open = 0;
	for (size_t i = 0; i < w->n_timeline; i++) {
		const att_wave_state *s = &w->timeline[i];
		if (s->duration <= 0)
			continue;
		if (open && state == s->state) {
			cycles = trace_add(cycles, s->duration);
		} else {
			if (open)
				out[n++].cycles = cycles;
			open = 1;
			state = (int)s->state;
			out[n].state = state;
			out[n].begin = at;
			cycles = s->duration;
		}
		at = trace_add(at, s->duration);
	}
	if (open)
		out[n++].cycles = cycles;
	*end = at;
	return n;
}

static void check_wave(const wave_timeline *t, const tl_wave *tw, const att_wave *w)
{
	tl_state *want = xcalloc(w->n_timeline + 1, sizeof *want);
	int64_t end;
	size_t n = ref_segments(w, want, &end);
	CHECK_INT(tw->n_states, n);
	CHECK_INT(tw->states_end, end);
	tl_state_iter it;
	tl_state s;
	size_t k = 0, bad = 0;
	tl_states_first(t, tw, &it);
	while (tl_states_next(&it, &s)) {
		if (k >= n || s.begin != want[k].begin || s.cycles != want[k].cycles ||
		    s.state != want[k].state)
			bad++;
		k++;
	}
	CHECK_INT(k, n);
	CHECK_INT(bad, 0);
	free(want);
}

static void set_rows(att_wave *w, const att_wave_state *rows, size_t n)
{
	free(w->timeline);
	w->timeline = xcalloc(n + 1, sizeof *w->timeline);
	memcpy(w->timeline, rows, n * sizeof *rows);
	w->n_timeline = w->cap_timeline = n;
}

TEST(wave_timeline_states_at_the_edges_of_the_short_form)
{
	const int64_t big = (int64_t)1 << 60;
	static const int64_t states[] = {
	    0, 1, 6, 7, -1, INT32_MAX, INT32_MIN, (1ll << 32) + 2, INT64_MIN, INT64_MAX};
	const int64_t durs[] = {1, 5, big - 1, big, 2 * big + 1, INT64_MAX, 0, -3, INT64_MIN};
	wave_timeline t;
	memset(&t, 0, sizeof t);
	att_wave w;
	att_wave_init(&w);
	w.begin = INT64_MAX - 10; /* the begins wrap too */
	w.end = 0;
	w.cu = 0;
	/* every state with every length, each row alone and twice in a row */
	size_t nst = sizeof states / sizeof *states, nd = sizeof durs / sizeof *durs;
	att_wave_state *rows = xcalloc(nst * nd * 3, sizeof *rows);
	size_t n = 0;
	for (size_t i = 0; i < nst; i++)
		for (size_t j = 0; j < nd; j++) {
			rows[n++] = (att_wave_state){states[i], durs[j]};
			rows[n++] = (att_wave_state){states[i], durs[(j + 1) % nd]};
			rows[n++] = (att_wave_state){states[(i + 1) % nst], durs[j]};
		}
	set_rows(&w, rows, n);
	CHECK_INT(wave_timeline_add(&t, "se0_sm0_sl0_wv0.json", 0, &w), 1);
	check_wave(&t, &t.waves[0], &w);
	/* one row of a kind alone in a wave */
	for (size_t i = 0; i < nst; i++)
		for (size_t j = 0; j < nd; j++) {
			att_wave_state r = {states[i], durs[j]};
			set_rows(&w, &r, 1);
			CHECK_INT(wave_timeline_add(&t, "se0_sm0_sl0_wv1.json", 1, &w), 1);
			check_wave(&t, &t.waves[t.n_waves - 1], &w);
		}
	/* no rows */
	set_rows(&w, rows, 0);
	CHECK_INT(wave_timeline_add(&t, "se0_sm0_sl0_wv2.json", 2, &w), 1);
	check_wave(&t, &t.waves[t.n_waves - 1], &w);
	free(rows);
	att_wave_release(&w);
	wave_timeline_release(&t);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void random_rows(att_wave *w, uint64_t *seed, size_t n)
{
	static const int64_t states[] = {1, 2, 3, 4, 0, 7, -2, (1ll << 33) + 3};
	att_wave_state *rows = xcalloc(n + 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rnd(seed);
		rows[i].state = states[(r >> 8) % ((r & 0xff) < 250 ? 4 : 8)];
		switch ((r >> 16) % 16) {
		case 0:
			rows[i].duration = 0;
			break;
		case 1:
			rows[i].duration = -(int64_t)((r >> 20) % 100);
			break;
		case 2:
			rows[i].duration = (int64_t)(r >> 3); /* up to 2^61: past the short form */
			break;
		default:
			rows[i].duration = (int64_t)((r >> 20) % 5000) + 1;
		}
	}
	set_rows(w, rows, n);
	free(rows);
}

/* Waves in several blocks (one of them larger than a block) of two parts, merged, and one more
 * wave added after the merge: every wave still reads back its own segments. */
TEST(wave_timeline_states_survive_blocks_and_merges)
{
	wave_timeline t, part[2];
	memset(&t, 0, sizeof t);
	wave_timeline_part(&t, &part[0]);
	wave_timeline_part(&t, &part[1]);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	enum { WAVES = 40 };
	att_wave w[WAVES + 1];
	size_t where[WAVES + 1]; /* which part took wave i */
	for (size_t i = 0; i <= WAVES; i++) {
		att_wave_init(&w[i]);
		w[i].begin = (int64_t)(rnd(&seed) % 100000);
		w[i].end = w[i].begin + 10;
		w[i].cu = (int64_t)(i % 3);
		random_rows(&w[i], &seed, i == 7 ? 200000 : (size_t)(rnd(&seed) % 3000));
	}
	char name[64];
	for (size_t i = 0; i < WAVES; i++) {
		where[i] = i % 5 == 0 ? 1 : 0;
		snprintf(name, sizeof name, "se0_sm%zu_sl0_wv%zu.json", i % 4, i);
		CHECK_INT(wave_timeline_add(&part[where[i]], name, i, &w[i]), 1);
	}
	CHECK(part[0].n_blocks > 1);
	wave_timeline_merge(&t, &part[0]);
	wave_timeline_merge(&t, &part[1]);
	snprintf(name, sizeof name, "se0_sm0_sl0_wv%d.json", WAVES);
	CHECK_INT(wave_timeline_add(&t, name, WAVES, &w[WAVES]), 1);
	CHECK_INT(t.n_waves, WAVES + 1);
	for (size_t k = 0; k < t.n_waves; k++)
		check_wave(&t, &t.waves[k], &w[t.waves[k].rank]);
	for (size_t i = 0; i <= WAVES; i++)
		att_wave_release(&w[i]);
	wave_timeline_release(&t);
}

/* top_lines 0 (REPORT.html's picture) does not read code.json: the states come even where it
 * is malformed, without a kernel name; with hot lines asked for, it is read and its error
 * stands. */
TEST(wave_timeline_without_hot_lines_reads_no_code_json)
{
	char *dir = path_join(t_tmpdir(), "tl_nocode");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	t_put(dir, "code.json", "{\"code\": [");
	t_put(dir, "se0_sm0_sl0_wv0.json",
	      "{\"name\":\"SE0\",\"duration\":100,\"wave\":{\"cu\":1,\"id\":0,\"simd\":0,"
	      "\"slot\":0,\"begin\":0,\"end\":100,\"instructions\":[[0,6,0,4,3]],"
	      "\"timeline\":[[2,60],[3,40]],\"waitcnt\":[]}}");
	wave_timeline t;
	CHECK_INT(wave_timeline_build(dir, 0, &t, &e), 0);
	CHECK_INT(t.n_waves, 1);
	CHECK_INT(t.n_hot, 0);
	CHECK(t.kernel == NULL);
	if (t.n_waves)
		CHECK_INT(t.waves[0].n_states, 2);
	wave_timeline_release(&t);
	CHECK_INT(wave_timeline_build(dir, 1, &t, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
	free(dir);
}

/* The hot lines' look-up against a search of them: on every line near the hot ones, negative,
 * past the table and huge, with the table (lines 0 .. 2^20 - 1) and without it (a hot line
 * outside), and a line hot twice answers its first entry. The records on hot lines become the
 * companion track with that index. */
static size_t search_hot(const wave_timeline *t, int64_t line)
{
	for (size_t i = 0; i < t->n_hot; i++)
		if (t->hot[i].code_line == line)
			return i;
	return (size_t)-1;
}

static void check_hot_lookup(const char *dir, const char *code, int want_table, size_t want_hot,
			     size_t want_insts)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	t_put(dir, "code.json", code);
	t_put(dir, "se0_sm0_sl0_wv0.json",
	      "{\"name\":\"SE0\",\"duration\":100,\"wave\":{\"cu\":1,\"id\":0,\"simd\":0,"
	      "\"slot\":0,\"begin\":0,\"end\":100,\"instructions\":[[0,6,1,4,3],[4,6,1,4,-3],"
	      "[8,6,2,4,5],[12,6,0,0,3],[16,6,3,4,1048576],[20,6,4,4,7],[24,6,5,4,1],"
	      "[28,6,6,4,9000000000]],\"timeline\":[[2,100]],\"waitcnt\":[]}}");
	wave_timeline t;
	CHECK_INT(wave_timeline_build(dir, 10, &t, &e), 0);
	if (e.set) {
		printf("  %s\n", e.message);
		fp_err_clear(&e);
		return;
	}
	CHECK_INT(t.hot_at != NULL, want_table);
	CHECK_INT(t.n_hot, want_hot);
	static const int64_t lines[] = {INT64_MIN, -1,	    0,		1,	  2, 3,
					4,	   5,	    6,		7,	  8, 1048575,
					1048576,   1 << 30, 9000000000, INT64_MAX};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
		CHECK_INT(wave_timeline_hot_of(&t, lines[i]), search_hot(&t, lines[i]));
	for (int64_t l = -3; l < 12; l++)
		CHECK_INT(wave_timeline_hot_of(&t, l), search_hot(&t, l));
	/* records with a positive duration on a hot line, in order */
	static const int64_t rec_lines[] = {3, -3, 5, 3, 1048576, 7, 1, 9000000000};
	size_t k = 0;
	for (size_t i = 0; i < 8; i++) {
		size_t h = search_hot(&t, rec_lines[i]);
		if (h == (size_t)-1 || i == 3) /* the fourth lasts 0 cycles */
			continue;
		CHECK(k < t.n_insts && t.insts[k].hot == h && t.insts[k].begin == (int64_t)i * 4);
		k++;
	}
	CHECK_INT(t.n_insts, k);
	CHECK_INT(k, want_insts);
	wave_timeline_release(&t);
}

TEST(wave_timeline_hot_lines_by_table_and_by_search)
{
	char *dir = path_join(t_tmpdir(), "tl_hot_table");
	/* hot: lines 5 (stall 50), 3 and 7 (40 each, line order), 1 (10); line 3 twice */
	check_hot_lookup(
	    dir,
	    "{\"code\":[[\"a\",0,1,\"k.py:1\",7,0,1,1,10,0],"
	    "[\"b\",0,3,\"k.py:3\",7,4,1,1,40,0],[\"c\",0,5,\"k.py:5\",7,8,1,1,50,0],"
	    "[\"d\",0,7,\"k.py:7\",7,12,1,1,40,0],[\"e\",0,3,\"k.py:3\",7,16,1,1,40,0],"
	    "[\"f\",0,2,\"k.py:2\",7,20,1,1,0,0]]}",
	    1, 5, 4);
	free(dir);
	dir = path_join(t_tmpdir(), "tl_hot_search");
	/* a hot line past the table: searched */
	check_hot_lookup(
	    dir,
	    "{\"code\":[[\"a\",0,1,\"k.py:1\",7,0,1,1,10,0],"
	    "[\"b\",0,9000000000,\"k.py:3\",7,4,1,1,40,0],"
	    "[\"c\",0,5,\"k.py:5\",7,8,1,1,50,0],[\"d\",0,1048576,\"k.py:7\",7,12,1,1,30,0]]}",
	    0, 4, 4);
	free(dir);
}
