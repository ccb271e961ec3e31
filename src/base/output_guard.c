#include "base/output_guard.h"

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int output_guard_target(const char *path, const char *what, fp_err *e)
{
	struct stat st;
	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0; /* new, or a regular file that the atomic rename replaces */
	fp_fail(e, ERR_OUTPUT_REFUSED, "%s %s: is %s; flyprof writes only new or regular files",
		what, path, kind_of(st.st_mode));
	fp_err_extra(e, "file", jv_str(path));
	return -1;
}

/* Drops the last component of an absolute path held in sb ("/" stays "/"). */
static void pop_component(strbuf *sb)
{
	while (sb->len > 1 && sb->buf[sb->len - 1] != '/')
		sb->len--;
	if (sb->len > 1)
		sb->len--;
	sb->buf[sb->len] = '\0';
}

char *output_resolve(const char *path)
{
	strbuf abs = STRBUF_INIT;
	if (path[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof cwd))
			return NULL;
		sb_adds(&abs, cwd);
		sb_addc(&abs, '/');
	}
	sb_adds(&abs, path);
	/* The longest existing prefix (cut at a '/') resolves through realpath. */
	char *full = sb_detach(&abs);
	size_t cut = strlen(full);
	char *base = NULL;
	for (;;) {
		char saved = full[cut];
		full[cut] = '\0';
		base = realpath(cut ? full : "/", NULL);
		full[cut] = saved;
		if (base || cut == 0)
			break;
		while (cut > 0 && full[cut - 1] != '/')
			cut--;
		while (cut > 0 && full[cut - 1] == '/')
			cut--;
	}
	if (!base) {
		free(full);
		return NULL;
	}
	strbuf out = STRBUF_INIT;
	sb_adds(&out, base);
	free(base);
	char *rest = full + cut;
	char *save = NULL;
	for (char *c = strtok_r(rest, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			pop_component(&out);
			continue;
		}
		if (out.len == 0 || out.buf[out.len - 1] != '/')
			sb_addc(&out, '/');
		sb_adds(&out, c);
	}
	free(full);
	return sb_detach(&out);
}

static int inside(const char *p, const char *root)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	return strncmp(p, root, n) == 0 && (p[n] == '\0' || p[n] == '/' || n == 1);
}

int output_guard_outside(const char *path, const char *what, const char *const *roots, fp_err *e)
{
	char *r = output_resolve(path);
	if (!r)
		return 0; /* unresolvable: the write itself will fail with IO_ERROR */
	int rc = 0;
	for (size_t i = 0; roots && roots[i] && rc == 0; i++) {
		char *root = path_abs(roots[i]);
		if (root && inside(r, root)) {
			rc = fp_fail(e, ERR_OUTPUT_REFUSED,
				     "%s %s: lies inside the read-only input %s; write elsewhere",
				     what, path, root);
			fp_err_extra(e, "file", jv_str(r));
			fp_err_extra(e, "input", jv_str(root));
		}
		free(root);
	}
	free(r);
	return rc;
}
