/* ATT readers on hand-written inputs: values, skipped keys, and BAD_INPUT with the byte offset
 * of the fault (offsets counted by hand in the literals below). */
#include "t.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "read/amd/att_code.h"
#include "read/amd/att_filenames.h"
#include "read/amd/att_occupancy.h"
#include "read/amd/att_realtime.h"
#include "read/amd/att_scan.h"
#include "read/amd/att_wave.h"
#include "read/amd/att_wstates.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t err_offset(const fp_err *e)
{
	return jv_i64(jv_get(e->extra, "offset"));
}

TEST(att_scan_skips_any_value_and_reports_offsets)
{
	const char *doc = "{\"a\": [1, -2.5e3, \"x\\u00e9\\n\", {\"b\": [true, false, null]}]}";
	att_scan s;
	fp_err e = FP_ERR_INIT;
	att_scan_init(&s, doc, strlen(doc), "doc", &e);
	CHECK_INT(att_scan_skip(&s), 0);
	CHECK_INT(att_scan_end(&s), 0);
	const char *bad = "[1, 2,, 3]"; /* the second ',' is at byte 6 */
	att_scan_init(&s, bad, strlen(bad), "bad.json", &e);
	CHECK_INT(att_scan_skip(&s), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(err_offset(&e), 6);
	CHECK_STR(jv_string(jv_get(e.extra, "file")), "bad.json");
	fp_err_clear(&e);
	const char *big = "9223372036854775808";
	int64_t v;
	att_scan_init(&s, big, strlen(big), "big", &e);
	CHECK_INT(att_scan_i64(&s, &v, "an integer"), -1);
	fp_err_clear(&e);
	att_scan_init(&s, "-9223372036854775808", 20, "min", &e);
	CHECK_INT(att_scan_i64(&s, &v, "an integer"), 0);
	CHECK(v == INT64_MIN);
}

static const char *wave_doc =
    "{\"duration\":40,\"name\":\"SE1\",\"extra\":{\"deep\":[[1,2],{\"k\":\"v\"}]},"
    "\"wave\":{\"begin\":100,\"cu\":1,\"end\":140,\"id\":0,\"simd\":2,\"slot\":3,"
    "\"instructions\":[[100,2,0,4,1],[108,9,20,24,2],[104,6,0,4,0],[140,3,0,4,3,77]],"
    "\"timeline\":[[2,8],[3,24],[2,8]],"
    "\"waitcnt\":[[2,[[1,0],[3,0]]],[2,[[1,0]]]],\"future\":1}}";

TEST(att_wave_reads_every_field)
{
	att_wave w;
	att_wave_init(&w);
	fp_err e = FP_ERR_INIT;
	CHECK_INT(att_wave_parse(wave_doc, strlen(wave_doc), "w.json", &w, &e), 0);
	CHECK_INT(w.begin, 100);
	CHECK_INT(w.end, 140);
	CHECK_INT(w.cu, 1);
	CHECK_INT(w.simd, 2);
	CHECK_INT(w.slot, 3);
	CHECK_INT(w.n_insts, 4);
	CHECK_INT(w.insts[1].category, 9);
	CHECK_INT(w.insts[1].stall, 20);
	CHECK_INT(w.insts[1].duration, 24);
	CHECK_INT(w.insts[3].line, 3);
	CHECK_INT(w.n_timeline, 3);
	CHECK_INT(w.timeline[1].state, 3);
	CHECK_INT(w.timeline[1].duration, 24);
	CHECK_INT(w.n_waits, 3);
	CHECK_INT(w.waits[1].producer_line, 3);
	CHECK_INT(w.waits[2].wait_line, 2);
	att_wave_release(&w);
}

/* Keys that share a first byte (or all of a known key) with the ones read are skipped. */
TEST(att_wave_skips_keys_like_known_ones)
{
	static const char doc[] =
	    "{\"wave\":{\"\":1,\"b\":[1],\"beginning\":5,\"begin\":10,\"c\":2,\"cus\":7,"
	    "\"cu\":3,\"e\":\"x\",\"end\":20,\"i\":0,\"ids\":9,\"id\":4,\"instr\":[[1]],"
	    "\"instructions\":[[1,2,3,4,5]],\"s\":1,\"simds\":8,\"simd\":5,\"slots\":8,"
	    "\"slot\":6,\"time\":[],\"timeline\":[[1,2]],\"wait\":{},\"waitcnt\":[[7,[[8,0]]]],"
	    "\"waitcnts\":[1],\"x\":null}}";
	att_wave w;
	att_wave_init(&w);
	fp_err e = FP_ERR_INIT;
	CHECK_INT(att_wave_parse(doc, strlen(doc), "w.json", &w, &e), 0);
	CHECK_INT(w.begin, 10);
	CHECK_INT(w.cu, 3);
	CHECK_INT(w.end, 20);
	CHECK_INT(w.id, 4);
	CHECK_INT(w.simd, 5);
	CHECK_INT(w.slot, 6);
	CHECK_INT(w.n_insts, 1);
	CHECK_INT(w.insts[0].line, 5);
	CHECK_INT(w.n_timeline, 1);
	CHECK_INT(w.n_waits, 1);
	CHECK_INT(w.waits[0].producer_line, 8);
	att_wave_release(&w);
}

TEST(att_wave_rejects_malformed_with_position)
{
	struct {
		const char *doc;
		int64_t offset;
	} cases[] = {
	    /* a string where the stall integer belongs: byte 48 */
	    {"{\"wave\":{\"begin\":1,\"end\":2,\"instructions\":[[1,2,\"x\",4,5]]}}", 48},
	    /* a row with 4 columns: the ']' at byte 51 */
	    {"{\"wave\":{\"begin\":1,\"end\":2,\"instructions\":[[1,2,3,4]]}}", 51},
	    /* truncated */
	    {"{\"wave\":{\"begin\":1,\"end\":2,\"timeline\":[[2,8],[3", 47},
	    /* begin missing: reported at the start */
	    {"{\"wave\":{\"end\":2}}", 0},
	    /* a fraction in an integer field */
	    {"{\"wave\":{\"begin\":1.5,\"end\":2}}", 17},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		att_wave w;
		att_wave_init(&w);
		fp_err e = FP_ERR_INIT;
		CHECK_INT(att_wave_parse(cases[i].doc, strlen(cases[i].doc), "w.json", &w, &e), -1);
		CHECK_INT(e.code, ERR_BAD_INPUT);
		CHECK_INT(err_offset(&e), cases[i].offset);
		CHECK(jv_get(e.extra, "expected") != NULL);
		fp_err_clear(&e);
		att_wave_release(&w);
	}
}

TEST(att_code_rows_labels_nulls_and_extra_columns)
{
	const char *doc = "{\"code\":[[\"s_nop 0\",0,2,null,4,8,1,4,0,0,9,9],"
			  "[\"; my_kernel\",0,0,\"my_kernel\",4,0,0,0,0,0],"
			  "[\"s_waitcnt lgkmcnt(0)\",0,1,\"k.py:3\",4,4,2,50,46,4]],"
			  "\"header\":\"ISA, _, LineNumber\",\"version\":\"3.0.0\"}";
	trace_dispatch d;
	trace_dispatch_init(&d);
	fp_err e = FP_ERR_INIT;
	CHECK_INT(att_code_parse(doc, strlen(doc), "code.json", &d, &e), 0);
	CHECK_INT(d.n_insts, 3);
	CHECK_STR(d.kernel, "my_kernel");
	CHECK(d.insts[0].is_label);
	CHECK_INT(d.insts[1].code_line, 1);
	CHECK_INT(d.insts[1].stall, 46);
	CHECK_INT(d.insts[1].idle, 4);
	CHECK_STR(d.insts[2].source, "");
	CHECK_INT(trace_find_line(&d, 2), 2);
	trace_dispatch_release(&d);

	const char *empty = "{\"code\":null,\"header\":\"x\",\"version\":\"3.0.0\"}";
	CHECK_INT(att_code_parse(empty, strlen(empty), "code.json", &d, &e), 0);
	CHECK_INT(d.n_insts, 0);
	trace_dispatch_release(&d);

	const char *bad = "{\"code\":[[\"v\",0,\"1\",\"\",4,8,1,4,0,0]]}"; /* "1" at byte 16 */
	CHECK_INT(att_code_parse(bad, strlen(bad), "code.json", &d, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(err_offset(&e), 16);
	fp_err_clear(&e);
	const char *shortrow = "{\"code\":[[\"v\",0,1,\"\",4]]}";
	CHECK_INT(att_code_parse(shortrow, strlen(shortrow), "code.json", &d, &e), -1);
	CHECK_INT(err_offset(&e), 22);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
}

TEST(att_small_readers)
{
	fp_err e = FP_ERR_INIT;
	const char *occ = "{\"0\":[[10,1,0,0,1,1],[30,1,0,0,0,1]],\"2\":[[5,3,1,0,1]],"
			  "\"dispatches\":{\"0\":\"0 / 0x0\"},\"version\":\"3.0.0\"}";
	att_occupancy o;
	CHECK_INT(att_occupancy_parse(occ, strlen(occ), "occupancy.json", &o, &e), 0);
	CHECK_INT(o.n, 3);
	CHECK_INT(o.v[2].se, 2);
	CHECK_INT(o.v[2].kernel, -1);
	CHECK_STR(o.version, "3.0.0");
	att_occupancy_release(&o);
	const char *occ_bad = "{\"0\":[[10,1,0,0,2,1]]}"; /* start 2 at byte 16 */
	CHECK_INT(att_occupancy_parse(occ_bad, strlen(occ_bad), "occupancy.json", &o, &e), -1);
	CHECK_INT(err_offset(&e), 16);
	fp_err_clear(&e);

	const char *ws = "{\"name\":\"wstates2.json\",\"time\":[10,14,20],\"state\":[1,3,0]}";
	att_wstates w;
	CHECK_INT(att_wstates_parse(ws, strlen(ws), "wstates2.json", &w, &e), 0);
	int64_t peak = 0;
	CHECK_INT(att_wstates_integral(&w, &peak), 1 * 4 + 3 * 6);
	CHECK_INT(peak, 3);
	att_wstates_release(&w);
	const char *ws_bad = "{\"time\":[1,2],\"state\":[1]}";
	CHECK_INT(att_wstates_parse(ws_bad, strlen(ws_bad), "wstates2.json", &w, &e), -1);
	fp_err_clear(&e);

	const char *rt = "{\"SE0\":[[1000,50],[3000,51]],\"metadata\":{\"frequency\":1000}}";
	att_realtime r;
	CHECK_INT(att_realtime_parse(rt, strlen(rt), "realtime.json", &r, &e), 0);
	CHECK_INT(r.n, 1);
	CHECK_INT(r.v[0].last_gfx - r.v[0].first_gfx, 2000);
	CHECK_INT(r.frequency, 1000);
	att_realtime_release(&r);

	const char *fn = "{\"gfxip\":9,\"gfxv\":\"vega\",\"version\":\"3.0.0\",\"wave_filenames\":"
			 "{\"1\":{\"0\":{\"0\":{\"0\":[\"se1_sm0_sl0_wv0.json\",5,9]}}}}}";
	att_filenames f;
	CHECK_INT(att_filenames_parse(fn, strlen(fn), "filenames.json", &f, &e), 0);
	CHECK_INT(f.gfxip, 9);
	CHECK_INT(f.n_waves, 1);
	CHECK_STR(f.waves[0].file, "se1_sm0_sl0_wv0.json");
	CHECK_INT(f.waves[0].end, 9);
	att_filenames_release(&f);
}

static uint64_t occ_rng = 0x2545F4914F6CDD1Dull;
static unsigned occ_rnd(unsigned m)
{
	occ_rng ^= occ_rng << 13;
	occ_rng ^= occ_rng >> 7;
	occ_rng ^= occ_rng << 17;
	return (unsigned)(occ_rng % m);
}

/* occupancy.json read through the fast row paths (compact rows) and through the general one
 * (the same rows with a space after each comma, which every fast path declines): the same
 * events, or the same failure. Rows are mostly the decoder's [time, cu, simd, slot, start,
 * kernel], with numbers of 1..18 digits, sometimes 5 or 7 columns or a start of 2. */
TEST(att_occupancy_fast_rows_match_general)
{
	size_t cap = 1 << 18;
	char *a = malloc(cap), *b = malloc(cap);
	for (int it = 0; it < 300; it++) {
		size_t na = 0, nb = 0;
		na += (size_t)sprintf(a + na, "{\"%d\":[", it % 4);
		nb += (size_t)sprintf(b + nb, "{\"%d\":[", it % 4);
		size_t rows = 1 + occ_rnd(it % 3 ? 400 : 20);
		for (size_t r = 0; r < rows; r++) {
			unsigned cols = occ_rnd(200) == 0 ? 5 + 2 * occ_rnd(2) : 6;
			a[na++] = b[nb++] = '[';
			for (unsigned c = 0; c < cols; c++) {
				long long v;
				if (c == 4)
					v = occ_rnd(300) == 0 ? 2 : occ_rnd(2);
				else if (occ_rnd(50) == 0)
					v = (long long)occ_rnd(1000000000) * 1000000000ll +
					    occ_rnd(1000000000);
				else
					v = occ_rnd(c == 0 ? 10000000 : occ_rnd(8) ? 16 : 100000);
				na += (size_t)sprintf(a + na, "%lld", v);
				nb += (size_t)sprintf(b + nb, "%lld", v);
				if (c + 1 < cols) {
					a[na++] = ',';
					b[nb++] = ',';
					b[nb++] = ' ';
				}
			}
			a[na++] = b[nb++] = ']';
			if (r + 1 < rows) {
				a[na++] = b[nb++] = ',';
				b[nb++] = ' ';
			}
		}
		na += (size_t)sprintf(a + na, "]}");
		nb += (size_t)sprintf(b + nb, "]}");
		att_occupancy oa, ob;
		fp_err ea = FP_ERR_INIT, eb = FP_ERR_INIT;
		int ra = att_occupancy_parse(a, na, "occupancy.json", &oa, &ea);
		int rb = att_occupancy_parse(b, nb, "occupancy.json", &ob, &eb);
		CHECK_INT(ra, rb);
		if (ra == 0 && rb == 0) {
			CHECK_INT(oa.n, rows);
			CHECK_INT(oa.n, ob.n);
			for (size_t i = 0; i < oa.n && i < ob.n; i++)
				if (memcmp(&oa.v[i], &ob.v[i], offsetof(att_occ_event, start)) ||
				    oa.v[i].start != ob.v[i].start) {
					t_fail(__FILE__, __LINE__, "event %zu differs", i);
					break;
				}
			att_occupancy_release(&oa);
			att_occupancy_release(&ob);
		} else {
			CHECK_INT(ea.code, eb.code);
		}
		fp_err_clear(&ea);
		fp_err_clear(&eb);
	}
	free(a);
	free(b);
}

/* One wstates document through att_wstates_read_integral and through att_wstates_read then
 * att_wstates_integral: the same return, figures and error (code, message, offset). */
static void same_integral(const char *path, const char *text, size_t len, int want_rc)
{
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_write_atomic(path, text, len, &e), 0);
	int64_t i1 = -7, p1 = -7, p2 = -7, i2 = -7;
	fp_err e1 = FP_ERR_INIT, e2 = FP_ERR_INIT;
	int r1 = att_wstates_read_integral(path, &i1, &p1, &e1);
	att_wstates w;
	int r2 = att_wstates_read(path, &w, &e2);
	if (r2 == 0) {
		i2 = att_wstates_integral(&w, &p2);
		att_wstates_release(&w);
	}
	CHECK_INT(r1, want_rc);
	CHECK_INT(r1, r2);
	if (r1 == 0 && r2 == 0) {
		CHECK(i1 == i2);
		CHECK(p1 == p2);
	} else if (r1 && r2) {
		CHECK_INT(e1.code, e2.code);
		CHECK_STR(e1.message, e2.message);
		CHECK(err_offset(&e1) == err_offset(&e2));
	}
	if (r1 != r2 || (r1 == 0 && (i1 != i2 || p1 != p2)))
		t_fail(__FILE__, __LINE__, "differs on: %.120s", text);
	fp_err_clear(&e1);
	fp_err_clear(&e2);
}

/* att_wstates_read_integral keeps one array and folds the other as it reads it, by chunks; it
 * answers as the full read does: either array first, across chunks, with values that wrap, and
 * for everything the fold leaves to the full parse (a key twice, an array missing or longer
 * than the other, a decreasing time, malformed text). */
TEST(att_wstates_integral_folded_as_read)
{
	char *path = path_join(t_tmpdir(), "wstates3.json");
	static const struct {
		const char *text;
		int rc;
	} docs[] = {
	    {"{\"name\":\"w\",\"time\":[10,14,20],\"state\":[1,3,0]}", 0},
	    {"{\"state\":[1,3,0],\"time\":[10,14,20],\"name\":\"w\"}", 0},
	    {"{\"state\":[1, 3,0],\"time\":[10,14, 20]}", 0},
	    {"{\"time\":[10,14,20],\"state\":[1,3,0],\"time\":[1,2,3]}", 0},
	    {"{\"state\":[1,3,0],\"time\":[10,14,20],\"state\":[5,0,2]}", 0},
	    {"{\"time\":[10,14,20],\"time\":[1,5,6],\"state\":[1,3,0]}", 0},
	    {"{\"time\":[],\"state\":[]}", 0},
	    {"{\"time\":[5],\"state\":[9]}", 0},
	    {"{\"name\":\"w\"}", 0},
	    {"{\"time\":[9223372036854775807,9223372036854775807],"
	     "\"state\":[9223372036854775807,-9223372036854775807]}",
	     0},
	    {"{\"state\":[-4,9223372036854775807],\"time\":[-9223372036854775807,9]}", 0},
	    {"{\"time\":[1,2],\"state\":[1]}", -1},
	    {"{\"state\":[1],\"time\":[1,2]}", -1},
	    {"{\"state\":[1,2,3],\"time\":[1,2]}", -1},
	    {"{\"time\":[1,2,3],\"state\":[1,2]}", -1},
	    {"{\"state\":[1,2,3],\"time\":[1,5,2]}", -1},
	    {"{\"time\":[1,5,2],\"state\":[1,2,3]}", -1},
	    {"{\"time\":[1,2,3],\"state\":[1,x,3]}", -1},
	    {"{\"state\":[1,2,3],\"time\":[1,2,3]", -1},
	    {"{\"state\":[1,2,3],\"time\":[1,2,3]} x", -1},
	    {"[1,2]", -1},
	    {"", -1},
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
		same_integral(path, docs[i].text, strlen(docs[i].text), docs[i].rc);
	/* long arrays, folded over several chunks, either one first, and one time out of order
	 * far into the array */
	enum { N = 10007 };
	size_t cap = 32 * N + 64;
	char *t = malloc(cap);
	for (int order = 0; order < 2; order++)
		for (int broken = 0; broken < 3; broken++) {
			strbuf times = STRBUF_INIT, counts = STRBUF_INIT;
			for (int k = 0; k < N; k++) {
				int64_t tv = 1000 + 7 * (int64_t)k + (k % 3);
				if (broken == 1 && k == N - 5)
					tv = 3;
				sb_addf(&times, "%s%lld", k ? "," : "", (long long)tv);
				sb_addf(&counts, "%s%d", k ? "," : "", (k * 13) % 11);
			}
			if (broken == 2)
				sb_adds(&counts, ",4");
			const char *a = order ? sb_str(&counts) : sb_str(&times);
			const char *b = order ? sb_str(&times) : sb_str(&counts);
			int n = snprintf(t, cap, "{\"%s\":[%s],\"%s\":[%s]}",
					 order ? "state" : "time", a, order ? "time" : "state", b);
			same_integral(path, t, (size_t)n, broken ? -1 : 0);
			sb_release(&times);
			sb_release(&counts);
		}
	free(t);
	free(path);
}
