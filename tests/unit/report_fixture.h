/* A hand-made `bubbles` object (the contract of /tmp/schema.md, docs/bubbles.md) with round
 * numbers, so the tests of rules, bound, report, diff and SARIF can assert hand-computed values:
 * totals.latency 10000, totals.stall 6000; classes vmem_wait 3000 (50% of stall), lds_wait
 * 1200 (20%), barrier 900 (15%), valu 600 (10%), mfma 300 (5%, latency 1500 = 15% of latency). */
#ifndef FLYPROF_TESTS_UNIT_REPORT_FIXTURE_H
#define FLYPROF_TESTS_UNIT_REPORT_FIXTURE_H

#include "core/diagnose/bound.h"
#include "core/diagnose/report.h"
#include "core/diagnose/rules.h"
#include "base/json/json_parse.h"
#include "t.h"

#include <string.h>

#define FIX_SRC "/x/kernels/softmax.py"

static const char fixture_bubbles_json[] =
    "{\"dispatch\":{\"dir\":\"/d/ui_output_agent_1_dispatch_7\",\"id\":\"7\",\"tag\":\"big\","
    "\"kernel\":\"softmax_kernel_0\",\"arch\":\"gfx950\",\"selection\":\"only one\","
    "\"candidates\":[{\"id\":\"7\",\"dir\":\"ui_output_agent_1_dispatch_7\",\"waves\":4,"
    "\"hits\":1000}]},"
    "\"totals\":{\"instructions\":50,\"executed_instructions\":40,\"hits\":1000,"
    "\"latency\":10000,\"stall\":6000,\"idle\":500,\"waves\":4,\"stall_pct_of_latency\":60,"
    "\"idle_pct_of_latency\":5},"
    "\"classes\":["
    "{\"class\":\"vmem_wait\",\"normalized\":\"memory_dependency\",\"hits\":40,\"latency\":3200,"
    "\"stall\":3000,\"idle\":0,\"pct_of_stall\":50,\"pct_of_latency\":32,\"top\":["
    "{\"code_line\":12,\"isa\":\"s_waitcnt vmcnt(0)\",\"source\":\"" FIX_SRC
    ":42\",\"stall\":2400},"
    "{\"code_line\":13,\"isa\":\"s_waitcnt vmcnt(1)\",\"source\":\"" FIX_SRC
    ":43\",\"stall\":600}]},"
    "{\"class\":\"lds_wait\",\"normalized\":\"lds_dependency\",\"hits\":30,\"latency\":1300,"
    "\"stall\":1200,\"idle\":0,\"pct_of_stall\":20,\"pct_of_latency\":13,\"top\":["
    "{\"code_line\":20,\"isa\":\"s_waitcnt lgkmcnt(0)\",\"source\":\"" FIX_SRC
    ":57\",\"stall\":1200}]},"
    "{\"class\":\"barrier\",\"normalized\":\"synchronization\",\"hits\":8,\"latency\":1000,"
    "\"stall\":900,\"idle\":0,\"pct_of_stall\":15,\"pct_of_latency\":10,\"top\":["
    "{\"code_line\":25,\"isa\":\"s_barrier\",\"source\":\"" FIX_SRC ":60\",\"stall\":900}]},"
    "{\"class\":\"valu\",\"normalized\":\"fixed_latency\",\"hits\":600,\"latency\":3000,"
    "\"stall\":600,\"idle\":0,\"pct_of_stall\":10,\"pct_of_latency\":30,\"top\":["
    "{\"code_line\":30,\"isa\":\"v_exp_f32_e32 v1, v2\",\"source\":\"\",\"stall\":600}]},"
    "{\"class\":\"mfma\",\"normalized\":\"fixed_latency\",\"hits\":100,\"latency\":1500,"
    "\"stall\":300,\"idle\":0,\"pct_of_stall\":5,\"pct_of_latency\":15,\"top\":["
    "{\"code_line\":31,\"isa\":\"v_mfma_f32_32x32x16_bf16 a[0:15], v[0:3], v[4:7], a[0:15]\","
    "\"source\":\"" FIX_SRC ":70\",\"stall\":300}]}],"
    "\"normalized\":[{\"class\":\"memory_dependency\",\"stall\":3000,\"latency\":3200,"
    "\"pct_of_stall\":50},{\"class\":\"lds_dependency\",\"stall\":1200,\"latency\":1300,"
    "\"pct_of_stall\":20},{\"class\":\"synchronization\",\"stall\":900,\"latency\":1000,"
    "\"pct_of_stall\":15},{\"class\":\"fixed_latency\",\"stall\":900,\"latency\":4500,"
    "\"pct_of_stall\":15}],"
    "\"mix\":{\"static\":{\"vmem_wait\":2,\"valu\":30},\"dynamic\":{\"vmem_wait\":40,"
    "\"lds_wait\":30,\"barrier\":8,\"valu\":600,\"mfma\":100,\"salu\":222}},"
    "\"hotspots\":[{\"rank\":1,\"code_line\":12,\"vaddr\":4096,\"isa\":\"s_waitcnt vmcnt(0)\","
    "\"source\":\"" FIX_SRC ":42\",\"class\":\"vmem_wait\",\"normalized\":\"memory_dependency\","
    "\"hits\":4,\"latency\":2500,\"stall\":2400,\"idle\":0,\"pct_of_stall\":40}],"
    "\"lines\":[{\"source\":\"" FIX_SRC ":42\",\"file\":\"" FIX_SRC "\",\"line\":42,"
    "\"instructions\":3,\"hits\":12,\"latency\":2600,\"stall\":2400,\"idle\":0,"
    "\"pct_of_stall\":40}],"
    "\"waits\":[{\"code_line\":12,\"isa\":\"s_waitcnt vmcnt(0)\",\"source\":\"" FIX_SRC ":42\","
    "\"stall\":2400,\"pct_of_stall\":40,\"waves\":4,\"producers\":[{\"code_line\":5,"
    "\"isa\":\"buffer_load_dwordx4 v[0:3], v8, s[4:7], 0 offen\",\"source\":\"" FIX_SRC ":40\","
    "\"type\":\"VMEM\",\"waves\":4}],\"split\":{\"memory\":2400,\"lds\":0,\"smem\":0,"
    "\"other\":0}},"
    "{\"code_line\":20,\"isa\":\"s_waitcnt lgkmcnt(0)\",\"source\":\"" FIX_SRC ":57\","
    "\"stall\":1200,\"pct_of_stall\":20,\"waves\":4,\"producers\":[{\"code_line\":18,"
    "\"isa\":\"ds_read_b128 v[10:13], v9\",\"source\":\"" FIX_SRC ":56\",\"type\":\"LDS\","
    "\"waves\":4}],\"split\":{\"memory\":0,\"lds\":1200,\"smem\":0,\"other\":0}}],"
    "\"occupancy\":{\"observed\":{\"per_simd\":{\"peak\":2,\"mean\":1.5},\"per_cu\":{\"peak\":8,"
    "\"mean\":6}},\"theoretical\":null},"
    "\"wave_states\":{\"denominator\":\"wave time\",\"exec_pct\":40,\"wait_pct\":30,"
    "\"stall_pct\":25,\"idle_pct\":5}}";

static inline jv *fixture_bubbles(void)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(fixture_bubbles_json, strlen(fixture_bubbles_json), "fixture", &e);
	fp_err_clear(&e);
	return v;
}

/* Sets the stall of one class (and keeps totals.stall consistent). */
static inline void fixture_set_stall(jv *b, const char *klass, int64_t stall)
{
	jv *cls = jv_get(b, "classes");
	jv *tot = jv_get(b, "totals");
	for (size_t i = 0; i < jv_len(cls); i++) {
		jv *c = jv_at(cls, i);
		if (strcmp(jv_string(jv_get(c, "class")), klass) == 0) {
			int64_t old = jv_i64(jv_get(c, "stall"));
			jv_set_int(c, "stall", stall);
			jv_set_int(tot, "stall", jv_i64(jv_get(tot, "stall")) - old + stall);
		}
	}
}

/* A JSON literal as a tree (NULL if it does not parse; tests then CHECK it). */
static inline jv *fixture_parse(const char *s)
{
	fp_err e = FP_ERR_INIT;
	jv *v = json_parse(s, strlen(s), "t", &e);
	fp_err_clear(&e);
	return v;
}

/* The stall profile a bubbles object reads back into (profile_from_json); a document that does
 * not read fails the test. The caller releases it. */
static inline void fixture_profile(const jv *b, stall_profile *p)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(profile_from_json(b, "fixture", p, &e), 0);
	fp_err_clear(&e);
}

/* The bound of a bubbles object (read back into a profile, which must read) and counters. */
static inline void fixture_bound(const jv *b, const jv *counters, bound_verdict *v)
{
	stall_profile p;
	fixture_profile(b, &p);
	bound_decide(&p, counters, v);
	profile_release(&p);
}

/* report_build on `in` with the shipped rules; a rules file that does not load fails the test. */
static inline jv *fixture_report(const report_inputs *in)
{
	rules r;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(rules_load(&r, &e), 0);
	jv *rep = report_build(in, &r);
	rules_release(&r);
	fp_err_clear(&e);
	return rep;
}

#endif
