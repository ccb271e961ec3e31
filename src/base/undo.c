#include "base/undo.h"

#include "base/strbuf.h"
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
	char *path;
	char *backup; /* hard link to the previous file, or NULL when path was new */
	int is_dir;
} undo_entry;

static struct {
	int active, committed, fresh;
	undo_entry *e;
	size_t n, cap;
} J;

void undo_begin(void)
{
	J.active = 1;
	J.committed = 0;
	J.fresh = 0;
}

static int noted(const char *path)
{
	for (size_t i = 0; i < J.n; i++)
		if (strcmp(J.e[i].path, path) == 0)
			return 1;
	return 0;
}

static void push(const char *path, char *backup, int is_dir)
{
	J.e = xgrow(J.e, &J.cap, J.n + 1, sizeof *J.e);
	J.e[J.n++] = (undo_entry){xstrdup(path), backup, is_dir};
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
	push(path, backup, 0);
}

void undo_note_dir(const char *path)
{
	if (J.active && !noted(path))
		push(path, NULL, 1);
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
			unlink(J.e[i].backup);
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
		if (u->is_dir)
			rmdir(u->path); /* only when empty: never remove what someone else put there
					 */
		else if (u->backup)
			rename(u->backup, u->path);
		else
			unlink(u->path);
	}
	release();
}
