/* A tree moved into place is taken back by a rollback (the tree it replaced returns) and made
 * final by a commit (the set-aside copy goes); a directory the profiler filled is removed whole
 * on rollback only when this run created it. */
#include "t.h"

#include "base/fileio.h"
#include "base/tree.h"
#include "base/undo.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void put(const char *dir, const char *name)
{
	fp_err e = FP_ERR_INIT;
	file_mkdirs(dir, &e);
	char *p = path_join(dir, name);
	FILE *f = fopen(p, "w");
	if (f)
		fclose(f);
	free(p);
	fp_err_clear(&e);
}

static int has(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	int r = access(p, F_OK) == 0;
	free(p);
	return r;
}

/* <root>/att holding "old" is replaced by <root>/.incoming holding "new", inside a journal that
 * `settle` then rolls back or commits; afterwards att holds `want` and nothing else is left in
 * root (no incoming, nothing set aside). */
static void replace_then(const char *root_name, void (*settle)(void), const char *want,
			 const char *gone)
{
	char *root = path_join(t_tmpdir(), root_name);
	char *dest = path_join(root, "att");
	char *incoming = path_join(root, ".incoming");
	put(dest, "old");
	put(incoming, "new");
	fp_err e = FP_ERR_INIT;
	undo_begin();
	CHECK_INT(tree_replace(incoming, dest, &e), 0);
	CHECK(has(dest, "new") && !has(dest, "old"));
	settle();
	CHECK(has(dest, want) && !has(dest, gone));
	size_t n = 0;
	char **names = file_list_dir(root, &n, &e);
	CHECK_INT((int)n, 1);
	file_list_free(names, n);
	tree_remove(root);
	free(root), free(dest), free(incoming);
}

TEST(tree_replace_rollback_restores_previous)
{
	replace_then("tr1", undo_rollback, "old", "new");
}

TEST(tree_replace_commit_drops_previous)
{
	replace_then("tr2", undo_commit, "new", "old");
}

TEST(owned_tree_removed_only_when_new)
{
	char *root = path_join(t_tmpdir(), "tr3");
	char *old = path_join(root, "logs");
	char *fresh = path_join(root, "cache");
	fp_err e = FP_ERR_INIT;
	put(old, "earlier.log");
	undo_begin();
	CHECK_INT(file_mkdirs(fresh, &e), 0);
	undo_own_tree(fresh);
	undo_own_tree(old); /* existed before: not this run's to remove */
	put(fresh, "jit.bin");
	put(old, "pass.log");
	undo_rollback();
	CHECK(access(fresh, F_OK) != 0);
	CHECK(has(old, "earlier.log"));
	tree_remove(root);
	free(root), free(old), free(fresh);
}
