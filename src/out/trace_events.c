#include "out/trace_events.h"

#include "base/json/json_write.h"
#include "base/version.h"

#include <inttypes.h>
#include <math.h>
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

static void slice(strbuf *o, const wave_timeline *t, const tl_track *k, int insts, int64_t begin,
		  int64_t cycles)
{
	/* Rounded to 0.1 ns so lengths print without float noise; dur = end - start on that grid.
	 */
	double ts = round(wave_timeline_us(t, k->se, begin) * 1e4) / 1e4;
	double end = round(wave_timeline_us(t, k->se, begin + cycles) * 1e4) / 1e4;
	sb_addf(o, ",\n{\"ph\":\"X\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", pid_of(k),
		tid_of(k, insts));
	json_write_double(o, ts);
	sb_adds(o, ",\"dur\":");
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

void trace_events_write(strbuf *o, const wave_timeline *t)
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
	for (size_t w = 0; w < t->n_waves; w++) {
		const tl_wave *tw = &t->waves[w];
		const tl_track *k = &t->tracks[tw->track];
		/* The decoder's timeline may run a quad (4 cycles) past wave.end; the slice spans
		 * both so its state slices nest inside it. */
		int64_t span = tw->end - tw->begin;
		if (tw->n_states && tw->states_end - tw->begin > span)
			span = tw->states_end - tw->begin;
		slice(o, t, k, 0, tw->begin, span);
		sb_addf(
		    o,
		    ",\"name\":\"wave %" PRId64 "\",\"cat\":\"wave\",\"args\":{\"cycles\":%" PRId64
		    ",\"begin_cycle\":%" PRId64 ",\"end_cycle\":%" PRId64 ",\"se\":%" PRId64 "}}",
		    tw->id, span, tw->begin, tw->end, k->se);
		tl_state_iter it;
		tl_state st;
		tl_states_first(t, tw, &it);
		while (tl_states_next(&it, &st)) {
			slice(o, t, k, 0, st.begin, st.cycles);
			sb_addf(o,
				",\"name\":\"%s\",\"cat\":\"state\",\"args\":{\"cycles\":%" PRId64
				"}}",
				state_name(st.state), st.cycles);
		}
		for (size_t i = 0; i < tw->n_insts; i++) {
			const tl_inst *in = &t->insts[tw->first_inst + i];
			const tl_hot_line *h = &t->hot[in->hot];
			slice(o, t, k, 1, in->begin, in->cycles);
			sb_adds(o, ",\"name\":");
			str(o, h->isa);
			sb_addf(o,
				",\"cat\":\"instruction\",\"args\":{\"cycles\":%" PRId64
				",\"stall\":%" PRId64 ",\"code_line\":%" PRId64 ",\"source\":",
				in->cycles, in->stall, h->code_line);
			str(o, h->source);
			sb_adds(o, "}}");
		}
	}
	sb_adds(o, "\n]}\n");
}
