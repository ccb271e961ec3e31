/* Source mapping: location parsing, exact matching, roll-ups, shares and the entry-bucket
 * heuristic, on hand-built dispatches whose sums are computed by hand below. */
#include "t.h"

#include "base/xalloc.h"
#include "core/analysis/srcmap.h"

#include <string.h>

TEST(srcmap_parse_loc)
{
	src_frame f;
	CHECK_INT(srcmap_parse_loc("a/b.py:19", 9, &f), 0);
	CHECK_INT(f.line, 19);
	CHECK_INT(f.path_len, 6);
	CHECK(memcmp(f.path, "a/b.py", 6) == 0);
	CHECK_INT(srcmap_parse_loc("C:\\k.py:12", 10, &f), 0); /* split at the last ':' */
	CHECK_INT(f.path_len, 7);
	CHECK_INT(srcmap_parse_loc(" x.py:7 ", 8, &f), 0);
	CHECK_INT(f.line, 7);
	CHECK_INT(srcmap_parse_loc("x.py:0", 6, &f), -1);
	CHECK_INT(srcmap_parse_loc("x.py:", 5, &f), -1);
	CHECK_INT(srcmap_parse_loc("x.py:1a", 7, &f), -1);
	CHECK_INT(srcmap_parse_loc(":5", 2, &f), -1);
	CHECK_INT(srcmap_parse_loc("softmax_kernel_0", 16, &f), -1);
	CHECK_INT(srcmap_parse_loc("x.py:99999999999999999999", 25, &f), -1);
}

TEST(srcmap_parse_chain)
{
	src_frame fr[4];
	CHECK_INT(srcmap_parse_chain("/l/h.py:5 -> /k/k.py:23", fr, 4), 2);
	CHECK_INT(fr[0].line, 5);
	CHECK_INT(fr[1].line, 23);
	CHECK(memcmp(fr[1].path, "/k/k.py", fr[1].path_len) == 0);
	CHECK_INT(srcmap_parse_chain("junk -> k.py:1", fr, 4), 1);
	CHECK_INT(srcmap_parse_chain("", fr, 4), 0);
	CHECK_INT(srcmap_parse_chain(NULL, fr, 4), 0);
	CHECK_INT(srcmap_parse_chain("a.py:1 -> b.py:2 -> c.py:3", fr, 2), 2);
}

static int pm(const char *path, const char *query)
{
	return srcmap_path_matches(path, strlen(path), query);
}

TEST(srcmap_path_suffix_on_whole_components)
{
	CHECK_INT(pm("/a/kernels/x.py", "kernels/x.py"), 2);
	CHECK_INT(pm("/a/kernels/x.py", "x.py"), 1);
	CHECK_INT(pm("/a/mykernels/x.py", "kernels/x.py"), 0);
	CHECK_INT(pm("/a/kernels/xx.py", "x.py"), 0);
	CHECK_INT(pm("/a/b/x.py", "/b/x.py"), 0); /* an absolute query names only itself */
	CHECK_INT(pm("/a/b/x.py", "/a/b/x.py"), 3);
	CHECK_INT(pm("kernels/x.py", "/sgl/kernels/x.py"), 2); /* relative source, absolute query */
	CHECK_INT(pm("./x.py", "x.py"), 1);
	CHECK_INT(pm("", "x.py"), 0);
}

TEST(srcmap_source_line_is_exact)
{
	srcmap_query q;
	CHECK_INT(srcmap_query_parse("x.py:19", &q), 0);
	CHECK_INT(srcmap_source_matches("/w/x.py:192", &q), 0);
	CHECK_INT(srcmap_source_matches("/w/x.py:19", &q), 1);
	CHECK_INT(srcmap_source_matches("/w/x.py:1", &q), 0);
	CHECK_INT(srcmap_source_matches("/w/yx.py:19", &q), 0);
	CHECK_INT(srcmap_source_matches("/l/h.py:5 -> /w/x.py:19", &q), 1); /* a call site */
	srcmap_query_release(&q);
	CHECK_INT(srcmap_query_parse("x.py", &q), -1);
	CHECK_INT(srcmap_query_parse("x.py:abc", &q), -1);
}

static void add(trace_dispatch *d, int label, const char *isa, const char *src, int64_t hits,
		int64_t lat, int64_t stall)
{
	d->insts = xreallocarray(d->insts, d->n_insts + 1, sizeof *d->insts);
	trace_inst *in = &d->insts[d->n_insts];
	memset(in, 0, sizeof *in);
	in->code_line = (int64_t)d->n_insts;
	in->isa = xstrdup(isa);
	in->source = xstrdup(src);
	in->hits = hits, in->latency = lat, in->stall = stall, in->idle = 1;
	in->is_label = (uint8_t)label;
	in->klass = -1;
	in->category = TRACE_CAT_UNKNOWN;
	d->n_insts++;
}

/* k.py:41 holds the prologue (s_load first), k.py:50 the hot load, a helper inlined at
 * k.py:60, one unmapped instruction, and a never executed one. */
static void build(trace_dispatch *d)
{
	trace_dispatch_init(d);
	add(d, 1, "; k_0", "k_0", 0, 0, 0);
	add(d, 0, "s_load_dwordx2 s[2:3], s[0:1], 0x0", "/w/k.py:41", 4, 40, 10);
	add(d, 0, "s_mov_b32 s4, 0", "/w/k.py:41", 4, 8, 0);
	add(d, 0, "global_load_dword v1, v[2:3], off", "/w/k.py:50", 4, 400, 100);
	add(d, 0, "s_waitcnt vmcnt(0)", "/w/k.py:41", 4, 300, 290);
	add(d, 0, "v_add_f32 v1, v1, v1", "/l/h.py:5 -> /w/k.py:60", 4, 40, 30);
	add(d, 0, "s_nop 0", "", 4, 20, 7);
	add(d, 0, "s_endpgm", "/w/k.py:70", 0, 0, 0);
}

TEST(srcmap_rollups_and_shares)
{
	trace_dispatch d;
	build(&d);
	srcmap_summary s;
	srcmap_build(&d, SRCMAP_LEAF, &s);
	CHECK_INT(s.instructions, 7);
	CHECK_INT(s.mapped_instructions, 6);
	CHECK_INT(s.executed_instructions, 6);
	CHECK_INT(s.mapped_executed, 5);
	CHECK_INT(s.latency, 808);
	CHECK_INT(s.mapped_latency, 788);
	CHECK_INT(s.stall, 437);
	CHECK_INT(s.mapped_stall, 430);
	CHECK_INT(s.chained_instructions, 1);
	CHECK_INT(s.n_lines, 4); /* k.py:41, :50, :70 and h.py:5 */
	/* k.py:41 collects 10 + 0 + 290 = 300 stall over 3 instructions and sorts first. */
	CHECK_STR(s.lines[0].file, "/w/k.py");
	CHECK_INT(s.lines[0].line, 41);
	CHECK_INT(s.lines[0].instructions, 3);
	CHECK_INT(s.lines[0].stall, 300);
	CHECK_INT(s.lines[0].latency, 348);
	CHECK_INT(s.lines[0].entry_bucket, 1);
	CHECK_INT(s.lines[1].line, 50);
	CHECK_INT(s.lines[1].entry_bucket, 0);
	const srcmap_line *h = srcmap_find_line(&s, "/l/h.py", 5);
	CHECK(h && h->stall == 30);
	CHECK(srcmap_find_line(&s, "/w/k.py", 60) == NULL); /* leaf credit: the helper line */
	CHECK_INT(s.n_files, 2);
	CHECK_STR(s.files[0].file, "/w/k.py");
	CHECK_INT(s.files[0].lines, 3);
	CHECK_INT(s.files[0].stall, 400);
	CHECK_INT(s.files[1].stall, 30);
	srcmap_summary_release(&s);

	srcmap_build(&d, SRCMAP_CALL_SITE, &s);
	h = srcmap_find_line(&s, "/w/k.py", 60);
	CHECK(h && h->stall == 30 && h->instructions == 1);
	CHECK(srcmap_find_line(&s, "/l/h.py", 5) == NULL);
	CHECK_INT(s.n_files, 1);
	srcmap_summary_release(&s);
	trace_dispatch_release(&d);
}

TEST(srcmap_entry_bucket_needs_the_prologue)
{
	/* The first instruction's line is not flagged when its run holds no s_load. */
	trace_dispatch d;
	trace_dispatch_init(&d);
	add(&d, 1, "; k_0", "k_0", 0, 0, 0);
	add(&d, 0, "v_mov_b32 v0, 0", "/w/k.py:10", 1, 1, 1);
	add(&d, 0, "s_load_dword s1, s[0:1], 0x0", "/w/k.py:11", 1, 1, 1);
	/* A second kernel whose prologue line is flagged. */
	add(&d, 1, "; k_1", "k_1", 0, 0, 0);
	add(&d, 0, "s_load_dword s1, s[0:1], 0x0", "/w/k.py:90", 1, 1, 1);
	srcmap_summary s;
	srcmap_build(&d, SRCMAP_LEAF, &s);
	const srcmap_line *a = srcmap_find_line(&s, "/w/k.py", 10);
	const srcmap_line *b = srcmap_find_line(&s, "/w/k.py", 11);
	const srcmap_line *c = srcmap_find_line(&s, "/w/k.py", 90);
	CHECK(a && !a->entry_bucket);
	CHECK(b && !b->entry_bucket);
	CHECK(c && c->entry_bucket);
	srcmap_summary_release(&s);
	trace_dispatch_release(&d);
}
