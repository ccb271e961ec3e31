#include "base/input_open.h"

#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* Defaults sit far above anything a real capture holds (the largest wave file of the corpus is
 * a few MB; rocprofv3 splits long traces into many files) and below what a 64-bit process can
 * allocate on an ordinary machine; the source limit matches the largest source file a human
 * edits. */
static const struct {
	const char *name;
	const char *env;
	uint64_t def;
} kinds[INPUT__COUNT] = {
    [INPUT_ANY] = {"file", "FLYPROF_LIMIT_ANY", 1 * GIB},
    [INPUT_JSON] = {"JSON document", "FLYPROF_LIMIT_JSON", 256 * MIB},
    [INPUT_ATT] = {"ATT decoder output", "FLYPROF_LIMIT_ATT", 1 * GIB},
    [INPUT_CSV] = {"CSV export", "FLYPROF_LIMIT_CSV", 1 * GIB},
    [INPUT_CODE_OBJECT] = {"code object", "FLYPROF_LIMIT_CODE_OBJECT", 512 * MIB},
    [INPUT_SOURCE] = {"source snapshot", "FLYPROF_LIMIT_SOURCE", 16 * MIB},
};

const char *input_kind_name(input_kind k)
{
	return (unsigned)k < INPUT__COUNT ? kinds[k].name : "file";
}

const char *input_limit_env(input_kind k)
{
	return (unsigned)k < INPUT__COUNT ? kinds[k].env : kinds[INPUT_ANY].env;
}

uint64_t input_limit_default(input_kind k)
{
	return (unsigned)k < INPUT__COUNT ? kinds[k].def : kinds[INPUT_ANY].def;
}

/* The limits read from the environment, once per process: every file read asks for one, and
 * getenv scans the whole environment (a wave pass reads thousands of files). Each slot holds the
 * limit + 1, 0 while not read yet; atomic because the wave workers read files concurrently (two
 * first readers both read the variable and store the same value). A bad value is not kept, so
 * every read still fails naming it. input_limit_reload() forgets them. */
static _Atomic uint64_t limit_seen[INPUT__COUNT];

void input_limit_reload(void)
{
	for (int k = 0; k < INPUT__COUNT; k++)
		atomic_store_explicit(&limit_seen[k], 0, memory_order_relaxed);
}

static void keep_limit(input_kind k, uint64_t limit)
{
	if (limit != UINT64_MAX) /* not representable + 1: read every time */
		atomic_store_explicit(&limit_seen[(unsigned)k < INPUT__COUNT ? k : INPUT_ANY],
				      limit + 1, memory_order_relaxed);
}

int input_limit(input_kind k, uint64_t *limit, fp_err *e)
{
	uint64_t seen = atomic_load_explicit(
	    &limit_seen[(unsigned)k < INPUT__COUNT ? k : INPUT_ANY], memory_order_relaxed);
	if (seen) {
		*limit = seen - 1;
		return 0;
	}
	*limit = input_limit_default(k);
	const char *v = getenv(input_limit_env(k));
	if (!v || !*v) {
		keep_limit(k, *limit);
		return 0;
	}
	char *end = NULL;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	uint64_t mul = 1;
	if (end && (*end == 'K' || *end == 'k'))
		mul = KIB, end++;
	else if (end && (*end == 'M' || *end == 'm'))
		mul = MIB, end++;
	else if (end && (*end == 'G' || *end == 'g'))
		mul = GIB, end++;
	if (errno || end == v || *end || v[0] == '-' || n > UINT64_MAX / mul) {
		fp_fail(e, ERR_BAD_ARGS, "%s=%s is not a size (bytes, or a number with K, M or G)",
			input_limit_env(k), v);
		fp_err_extra(e, "variable", jv_str(input_limit_env(k)));
		return -1;
	}
	*limit = (uint64_t)n * mul;
	keep_limit(k, *limit);
	return 0;
}

static const char *type_name(mode_t m)
{
	if (S_ISDIR(m))
		return "directory";
	if (S_ISFIFO(m))
		return "FIFO";
	if (S_ISCHR(m))
		return "character device";
	if (S_ISBLK(m))
		return "block device";
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISLNK(m))
		return "symbolic link";
	return "special file";
}

static int too_large(fp_err *e, const char *path, input_kind k, uint64_t size, uint64_t limit)
{
	fp_fail(e, ERR_INPUT_TOO_LARGE,
		"%s: %s of %" PRIu64 " bytes is over the limit of %" PRIu64 " bytes (%s)", path,
		input_kind_name(k), size, limit, input_limit_env(k));
	fp_err_extra(e, "file", jv_str(path));
	fp_err_extra(e, "size", jv_int((int64_t)(size > INT64_MAX ? INT64_MAX : size)));
	fp_err_extra(e, "limit", jv_int((int64_t)(limit > INT64_MAX ? INT64_MAX : limit)));
	fp_err_extra(e, "variable", jv_str(input_limit_env(k)));
	return -1;
}

/* The checked open behind input_open and input_read_into_at: name is opened relative to dirfd
 * (AT_FDCWD: a path), path is what messages name. keep_nonblock leaves O_NONBLOCK set, for a
 * caller that only reads the descriptor (a regular file never blocks, so the two fcntl calls
 * that clear the flag are only for descriptors handed to other code). */
static int open_checked(int dirfd, const char *name, const char *path, input_kind k,
			struct stat *st, int keep_nonblock, fp_err *e)
{
	uint64_t limit;
	if (input_limit(k, &limit, e))
		return -1;
	int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	if (k == INPUT_SOURCE)
		flags |= O_NOFOLLOW;
	int fd = openat(dirfd, name, flags);
	if (fd < 0) {
		int err = errno;
		struct stat ls;
		if (err == ENOENT)
			fp_fail(e, ERR_NO_ARTIFACT, "%s: no such file", path);
		else if (err == ENXIO && fstatat(dirfd, name, &ls, 0) == 0 && !S_ISREG(ls.st_mode))
			fp_fail(e, ERR_NOT_REGULAR_FILE, "%s: is a %s, not a regular file", path,
				type_name(ls.st_mode)); /* a socket cannot be opened at all */
		else if (err == ELOOP && (flags & O_NOFOLLOW))
			fp_fail(e, ERR_NOT_REGULAR_FILE, "%s: is a symbolic link; not followed",
				path);
		else
			fp_fail(e, ERR_IO_ERROR, "%s: %s", path, strerror(err));
		fp_err_extra(e, "file", jv_str(path));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		int err = errno;
		close(fd);
		fp_fail(e, ERR_IO_ERROR, "%s: %s", path, strerror(err));
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		fp_fail(e, ERR_NOT_REGULAR_FILE, "%s: is a %s, not a regular file", path,
			type_name(st->st_mode));
		fp_err_extra(e, "file", jv_str(path));
		fp_err_extra(e, "type", jv_str(type_name(st->st_mode)));
		return -1;
	}
	if ((uint64_t)st->st_size > limit) {
		close(fd);
		return too_large(e, path, k, (uint64_t)st->st_size, limit);
	}
	if (!keep_nonblock) { /* regular files never block: ordinary semantics for the caller */
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

int input_open(const char *path, input_kind k, struct stat *st, fp_err *e)
{
	return open_checked(AT_FDCWD, path, path, k, st, 0, e);
}

int input_read_into_at(int dirfd, const char *name, const char *path, input_kind k, char **buf,
		       size_t *cap, size_t *len, fp_err *e)
{
	struct stat st;
	uint64_t limit;
	if (input_limit(k, &limit, e))
		return -1;
	int fd = dirfd < 0 ? open_checked(AT_FDCWD, path, path, k, &st, 1, e)
			   : open_checked(dirfd, name, path, k, &st, 1, e);
	if (fd < 0)
		return -1;
	/* Room for one byte more than the file held at fstat: a read of a regular file that
	 * returns less than asked has met the end, so the usual file takes one read(2) and no
	 * second one to see end-of-file. A file that grew fills the room and is read on. */
	size_t want = (size_t)st.st_size + 2;
	if (*cap < want || !*buf) {
		/* A reused buffer outgrown gets a quarter more than this file: a reader of
		 * thousands of files of slowly growing sizes would otherwise free and allocate at
		 * every new largest file, leaving a trail of freed, touched blocks in the heap. */
		size_t ncap = *buf && want <= SIZE_MAX / 5 * 4 ? want + want / 4 : want;
		free(*buf);
		/* a large file (a kernel-trace CSV, code.json) goes into 2 MB pages where the
		 * kernel grants them: each fresh 4 KB page it fills would fault (xmalloc_huge) */
		*buf = xmalloc_huge(ncap, cap);
	}
	size_t got = 0;
	for (;;) {
		if (got + 1 >= *cap) { /* the file grew while it was read */
			if ((uint64_t)got >= limit) {
				char probe;
				ssize_t r;
				do
					r = read(fd, &probe, 1);
				while (r < 0 && errno == EINTR);
				if (r == 0)
					break; /* exactly at the limit */
				close(fd);
				return too_large(e, path, k, (uint64_t)got + 1, limit);
			}
			size_t next = *cap * 2;
			if ((uint64_t)next > limit + 1)
				next = (size_t)limit + 1;
			*buf = xrealloc(*buf, next);
			*cap = next;
		}
		size_t ask = *cap - 1 - got;
		ssize_t r = read(fd, *buf + got, ask);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			return fp_fail(e, ERR_IO_ERROR, "%s: %s", path, strerror(err));
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if ((size_t)r < ask && (uint64_t)got >= (uint64_t)st.st_size)
			break; /* short of the request, with all that fstat promised: the end */
	}
	close(fd);
	(*buf)[got] = '\0';
	*len = got;
	return 0;
}

int input_read_into(const char *path, input_kind k, char **buf, size_t *cap, size_t *len, fp_err *e)
{
	return input_read_into_at(AT_FDCWD, path, path, k, buf, cap, len, e);
}

char *input_read_all(const char *path, input_kind k, size_t *len, fp_err *e)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (input_read_into(path, k, &buf, &cap, &n, e)) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}
