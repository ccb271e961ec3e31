#include "base/fileio.h"

#include "base/input_open.h"
#include "base/output_guard.h"
#include "base/strbuf.h"
#include "base/undo.h"
#include "base/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read_all(const char *path, size_t *len, fp_err *e)
{
	return input_read_all(path, INPUT_ANY, len, e);
}

char *file_read_optional(const char *path, size_t *len)
{
	fp_err e = FP_ERR_INIT;
	char *buf = input_read_all(path, INPUT_ANY, len, &e);
	fp_err_clear(&e);
	return buf;
}

static int write_full(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static void fsync_parent(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* The temporary is created with O_EXCL | O_NOFOLLOW: a name planted in advance (a link to a
 * file elsewhere) is never written through; another name is tried instead. */
static int create_temp(const char *path, strbuf *tmp)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		sb_reset(tmp);
		sb_addf(tmp, "%s.tmp.%ld.%d", path, (long)getpid(), attempt);
		int fd = open(tmp->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int file_atomic_begin(file_atomic *f, const char *path, fp_err *e)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	/* rename() would replace a device node, FIFO, socket or link standing at path */
	if (output_guard_target(path, "output", e))
		return -1;
	f->fd = create_temp(path, &f->tmp);
	if (f->fd < 0) {
		fp_fail(e, ERR_IO_ERROR, "%s: cannot create: %s", f->tmp.buf, strerror(errno));
		sb_release(&f->tmp);
		return -1;
	}
	f->path = xstrdup(path);
	undo_note_file(path);
	return 0;
}

int file_atomic_write(file_atomic *f, const void *data, size_t len)
{
	if (f->fd < 0 || f->err)
		return -1;
	if (write_full(f->fd, data, len) != 0) {
		f->err = errno;
		return -1;
	}
	return 0;
}

/* Closes and removes the temporary; the file at path stays as it was. */
static void atomic_drop(file_atomic *f)
{
	if (f->fd >= 0) {
		close(f->fd);
		unlink(f->tmp.buf);
	}
	sb_release(&f->tmp);
	free(f->path);
	f->path = NULL;
	f->fd = -1;
}

int file_atomic_commit(file_atomic *f, fp_err *e)
{
	if (f->fd < 0)
		return -1;
	int saved = f->err;
	if (!saved && fsync(f->fd) != 0)
		saved = errno;
	if (close(f->fd) != 0 && !saved)
		saved = errno;
	f->fd = -1;
	if (!saved && rename(f->tmp.buf, f->path) != 0)
		saved = errno;
	int rc = 0;
	if (saved) {
		unlink(f->tmp.buf);
		rc = fp_fail(e, ERR_IO_ERROR, "%s: write failed: %s", f->path, strerror(saved));
	} else {
		fsync_parent(f->path);
	}
	atomic_drop(f);
	return rc;
}

void file_atomic_abort(file_atomic *f)
{
	atomic_drop(f);
}

int file_write_atomic(const char *path, const void *data, size_t len, fp_err *e)
{
	file_atomic f;
	if (file_atomic_begin(&f, path, e))
		return -1;
	file_atomic_write(&f, data, len);
	return file_atomic_commit(&f, e);
}

int file_mkdirs(const char *path, fp_err *e)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == 0) {
			undo_note_dir(p);
		} else if (errno != EEXIST) {
			fp_fail(e, ERR_IO_ERROR, "%s: cannot create directory: %s", p,
				strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = 0;
	if (mkdir(p, 0755) == 0)
		undo_note_dir(p);
	else if (errno != EEXIST)
		rc =
		    fp_fail(e, ERR_IO_ERROR, "%s: cannot create directory: %s", p, strerror(errno));
	else if (!file_is_dir(p))
		rc = fp_fail(e, ERR_IO_ERROR, "%s: exists and is not a directory", p);
	free(p);
	return rc;
}

int file_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int file_is_reg(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int file_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

char *path_join(const char *a, const char *b)
{
	strbuf sb = STRBUF_INIT;
	sb_adds(&sb, a);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		sb_addc(&sb, '/');
	while (*b == '/')
		b++;
	sb_adds(&sb, b);
	return sb_detach(&sb);
}

char *path_abs(const char *path)
{
	char *r = realpath(path, NULL);
	if (!r)
		return NULL;
	char *copy = xstrdup(r);
	free(r);
	return copy;
}

const char *path_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The holder removes the lock file when it lets go (file_unlock_dir), so a process that
 * opened the file just before may lock an inode that is no longer the directory's lock: after
 * locking, the file at the path must still be the one locked, else it starts over. */
#define LOCK_TRIES 8

int file_dir_unclaimed(const char *dir)
{
	size_t n = 0;
	char **names = file_is_dir(dir) ? file_list_dir(dir, &n, NULL) : NULL;
	int yes = names && (n == 0 || (n == 1 && strcmp(names[0], ".flyprof.lock") == 0));
	file_list_free(names, n);
	return yes;
}

int file_lock_held(const char *dir)
{
	char *lock = path_join(dir, ".flyprof.lock");
	int fd = open(lock, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(lock);
	if (fd < 0)
		return 0;
	int held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

int file_lock_dir(const char *dir, fp_err *e)
{
	char *lock = path_join(dir, ".flyprof.lock");
	for (int i = 0; i < LOCK_TRIES; i++) {
		/* Never through a link (a bundle could make flyprof create a file anywhere), never
		 * blocking on a FIFO planted under the name. */
		int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			int err = fd < 0 ? errno : 0;
			if (fd >= 0)
				close(fd);
			if (err && err != ELOOP && err != EISDIR)
				fp_fail(e, ERR_IO_ERROR, "%s: cannot open lock: %s", lock,
					strerror(err));
			else
				fp_fail(
				    e, ERR_OUTPUT_REFUSED,
				    "%s: is a symbolic link or not a regular file; not used as a "
				    "lock",
				    lock);
			fp_err_extra(e, "file", jv_str(lock));
			free(lock);
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			fp_fail(e, ERR_BUNDLE_LOCKED, "%s is locked by another flyprof process",
				dir);
			close(fd);
			free(lock);
			return -1;
		}
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(lock, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			undo_note_lock(lock); /* ours now: a rollback removes it */
			free(lock);
			return fd;
		}
		close(fd); /* the file was removed by its previous holder: take the new one */
	}
	fp_fail(e, ERR_BUNDLE_LOCKED, "%s: the lock changed hands %d times while taking it", dir,
		LOCK_TRIES);
	free(lock);
	return -1;
}

void file_unlock_dir(const char *dir, int fd)
{
	if (fd < 0)
		return;
	/* removed while still held: nobody can take a lock on it that the check above keeps */
	char *lock = dir ? path_join(dir, ".flyprof.lock") : NULL;
	if (lock) {
		unlink(lock);
		undo_forget(lock);
	}
	free(lock);
	flock(fd, LOCK_UN);
	close(fd);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of dir (without . and ..); only_dirs keeps those that are (or link
 * to) directories, asking stat only where readdir cannot tell; match (when set) keeps those it
 * says yes to, before anything is copied: a dispatch directory of thousands of wave files asked
 * for its few CSVs costs one walk of the entries, not thousands of copies sorted. */
static char **list_names(const char *dir, size_t *n, int only_dirs, file_name_match match,
			 void *ctx, fp_err *e)
{
	DIR *d = opendir(dir);
	*n = 0;
	if (!d) {
		fp_fail(e, errno == ENOENT ? ERR_NO_ARTIFACT : ERR_IO_ERROR, "%s: %s", dir,
			strerror(errno));
		return NULL;
	}
	size_t cap = 0;
	char **names = NULL;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (match && !match(de->d_name, ctx))
			continue;
		if (only_dirs && de->d_type != DT_DIR) {
			if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
				continue;
			char *p = path_join(dir, de->d_name);
			int is_dir = file_is_dir(p);
			free(p);
			if (!is_dir)
				continue;
		}
		names = xgrow(names, &cap, *n + 1, sizeof *names);
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof *names, cmp_names);
	else
		names = xgrow(names, &cap, 1, sizeof *names);
	return names;
}

/* How many names in dir (not . or ..) match says yes to, reading no further than `enough`. */
static size_t count_names(const char *dir, file_name_match match, void *ctx, size_t enough)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while (n < enough && (de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		     match(de->d_name, ctx);
	closedir(d);
	return n;
}

int file_dir_any(const char *dir, file_name_match match, void *ctx)
{
	return count_names(dir, match, ctx, 1) > 0;
}

size_t file_dir_count(const char *dir, file_name_match match, void *ctx)
{
	return count_names(dir, match, ctx, SIZE_MAX);
}

char **file_list_dir(const char *dir, size_t *n, fp_err *e)
{
	return list_names(dir, n, 0, NULL, NULL, e);
}

char **file_list_matching(const char *dir, file_name_match match, void *ctx, size_t *n, fp_err *e)
{
	return list_names(dir, n, 0, match, ctx, e);
}

char **file_list_subdirs(const char *dir, size_t *n, fp_err *e)
{
	return list_names(dir, n, 1, NULL, NULL, e);
}

void file_listing_init(file_listing *l, const char *dir)
{
	memset(l, 0, sizeof *l);
	l->dir = xstrdup(dir);
}

/* One walk of l->dir: the names copied one after the other into one block (a copy each would
 * be thousands of small allocations), in directory order. */
static void listing_walk(file_listing *l)
{
	l->walked = 1;
	DIR *d = opendir(l->dir);
	if (!d) {
		l->err_no = errno;
		return;
	}
	size_t len = 0, cap = 0, cap_at = 0, *at = NULL;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		size_t k = strlen(de->d_name) + 1;
		l->text = xgrow(l->text, &cap, len + k, 1);
		memcpy(l->text + len, de->d_name, k);
		at = xgrow(at, &cap_at, l->n + 1, sizeof *at);
		at[l->n++] = len;
		len += k;
	}
	closedir(d);
	l->names = xcalloc(l->n + 1, sizeof *l->names);
	for (size_t i = 0; i < l->n; i++)
		l->names[i] = l->text + at[i];
	free(at);
}

char **file_listing_names(file_listing *l, size_t *n, fp_err *e)
{
	if (!l->walked)
		listing_walk(l);
	*n = 0;
	if (!l->names) {
		fp_fail(e, l->err_no == ENOENT ? ERR_NO_ARTIFACT : ERR_IO_ERROR, "%s: %s", l->dir,
			strerror(l->err_no));
		return NULL;
	}
	if (!l->sorted)
		qsort(l->names, l->n, sizeof *l->names, cmp_names);
	l->sorted = 1;
	*n = l->n;
	return l->names;
}

size_t file_listing_count(file_listing *l, file_name_match match, void *ctx)
{
	if (!l->walked)
		listing_walk(l);
	size_t k = 0;
	for (size_t i = 0; l->names && i < l->n; i++)
		k += match(l->names[i], ctx) != 0;
	return k;
}

int file_listing_any(file_listing *l, file_name_match match, void *ctx)
{
	if (!l->walked)
		listing_walk(l);
	for (size_t i = 0; l->names && i < l->n; i++)
		if (match(l->names[i], ctx))
			return 1;
	return 0;
}

void file_listing_release(file_listing *l)
{
	free(l->dir);
	free(l->names);
	free(l->text);
	memset(l, 0, sizeof *l);
}

void file_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
