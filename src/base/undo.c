#include "base/undo.h"

#include "base/strbuf.h"
#include "base/tree.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What rollback does with an entry: restore or remove a file, remove an empty directory,
 * or remove a whole tree (and put the tree it replaced back). */
typedef enum { UNDO_FILE, UNDO_DIR, UNDO_TREE } undo_kind;

typedef struct {
	char *path;
	char *backup; /* the previous file (a hard link) or tree (moved aside), or NULL when new */
	undo_kind kind;
} undo_entry;

static struct {
	int active, committed, fresh, keep_failure;
	undo_entry *e;
	size_t n, cap;
} J;

void undo_begin(void)
{
	J.active = 1;
	J.committed = 0;
	J.fresh = 0;
	J.keep_failure = 0;
}

static undo_entry *noted(const char *path)
{
	for (size_t i = 0; i < J.n; i++)
		if (strcmp(J.e[i].path, path) == 0)
			return &J.e[i];
	return NULL;
}

static void push(const char *path, char *backup, undo_kind kind)
{
	J.e = xgrow(J.e, &J.cap, J.n + 1, sizeof *J.e);
	J.e[J.n++] = (undo_entry){xstrdup(path), backup, kind};
}

void undo_note_file(const char *path)
{
	if (!J.active || noted(path))
		return;
	struct stat st;
	char *backup = NULL;
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return; /* not ours to restore; writers refuse such targets anyway */
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s.undo.%ld.%zu", path, (long)getpid(), J.n);
		if (link(path, sb.buf) != 0) {
			sb_release(&sb); /* no hard links here: the old file cannot be restored */
			return;
		}
		backup = sb_detach(&sb);
	}
	push(path, backup, UNDO_FILE);
}

void undo_note_lock(const char *path)
{
	if (J.active && !noted(path))
		push(path, NULL, UNDO_FILE); /* no backup: removed on rollback */
}

void undo_forget(const char *path)
{
	for (size_t i = 0; J.active && i < J.n; i++)
		if (strcmp(J.e[i].path, path) == 0) {
			free(J.e[i].path);
			free(J.e[i].backup);
			memmove(&J.e[i], &J.e[i + 1], (J.n - i - 1) * sizeof *J.e);
			J.n--;
			return;
		}
}

void undo_note_dir(const char *path)
{
	if (J.active && !noted(path))
		push(path, NULL, UNDO_DIR);
}

void undo_own_tree(const char *path)
{
	undo_entry *u = J.active ? noted(path) : NULL;
	if (u && u->kind == UNDO_DIR)
		u->kind = UNDO_TREE;
}

int undo_note_tree(const char *path, const char *aside)
{
	if (!J.active || noted(path))
		return 0; /* the first replacement in this run holds what was there before */
	push(path, aside ? xstrdup(aside) : NULL, UNDO_TREE);
	return 1;
}

void undo_keep_on_failure(void)
{
	J.keep_failure = 1;
}

int undo_keeps_failure(void)
{
	return J.keep_failure;
}

void undo_mark_fresh(void)
{
	if (J.active)
		J.fresh = 1;
}

int undo_fresh(void)
{
	return J.fresh;
}

static void release(void)
{
	for (size_t i = 0; i < J.n; i++) {
		free(J.e[i].path);
		free(J.e[i].backup);
	}
	free(J.e);
	J.e = NULL;
	J.n = J.cap = 0;
	J.active = 0;
}

void undo_commit(void)
{
	for (size_t i = 0; i < J.n; i++)
		if (J.e[i].backup)
			tree_remove(J.e[i].backup); /* a hard link or a tree moved aside */
	J.committed = 1;
	release();
}

int undo_committed(void)
{
	return J.committed;
}

void undo_rollback(void)
{
	for (size_t i = J.n; i-- > 0;) {
		undo_entry *u = &J.e[i];
		if (u->kind == UNDO_DIR) {
			rmdir(u->path); /* only when empty: never remove what someone else put there
					 */
		} else if (u->kind == UNDO_TREE) {
			tree_remove(u->path);
			if (u->backup)
				rename(u->backup, u->path);
		} else if (u->backup)
			rename(u->backup, u->path);
		else
			unlink(u->path);
	}
	release();
}
