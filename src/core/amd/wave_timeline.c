/* Timeline assembly. Wave files are read one at a time into one reused att_wave (the reader
 * keeps its capacity), so memory is the output itself: a few bytes per state segment.
 * Files are visited in sorted name order, so tracks and waves come out in a stable order. */
#include "core/amd/wave_timeline.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/signals.h"
#include "base/xalloc.h"
#include "core/amd/dispatch_select.h"
#include "read/amd/att_code.h"
#include "read/amd/att_realtime.h"
#include "read/amd/att_wave.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t track_of(wave_timeline *t, const tl_track *k)
{
	for (size_t i = t->n_tracks; i-- > 0;)
		if (!memcmp(&t->tracks[i], k, sizeof *k))
			return i;
	t->tracks = xreallocarray(t->tracks, t->n_tracks + 1, sizeof *t->tracks);
	t->tracks[t->n_tracks] = *k;
	return t->n_tracks++;
}

/* The hot lines: the top_lines executed instructions with the most stall (code_line order on
 * ties); wave_timeline_hot_of maps a code line to its index in t->hot or SIZE_MAX, through
 * hot_at: every instruction record asks (1.4 M on the corpus softmax), and a search of the
 * hot lines each time was most of the timeline's build. */
#define TL_HOT_AT_MAX ((int64_t)1 << 20)

size_t wave_timeline_hot_of(const wave_timeline *t, int64_t line)
{
	if (t->hot_at)
		return (uint64_t)line < t->n_hot_at ? (size_t)t->hot_at[line] - 1 : (size_t)-1;
	for (size_t i = 0; i < t->n_hot; i++)
		if (t->hot[i].code_line == line)
			return i;
	return (size_t)-1;
}

/* hot_at from hot: the last written of a line is its first hot entry, as the search gives. */
static void index_hot(wave_timeline *t)
{
	int64_t max = -1;
	for (size_t i = 0; i < t->n_hot; i++) {
		if (t->hot[i].code_line < 0 || t->hot[i].code_line >= TL_HOT_AT_MAX)
			return; /* searched */
		if (t->hot[i].code_line > max)
			max = t->hot[i].code_line;
	}
	if (max < 0)
		return;
	t->n_hot_at = (size_t)max + 1;
	t->hot_at = xcalloc(t->n_hot_at, sizeof *t->hot_at);
	for (size_t i = t->n_hot; i-- > 0;)
		t->hot_at[t->hot[i].code_line] = (uint32_t)i + 1;
}

static int cmp_stall_desc(const void *a, const void *b)
{
	const trace_inst *x = *(const trace_inst *const *)a, *y = *(const trace_inst *const *)b;
	if (x->stall != y->stall)
		return x->stall > y->stall ? -1 : 1;
	return x->code_line < y->code_line ? -1 : x->code_line > y->code_line;
}

static int pick_hot(const char *dir, size_t top, wave_timeline *t, fp_err *e)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	if (att_code_read(dir, &d, e)) {
		trace_dispatch_release(&d);
		return -1;
	}
	const trace_inst **v = xcalloc(d.n_insts + 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < d.n_insts; i++)
		if (!d.insts[i].is_label && d.insts[i].stall > 0)
			v[n++] = &d.insts[i];
	qsort(v, n, sizeof *v, cmp_stall_desc);
	if (n > top)
		n = top;
	t->hot = xcalloc(n + 1, sizeof *t->hot);
	for (size_t i = 0; i < n; i++) {
		t->hot[i].code_line = v[i]->code_line;
		t->hot[i].isa = xstrdup(v[i]->isa ? v[i]->isa : "");
		t->hot[i].source = xstrdup(v[i]->source ? v[i]->source : "");
		t->hot[i].stall = v[i]->stall;
	}
	t->n_hot = n;
	index_hot(t);
	if (d.kernel)
		t->kernel = xstrdup(d.kernel);
	free(v);
	trace_dispatch_release(&d);
	return 0;
}

static void read_clocks(const char *dir, wave_timeline *t)
{
	char *path = path_join(dir, "realtime.json");
	att_realtime rt;
	memset(&rt, 0, sizeof rt);
	fp_err e = FP_ERR_INIT;
	if (file_is_reg(path) && att_realtime_read(path, &rt, &e) == 0) {
		t->clocks = xcalloc(rt.n + 1, sizeof *t->clocks);
		for (size_t i = 0; i < rt.n; i++) {
			const att_rt_se *s = &rt.v[i];
			if (s->last_gfx <= s->first_gfx || s->last_rt <= s->first_rt)
				continue; /* one pair gives no rate */
			tl_clock *c = &t->clocks[t->n_clocks++];
			c->se = s->se;
			c->gfx0 = s->first_gfx;
			c->rt0 = s->first_rt;
			c->ticks_per_cycle = (double)(s->last_rt - s->first_rt) /
					     (double)(s->last_gfx - s->first_gfx);
		}
		t->rt_frequency = rt.frequency > 0 ? rt.frequency : 100000000;
	}
	att_realtime_release(&rt);
	fp_err_clear(&e);
	free(path);
}

/* A segment is one unsigned LEB128 integer, cycles << 3 | state, when its state is 0..6 and its
 * length 0..2^60-1 (every segment of a real trace: mostly two bytes); else the byte 7, then
 * state and cycles as zigzag LEB128 integers (any int, any int64). At most 16 bytes. */
#define TL_SEG_MAX 16
#define TL_SEG_ESC 7
#define TL_BLOCK   ((size_t)2 << 20) /* one huge page */

/* Writes u at p, returns the byte after it (a local pointer: stores through a field would make
 * the compiler reload it after every byte, a byte aliasing anything). */
static uint8_t *put_uint(uint8_t *p, uint64_t u)
{
	while (u >= 0x80) {
		*p++ = (uint8_t)(u | 0x80);
		u >>= 7;
	}
	*p++ = (uint8_t)u;
	return p;
}

static uint8_t *put_int(uint8_t *p, int64_t v)
{
	return put_uint(p, v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1);
}

static __attribute__((noinline)) uint8_t *put_seg_escaped(uint8_t *p, int state, int64_t cycles)
{
	*p++ = TL_SEG_ESC;
	return put_int(put_int(p, state), cycles);
}

/* The segment at p; a short one (below 2^14, one or two bytes: most of them) is written without
 * a branch on its length, whose mispredictions were most of the packing's time: its second
 * byte is stored either way (add_states reserved room past the end) and overwritten next. */
static inline uint8_t *put_seg(uint8_t *p, int state, int64_t cycles)
{
	/* one unsigned compare each: 0 <= state < 7, 0 <= cycles < 2^60 */
	if ((unsigned)state < TL_SEG_ESC && (uint64_t)cycles < (uint64_t)1 << 60) {
		uint64_t u = (uint64_t)cycles << 3 | (unsigned)state;
		if (u < 0x4000) {
			unsigned two = u >= 0x80;
			p[0] = (uint8_t)((u & 0x7f) | two << 7);
			p[1] = (uint8_t)(u >> 7);
			return p + 1 + two;
		}
		return put_uint(p, u);
	}
	return put_seg_escaped(p, state, cycles);
}

static const uint8_t *get_uint(const uint8_t *p, uint64_t *v)
{
	uint64_t u = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = *p++;
		u |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	*v = u;
	return p;
}

static const uint8_t *get_int(const uint8_t *p, int64_t *v)
{
	uint64_t u;
	p = get_uint(p, &u);
	*v = (u & 1) ? (int64_t) ~(u >> 1) : (int64_t)(u >> 1);
	return p;
}

/* Room for `need` bytes at the end of the last block: a new block when it lacks them (the old
 * one's tail stays unused). */
static uint8_t *block_room(wave_timeline *t, size_t need)
{
	if (t->n_blocks && t->block_cap - t->block_used >= need)
		return t->blocks[t->n_blocks - 1] + t->block_used;
	t->blocks = xgrow(t->blocks, &t->cap_blocks, t->n_blocks + 1, sizeof *t->blocks);
	/* written once, in order: whole huge pages (xmalloc_huge; adding the corpus softmax's
	 * 2,056 waves took 2.4 instead of 5.2 ms) */
	t->blocks[t->n_blocks++] = xmalloc_huge(need < TL_BLOCK ? TL_BLOCK : need, &t->block_cap);
	t->block_used = 0;
	return t->blocks[t->n_blocks - 1];
}

/* The wave's timeline rows with a positive duration, one segment for a run of one state. The
 * state is compared as the row has it and kept as an int, so a row whose state does not fit
 * an int opens a segment of its own. Sums wrap (trace_add): the end is the begin plus the
 * segments' lengths, added per segment rather than per row. */
static void add_states(wave_timeline *t, const att_wave *w, tl_wave *tw)
{
	/* no overflow: the rows, 16 bytes each, are in memory */
	uint8_t *p0 = block_room(t, TL_SEG_MAX * (w->n_timeline + 1)), *p = p0;
	const att_wave_state *s = w->timeline, *end = s + w->n_timeline;
	size_t n = 0;
	int64_t at = w->begin;
	while (s < end && s->duration <= 0)
		s++;
	if (s < end) {
		int state = (int)s->state;
		int64_t cycles = s->duration;
		for (s++; s < end; s++) {
			if (s->duration <= 0)
				continue;
			if (state == s->state) {
				cycles = trace_add(cycles, s->duration);
				continue;
			}
			p = put_seg(p, state, cycles);
			n++;
			at = trace_add(at, cycles);
			state = (int)s->state;
			cycles = s->duration;
		}
		p = put_seg(p, state, cycles);
		n++;
		at = trace_add(at, cycles);
	}
	tw->states = p0;
	tw->n_states = n;
	tw->states_end = at;
	t->block_used += (size_t)(p - p0);
	t->n_packed += (size_t)(p - p0);
}

void tl_states_first(const wave_timeline *t, const tl_wave *w, tl_state_iter *it)
{
	(void)t;
	it->p = w->states;
	it->left = w->n_states;
	it->at = w->begin;
}

const uint8_t *tl_state_decode(const uint8_t *p, tl_state *s)
{
	uint64_t u;
	p = get_uint(p, &u);
	if ((u & 7) != TL_SEG_ESC) {
		s->state = (int)(u & 7);
		s->cycles = (int64_t)(u >> 3);
	} else {
		int64_t state;
		p = get_int(get_int(p, &state), &s->cycles);
		s->state = (int)state;
	}
	return p;
}

static void add_insts(wave_timeline *t, const att_wave *w, tl_wave *tw)
{
	tw->first_inst = t->n_insts;
	for (size_t i = 0; i < w->n_insts && t->n_hot; i++) {
		const att_wave_inst *in = &w->insts[i];
		size_t k = wave_timeline_hot_of(t, in->line);
		if (k == (size_t)-1 || in->duration <= 0)
			continue;
		if (t->n_insts == t->cap_insts) {
			t->cap_insts = t->cap_insts ? 2 * t->cap_insts : 1024;
			t->insts = xreallocarray(t->insts, t->cap_insts, sizeof *t->insts);
		}
		t->insts[t->n_insts++] = (tl_inst){in->time, in->duration, in->stall, k};
	}
	tw->n_insts = t->n_insts - tw->first_inst;
}

static void set_axis(wave_timeline *t);

int wave_timeline_begin(const char *dir, size_t top_lines, wave_timeline *t, fp_err *e)
{
	memset(t, 0, sizeof *t);
	/* without hot lines code.json has nothing to give the picture: not read again (3 M
	 * instructions on the corpus softmax) */
	if (top_lines && pick_hot(dir, top_lines, t, e)) {
		wave_timeline_release(t);
		return -1;
	}
	read_clocks(dir, t);
	return 0;
}

int wave_timeline_add(wave_timeline *t, const char *name, size_t rank, const att_wave *w)
{
	wave_file_name f;
	if (!dispatch_wave_file_name(name, &f))
		return 0;
	tl_track k = {f.se, w->cu, w->simd >= 0 ? w->simd : f.simd,
		      w->slot >= 0 ? w->slot : f.slot};
	t->waves = xgrow_huge(t->waves, &t->cap_waves, t->n_waves + 1, sizeof *t->waves);
	tl_wave *tw = &t->waves[t->n_waves++];
	memset(tw, 0, sizeof *tw);
	tw->rank = rank;
	tw->track = track_of(t, &k);
	tw->id = w->id >= 0 ? w->id : f.wave;
	tw->begin = w->begin;
	tw->end = w->end;
	add_states(t, w, tw);
	add_insts(t, w, tw);
	return 1;
}

static int cmp_rank(const void *a, const void *b)
{
	const tl_wave *x = a, *y = b;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void wave_timeline_part(const wave_timeline *t, wave_timeline *part)
{
	memset(part, 0, sizeof *part);
	part->hot = xcalloc(t->n_hot + 1, sizeof *part->hot);
	for (size_t i = 0; i < t->n_hot; i++) {
		part->hot[i] = t->hot[i];
		part->hot[i].isa = xstrdup(t->hot[i].isa);
		part->hot[i].source = xstrdup(t->hot[i].source);
	}
	part->n_hot = t->n_hot;
	index_hot(part);
}

static void *append(void *dst, size_t *n, size_t *cap, const void *src, size_t m, size_t size)
{
	if (!m)
		return dst;
	dst = xgrow(dst, cap, *n + m, size);
	memcpy((char *)dst + *n * size, src, m * size);
	*n += m;
	return dst;
}

/* t takes part's blocks (the waves' states pointers stay valid): the last block is part's. */
static void take_blocks(wave_timeline *t, wave_timeline *part)
{
	if (!part->n_blocks)
		return;
	t->blocks = append(t->blocks, &t->n_blocks, &t->cap_blocks, part->blocks, part->n_blocks,
			   sizeof *t->blocks);
	t->block_used = part->block_used;
	t->block_cap = part->block_cap;
	t->n_packed += part->n_packed;
	part->n_blocks = part->n_packed = 0;
}

void wave_timeline_merge(wave_timeline *t, wave_timeline *part)
{
	take_blocks(t, part);
	if (!t->n_waves && !t->n_insts && !t->n_tracks) {
		/* the first part (the only one with one worker): take its arrays as they are */
		free(t->waves);
		free(t->insts);
		free(t->tracks);
		t->waves = part->waves, t->n_waves = part->n_waves, t->cap_waves = part->cap_waves;
		t->insts = part->insts, t->n_insts = part->n_insts, t->cap_insts = part->cap_insts;
		t->tracks = part->tracks, t->n_tracks = part->n_tracks;
		part->waves = NULL, part->insts = NULL, part->tracks = NULL;
		part->n_waves = part->n_insts = part->n_tracks = 0;
		wave_timeline_release(part);
		return;
	}
	size_t inst0 = t->n_insts, n_waves = t->n_waves;
	t->insts = append(t->insts, &t->n_insts, &t->cap_insts, part->insts, part->n_insts,
			  sizeof *t->insts);
	t->waves =
	    append(t->waves, &n_waves, &t->cap_waves, part->waves, part->n_waves, sizeof *t->waves);
	for (size_t i = t->n_waves; i < n_waves; i++) {
		tl_wave *w = &t->waves[i];
		w->track = track_of(t, &part->tracks[w->track]);
		w->first_inst += inst0;
	}
	t->n_waves = n_waves;
	wave_timeline_release(part);
}

/* Waves added out of name order (by SIMD group, by several workers) are put back in name
 * order, and tracks renumbered by first appearance in that order: the timeline a name-order
 * build gives. */
static void to_name_order(wave_timeline *t)
{
	int sorted = 1;
	for (size_t i = 1; i < t->n_waves && sorted; i++)
		sorted = t->waves[i - 1].rank < t->waves[i].rank;
	if (!sorted)
		qsort(t->waves, t->n_waves, sizeof *t->waves, cmp_rank);
	size_t *map = xcalloc(t->n_tracks + 1, sizeof *map);
	for (size_t i = 0; i < t->n_tracks; i++)
		map[i] = (size_t)-1;
	tl_track *tracks = xcalloc(t->n_tracks + 1, sizeof *tracks);
	size_t n = 0;
	for (size_t i = 0; i < t->n_waves; i++) {
		size_t old = t->waves[i].track;
		if (map[old] == (size_t)-1) {
			tracks[n] = t->tracks[old];
			map[old] = n++;
		}
		t->waves[i].track = map[old];
	}
	free(t->tracks);
	t->tracks = tracks;
	t->n_tracks = n;
	free(map);
}

int wave_timeline_finish(wave_timeline *t, const char *dir, fp_err *e)
{
	if (t->n_waves == 0) {
		wave_timeline_release(t);
		return fp_fail(e, ERR_NO_ARTIFACT, "%s holds no wave file (se*_sm*_sl*_wv*.json)",
			       dir);
	}
	to_name_order(t);
	set_axis(t);
	return 0;
}

int wave_timeline_build(const char *dir, size_t top_lines, wave_timeline *t, fp_err *e)
{
	size_t n = 0;
	memset(t, 0, sizeof *t);
	char **names = file_list_dir(dir, &n, e);
	if (!names)
		return -1;
	qsort(names, n, sizeof *names, cmp_names);
	int rc = wave_timeline_begin(dir, top_lines, t, e);
	att_wave w;
	att_wave_init(&w);
	/* Files opened relative to the open directory, into one reused buffer. */
	int dirfd = rc == 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	char *buf = NULL;
	size_t cap = 0, rank = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!dispatch_is_wave_file(names[i]))
			continue;
		if (signals_pending()) {
			rc = fp_fail(e, ERR_INTERRUPTED, "interrupted while reading wave files");
			break;
		}
		char *path = path_join(dir, names[i]);
		size_t len = 0;
		rc = input_read_into_at(dirfd, names[i], path, INPUT_ANY, &buf, &cap, &len, e);
		if (rc == 0)
			rc = att_wave_parse(buf, len, path, &w, e);
		free(path);
		if (rc)
			break;
		wave_timeline_add(t, names[i], rank++, &w);
	}
	att_wave_release(&w);
	free(buf);
	if (dirfd >= 0)
		close(dirfd);
	file_list_free(names, n);
	if (rc) {
		wave_timeline_release(t);
		return -1;
	}
	return wave_timeline_finish(t, dir, e);
}

static const tl_clock *clock_of(const wave_timeline *t, int64_t se)
{
	for (size_t i = 0; i < t->n_clocks; i++)
		if (t->clocks[i].se == se)
			return &t->clocks[i];
	return NULL;
}

static int all_clocked(const wave_timeline *t)
{
	for (size_t i = 0; i < t->n_tracks; i++)
		if (!clock_of(t, t->tracks[i].se))
			return 0;
	return t->n_tracks > 0;
}

/* Realtime ticks (or plain cycles without a clock) of a cycle count of SE se. */
static double axis(const wave_timeline *t, int64_t se, int64_t cycles)
{
	const tl_clock *c = t->realtime ? clock_of(t, se) : NULL;
	if (!c)
		return (double)cycles;
	return (double)c->rt0 + (double)(cycles - c->gfx0) * c->ticks_per_cycle;
}

static void set_axis(wave_timeline *t)
{
	t->realtime = all_clocked(t);
	for (size_t i = 0; i < t->n_waves; i++) {
		double a = axis(t, t->tracks[t->waves[i].track].se, t->waves[i].begin);
		if (i == 0 || a < t->origin)
			t->origin = a;
	}
}

double wave_timeline_us(const wave_timeline *t, int64_t se, int64_t cycles)
{
	double v = axis(t, se, cycles) - t->origin;
	return t->realtime ? v * 1e6 / (double)t->rt_frequency : v / 1000.0;
}

void wave_timeline_release(wave_timeline *t)
{
	for (size_t i = 0; i < t->n_hot; i++) {
		free(t->hot[i].isa);
		free(t->hot[i].source);
	}
	free(t->hot);
	free(t->hot_at);
	free(t->tracks);
	free(t->waves);
	for (size_t i = 0; i < t->n_blocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->insts);
	free(t->clocks);
	free(t->kernel);
	memset(t, 0, sizeof *t);
}
