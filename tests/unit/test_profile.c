/* The stall profile (model/profile.h): one ranking for both vendors (hotspots by stall, lines
 * grouped by source with their dominant class, class tops, normalised sums, cuts), the writer
 * and the reader round trip, and the reader's typed errors. */
#include "t.h"

#include "base/xalloc.h"
#include "base/json/json_parse.h"
#include "model/profile.h"

/* Four instructions: a label, a vmem wait (split over two wait classes), a valu and an
 * unmapped salu. */
static void small_trace(trace_dispatch *d)
{
	static const struct {
		const char *isa, *src;
		int64_t hits, lat, stall, idle;
		int label, klass;
	} rows[] = {{"; k", "", 0, 0, 0, 0, 1, -1},
		    {"s_waitcnt vmcnt(0)", "k.py:10", 4, 100, 80, 2, 0, TAX_VMEM_WAIT},
		    {"v_add_f32", "k.py:10", 4, 20, 5, 0, 0, TAX_VALU},
		    {"s_mov_b32", "", 4, 10, 1, 1, 0, TAX_SALU}};
	trace_dispatch_init(d);
	d->n_insts = 4;
	d->insts = xcalloc(4, sizeof *d->insts);
	for (int i = 0; i < 4; i++) {
		trace_inst *t = &d->insts[i];
		t->code_line = i;
		t->isa = xstrdup(rows[i].isa);
		t->source = xstrdup(rows[i].src);
		t->hits = rows[i].hits;
		t->latency = rows[i].lat;
		t->stall = rows[i].stall;
		t->idle = rows[i].idle;
		t->is_label = (uint8_t)rows[i].label;
		t->klass = (int16_t)rows[i].klass;
		t->vaddr = 4 * i;
	}
}

static void fill(stall_profile *p, trace_dispatch *d)
{
	profile_init(p, VENDOR_AMD, UNIT_CYCLES, d);
	profile_sum_totals(p);
	/* the wait: 60 of its 80 stall cycles on memory, 20 on LDS */
	profile_add_part(p, 1, TAX_VMEM_WAIT, 75, 60, 0);
	profile_add_part(p, 1, TAX_LDS_WAIT, 25, 20, 0);
	profile_add_part(p, 2, TAX_VALU, 20, 5, 0);
	profile_add_part(p, 3, TAX_SALU, 10, 1, 0);
	prof_wait *w = profile_add_wait(p, 1);
	w->klass = TAX_VMEM_WAIT;
	w->stall = 80;
	w->split[PROF_SPLIT_MEMORY] = 60;
	w->split[PROF_SPLIT_LDS] = 20;
	w->method = "text";
}

TEST(profile_ranks_once_for_any_vendor)
{
	trace_dispatch d;
	small_trace(&d);
	stall_profile p;
	fill(&p, &d);
	CHECK_INT(p.totals.instructions, 3);
	CHECK_INT(p.totals.stall, 86);
	CHECK_INT(p.totals.issue, 130 - 86);
	profile_rank(&p, 2);
	CHECK_INT(p.hot_total, 3);
	CHECK_INT(p.n_hot, 2); /* cut to top */
	CHECK_INT(p.hot[0], 1);
	CHECK_INT(p.hot[1], 2);
	CHECK_INT(p.lines_total, 1);
	CHECK_STR(p.lines[0].source, "k.py:10");
	CHECK_INT(p.lines[0].stall, 85);
	CHECK_INT(p.lines[0].klass, TAX_VMEM_WAIT);
	CHECK_INT(p.unmapped.instructions, 1);
	/* classes: the wait's split parts, in stall order */
	CHECK_INT(p.class_order[0], TAX_VMEM_WAIT);
	CHECK_INT(p.classes[TAX_VMEM_WAIT].stall, 60);
	CHECK_INT(p.classes[TAX_LDS_WAIT].stall, 20);
	CHECK_INT(p.classes[TAX_LDS_WAIT].instructions, 0);
	CHECK_INT(p.classes[TAX_LDS_WAIT].n_top, 1);
	CHECK_INT(p.norm[NORM_MEMORY_DEPENDENCY].stall, 60);
	CHECK_INT(p.norm[NORM_FIXED_LATENCY].stall, 6);
	CHECK_INT(p.waits_total, 1);
	profile_release(&p);
	trace_dispatch_release(&d);
}

TEST(profile_writer_and_reader_round_trip)
{
	trace_dispatch d;
	small_trace(&d);
	stall_profile p, q;
	fill(&p, &d);
	profile_rank(&p, 0);
	jv *doc = profile_to_json(&p);
	CHECK_STR(jv_string(jv_get(jv_at(jv_get(doc, "hotspots"), 0), "vaddr")), "0x4");
	CHECK_STR(jv_string(jv_get(jv_at(jv_get(doc, "classes"), 0), "class")), "vmem_wait");
	CHECK(jv_get(doc, "backend") == NULL); /* the AMD file keeps its keys */
	fp_err e = FP_ERR_INIT;
	CHECK_INT(profile_from_json(doc, "t", &q, &e), 0);
	CHECK_INT(q.vendor, VENDOR_AMD);
	CHECK_INT(q.unit, UNIT_CYCLES);
	CHECK_INT(q.totals.stall, p.totals.stall);
	CHECK_INT(q.totals.latency, p.totals.latency);
	CHECK_INT(q.n_class_order, p.n_class_order);
	for (size_t i = 0; i < p.n_class_order; i++) {
		int c = p.class_order[i];
		CHECK_INT(q.class_order[i], c);
		CHECK_INT(q.classes[c].stall, p.classes[c].stall);
		CHECK_INT(q.classes[c].latency, p.classes[c].latency);
	}
	profile_release(&q);
	jv_free(doc);
	profile_release(&p);
	trace_dispatch_release(&d);
}

TEST(profile_reader_names_what_is_wrong)
{
	static const struct {
		const char *json, *says;
	} bad[] = {
	    {"{\"classes\": []}", "no \"totals\""},
	    {"{\"totals\": {\"stall\": \"12\"}}", "totals.stall is not an integer"},
	    {"{\"totals\": {}, \"classes\": [{\"class\": \"long_scoreboard\", \"stall\": 1}]}",
	     "not an amd class"},
	    {"{\"backend\": \"nvidia\", \"totals\": {}, \"classes\": [{\"class\": "
	     "\"long_scoreboard\"}]}",
	     "no numeric \"stall\""},
	    {"{\"unit\": \"ticks\", \"totals\": {}}", "unknown unit"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fp_err e = FP_ERR_INIT;
		stall_profile p;
		jv *doc = json_parse(bad[i].json, strlen(bad[i].json), "t", &e);
		CHECK(doc != NULL);
		CHECK_INT(profile_from_json(doc, "t", &p, &e), -1);
		CHECK_INT(e.code, ERR_BAD_INPUT);
		CHECK(e.message && strstr(e.message, bad[i].says));
		fp_err_clear(&e);
		profile_release(&p);
		jv_free(doc);
	}
}
