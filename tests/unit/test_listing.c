/* A directory listed once per command (file_listing): the listing answers as the walks it
 * replaces (file_list_dir, file_dir_any, file_dir_count), the registry's detection, the
 * dispatch selection and the wave pass share one, and sharing it changes nothing: the same
 * backend wins (NVIDIA first, also in a directory that holds both kinds of files) and the pass
 * gives what it gives when it lists the directory itself. */
#include "t.h"

#include "base/fileio.h"
#include "core/amd/dispatch_select.h"
#include "core/amd/wave_agg.h"
#include "core/backend/backend.h"
#include "core/bundle/bundle.h"
#include "read/amd/att_code.h"
#include "read/amd/codeobj_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int t_ends_txt(const char *name, void *ctx)
{
	size_t n = strlen(name);
	(void)ctx;
	return n > 4 && strcmp(name + n - 4, ".txt") == 0;
}

TEST(file_listing_answers_as_the_walks)
{
	char *dir = path_join(t_tmpdir(), "listing");
	t_put(dir, "b", "");
	t_put(dir, "a.txt", "");
	t_put(dir, "c", "");
	file_listing l;
	file_listing_init(&l, dir);
	CHECK(!l.walked); /* nothing read until asked */
	CHECK_INT(file_listing_count(&l, t_ends_txt, NULL), 1);
	CHECK_INT(file_listing_any(&l, t_ends_txt, NULL), 1);
	size_t n = 0, m = 0;
	fp_err e = FP_ERR_INIT;
	char **got = file_listing_names(&l, &n, &e);
	char **want = file_list_dir(dir, &m, &e);
	CHECK_INT(n, 3);
	CHECK_INT(m, 3);
	for (size_t i = 0; got && want && i < n && i < m; i++)
		CHECK_STR(got[i], want[i]);
	file_list_free(want, m);
	/* one walk: a name added later is not in it (the command sees one state of the dir) */
	t_put(dir, "d.txt", "");
	CHECK_INT(file_listing_count(&l, t_ends_txt, NULL), 1);
	CHECK(file_listing_names(&l, &n, &e) == got);
	CHECK_INT(n, 3);
	file_listing_release(&l);

	/* a missing directory: the error file_list_dir gives, on every question */
	char *none = path_join(t_tmpdir(), "no-such-listing");
	file_listing_init(&l, none);
	CHECK_INT(file_listing_any(&l, t_ends_txt, NULL), 0);
	CHECK_INT(file_listing_count(&l, t_ends_txt, NULL), 0);
	fp_err e1 = FP_ERR_INIT, e2 = FP_ERR_INIT;
	CHECK(file_listing_names(&l, &n, &e1) == NULL);
	CHECK_INT(n, 0);
	CHECK(file_list_dir(none, &m, &e2) == NULL);
	CHECK_INT(e1.code, ERR_NO_ARTIFACT);
	CHECK_INT(e1.code, e2.code);
	CHECK_STR(e1.message, e2.message);
	fp_err_clear(&e1);
	CHECK(file_listing_names(&l, &n, &e1) == NULL);
	CHECK_STR(e1.message, e2.message);
	fp_err_clear(&e1);
	fp_err_clear(&e2);
	file_listing_release(&l);

	/* an empty directory lists nothing, which is not a failure */
	char *empty = path_join(t_tmpdir(), "empty-listing");
	CHECK_INT(file_mkdirs(empty, &e), 0);
	file_listing_init(&l, empty);
	CHECK(file_listing_names(&l, &n, &e) != NULL);
	CHECK_INT(n, 0);
	file_listing_release(&l);
	free(empty);
	free(none);
	free(dir);
}

/* A dispatch directory of two waves over a 2-line kernel. */
static void make_dispatch(const char *dir)
{
	t_put(dir, "code.json",
	      "{\"code\":[[\"; k\",0,0,\"k\",1,0,0,0,0,0],"
	      "[\"s_load_dword s0, s[0:1], 0x0\",0,1,\"k.py:1\",1,0,2,8,0,4],"
	      "[\"v_add_f32_e32 v0, v0, v2\",0,2,\"k.py:2\",1,4,2,12,4,8]],\"version\":\"3.0.0\"}");
	t_put(dir, "se0_sm0_sl0_wv0.json",
	      "{\"wave\":{\"begin\":100,\"end\":140,\"cu\":1,\"simd\":0,\"slot\":0,\"id\":0,"
	      "\"instructions\":[[104,1,0,4,1],[120,6,2,6,2]],\"timeline\":[[2,40]],"
	      "\"waitcnt\":[]}}");
	t_put(dir, "se0_sm1_sl0_wv0.json",
	      "{\"wave\":{\"begin\":200,\"end\":230,\"cu\":1,\"simd\":1,\"slot\":0,\"id\":0,"
	      "\"instructions\":[[200,1,0,4,1],[210,6,2,6,2]],\"timeline\":[[2,30]],"
	      "\"waitcnt\":[]}}");
}

static jv *bubbles_of(backend_dispatch *d)
{
	bubbles_params p = {10, -1, 1, NULL};
	jv *out = NULL, *w = jv_array();
	fp_err e = FP_ERR_INIT;
	CHECK_INT(backend_bubbles(d, &p, &out, NULL, w, &e), 0);
	fp_err_clear(&e);
	jv_free(w);
	return out;
}

/* Detection, selection and the pass read one listing of a dispatch directory; the pass's
 * result is what it is when the directory is listed again. */
TEST(backend_listing_shared_by_open_and_pass)
{
	char *dir = path_join(t_tmpdir(), "ui_output_agent_1_dispatch_4");
	make_dispatch(dir);
	bundle b;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(bundle_open(&b, dir, &e), 0);
	CHECK(backend_for(&b) == &backend_amd);
	backend_dispatch d;
	CHECK_INT(backend_open(&b, NULL, NULL, &d, &e), 0);
	CHECK(d.be == &backend_amd);
	CHECK(d.listing.walked); /* the selection counted the waves from it */
	CHECK_STR(d.listing.dir, d.choice.dir);
	CHECK_INT(jv_i64(jv_get(jv_at(d.choice.candidates, 0), "waves")), 2);
	jv *shared = bubbles_of(&d);
	file_listing_release(&d.listing); /* made again: the pass lists the directory itself */
	file_listing_init(&d.listing, d.choice.dir);
	jv *again = bubbles_of(&d);
	CHECK(shared && again && jv_equal(shared, again));
	CHECK_INT(jv_i64(jv_get(jv_get(shared, "wave_check"), "wave_files")), 2);
	jv_free(shared);
	jv_free(again);
	backend_close(&d);
	bundle_close(&b);

	/* the pass over a listing of a directory that cannot be listed fails as it does when it
	 * lists the directory itself */
	trace_dispatch t;
	trace_dispatch_init(&t);
	char *none = path_join(t_tmpdir(), "no-such-dispatch");
	file_listing l;
	file_listing_init(&l, none);
	wave_agg a1, a2;
	fp_err e1 = FP_ERR_INIT, e2 = FP_ERR_INIT;
	CHECK_INT(wave_agg_run_listed(&l, &t, 1, -1, NULL, &a1, &e1), -1);
	CHECK_INT(wave_agg_run(none, &t, 1, -1, NULL, &a2, &e2), -1);
	CHECK_INT(e1.code, e2.code);
	CHECK_STR(e1.message, e2.message);
	fp_err_clear(&e1);
	fp_err_clear(&e2);
	file_listing_release(&l);
	free(none);
	free(dir);
}

/* A directory holding a dispatch's files and Nsight Compute exports is read by the NVIDIA
 * backend, asked first, whether the exports have the documented name or a prefix; without the
 * exports, by the AMD one. */
TEST(backend_nvidia_first_with_a_shared_listing)
{
	static const char *const exports[] = {"source_sass.csv", "run1_src_sass.csv"};
	for (int k = 0; k < 2; k++) {
		char name[64];
		snprintf(name, sizeof name, "ui_output_agent_1_dispatch_%d", 10 + k);
		char *dir = path_join(t_tmpdir(), name);
		make_dispatch(dir);
		size_t len = 0;
		fp_err e = FP_ERR_INIT;
		char *csv = file_read_all("tests/fixtures/ncu/tiny_sass.csv", &len, &e);
		CHECK(csv != NULL);
		if (!csv) {
			fp_err_clear(&e);
			free(dir);
			return;
		}
		char *p = path_join(dir, exports[k]);
		CHECK_INT(file_write_atomic(p, csv, len, &e), 0);
		bundle b;
		CHECK_INT(bundle_open(&b, dir, &e), 0);
		CHECK(backend_for(&b) == &backend_nvidia);
		backend_dispatch d;
		int rc = backend_open(&b, NULL, NULL, &d, &e);
		CHECK_INT(rc, 0);
		CHECK(d.be == &backend_nvidia);
		if (rc)
			fp_err_clear(&e);
		backend_close(&d);
		/* without the exports: AMD */
		CHECK_INT(unlink(p), 0);
		CHECK(backend_for(&b) == &backend_amd);
		CHECK_INT(backend_open(&b, NULL, NULL, &d, &e), 0);
		CHECK(d.be == &backend_amd);
		backend_close(&d);
		bundle_close(&b);
		free(p);
		free(csv);
		free(dir);
	}
}

/* dispatch_select_listed: the only candidate of a capture is listed in place of the listing of
 * the capture's directory; among several, each is counted by a walk and the listing is left as
 * it was. The choice is the one dispatch_select makes. */
TEST(dispatch_select_listed_only_candidate)
{
	char *cap = path_join(t_tmpdir(), "cap_listed");
	char *d1 = path_join(cap, "att/big/ui_output_agent_1_dispatch_1");
	make_dispatch(d1);
	fp_err e = FP_ERR_INIT;
	bundle b;
	CHECK_INT(bundle_open(&b, cap, &e), 0);
	file_listing l;
	file_listing_init(&l, b.dir);
	dispatch_choice c, want;
	CHECK_INT(dispatch_select_listed(&b, NULL, NULL, &c, NULL, &l, &e), 0);
	CHECK_INT(dispatch_select(&b, NULL, NULL, &want, &e), 0);
	CHECK_STR(l.dir, c.dir);
	CHECK(l.walked);
	CHECK(jv_equal(c.candidates, want.candidates));
	dispatch_choice_release(&c);
	dispatch_choice_release(&want);
	file_listing_release(&l);
	bundle_close(&b);

	char *d2 = path_join(cap, "att/big/ui_output_agent_1_dispatch_2");
	make_dispatch(d2);
	CHECK_INT(bundle_open(&b, cap, &e), 0);
	file_listing_init(&l, b.dir);
	CHECK_INT(dispatch_select_listed(&b, NULL, "2", &c, NULL, &l, &e), 0);
	CHECK_INT(dispatch_select(&b, NULL, "2", &want, &e), 0);
	CHECK_STR(l.dir, b.dir);
	CHECK(!l.walked);
	CHECK_STR(c.dir, want.dir);
	CHECK(jv_equal(c.candidates, want.candidates));
	CHECK_INT(jv_len(c.candidates), 2);
	dispatch_choice_release(&c);
	dispatch_choice_release(&want);
	file_listing_release(&l);
	bundle_close(&b);
	free(d2);
	free(d1);
	free(cap);
}

/* codeobj_find_beside asked with the dispatch directory's listing finds what it finds walking
 * the directory: the first code object in name order that is a regular file (not a directory
 * of that name), then in the parent; a listing of another directory is not used. */
TEST(codeobj_find_beside_with_a_listing_as_without)
{
	char *top = path_join(t_tmpdir(), "cobeside");
	char *disp = path_join(top, "ui_output_agent_1_dispatch_2");
	t_put(disp, "se0_sm0_sl0_wv0.json", "{}");
	t_put(disp, "x_code_object_id_3.out", "x");
	t_put(disp, "a_code_object_id_3.out", "a");
	t_put(top, "p_code_object_id_5.out", "p");
	char *sub = path_join(disp, "b_code_object_id_4.out");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(sub, &e), 0); /* a directory: never the answer */
	file_listing mine, other;
	file_listing_init(&mine, disp);
	file_listing_init(&other, top);
	for (int64_t id = 3; id <= 6; id++) {
		char *want = codeobj_find_beside(disp, id, NULL);
		char *got = codeobj_find_beside(disp, id, &mine);
		char *skip = codeobj_find_beside(disp, id, &other);
		CHECK_STR(got ? got : "(none)", want ? want : "(none)");
		CHECK_STR(skip ? skip : "(none)", want ? want : "(none)");
		if (id == 3)
			CHECK(want && strstr(want, "/a_code_object_id_3.out"));
		if (id == 5)
			CHECK(want && strstr(want, "/p_code_object_id_5.out"));
		if (id == 4 || id == 6)
			CHECK(!want);
		free(want);
		free(got);
		free(skip);
	}
	CHECK(mine.walked && !other.walked);
	file_listing_release(&mine);
	file_listing_release(&other);
	free(sub);
	free(disp);
	free(top);
}
