/* Dispatch selection over a capture made of copies of a corpus dispatch, and degraded or
 * corrupted copies: missing optional files warn, malformed ones are BAD_INPUT with the file and
 * byte offset. Copies live in the test's temporary directory; the corpus is never modified. */
#include "t.h"

#include "base/fileio.h"
#include "core/amd/bubbles.h"
#include "core/bundle/bundle.h"
#include "core/amd/dispatch_select.h"
#include "read/amd/att_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *small_dispatch(void)
{
	static char path[4096];
	const char *c = t_corpus();
	if (!c)
		return NULL;
	char *k = path_join(c, "hgemm_splitk/att/big");
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(k, &n, &e);
	fp_err_clear(&e);
	path[0] = '\0';
	for (size_t i = 0; names && i < n; i++)
		if (dispatch_id_of(names[i]) >= 0)
			snprintf(path, sizeof path, "%s/%s", k, names[i]);
	file_list_free(names, n);
	free(k);
	return path[0] ? path : NULL;
}

static void copy_dir(const char *from, const char *to)
{
	fp_err e = FP_ERR_INIT;
	file_mkdirs(to, &e);
	size_t n = 0;
	char **names = file_list_dir(from, &n, &e);
	for (size_t i = 0; names && i < n; i++) {
		char *a = path_join(from, names[i]), *b = path_join(to, names[i]);
		size_t len = 0;
		char *buf = file_read_all(a, &len, &e);
		if (buf)
			file_write_atomic(b, buf, len, &e);
		free(buf);
		free(a);
		free(b);
	}
	file_list_free(names, n);
	fp_err_clear(&e);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	fp_err e = FP_ERR_INIT;
	file_mkdirs(dir, &e);
	char *p = path_join(dir, name);
	file_write_atomic(p, text, strlen(text), &e);
	free(p);
	fp_err_clear(&e);
}

TEST(att_select_rule_and_errors)
{
	const char *src = small_dispatch();
	if (!src)
		SKIP("FLYPROF_CORPUS not set");
	char *cap = path_join(t_tmpdir(), "cap");
	char *tag = path_join(cap, "att/big");
	char *d3 = path_join(tag, "ui_output_agent_1_dispatch_3");
	char *d7 = path_join(tag, "ui_output_agent_1_dispatch_7");
	char *d5 = path_join(tag, "ui_output_agent_1_dispatch_5");
	copy_dir(src, d7);
	copy_dir(src, d3);
	write_text(d5, "code.json", "{\"code\":null,\"header\":\"\",\"version\":\"3.0.0\"}");
	bundle b;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(bundle_open(&b, cap, &e), 0);
	CHECK_INT(b.kind, BUNDLE_CAPTURE);
	dispatch_choice c;
	/* equal hits: the lowest dispatch id wins; the empty shell is not a candidate */
	CHECK_INT(dispatch_select(&b, NULL, NULL, &c, &e), 0);
	CHECK_STR(c.id, "3");
	CHECK_STR(c.tag, "big");
	CHECK_INT(jv_len(c.candidates), 2);
	dispatch_choice_release(&c);
	CHECK_INT(dispatch_select(&b, "big", "7", &c, &e), 0);
	CHECK_STR(path_base(c.dir), "ui_output_agent_1_dispatch_7");
	dispatch_choice_release(&c);
	CHECK_INT(dispatch_select(&b, "big", "ui_output_agent_1_dispatch_7", &c, &e), 0);
	CHECK_STR(c.id, "7");
	dispatch_choice_release(&c);
	CHECK_INT(dispatch_select(&b, "big", "99", &c, &e), -1);
	CHECK_INT(e.code, ERR_DISPATCH_OUT_OF_RANGE);
	CHECK_INT(jv_len(jv_get(e.extra, "available")), 3);
	fp_err_clear(&e);
	CHECK_INT(dispatch_select(&b, "big", "5", &c, &e), -1);
	CHECK_INT(e.code, ERR_EMPTY_ATT);
	fp_err_clear(&e);
	CHECK_INT(dispatch_select(&b, "small", NULL, &c, &e), -1);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	CHECK_STR(jv_string(jv_at(jv_get(e.extra, "available"), 0)), "big");
	fp_err_clear(&e);
	bundle_close(&b);

	char *cap2 = path_join(t_tmpdir(), "cap_empty");
	char *only = path_join(cap2, "att/big/ui_output_agent_1_dispatch_9");
	write_text(only, "code.json", "{\"code\":null}");
	CHECK_INT(bundle_open(&b, cap2, &e), 0);
	CHECK_INT(dispatch_select(&b, NULL, NULL, &c, &e), -1);
	CHECK_INT(e.code, ERR_EMPTY_ATT);
	fp_err_clear(&e);
	bundle_close(&b);
	free(only);
	free(cap2);
	free(d3);
	free(d5);
	free(d7);
	free(tag);
	free(cap);
}

static int bubbles_on(const char *dir, jv *warnings, fp_err *e)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	bubbles_params o = {10, -1, 2, NULL};
	jv *out = NULL;
	int rc = att_code_read(dir, &d, e);
	if (rc == 0)
		rc = bubbles_compute(&d, NULL, &o, &out, NULL, warnings, e);
	jv_free(out);
	trace_dispatch_release(&d);
	return rc;
}

static void truncate_file(const char *dir, const char *name, size_t keep)
{
	char *p = path_join(dir, name);
	CHECK_INT(truncate(p, (off_t)keep), 0);
	free(p);
}

TEST(att_degraded_and_corrupt_copies)
{
	const char *src = small_dispatch();
	if (!src)
		SKIP("FLYPROF_CORPUS not set");
	char *dir = path_join(t_tmpdir(), "ui_output_agent_2_dispatch_1");
	copy_dir(src, dir);
	fp_err e = FP_ERR_INIT;
	jv *w = jv_array();
	char *p = path_join(dir, "realtime.json");
	unlink(p);
	free(p);
	p = path_join(dir, "wstates3.json");
	unlink(p);
	free(p);
	CHECK_INT(bubbles_on(dir, w, &e), 0);
	CHECK_INT(jv_len(w), 2); /* realtime.json missing, wstates3 missing with wait cycles */
	jv_free(w);

	w = jv_array();
	truncate_file(dir, "se1_sm0_sl0_wv0.json", 1000);
	CHECK_INT(bubbles_on(dir, w, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK(strstr(jv_string(jv_get(e.extra, "file")), "se1_sm0_sl0_wv0.json") != NULL);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 1000);
	fp_err_clear(&e);
	jv_free(w);

	w = jv_array();
	copy_dir(src, dir); /* restore */
	truncate_file(dir, "occupancy.json", 20);
	CHECK_INT(bubbles_on(dir, w, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK(strstr(jv_string(jv_get(e.extra, "file")), "occupancy.json") != NULL);
	fp_err_clear(&e);
	jv_free(w);

	copy_dir(src, dir);
	write_text(dir, "code.json", "{\"code\":[[\"s_nop 0\",0,1,\"\",4,8,1,4,0]]}");
	w = jv_array();
	CHECK_INT(bubbles_on(dir, w, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 36);
	fp_err_clear(&e);
	jv_free(w);
	free(dir);
}

TEST(att_select_honours_capture_json)
{
	const char *src = small_dispatch();
	if (!src)
		SKIP("FLYPROF_CORPUS not set");
	char *dir = path_join(t_tmpdir(), "fb");
	bundle b;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), 0);
	bundle_close(&b);
	char *d3 = path_join(dir, "att/big/ui_output_agent_1_dispatch_3");
	char *d7 = path_join(dir, "att/big/ui_output_agent_1_dispatch_7");
	copy_dir(src, d3);
	copy_dir(src, d7);
	CHECK_INT(bundle_open(&b, dir, &e), 0);
	CHECK_INT(b.kind, BUNDLE_FLYPROF);
	dispatch_choice c;
	CHECK_INT(dispatch_select(&b, "big", NULL, &c, &e), 0);
	CHECK_STR(c.id, "3"); /* no capture.json: the tie goes to the lowest id */
	dispatch_choice_release(&c);
	write_text(dir, "capture.json",
		   "{\"tags\":{\"big\":{\"kept_dir\":\"att/big/ui_output_agent_1_dispatch_7\"}}}");
	CHECK_INT(dispatch_select(&b, "big", NULL, &c, &e), 0);
	CHECK_STR(c.id, "7");
	CHECK(strstr(c.why, "capture.json") != NULL);
	dispatch_choice_release(&c);
	write_text(dir, "capture.json", "{\"tags\":{\"big\":{\"dispatch\":7}}}");
	CHECK_INT(dispatch_select(&b, "big", NULL, &c, &e), 0);
	CHECK_STR(c.id, "7");
	dispatch_choice_release(&c);
	bundle_close(&b);
	free(d3);
	free(d7);
	free(dir);
}

/* Two parses of one code.json: the same instructions, fields and directory. */
static void check_same_code(const trace_dispatch *a, const trace_dispatch *b)
{
	CHECK(a->n_insts > 0);
	CHECK_INT(a->n_insts, b->n_insts);
	CHECK_STR(a->dir ? a->dir : "", b->dir ? b->dir : "");
	CHECK_STR(a->kernel ? a->kernel : "", b->kernel ? b->kernel : "");
	for (size_t i = 0; i < a->n_insts && i < b->n_insts; i++) {
		const trace_inst *x = &a->insts[i], *y = &b->insts[i];
		if (x->code_line != y->code_line || x->hits != y->hits || x->vaddr != y->vaddr ||
		    x->is_label != y->is_label || strcmp(x->isa, y->isa) != 0 ||
		    strcmp(x->source, y->source) != 0) {
			t_fail(__FILE__, __LINE__, "instruction %zu differs", i);
			return;
		}
	}
}

/* dispatch_select_read gives the chosen dispatch's code.json as att_code_read does: taken over
 * from the selection for a dispatch directory (one candidate), read again for a capture of
 * several; a failed selection leaves it empty. */
TEST(att_select_read_gives_the_chosen_code)
{
	const char *src = small_dispatch();
	if (!src)
		SKIP("FLYPROF_CORPUS not set");
	char *cap = path_join(t_tmpdir(), "cap_read");
	char *d3 = path_join(cap, "att/big/ui_output_agent_1_dispatch_3");
	char *d7 = path_join(cap, "att/big/ui_output_agent_1_dispatch_7");
	copy_dir(src, d3);
	copy_dir(src, d7);
	const char *roots[] = {src, cap};
	for (int r = 0; r < 2; r++) {
		bundle b;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(bundle_open(&b, roots[r], &e), 0);
		dispatch_choice c;
		trace_dispatch got, want;
		trace_dispatch_init(&got);
		trace_dispatch_init(&want);
		CHECK_INT(dispatch_select_read(&b, NULL, NULL, &c, &got, &e), 0);
		CHECK_INT(att_code_read(c.dir, &want, &e), 0);
		check_same_code(&got, &want);
		dispatch_choice_release(&c);
		trace_dispatch_release(&got);
		trace_dispatch_release(&want);
		if (r == 1) {
			CHECK_INT(dispatch_select_read(&b, "big", "99", &c, &got, &e), -1);
			CHECK_INT(e.code, ERR_DISPATCH_OUT_OF_RANGE);
			CHECK_INT(got.n_insts, 0);
			fp_err_clear(&e);
			trace_dispatch_release(&got);
		}
		bundle_close(&b);
	}
	free(d3);
	free(d7);
	free(cap);
}

/* A wave file's name: the four numbers read, anything else not a wave file. */
TEST(att_wave_file_name_numbers)
{
	wave_file_name f;
	CHECK(dispatch_wave_file_name("se3_sm12_sl7_wv41.json", &f));
	CHECK_INT(f.se, 3);
	CHECK_INT(f.simd, 12);
	CHECK_INT(f.slot, 7);
	CHECK_INT(f.wave, 41);
	CHECK(dispatch_is_wave_file("se0_sm0_sl0_wv0.json"));
	const char * not [] = {"se1_sm2_sl3_wv4.json.bak",
			       "se_sm2_sl3_wv4.json",
			       "se1_sm-2_sl3_wv4.json",
			       "se1_sm2_sl3.json",
			       "code.json",
			       "se+1_sm2_sl3_wv4.json",
			       ""};
	for (size_t i = 0; i < sizeof not / sizeof not [0]; i++) {
		CHECK(!dispatch_wave_file_name(not [i], &f));
		CHECK(!dispatch_is_wave_file(not [i]));
	}
	/* The numbers as strtoll reads them: leading zeros, and the largest value for one too long
	 * for 64 bits (19 digits still fit). */
	CHECK(dispatch_wave_file_name("se007_sm0_sl9223372036854775807_wv9223372036854775808.json",
				      &f));
	CHECK_INT(f.se, 7);
	CHECK_INT(f.simd, 0);
	CHECK(f.slot == INT64_MAX);
	CHECK(f.wave == INT64_MAX);
	CHECK(dispatch_wave_file_name("se99999999999999999999999_sm1_sl922337203685477580_wv2.json",
				      &f));
	CHECK(f.se == INT64_MAX);
	CHECK(f.slot == 922337203685477580LL);
	CHECK_INT(f.wave, 2);
	CHECK(!dispatch_wave_file_name("se1_sm2_sl3_wv4.jso", &f));
	CHECK(!dispatch_wave_file_name("se1_sm2_sl3_wv4", &f));
	CHECK(!dispatch_wave_file_name("se1_sm2_sl3_wv 4.json", &f));
}
