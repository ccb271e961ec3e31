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

TEST(tree_replace_rollback_restores_previous)
{
	char *root = path_join(t_tmpdir(), "tr1");
	char *dest = path_join(root, "att");
	char *incoming = path_join(root, ".incoming");
	put(dest, "old");
	put(incoming, "new");
	fp_err e = FP_ERR_INIT;
	undo_begin();
	CHECK_INT(tree_replace(incoming, dest, &e), 0);
	CHECK(has(dest, "new") && !has(dest, "old"));
	undo_rollback();
	CHECK(has(dest, "old") && !has(dest, "new"));
	size_t n = 0;
	char **names = file_list_dir(root, &n, &e);
	CHECK_INT((int)n, 1); /* only att: nothing set aside is left */
	file_list_free(names, n);
	tree_remove(root);
	free(root), free(dest), free(incoming);
}

TEST(tree_replace_commit_drops_previous)
{
	char *root = path_join(t_tmpdir(), "tr2");
	char *dest = path_join(root, "att");
	char *incoming = path_join(root, ".incoming");
	put(dest, "old");
	put(incoming, "new");
	fp_err e = FP_ERR_INIT;
	undo_begin();
	CHECK_INT(tree_replace(incoming, dest, &e), 0);
	undo_commit();
	CHECK(has(dest, "new") && !has(dest, "old"));
	size_t n = 0;
	char **names = file_list_dir(root, &n, &e);
	CHECK_INT((int)n, 1);
	file_list_free(names, n);
	tree_remove(root);
	free(root), free(dest), free(incoming);
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
