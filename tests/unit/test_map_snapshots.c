/* snapshots.json: tree walk, refusal of entries that would leave the dispatch directory,
 * lookup by exact path / component suffix, and snippets with the hot line marked. */
#include "t.h"

#include "base/fileio.h"
#include "base/json/json_parse.h"
#include "read/amd/snapshots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(snapshots_tree_and_refusals)
{
	const char *dir = t_tmpdir();
	t_put(dir, "source_0_k.py", "l1\nl2\nl3\nl4\nl5\nl6\n");
	t_put(dir, "source_1_u.py", "u1\n");
	char *link = path_join(dir, "source_2_link.py");
	CHECK_INT(symlink("/etc/passwd", link), 0);
	free(link);
	t_put(
	    dir, "snapshots.json",
	    "{\"/\":{\"w\":{\"kernels\":{\"k.py\":\"source_0_k.py\"},"
	    "\"lib\":{\"u.py\":\"source_1_u.py\",\"up.py\":\"../x.py\",\"abs.py\":\"/etc/passwd\","
	    "\"ln.py\":\"source_2_link.py\",\"dot.py\":\"..\",\"gone.py\":\"source_9.py\"}}}}");
	snapshots s;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(snapshots_load(dir, &s, &e), 0);
	CHECK_INT(s.n, 2);
	CHECK_INT(s.n_refused, 5);
	CHECK_STR(s.entries[0].path, "/w/kernels/k.py");
	CHECK_STR(s.entries[0].local, "source_0_k.py");
	CHECK_STR(s.entries[1].path, "/w/lib/u.py");
	int found_link = 0;
	for (size_t i = 0; i < s.n_refused; i++)
		found_link |= strstr(s.refused[i], "symbolic link") != NULL;
	CHECK(found_link);

	int amb = 0;
	const char *q = "/w/kernels/k.py";
	CHECK(snapshots_find(&s, q, strlen(q), &amb) == &s.entries[0]);
	q = "kernels/k.py";
	CHECK(snapshots_find(&s, q, strlen(q), &amb) == &s.entries[0]);
	q = "/other/checkout/kernels/k.py"; /* neither is a suffix of the other */
	CHECK(snapshots_find(&s, q, strlen(q), &amb) == NULL);
	q = "mykernels/k.py";
	CHECK(snapshots_find(&s, q, strlen(q), &amb) == NULL);

	jv *sn = snapshots_snippet(&s, &s.entries[0], 2, 3);
	CHECK(sn != NULL);
	if (sn) {
		jv *lines = jv_get(sn, "lines");
		CHECK_INT(jv_len(lines), 5); /* 1..5: clipped at the top */
		CHECK_INT(jv_i64(jv_get(jv_at(lines, 0), "n")), 1);
		CHECK_STR(jv_string(jv_get(jv_at(lines, 1), "text")), "l2");
		CHECK_INT(t_truth(jv_get(jv_at(lines, 1), "hot")), 1);
		CHECK_INT(t_truth(jv_get(jv_at(lines, 2), "hot")), 0);
		CHECK_STR(jv_string(jv_get(sn, "file")), "/w/kernels/k.py");
		jv_free(sn);
	}
	sn = snapshots_snippet(&s, &s.entries[0], 6, 1);
	CHECK(sn && jv_len(jv_get(sn, "lines")) == 2); /* 5, 6: clipped at the end */
	jv_free(sn);
	CHECK(snapshots_snippet(&s, &s.entries[0], 7, 1) == NULL); /* past the end */
	snapshots_release(&s);
}

TEST(snapshots_ambiguous_and_malformed)
{
	snapshots s;
	fp_err e = FP_ERR_INIT;
	const char *doc = "{\"/\":{\"a\":{\"k.py\":\"s0\"},\"b\":{\"k.py\":\"s1\"}}}";
	jv *t = json_parse(doc, strlen(doc), "t", &e);
	CHECK_INT(snapshots_from_tree(t, NULL, "t", &s, &e), 0);
	jv_free(t);
	int amb = 0;
	CHECK(snapshots_find(&s, "k.py", 4, &amb) == NULL);
	CHECK_INT(amb, 1);
	CHECK(snapshots_find(&s, "/a/k.py", 7, &amb) == &s.entries[0]);
	snapshots_release(&s);

	doc = "{\"/\":{\"a\":[1]}}";
	t = json_parse(doc, strlen(doc), "t", &e);
	CHECK_INT(snapshots_from_tree(t, NULL, "t", &s, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
	jv_free(t);

	CHECK_INT(snapshots_load("/nonexistent-dir", &s, &e), 0); /* no snapshots: no entries */
	CHECK_INT(s.n, 0);
	snapshots_release(&s);
}

TEST(snapshots_corpus_softmax)
{
	const char *c = t_corpus();
	if (!c)
		SKIP("FLYPROF_CORPUS not set");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/softmax/att/big/ui_output_agent_47920_dispatch_13", c);
	snapshots s;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(snapshots_load(dir, &s, &e), 0);
	CHECK_INT(s.n, 2);
	CHECK_INT(s.n_refused, 0);
	const char *q = "kernels/softmax_kernel.py";
	const snapshot_entry *ent = snapshots_find(&s, q, strlen(q), NULL);
	CHECK(ent && strcmp(ent->local, "source_1_softmax_kernel.py") == 0);
	jv *sn = ent ? snapshots_snippet(&s, ent, 41, 0) : NULL;
	CHECK(sn != NULL);
	if (sn)
		CHECK_STR(jv_string(jv_get(jv_at(jv_get(sn, "lines"), 0), "text")),
			  "    @flyc.kernel");
	jv_free(sn);
	snapshots_release(&s);
}
