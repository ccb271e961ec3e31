/* tlcheck TIMELINE DISPATCH_DIR: checks a `bubbles --timeline` file against the trace-event
 * format and against the wave files it was drawn from. Exit 0 when every check holds, else 1
 * with the reasons on stderr.
 *   format  a top-level object with a traceEvents array; each event is "M" (process_name or
 *           thread_name with args.name) or "X" (string name and cat, integer pid and tid,
 *           ts >= 0, dur >= 0, integer args.cycles >= 0)
 *   tracks  one state track (thread_name without "hot") per distinct (SE, CU, SIMD, slot)
 *   waves   one "wave" slice per wave file, with that file's begin and end, spanning
 *           max(end - begin, the timeline's length)
 *   states  the state slices after a wave slice on its track add up to the file's timeline
 *           length and lie inside the wave slice */
#include "base/json/json_parse.h"
#include "base/json/jv.h"
#include "base/xalloc.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;

static void fail(const char *fmt, const char *what, double a, double b)
{
	if (bad++ < 20) {
		fprintf(stderr, fmt, what, a, b);
		fputc('\n', stderr);
	}
}

static const jv *path2(const jv *o, const char *a, const char *b)
{
	const jv *v = jv_get(o, a);
	return v ? jv_get(v, b) : NULL;
}

static int is_int(const jv *v)
{
	return jv_type_of(v) == JV_INT;
}

static int is_num(const jv *v)
{
	return jv_type_of(v) == JV_INT || jv_type_of(v) == JV_DOUBLE;
}

typedef struct wavefile {
	long long se, cu, simd, slot, begin, cycles, timeline;
	int seen;
} wavefile;

static size_t load_waves(const char *dir, wavefile **out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	*out = NULL;
	while (d && (de = readdir(d))) {
		long long se, sm, sl, wv;
		char tail;
		if (sscanf(de->d_name, "se%lld_sm%lld_sl%lld_wv%lld.json%c", &se, &sm, &sl, &wv,
			   &tail) != 4)
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		fp_err e = FP_ERR_INIT;
		jv *doc = json_parse_file(path, &e);
		const jv *w = doc ? jv_get(doc, "wave") : NULL;
		if (!w) {
			fail("%s: unreadable wave file%.0f%.0f", de->d_name, 0, 0);
			fp_err_clear(&e);
			jv_free(doc);
			continue;
		}
		*out = xreallocarray(*out, n + 1, sizeof **out);
		wavefile *f = &(*out)[n++];
		memset(f, 0, sizeof *f);
		f->se = se;
		f->cu = jv_i64(jv_get(w, "cu"));
		f->simd = jv_i64(jv_get(w, "simd"));
		f->slot = jv_i64(jv_get(w, "slot"));
		f->begin = jv_i64(jv_get(w, "begin"));
		f->cycles = jv_i64(jv_get(w, "end")) - f->begin;
		const jv *tl = jv_get(w, "timeline");
		for (size_t i = 0; tl && i < jv_len(tl); i++) {
			long long dur = jv_i64(jv_at(jv_at(tl, i), 1));
			f->timeline += dur > 0 ? dur : 0;
		}
		jv_free(doc);
	}
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tlcheck TIMELINE DISPATCH_DIR\n");
		return 2;
	}
	fp_err e = FP_ERR_INIT;
	jv *doc = json_parse_file(argv[1], &e);
	const jv *ev = doc ? jv_get(doc, "traceEvents") : NULL;
	if (jv_type_of(ev) != JV_ARRAY) {
		fprintf(stderr, "tlcheck: %s: no traceEvents array (%s)\n", argv[1],
			e.message ? e.message : "wrong shape");
		return 1;
	}
	wavefile *wf;
	size_t nw = load_waves(argv[2], &wf);
	size_t state_tracks = 0, wave_slices = 0;
	const jv *wave = NULL; /* the open wave slice, checked when its track moves on */
	double sum = 0, lo = 0, hi = 0;
	const wavefile *match = NULL;
	for (size_t i = 0; i <= jv_len(ev); i++) {
		const jv *x = i < jv_len(ev) ? jv_at(ev, i) : NULL;
		const char *ph = x ? jv_string(jv_get(x, "ph")) : NULL;
		const char *cat = x ? jv_string(jv_get(x, "cat")) : NULL;
		int ends_wave = !x || (cat && strcmp(cat, "state") != 0 && ph && ph[0] == 'X');
		if (wave && ends_wave) {
			if (match && fabs(sum - (double)match->timeline) > 0.5)
				fail("%s: states add up to %.0f cycles, the wave file's timeline "
				     "to %.0f",
				     "wave", sum, (double)match->timeline);
			wave = NULL;
		}
		if (!x)
			break;
		if (!ph || (strcmp(ph, "M") && strcmp(ph, "X"))) {
			fail("event %s has ph other than M or X%.0f%.0f", "", (double)i, 0);
			continue;
		}
		if (ph[0] == 'M') {
			const char *nm = jv_string(jv_get(x, "name"));
			const char *label = jv_string(path2(x, "args", "name"));
			if (!nm || !label ||
			    (strcmp(nm, "process_name") && strcmp(nm, "thread_name")))
				fail("%s: bad metadata event %.0f%.0f", "M", (double)i, 0);
			else if (!strcmp(nm, "thread_name") && !strstr(label, "hot"))
				state_tracks++;
			continue;
		}
		const jv *ts = jv_get(x, "ts"), *dur = jv_get(x, "dur");
		const jv *cyc = path2(x, "args", "cycles");
		if (!jv_string(jv_get(x, "name")) || !cat || !is_int(jv_get(x, "pid")) ||
		    !is_int(jv_get(x, "tid")) || !is_num(ts) || !is_num(dur) || jv_num(ts) < 0 ||
		    jv_num(dur) < 0 || !is_int(cyc) || jv_i64(cyc) < 0) {
			fail("%s: malformed X event %.0f%.0f", "X", (double)i, 0);
			continue;
		}
		if (!strcmp(cat, "wave")) {
			wave_slices++;
			long long begin = jv_i64(path2(x, "args", "begin_cycle"));
			long long se = jv_i64(path2(x, "args", "se"));
			match = NULL;
			for (size_t k = 0; k < nw && !match; k++)
				if (!wf[k].seen && wf[k].se == se && wf[k].begin == begin &&
				    jv_i64(path2(x, "args", "end_cycle")) - begin == wf[k].cycles &&
				    jv_i64(cyc) == (wf[k].cycles > wf[k].timeline ? wf[k].cycles
										  : wf[k].timeline))
					match = &wf[k];
			if (match)
				wf[match - wf].seen = 1;
			else
				fail("%s: wave slice at cycle %.0f of %.0f cycles has no wave file",
				     "wave", (double)begin, (double)jv_i64(cyc));
			wave = x;
			sum = 0;
			lo = jv_num(ts);
			hi = lo + jv_num(dur);
		} else if (!strcmp(cat, "state") && wave) {
			sum += (double)jv_i64(cyc);
			if (jv_num(ts) < lo - 1e-3 || jv_num(ts) + jv_num(dur) > hi + 1e-3)
				fail("%s: state slice [%.4f, ...) outside its wave ending %.4f",
				     "state", jv_num(ts), hi);
		}
	}
	size_t slots = 0;
	for (size_t k = 0; k < nw; k++) {
		int first = 1;
		for (size_t j = 0; j < k && first; j++)
			first = !(wf[j].se == wf[k].se && wf[j].cu == wf[k].cu &&
				  wf[j].simd == wf[k].simd && wf[j].slot == wf[k].slot);
		slots += first;
	}
	if (state_tracks != slots)
		fail("%s: %.0f state tracks for %.0f wave slots", "tracks", (double)state_tracks,
		     (double)slots);
	if (wave_slices != nw)
		fail("%s: %.0f wave slices for %.0f wave files", "waves", (double)wave_slices,
		     (double)nw);
	free(wf);
	jv_free(doc);
	fp_err_clear(&e);
	if (bad)
		fprintf(stderr, "tlcheck: %d problem(s)\n", bad);
	else
		printf("tlcheck: %zu waves on %zu tracks checked\n", nw, slots);
	return bad ? 1 : 0;
}
