#include "out/trace_events.h"

#include "base/json/json_write.h"
#include "base/version.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *state_name(int s)
{
	static const char *names[] = {"EMPTY", "IDLE", "EXEC", "WAIT", "STALL"};
	return s >= 0 && s <= 4 ? names[s] : "OTHER";
}

/* Process ids group tracks by SE and CU; thread ids by SIMD and slot (even: states, odd: the
 * instruction companion), so viewers sort them in hardware order. */
static int64_t pid_of(const tl_track *k)
{
	return k->se * 1000 + (k->cu >= 0 ? k->cu : 999) + 1;
}

static int64_t tid_of(const tl_track *k, int insts)
{
	return (k->simd * 100 + k->slot) * 2 + insts + 1;
}

static void str(strbuf *o, const char *s)
{
	json_write_string(o, s, strlen(s));
}

/* A literal's bytes without strlen: these appends run for each of the 650,000 events of a
 * timeline like the corpus softmax's, as does json_write_i64 (the same text as printf's "%lld"
 * without its format parsing). */
#define LIT(o, s) sb_add(o, s, sizeof s - 1)
/* A literal key (with its comma and colon) and an integer value. */
#define KEY_I64(o, key, v) (LIT(o, key), json_write_i64(o, v))

static void slice(strbuf *o, const wave_timeline *t, const tl_track *k, int insts, int64_t begin,
		  int64_t cycles)
{
	/* Rounded to 0.1 ns so lengths print without float noise; dur = end - start on that grid.
	 */
	double ts = round(wave_timeline_us(t, k->se, begin) * 1e4) / 1e4;
	double end = round(wave_timeline_us(t, k->se, begin + cycles) * 1e4) / 1e4;
	KEY_I64(o, ",\n{\"ph\":\"X\",\"pid\":", pid_of(k));
	KEY_I64(o, ",\"tid\":", tid_of(k, insts));
	LIT(o, ",\"ts\":");
	json_write_double(o, ts);
	LIT(o, ",\"dur\":");
	json_write_double(o, end - ts);
}

static void metadata(strbuf *o, const wave_timeline *t)
{
	for (size_t i = 0; i < t->n_tracks; i++) {
		const tl_track *k = &t->tracks[i];
		int first_of_pid = 1;
		for (size_t j = 0; j < i; j++)
			first_of_pid &= pid_of(&t->tracks[j]) != pid_of(k);
		if (first_of_pid)
			sb_addf(o,
				",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
				",\"args\":{\"name\":\"SE%" PRId64 " CU%" PRId64 "\"}}",
				pid_of(k), k->se, k->cu);
		for (int insts = 0; insts <= (t->n_hot > 0); insts++)
			sb_addf(o,
				",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
				",\"tid\":%" PRId64 ",\"args\":{\"name\":\"SIMD%" PRId64
				" slot%" PRId64 "%s\"}}",
				pid_of(k), tid_of(k, insts), k->simd, k->slot,
				insts ? " hot instructions" : "");
	}
}

/* Each hot line's ISA text and source as JSON string literals, escaped once rather than at each
 * of their events: n_hot pairs, isa then source. */
static strbuf *hot_literals(const wave_timeline *t)
{
	strbuf *lit = xcalloc(2 * t->n_hot + 1, sizeof *lit);
	for (size_t i = 0; i < t->n_hot; i++) {
		str(&lit[2 * i], t->hot[i].isa);
		str(&lit[2 * i + 1], t->hot[i].source);
	}
	return lit;
}

static void wave_events(strbuf *o, const wave_timeline *t, const tl_wave *tw, const strbuf *lit)
{
	const tl_track *k = &t->tracks[tw->track];
	/* The decoder's timeline may run a quad (4 cycles) past wave.end; the slice spans both so
	 * its state slices nest inside it. */
	int64_t span = tw->end - tw->begin;
	if (tw->n_states && tw->states_end - tw->begin > span)
		span = tw->states_end - tw->begin;
	slice(o, t, k, 0, tw->begin, span);
	KEY_I64(o, ",\"name\":\"wave ", tw->id);
	KEY_I64(o, "\",\"cat\":\"wave\",\"args\":{\"cycles\":", span);
	KEY_I64(o, ",\"begin_cycle\":", tw->begin);
	KEY_I64(o, ",\"end_cycle\":", tw->end);
	KEY_I64(o, ",\"se\":", k->se);
	LIT(o, "}}");
	tl_state_iter it;
	tl_state st;
	tl_states_first(t, tw, &it);
	while (tl_states_next(&it, &st)) {
		slice(o, t, k, 0, st.begin, st.cycles);
		LIT(o, ",\"name\":\"");
		sb_adds(o, state_name(st.state));
		KEY_I64(o, "\",\"cat\":\"state\",\"args\":{\"cycles\":", st.cycles);
		LIT(o, "}}");
	}
	for (size_t i = 0; i < tw->n_insts; i++) {
		const tl_inst *in = &t->insts[tw->first_inst + i];
		slice(o, t, k, 1, in->begin, in->cycles);
		LIT(o, ",\"name\":");
		sb_add(o, lit[2 * in->hot].buf, lit[2 * in->hot].len);
		KEY_I64(o, ",\"cat\":\"instruction\",\"args\":{\"cycles\":", in->cycles);
		KEY_I64(o, ",\"stall\":", in->stall);
		KEY_I64(o, ",\"code_line\":", t->hot[in->hot].code_line);
		LIT(o, ",\"source\":");
		sb_add(o, lit[2 * in->hot + 1].buf, lit[2 * in->hot + 1].len);
		LIT(o, "}}");
	}
}

int trace_events_write(strbuf *o, const wave_timeline *t, trace_events_drain drain, void *ctx)
{
	sb_adds(o, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"flyprof " FLYPROF_VERSION
		   "\",\"kernel\":");
	str(o, t->kernel ? t->kernel : "");
	sb_adds(o, ",\"clock\":");
	str(o, t->realtime
		   ? "realtime.json: every SE's shader cycles mapped onto the GPU realtime "
		     "clock; ts/dur in microseconds since the earliest wave start"
		   : "no realtime.json: each SE keeps its own shader-cycle counter, shown as "
		     "1 cycle = 1 ns since the earliest wave start; SEs are not aligned");
	sb_addf(o, ",\"waves\":%zu,\"tracks\":%zu,\"hot_lines\":%zu},\n\"traceEvents\":[",
		t->n_waves, t->n_tracks, t->n_hot);
	sb_addf(o, "\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":"
		   "\"flyprof wave timeline\"}}");
	metadata(o, t);
	strbuf *lit = hot_literals(t);
	int rc = 0;
	for (size_t w = 0; w < t->n_waves && rc == 0; w++) {
		wave_events(o, t, &t->waves[w], lit);
		if (drain && o->len >= TRACE_EVENTS_CHUNK)
			rc = drain(o, ctx);
	}
	for (size_t i = 0; i < 2 * t->n_hot; i++)
		sb_release(&lit[i]);
	free(lit);
	if (rc)
		return rc;
	sb_adds(o, "\n]}\n");
	return drain ? drain(o, ctx) : 0;
}
