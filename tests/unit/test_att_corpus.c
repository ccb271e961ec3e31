/* Conformance of `bubbles` over EVERY dispatch of the corpus (FLYPROF_CORPUS; the directory is
 * iterated, not a fixed list): totals equal sums computed here independently with the generic
 * JSON parser, the wave files reproduce code.json exactly, class and normalised shares add up,
 * no warning is raised, and the output does not depend on the number of threads. */
#include "t.h"

#include "base/fileio.h"
#include "core/amd/bubbles.h"
#include "core/amd/dispatch_select.h"
#include "read/amd/att_code.h"
#include "base/json/json_parse.h"

#include <stdlib.h>
#include <string.h>

typedef struct sums {
	int64_t n, hits, latency, stall, idle, executed;
} sums;

static int independent_sums(const char *dir, sums *s)
{
	char *path = path_join(dir, "code.json");
	fp_err e = FP_ERR_INIT;
	jv *doc = json_parse_file(path, &e);
	free(path);
	if (!doc)
		return -1;
	memset(s, 0, sizeof *s);
	jv *code = jv_get(doc, "code");
	for (size_t i = 0; code && i < jv_len(code); i++) {
		jv *row = jv_at(code, i);
		if (jv_string(jv_at(row, 0))[0] == ';')
			continue;
		s->n++;
		s->hits += jv_i64(jv_at(row, 6));
		s->latency += jv_i64(jv_at(row, 7));
		s->stall += jv_i64(jv_at(row, 8));
		s->idle += jv_i64(jv_at(row, 9));
		s->executed += jv_i64(jv_at(row, 6)) > 0;
	}
	jv_free(doc);
	return 0;
}

/* Number of wave files and the sum of their instruction counts, by the generic parser. */
static int64_t independent_records(const char *dir, int64_t *files)
{
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **names = file_list_dir(dir, &n, &e);
	int64_t recs = 0;
	*files = 0;
	for (size_t i = 0; i < n; i++) {
		if (!dispatch_is_wave_file(names[i]))
			continue;
		(*files)++;
		char *p = path_join(dir, names[i]);
		jv *w = json_parse_file(p, &e);
		recs += (int64_t)jv_len(jv_get(jv_get(w, "wave"), "instructions"));
		jv_free(w);
		free(p);
	}
	file_list_free(names, n);
	return recs;
}

static int64_t sum_key(const jv *list, const char *key)
{
	int64_t s = 0;
	for (size_t i = 0; i < jv_len(list); i++)
		s += jv_i64(jv_get(jv_at(list, i), key));
	return s;
}

static jv *run(const char *dir, int threads, jv *warnings)
{
	trace_dispatch d;
	trace_dispatch_init(&d);
	fp_err e = FP_ERR_INIT;
	jv *out = NULL;
	bubbles_params o = {0, -1, threads, NULL};
	if (att_code_read(dir, &d, &e) == 0)
		bubbles_compute(&d, NULL, &o, &out, NULL, warnings, &e);
	if (e.set)
		t_fail(__FILE__, __LINE__, "%s: %s", dir, e.message);
	fp_err_clear(&e);
	trace_dispatch_release(&d);
	return out;
}

static void check_dispatch(const char *dir)
{
	sums s;
	CHECK_INT(independent_sums(dir, &s), 0);
	jv *warn = jv_array();
	jv *a = run(dir, 2, warn);
	if (!a) {
		jv_free(warn);
		return;
	}
	const jv *t = jv_get(a, "totals");
	CHECK_INT(jv_i64(jv_get(t, "instructions")), s.n);
	CHECK_INT(jv_i64(jv_get(t, "executed_instructions")), s.executed);
	CHECK_INT(jv_i64(jv_get(t, "hits")), s.hits);
	CHECK_INT(jv_i64(jv_get(t, "latency")), s.latency);
	CHECK_INT(jv_i64(jv_get(t, "stall")), s.stall);
	CHECK_INT(jv_i64(jv_get(t, "idle")), s.idle);
	CHECK_INT(sum_key(jv_get(a, "classes"), "stall"), s.stall);
	CHECK_INT(sum_key(jv_get(a, "classes"), "latency"), s.latency);
	CHECK_INT(sum_key(jv_get(a, "classes"), "hits"), s.hits);
	CHECK_INT(sum_key(jv_get(a, "normalized"), "stall"), s.stall);
	const jv *wc = jv_get(a, "wave_check");
	CHECK(jv_is_true(jv_get(wc, "hits_match")) && jv_is_true(jv_get(wc, "stall_match")) &&
	      jv_is_true(jv_get(wc, "latency_match")) && jv_is_true(jv_get(wc, "idle_match")));
	int64_t files = 0, recs = independent_records(dir, &files);
	CHECK_INT(jv_i64(jv_get(wc, "wave_files")), files);
	CHECK_INT(jv_i64(jv_get(wc, "records")), recs);
	CHECK_INT(jv_i64(jv_get(t, "waves")), files);
	if (jv_len(warn))
		t_fail(__FILE__, __LINE__, "%s: warning %s", dir, jv_string(jv_at(warn, 0)));
	jv *w1 = jv_array();
	jv *b = run(dir, 1, w1);
	CHECK(b && jv_equal(a, b));
	jv_free(b);
	jv_free(w1);
	jv_free(a);
	jv_free(warn);
}

static int check_tag_dirs(const char *kernel_dir)
{
	int n = 0;
	char *att = path_join(kernel_dir, "att");
	size_t nt = 0;
	fp_err e = FP_ERR_INIT;
	char **tags = file_list_dir(att, &nt, &e);
	fp_err_clear(&e);
	for (size_t i = 0; tags && i < nt; i++) {
		char *tagdir = path_join(att, tags[i]);
		size_t nd = 0;
		char **ds = file_list_dir(tagdir, &nd, &e);
		fp_err_clear(&e);
		for (size_t k = 0; ds && k < nd; k++) {
			if (dispatch_id_of(ds[k]) < 0)
				continue;
			char *dd = path_join(tagdir, ds[k]);
			check_dispatch(dd);
			free(dd);
			n++;
		}
		file_list_free(ds, nd);
		free(tagdir);
	}
	file_list_free(tags, nt);
	free(att);
	return n;
}

TEST(att_corpus_conformance_every_dispatch)
{
	const char *c = t_corpus();
	if (!c)
		SKIP("FLYPROF_CORPUS not set");
	size_t n = 0;
	fp_err e = FP_ERR_INIT;
	char **kernels = file_list_dir(c, &n, &e);
	int dispatches = 0;
	for (size_t i = 0; kernels && i < n; i++) {
		char *k = path_join(c, kernels[i]);
		if (file_is_dir(k))
			dispatches += check_tag_dirs(k);
		free(k);
	}
	file_list_free(kernels, n);
	CHECK(dispatches > 0);
}
