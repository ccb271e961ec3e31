#include "base/tree.h"

#include "base/strbuf.h"
#include "base/undo.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) == 0 || errno == ENOENT ? 0 : -1;
}

int tree_remove(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int tree_replace(const char *from, const char *to, fp_err *e)
{
	struct stat st;
	int had = lstat(to, &st) == 0;
	strbuf aside = STRBUF_INIT;
	sb_addf(&aside, "%s.replaced.%ld", to, (long)getpid());
	tree_remove(sb_str(&aside));
	int rc = 0;
	if (had && rename(to, sb_str(&aside)) != 0)
		rc = fp_fail(e, ERR_IO_ERROR, "cannot move %s aside: %s", to, strerror(errno));
	if (rc == 0 && rename(from, to) != 0) {
		rc =
		    fp_fail(e, ERR_IO_ERROR, "cannot move %s to %s: %s", from, to, strerror(errno));
		if (had)
			rename(sb_str(&aside), to); /* put the previous tree back */
	}
	if (rc == 0 && !undo_note_tree(to, had ? sb_str(&aside) : NULL) && had)
		tree_remove(sb_str(&aside)); /* no journal: nothing could restore it */
	sb_release(&aside);
	return rc;
}
