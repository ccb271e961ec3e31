#include "core/amd/wave_states.h"

#include "base/fileio.h"
#include "read/amd/att_wstates.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const state_names[WAVE_N_STATES] = {"empty", "idle",	 "exec",
						       "wait",	"stall", "other"};

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* wstates<k>.json for k = 1..4: the cross-check entry, or NULL with e set. */
static jv *check_state(const wave_agg *a, const char *dir, int k, jv *warnings, fp_err *e)
{
	char name[32];
	snprintf(name, sizeof name, "wstates%d.json", k);
	char *path = path_join(dir, name);
	jv *o = jv_object();
	if (!file_is_reg(path)) {
		jv_set_bool(o, "available", 0);
		if (a->state_cycles[k] > 0)
			jv_push(warnings,
				jv_strf("%s is missing although the wave timelines spend "
					"%lld cycles in state %s",
					name, (long long)a->state_cycles[k], state_names[k]));
		free(path);
		return o;
	}
	int64_t peak = 0, integral = 0;
	if (att_wstates_read_integral(path, &integral, &peak, e)) {
		free(path);
		jv_free(o);
		return NULL;
	}
	jv_set_bool(o, "available", 1);
	jv_set_int(o, "wave_cycles", integral);
	jv_set_int(o, "peak_waves", peak);
	jv_set_bool(o, "matches_timelines", integral == a->state_cycles[k]);
	if (integral != a->state_cycles[k])
		jv_push(warnings,
			jv_strf("%s integrates to %lld wave-cycles but the wave timelines "
				"hold %lld cycles in state %s",
				name, (long long)integral, (long long)a->state_cycles[k],
				state_names[k]));
	free(path);
	return o;
}

jv *wave_states_build(const wave_agg *a, const char *dir, jv *warnings, fp_err *e)
{
	jv *r = jv_object();
	int64_t tot = a->timeline_cycles;
	jv_set_str(r, "denominator", "timeline_cycles (sum of every traced wave's timeline)");
	jv_set_int(r, "timeline_cycles", tot);
	jv_set_round(r, "exec_pct", pct(a->state_cycles[2], tot), 2);
	jv_set_round(r, "wait_pct", pct(a->state_cycles[3], tot), 2);
	jv_set_round(r, "stall_pct", pct(a->state_cycles[4], tot), 2);
	jv_set_round(r, "idle_pct", pct(a->state_cycles[1], tot), 2);
	jv_set_round(r, "empty_pct", pct(a->state_cycles[0] + a->state_cycles[5], tot), 2);
	jv *cyc = jv_set(r, "cycles", jv_object());
	for (int s = 0; s < WAVE_N_STATES; s++)
		jv_set_int(cyc, state_names[s], a->state_cycles[s]);
	jv *ws = jv_set(r, "wstates", jv_object());
	for (int k = 1; k <= 4; k++) {
		jv *c = check_state(a, dir, k, warnings, e);
		if (!c) {
			jv_free(r);
			return NULL;
		}
		jv_set(ws, state_names[k], c);
	}
	return r;
}
