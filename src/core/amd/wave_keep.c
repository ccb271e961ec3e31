/* Compact copies of parsed wave files for a later pass (wave_keep.h). */
#include "core/amd/wave_keep.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

void wave_keep_init(wave_keep *k, size_t budget)
{
	memset(k, 0, sizeof *k);
	k->budget = budget;
	atomic_init(&k->used, 0);
}

void wave_keep_release(wave_keep *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->names[i]);
		free(k->w[i].insts);
		free(k->w[i].states);
	}
	free(k->names);
	free(k->w);
	size_t budget = k->budget;
	memset(k, 0, sizeof *k);
	k->budget = budget;
}

void wave_keep_files(wave_keep *k, char *const *names, size_t n)
{
	wave_keep_release(k);
	k->names = xcalloc(n ? n : 1, sizeof *k->names);
	k->w = xcalloc(n ? n : 1, sizeof *k->w);
	for (size_t i = 0; i < n; i++)
		k->names[i] = xstrdup(names[i]);
	k->n = n;
	atomic_store(&k->used, 0);
}

static int fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Takes `bytes` from the budget: 1, or 0 when they do not fit (nothing taken). */
static int reserve(wave_keep *k, size_t bytes)
{
	size_t cur = atomic_load(&k->used);
	do {
		if (bytes > k->budget || cur > k->budget - bytes)
			return 0;
	} while (!atomic_compare_exchange_weak(&k->used, &cur, cur + bytes));
	return 1;
}

void wave_keep_put(wave_keep *k, size_t i, const att_wave *w)
{
	if (i >= k->n)
		return;
	if (w->begin < INT64_MIN / 2 || w->begin > INT64_MAX / 2)
		return;
	for (size_t r = 0; r < w->n_insts; r++) {
		const att_wave_inst *in = &w->insts[r];
		if (in->time < INT64_MIN / 2 || in->time > INT64_MAX / 2 ||
		    !fits32(in->time - w->begin) || !fits32(in->stall) || !fits32(in->duration) ||
		    !fits32(in->line))
			return;
	}
	for (size_t s = 0; s < w->n_timeline; s++)
		if (!fits32(w->timeline[s].state) || !fits32(w->timeline[s].duration))
			return;
	size_t bytes =
	    (w->n_insts + 1) * sizeof(kept_inst) + (w->n_timeline + 1) * sizeof(kept_state);
	if (!reserve(k, bytes))
		return;
	kept_wave *kw = &k->w[i];
	kw->begin = w->begin;
	kw->end = w->end;
	kw->cu = w->cu;
	kw->id = w->id;
	kw->simd = w->simd;
	kw->slot = w->slot;
	kw->insts = xmalloc((w->n_insts + 1) * sizeof *kw->insts);
	kw->states = xmalloc((w->n_timeline + 1) * sizeof *kw->states);
	for (size_t r = 0; r < w->n_insts; r++) {
		const att_wave_inst *in = &w->insts[r];
		kw->insts[r] = (kept_inst){(int32_t)(in->time - w->begin), (int32_t)in->stall,
					   (int32_t)in->duration, (int32_t)in->line};
	}
	for (size_t s = 0; s < w->n_timeline; s++)
		kw->states[s] =
		    (kept_state){(int32_t)w->timeline[s].state, (int32_t)w->timeline[s].duration};
	kw->n_insts = w->n_insts;
	kw->n_states = w->n_timeline;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

int wave_keep_take(wave_keep *k, const char *name, att_wave *w)
{
	if (!k->n)
		return 0;
	char *const *at = bsearch(name, k->names, k->n, sizeof *k->names, cmp_name);
	if (!at)
		return 0;
	kept_wave *kw = &k->w[at - k->names];
	if (!kw->insts)
		return 0;
	w->begin = kw->begin;
	w->end = kw->end;
	w->cu = kw->cu;
	w->id = kw->id;
	w->simd = kw->simd;
	w->slot = kw->slot;
	if (w->cap_insts < kw->n_insts) {
		w->insts = xreallocarray(w->insts, kw->n_insts, sizeof *w->insts);
		w->cap_insts = kw->n_insts;
	}
	for (size_t r = 0; r < kw->n_insts; r++) {
		const kept_inst *in = &kw->insts[r];
		w->insts[r] = (att_wave_inst){.time = kw->begin + in->dt,
					      .category = 0,
					      .stall = in->stall,
					      .duration = in->duration,
					      .line = in->line};
	}
	w->n_insts = kw->n_insts;
	if (w->cap_timeline < kw->n_states) {
		w->timeline = xreallocarray(w->timeline, kw->n_states, sizeof *w->timeline);
		w->cap_timeline = kw->n_states;
	}
	for (size_t s = 0; s < kw->n_states; s++)
		w->timeline[s] = (att_wave_state){kw->states[s].state, kw->states[s].duration};
	w->n_timeline = kw->n_states;
	w->n_waits = 0;
	free(kw->insts);
	free(kw->states);
	kw->insts = NULL;
	kw->states = NULL;
	atomic_fetch_sub(&k->used, (kw->n_insts + 1) * sizeof(kept_inst) +
				       (kw->n_states + 1) * sizeof(kept_state));
	kw->n_insts = kw->n_states = 0;
	return 1;
}
