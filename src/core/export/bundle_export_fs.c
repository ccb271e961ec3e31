/* bundle_export.h: swapping trees, and making exported paths relative. */
#include "core/export/bundle_export.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/tree.h"
#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void flush_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

/* Exchange where the file system supports it; else move the old tree aside first (a short
 * window in which final is absent, never one in which it is half-made). */
static int exchange(const char *tmp, const char *final, fp_err *e)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_EXCHANGE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return fp_fail(e, ERR_IO_ERROR, "cannot replace %s: %s", final, strerror(errno));
	strbuf name = STRBUF_INIT;
	sb_addf(&name, "%s.old-%ld", final, (long)getpid());
	char *aside = sb_detach(&name);
	int rc = 0;
	if (rename(final, aside) != 0)
		rc = fp_fail(e, ERR_IO_ERROR, "cannot move %s aside: %s", final, strerror(errno));
	else if (rename(tmp, final) != 0) {
		rc = fp_fail(e, ERR_IO_ERROR, "cannot rename %s to %s: %s", tmp, final,
			     strerror(errno));
		rename(aside, final);
	} else if (rename(aside, tmp) != 0) {
		tree_remove(aside);
	}
	free(aside);
	return rc;
}

int bundle_export_swap_in(const char *tmp, const char *final, int replace, fp_err *e)
{
	flush_tree(tmp);
	if (rename(tmp, final) == 0)
		return 0;
	if (!replace || (errno != EEXIST && errno != ENOTEMPTY))
		return fp_fail(e, ERR_IO_ERROR, "cannot rename %s to %s: %s", tmp, final,
			       strerror(errno));
	if (exchange(tmp, final, e))
		return -1;
	/* tmp now holds the previous tree */
	tree_remove(tmp);
	return 0;
}

/* A character that continues a path component, so a match ending before it is no match. */
static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

char *bundle_export_relativize(const char *text, size_t len, const char *abs_dir, size_t *outlen)
{
	strbuf sb = STRBUF_INIT;
	size_t dl = strlen(abs_dir), i = 0;
	while (i < len) {
		const char *hit = dl ? memmem(text + i, len - i, abs_dir, dl) : NULL;
		if (!hit) {
			sb_add(&sb, text + i, len - i);
			break;
		}
		size_t at = (size_t)(hit - text), end = at + dl;
		if (end < len && name_char(text[end])) { /* "/t/bb" is not "/t/b" */
			sb_add(&sb, text + i, end - i);
			i = end;
			continue;
		}
		sb_add(&sb, text + i, at - i);
		i = end;
		if (i < len && text[i] == '/')
			i++;
		else
			sb_addc(&sb, '.');
	}
	*outlen = sb.len;
	return sb_detach(&sb);
}

void bundle_export_relativize_jv(jv *v, const char *abs_dir)
{
	jv_type t = jv_type_of(v);
	if (t != JV_ARRAY && t != JV_OBJECT)
		return;
	for (size_t i = 0; i < jv_len(v); i++) {
		jv *x = t == JV_ARRAY ? jv_at(v, i) : jv_value_at(v, i);
		if (jv_type_of(x) == JV_STRING) {
			size_t n = 0;
			char *s = bundle_export_relativize(jv_string(x), jv_len(x), abs_dir, &n);
			jv_replace_at(v, i, jv_strn(s, n));
			free(s);
		} else {
			bundle_export_relativize_jv(x, abs_dir);
		}
	}
}
