#include "core/amd/wave_agg.h"

#include "base/fileio.h"
#include "base/signals.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/amd/att_scan.h"
#include "read/amd/att_wave.h"
#include "core/amd/dispatch_select.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORKERS 64

typedef struct pair_slot {
	int64_t wait, prod, waves;
	size_t last; /* file index + 1 of the last wave counted; 0 = empty slot */
} pair_slot;

typedef struct shared {
	const char *dir;
	int dirfd; /* dir, open: files are opened relative to it (-1 if it could not be) */
	char **files;
	size_t n_files, n_lines;
	int64_t detail_line;
	const wave_pass_hooks *hooks; /* NULL: workers claim files; else (SE, SIMD) groups */
	size_t *order;		      /* file indices by (SE, SIMD, name): the groups' files */
	size_t *group_at;	      /* group g is order[group_at[g] .. group_at[g + 1]) */
	int64_t *group_se, *group_simd;
	size_t n_groups;
	atomic_size_t next;    /* the next file, or with hooks the next group */
	atomic_size_t min_err; /* index of the first failing file seen, or SIZE_MAX */
} shared;

typedef struct worker {
	shared *sh;
	wave_agg acc; /* lines, counters, detail, cus (pairs kept in tab) */
	size_t *wait_last;
	pair_slot *tab;
	size_t tab_cap, tab_n;
	size_t cap_detail, cap_cus;
	char *buf;
	size_t buf_cap;
	att_wave w;
	att_wave *slots; /* with hooks: the current group's waves (records only), reused */
	size_t n_slots;
	att_wave *sub; /* one CU's waves when a group spans several CUs */
	size_t cap_sub;
	size_t *pos; /* the waves' pos (wave_group): 0, 1, ..., or sub's */
	size_t cap_pos;
	size_t *by_cu; /* positions in the group, sorted by (CU, position) */
	size_t *runs;  /* start of each CU's run in by_cu, ordered by first position */
	size_t cap_by_cu, cap_runs;
	void *hk; /* the hooks' worker state */
	strbuf path;
	fp_err err;
	size_t err_index;
} worker;

static inline size_t pair_hash(int64_t a, int64_t b)
{
	uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull ^ ((uint64_t)b + 0x632BE59BD9B4E019ull);
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(h ^ (h >> 32));
}

static void tab_grow(worker *k)
{
	size_t ncap = k->tab_cap ? k->tab_cap * 2 : 1024;
	pair_slot *nt = xcalloc(ncap, sizeof *nt);
	for (size_t i = 0; i < k->tab_cap; i++) {
		if (!k->tab[i].last)
			continue;
		size_t j = pair_hash(k->tab[i].wait, k->tab[i].prod) & (ncap - 1);
		while (nt[j].last)
			j = (j + 1) & (ncap - 1);
		nt[j] = k->tab[i];
	}
	free(k->tab);
	k->tab = nt;
	k->tab_cap = ncap;
}

/* Counts (wait, prod) once per wave (wave = file index + 1). */
static void tab_note(worker *k, int64_t wait, int64_t prod, size_t wave)
{
	if (2 * (k->tab_n + 1) > k->tab_cap)
		tab_grow(k);
	size_t j = pair_hash(wait, prod) & (k->tab_cap - 1);
	while (k->tab[j].last && (k->tab[j].wait != wait || k->tab[j].prod != prod))
		j = (j + 1) & (k->tab_cap - 1);
	pair_slot *s = &k->tab[j];
	if (!s->last) {
		s->wait = wait;
		s->prod = prod;
		k->tab_n++;
	} else if (s->last == wave) {
		return;
	}
	s->last = wave;
	s->waves++;
}

static int64_t se_of(const char *name)
{
	wave_file_name f = {0, 0, 0, 0}; /* the pass's files all are wave files */
	dispatch_wave_file_name(name, &f);
	return f.se;
}

static void note_cu(worker *k, int64_t se, int64_t cu)
{
	wave_agg *a = &k->acc;
	for (size_t i = 0; i < a->n_cus; i++)
		if (a->cus[i].se == se && a->cus[i].cu == cu)
			return;
	a->cus = xgrow(a->cus, &k->cap_cus, a->n_cus + 1, sizeof *a->cus);
	a->cus[a->n_cus++] = (wave_cu){se, cu};
}

/* The per-record fold, the hot loop after parsing (~1.4M records on a big trace). Everything it
 * reads or bumps is held in locals: the records, the lines and the counters are all int64, so
 * through the pointers the compiler would have to reload and store them around every update.
 * Range checks are single unsigned compares (a negative value casts above any bound). Made twice
 * (with_detail a constant), so that the usual pass without --detail carries no per-record test
 * of the detail line. Returns the records on line 0 and on lines beyond the table. */
static inline __attribute__((always_inline)) void
fold_records(const att_wave_inst *r, const att_wave_inst *end, int64_t prev, wave_line *lines,
	     uint64_t n_lines, int with_detail, int64_t dl, wave_detail *det, int64_t *unmapped,
	     int64_t *unknown)
{
	int64_t un = 0, uk = 0;
	for (; r < end; r++) {
		const int64_t line = r->line, time = r->time, dur = r->duration, stall = r->stall;
		const int64_t cat = r->category;
		const int64_t done = trace_add(time, dur);
		/* one compare for both rare cases: line 0, and a line past the table (n_lines >= 1)
		 */
		if ((uint64_t)line - 1 >= n_lines - 1) {
			if (line == 0) { /* pc {0,0}: excluded, prev_end untouched
					    (docs/facts-rocprofv3.md#metric-semantics) */
				un++;
				continue;
			}
			prev = done > prev ? done : prev;
			uk++;
			continue;
		}
		int64_t gap = trace_sub(time, prev);
		gap = gap < 0 ? 0 : gap;
		prev = done > prev ? done : prev;
		wave_line *L = &lines[line];
		L->hits++;
		L->latency = trace_add(L->latency, dur);
		L->stall = trace_add(L->stall, stall);
		L->idle = trace_add(L->idle, gap);
		L->cats[(uint64_t)cat < WAVE_N_CATS - 1 ? cat : WAVE_N_CATS - 1]++;
		if (with_detail && line == dl) {
			det->hits++;
			det->latency = trace_add(det->latency, dur);
			det->stall = trace_add(det->stall, stall);
			det->idle = trace_add(det->idle, gap);
		}
	}
	*unmapped = un;
	*unknown = uk;
}

static void fold_insts(worker *k, size_t file, const att_wave *w)
{
	wave_agg *a = &k->acc;
	const att_wave_inst *r = w->insts, *end = w->insts + w->n_insts;
	const int64_t dl = k->sh->detail_line;
	int64_t unmapped = 0, unknown = 0;
	wave_detail det = {file, 0, 0, 0, 0};
	a->records += (int64_t)w->n_insts;
	if (dl < 0) /* no line is negative: nothing to detail */
		fold_records(r, end, w->begin, a->lines, k->sh->n_lines, 0, dl, &det, &unmapped,
			     &unknown);
	else
		fold_records(r, end, w->begin, a->lines, k->sh->n_lines, 1, dl, &det, &unmapped,
			     &unknown);
	a->unmapped_records += unmapped;
	a->unknown_line_records += unknown;
	if (det.hits) {
		a->detail = xgrow(a->detail, &k->cap_detail, a->n_detail + 1, sizeof *a->detail);
		a->detail[a->n_detail++] = det;
	}
}

static void fold(worker *k, size_t file, const att_wave *w)
{
	wave_agg *a = &k->acc;
	fold_insts(k, file, w);
	int64_t tl = a->timeline_cycles;
	for (const att_wave_state *t = w->timeline, *te = w->timeline + w->n_timeline; t < te;
	     t++) {
		uint64_t st = (uint64_t)t->state; /* negative ones cast above the bound */
		int64_t *sc = &a->state_cycles[st < WAVE_N_STATES ? st : WAVE_N_STATES - 1];
		*sc = trace_add(*sc, t->duration);
		tl = trace_add(tl, t->duration);
	}
	a->timeline_cycles = tl;
	a->wave_cycles = trace_add(a->wave_cycles, trace_sub(w->end, w->begin));
	for (size_t i = 0; i < w->n_waits; i++) {
		int64_t wl = w->waits[i].wait_line;
		tab_note(k, wl, w->waits[i].producer_line, file + 1);
		if (wl >= 0 && (uint64_t)wl < k->sh->n_lines && k->wait_last[wl] != file + 1) {
			k->wait_last[wl] = file + 1;
			a->lines[wl].wait_waves++;
		}
	}
	note_cu(k, se_of(k->sh->files[file]), w->cu);
}

static void lower_min(atomic_size_t *m, size_t v)
{
	size_t cur = atomic_load(m);
	while (v < cur && !atomic_compare_exchange_weak(m, &cur, v))
		;
}

/* Reads and parses file i into w and folds it: 0, or -1 with the error noted. */
static int do_file(worker *k, size_t i, att_wave *w)
{
	shared *sh = k->sh;
	sb_reset(&k->path);
	sb_adds(&k->path, sh->dir);
	sb_addc(&k->path, '/');
	size_t name_at = k->path.len;
	sb_adds(&k->path, sh->files[i]);
	size_t len = 0;
	fp_err e = FP_ERR_INIT;
	if (att_read_file_at(sh->dirfd, sb_str(&k->path) + name_at, sb_str(&k->path), &k->buf,
			     &k->buf_cap, &len, &e) ||
	    att_wave_parse(k->buf, len, sb_str(&k->path), w, &e)) {
		if (i < k->err_index) {
			fp_err_move(&k->err, &e);
			k->err_index = i;
		}
		fp_err_clear(&e);
		lower_min(&sh->min_err, i);
		return -1;
	}
	k->acc.bytes = trace_add(k->acc.bytes, (int64_t)len);
	fold(k, i, w);
	return 0;
}

static int cmp_cu_pos(const void *x, const void *y, void *arg)
{
	const att_wave *ws = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (ws[a].cu != ws[b].cu)
		return ws[a].cu < ws[b].cu ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmp_run(const void *x, const void *y, void *arg)
{
	const size_t *by_cu = arg;
	size_t a = by_cu[*(const size_t *)x], b = by_cu[*(const size_t *)y];
	return a < b ? -1 : a > b;
}

/* Hands the group's n waves (k->slots) to on_group, one call per CU (a SIMD index is per CU;
 * one target CU per SE in practice, so usually one call), CUs in order of first appearance. */
static void hand_group(worker *k, int64_t se, int64_t simd, size_t n)
{
	const wave_pass_hooks *h = k->sh->hooks;
	const att_wave *ws = k->slots;
	size_t same = 1;
	while (same < n && ws[same].cu == ws[0].cu)
		same++;
	k->pos = xgrow(k->pos, &k->cap_pos, n, sizeof *k->pos);
	if (same == n) {
		for (size_t i = 0; i < n; i++)
			k->pos[i] = i;
		wave_group g = {se, ws[0].cu, simd, ws, n, k->pos};
		h->on_group(k->hk, &g);
		return;
	}
	k->by_cu = xgrow(k->by_cu, &k->cap_by_cu, n, sizeof *k->by_cu);
	k->runs = xgrow(k->runs, &k->cap_runs, n, sizeof *k->runs);
	k->sub = xgrow(k->sub, &k->cap_sub, n, sizeof *k->sub);
	for (size_t i = 0; i < n; i++)
		k->by_cu[i] = i;
	qsort_r(k->by_cu, n, sizeof *k->by_cu, cmp_cu_pos, k->slots);
	size_t n_runs = 0;
	for (size_t i = 0; i < n; i++)
		if (!i || ws[k->by_cu[i]].cu != ws[k->by_cu[i - 1]].cu)
			k->runs[n_runs++] = i;
	qsort_r(k->runs, n_runs, sizeof *k->runs, cmp_run, k->by_cu);
	for (size_t r = 0; r < n_runs; r++) {
		size_t m = 0, cu_at = k->by_cu[k->runs[r]];
		for (size_t i = k->runs[r]; i < n && ws[k->by_cu[i]].cu == ws[cu_at].cu; i++) {
			k->pos[m] = k->by_cu[i];
			k->sub[m++] = ws[k->by_cu[i]];
		}
		wave_group g = {se, ws[cu_at].cu, simd, k->sub, m, k->pos};
		h->on_group(k->hk, &g);
	}
}

/* Keeps the wave just parsed into k->w in slot s: its records and place move over (arrays
 * swapped, nothing copied: k->w parses the next file into the slot's old records array); its
 * timeline and waitcnt pairs stay in k->w, so a group holds only the records the group hook
 * reads; none when it reads places only (wave_pass_hooks.places_only). */
static void keep_in_slot(worker *k, att_wave *s)
{
	s->begin = k->w.begin, s->end = k->w.end, s->cu = k->w.cu;
	s->id = k->w.id, s->simd = k->w.simd, s->slot = k->w.slot;
	if (k->sh->hooks->places_only) {
		s->n_insts = 0;
		return;
	}
	att_wave_inst *insts = s->insts;
	size_t cap = s->cap_insts;
	s->insts = k->w.insts;
	s->cap_insts = k->w.cap_insts;
	s->n_insts = k->w.n_insts;
	k->w.insts = insts;
	k->w.cap_insts = cap;
	k->w.n_insts = 0;
}

/* One (SE, SIMD) group: its files parsed one by one, each folded and handed to on_wave and
 * its records kept in a slot (reused group after group), then the group to on_group. Stops
 * at the first failing file: the group's later files come later in name order, so they
 * cannot be the first failure. */
static void do_group(worker *k, size_t g)
{
	shared *sh = k->sh;
	size_t from = sh->group_at[g], n = sh->group_at[g + 1] - from;
	if (n > k->n_slots) {
		k->slots = xreallocarray(k->slots, n, sizeof *k->slots);
		for (size_t j = k->n_slots; j < n; j++)
			att_wave_init(&k->slots[j]);
		k->n_slots = n;
	}
	for (size_t j = 0; j < n; j++) {
		size_t i = sh->order[from + j];
		if (signals_pending() || i > atomic_load(&sh->min_err))
			return;
		if (do_file(k, i, &k->w))
			return;
		sh->hooks->on_wave(k->hk, sh->files[i], i, j, &k->w);
		keep_in_slot(k, &k->slots[j]);
	}
	hand_group(k, sh->group_se[g], sh->group_simd[g], n);
}

static void *work(void *arg)
{
	worker *k = arg;
	shared *sh = k->sh;
	size_t n = sh->hooks ? sh->n_groups : sh->n_files;
	for (;;) {
		size_t i = atomic_fetch_add(&sh->next, 1);
		if (i >= n || signals_pending())
			break; /* done, or interrupted: main answers INTERRUPTED */
		if (sh->hooks)
			do_group(k, i);
		else if (i <= atomic_load(&sh->min_err)) /* else an earlier file already failed:
							    only earlier ones matter */
			do_file(k, i, &k->w);
	}
	return NULL;
}

static void worker_init(worker *k, shared *sh)
{
	memset(k, 0, sizeof *k);
	k->sh = sh;
	k->acc.n_lines = sh->n_lines;
	k->acc.lines = xcalloc(sh->n_lines ? sh->n_lines : 1, sizeof *k->acc.lines);
	k->wait_last = xcalloc(sh->n_lines ? sh->n_lines : 1, sizeof *k->wait_last);
	k->err_index = SIZE_MAX;
	att_wave_init(&k->w);
	sb_init(&k->path);
	if (sh->hooks)
		k->hk = sh->hooks->worker_begin(sh->hooks->ctx);
}

static void worker_release(worker *k)
{
	free(k->acc.lines);
	free(k->acc.detail);
	free(k->acc.cus);
	free(k->wait_last);
	free(k->tab);
	free(k->buf);
	att_wave_release(&k->w);
	for (size_t j = 0; j < k->n_slots; j++)
		att_wave_release(&k->slots[j]);
	free(k->slots);
	free(k->sub);
	free(k->pos);
	free(k->by_cu);
	free(k->runs);
	sb_release(&k->path);
	fp_err_clear(&k->err);
}

static int cmp_pair(const void *x, const void *y)
{
	const wave_pair *a = x, *b = y;
	if (a->wait_line != b->wait_line)
		return a->wait_line < b->wait_line ? -1 : 1;
	return a->producer_line < b->producer_line ? -1 : a->producer_line > b->producer_line;
}

static int cmp_detail(const void *x, const void *y)
{
	const wave_detail *a = x, *b = y;
	return a->file < b->file ? -1 : a->file > b->file;
}

static int cmp_cu(const void *x, const void *y)
{
	const wave_cu *a = x, *b = y;
	if (a->se != b->se)
		return a->se < b->se ? -1 : 1;
	return a->cu < b->cu ? -1 : a->cu > b->cu;
}

static void merge_pairs(wave_agg *out, worker *ks, int nk)
{
	size_t total = 0;
	for (int t = 0; t < nk; t++)
		total = trace_add(total, ks[t].tab_n);
	wave_pair *v = xcalloc(total ? total : 1, sizeof *v);
	size_t n = 0;
	for (int t = 0; t < nk; t++)
		for (size_t i = 0; i < ks[t].tab_cap; i++)
			if (ks[t].tab[i].last)
				v[n++] = (wave_pair){ks[t].tab[i].wait, ks[t].tab[i].prod,
						     ks[t].tab[i].waves};
	qsort(v, n, sizeof *v, cmp_pair);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && v[m - 1].wait_line == v[i].wait_line &&
		    v[m - 1].producer_line == v[i].producer_line)
			v[m - 1].waves += v[i].waves;
		else
			v[m++] = v[i];
	}
	out->pairs = v;
	out->n_pairs = m;
}

static void merge_counts(wave_agg *out, const wave_agg *a)
{
	for (size_t l = 0; l < out->n_lines; l++) {
		wave_line *o = &out->lines[l];
		const wave_line *s = &a->lines[l];
		o->hits = trace_add(o->hits, s->hits);
		o->latency = trace_add(o->latency, s->latency);
		o->stall = trace_add(o->stall, s->stall);
		o->idle = trace_add(o->idle, s->idle);
		o->wait_waves = trace_add(o->wait_waves, s->wait_waves);
		for (int c = 0; c < WAVE_N_CATS; c++)
			o->cats[c] += s->cats[c];
	}
	out->records = trace_add(out->records, a->records);
	out->unmapped_records = trace_add(out->unmapped_records, a->unmapped_records);
	out->unknown_line_records = trace_add(out->unknown_line_records, a->unknown_line_records);
	for (int s = 0; s < WAVE_N_STATES; s++)
		out->state_cycles[s] = trace_add(out->state_cycles[s], a->state_cycles[s]);
	out->timeline_cycles = trace_add(out->timeline_cycles, a->timeline_cycles);
	out->wave_cycles = trace_add(out->wave_cycles, a->wave_cycles);
	out->bytes = trace_add(out->bytes, a->bytes);
}

static void merge_lists(wave_agg *out, worker *ks, int nk)
{
	size_t nd = 0, nc = 0;
	for (int t = 0; t < nk; t++) {
		nd = trace_add(nd, ks[t].acc.n_detail);
		nc = trace_add(nc, ks[t].acc.n_cus);
	}
	out->detail = xcalloc(nd ? nd : 1, sizeof *out->detail);
	out->cus = xcalloc(nc ? nc : 1, sizeof *out->cus);
	for (int t = 0; t < nk; t++) {
		if (ks[t].acc.n_detail)
			memcpy(out->detail + out->n_detail, ks[t].acc.detail,
			       ks[t].acc.n_detail * sizeof *out->detail);
		out->n_detail += ks[t].acc.n_detail;
		if (ks[t].acc.n_cus)
			memcpy(out->cus + out->n_cus, ks[t].acc.cus,
			       ks[t].acc.n_cus * sizeof *out->cus);
		out->n_cus += ks[t].acc.n_cus;
	}
	qsort(out->detail, out->n_detail, sizeof *out->detail, cmp_detail);
	qsort(out->cus, out->n_cus, sizeof *out->cus, cmp_cu);
	size_t m = 0;
	for (size_t i = 0; i < out->n_cus; i++)
		if (!m || cmp_cu(&out->cus[m - 1], &out->cus[i]) != 0)
			out->cus[m++] = out->cus[i];
	out->n_cus = m;
}

/* The wave files among the listing's names, in name order: an array of the listing's strings
 * (they stay the listing's). */
static char **list_wave_files(file_listing *names, size_t *n, fp_err *e)
{
	size_t all = 0;
	char **v = file_listing_names(names, &all, e);
	if (!v)
		return NULL;
	char **w = xcalloc(all + 1, sizeof *w);
	size_t m = 0;
	for (size_t i = 0; i < all; i++)
		if (dispatch_is_wave_file(v[i]))
			w[m++] = v[i];
	*n = m;
	return w;
}

/* The (SE, SIMD) of every file from its name and the groups: files sorted by (SE, SIMD,
 * name). */

static int cmp_group_key(const void *x, const void *y, void *arg)
{
	const int64_t *key = arg; /* se, simd per file */
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (key[2 * a] != key[2 * b])
		return key[2 * a] < key[2 * b] ? -1 : 1;
	if (key[2 * a + 1] != key[2 * b + 1])
		return key[2 * a + 1] < key[2 * b + 1] ? -1 : 1;
	return a < b ? -1 : a > b; /* files are sorted by name: index order is name order */
}

static void make_groups(shared *sh)
{
	size_t n = sh->n_files;
	int64_t *key = xcalloc(2 * n + 1, sizeof *key);
	sh->order = xcalloc(n + 1, sizeof *sh->order);
	sh->group_at = xcalloc(n + 2, sizeof *sh->group_at);
	sh->group_se = xcalloc(n + 1, sizeof *sh->group_se);
	sh->group_simd = xcalloc(n + 1, sizeof *sh->group_simd);
	for (size_t i = 0; i < n; i++) {
		wave_file_name f = {0, 0, 0, 0};
		dispatch_wave_file_name(sh->files[i], &f);
		key[2 * i] = f.se;
		key[2 * i + 1] = f.simd;
		sh->order[i] = i;
	}
	qsort_r(sh->order, n, sizeof *sh->order, cmp_group_key, key);
	size_t g = 0;
	for (size_t j = 0; j < n; j++) {
		size_t i = sh->order[j], p = j ? sh->order[j - 1] : 0;
		if (j && key[2 * i] == key[2 * p] && key[2 * i + 1] == key[2 * p + 1])
			continue;
		sh->group_at[g] = j;
		sh->group_se[g] = key[2 * i];
		sh->group_simd[g++] = key[2 * i + 1];
	}
	sh->group_at[g] = n;
	sh->n_groups = g;
	free(key);
}

static void free_groups(shared *sh)
{
	free(sh->order);
	free(sh->group_at);
	free(sh->group_se);
	free(sh->group_simd);
}

static int worker_count(int threads, size_t n_files)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int n = threads > 0 ? threads : (int)(cores > 0 ? cores : 1);
	if (n > MAX_WORKERS)
		n = MAX_WORKERS;
	if ((size_t)n > n_files)
		n = n_files ? (int)n_files : 1;
	return n;
}

/* Lines are indexed directly (code lines are dense, 0..N). A code.json with absurdly large line
 * indices gets a capped table: records beyond it count as unknown lines (and warn) instead of
 * allocating gigabytes. */
static int64_t max_line(const trace_dispatch *d)
{
	int64_t ml = d->n_insts ? d->insts[d->n_insts - 1].code_line : 0;
	int64_t cap = 8 * (int64_t)d->n_insts + 65536;
	return ml < cap ? ml : cap;
}

static void run_workers(worker *ks, int nk)
{
	pthread_t tid[MAX_WORKERS];
	int started[MAX_WORKERS] = {0};
	for (int t = 1; t < nk; t++)
		started[t] = pthread_create(&tid[t], NULL, work, &ks[t]) == 0;
	work(&ks[0]); /* the calling thread works too; a failed create just means fewer hands */
	for (int t = 1; t < nk; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	for (int t = 1; t < nk; t++)
		if (!started[t])
			work(&ks[t]);
}

int wave_agg_run(const char *dir, const trace_dispatch *d, int threads, int64_t detail_line,
		 const wave_pass_hooks *hooks, wave_agg *out, fp_err *e)
{
	file_listing *own = xcalloc(1, sizeof *own);
	file_listing_init(own, dir);
	int rc = wave_agg_run_listed(own, d, threads, detail_line, hooks, out, e);
	if (rc == 0)
		out->own = own; /* the file names are its strings */
	else {
		file_listing_release(own);
		free(own);
	}
	return rc;
}

int wave_agg_run_listed(file_listing *names, const trace_dispatch *d, int threads,
			int64_t detail_line, const wave_pass_hooks *hooks, wave_agg *out, fp_err *e)
{
	const char *dir = names->dir;
	memset(out, 0, sizeof *out);
	out->files = list_wave_files(names, &out->n_files, e);
	if (!out->files)
		return -1;
	int64_t ml = max_line(d);
	out->n_lines = ml >= 0 ? (size_t)ml + 1 : 1;
	out->lines = xcalloc(out->n_lines, sizeof *out->lines);
	shared sh;
	memset(&sh, 0, sizeof sh);
	sh.dir = dir;
	/* on failure each file is opened by its path, with its own error */
	sh.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sh.files = out->files;
	sh.n_files = out->n_files;
	sh.n_lines = out->n_lines;
	sh.detail_line = detail_line;
	sh.hooks = hooks;
	if (hooks)
		make_groups(&sh);
	atomic_init(&sh.next, 0);
	atomic_init(&sh.min_err, SIZE_MAX);
	int nk = worker_count(threads, hooks ? sh.n_groups : out->n_files);
	worker *ks = xcalloc((size_t)nk, sizeof *ks);
	for (int t = 0; t < nk; t++)
		worker_init(&ks[t], &sh);
	run_workers(ks, nk);
	int bad = -1;
	for (int t = 0; t < nk; t++)
		if (ks[t].err.set && (bad < 0 || ks[t].err_index < ks[bad].err_index))
			bad = t;
	if (bad < 0 && signals_pending()) {
		fp_fail(e, ERR_INTERRUPTED, "interrupted by signal %d while reading wave files",
			signals_pending());
		bad = 0;
	} else if (bad >= 0) {
		fp_err_move(e, &ks[bad].err);
	} else {
		for (int t = 0; t < nk; t++)
			merge_counts(out, &ks[t].acc);
		merge_pairs(out, ks, nk);
		merge_lists(out, ks, nk);
		out->threads = nk;
	}
	for (int t = 0; t < nk; t++) {
		if (hooks)
			hooks->worker_end(hooks->ctx, ks[t].hk, bad < 0);
		worker_release(&ks[t]);
	}
	free(ks);
	if (hooks)
		free_groups(&sh);
	if (sh.dirfd >= 0)
		close(sh.dirfd);
	if (bad >= 0)
		wave_agg_release(out); /* nothing half-built is left to the caller */
	return bad >= 0 ? -1 : 0;
}

void wave_agg_release(wave_agg *a)
{
	free(a->files);
	if (a->own)
		file_listing_release(a->own);
	free(a->own);
	free(a->lines);
	free(a->pairs);
	free(a->detail);
	free(a->cus);
	memset(a, 0, sizeof *a);
}
