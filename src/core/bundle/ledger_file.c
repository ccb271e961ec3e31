/* The ledger appender (see ledger_file.h for the guarantees). */
#include "core/bundle/ledger_file.h"

#include "base/json/json_write.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/ledger_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int lock_with_deadline(int fd, const char *path, fp_err *e)
{
	struct timespec nap = {0, 20 * 1000 * 1000};
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 20) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return fp_fail(e, ERR_IO_ERROR, "%s: cannot lock: %s", path,
				       strerror(errno));
		if (waited >= LEDGER_LOCK_WAIT_MS)
			return fp_fail(e, ERR_BUNDLE_LOCKED,
				       "%s: another process held the ledger for %d s", path,
				       LEDGER_LOCK_WAIT_MS / 1000);
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* The current contents, read through the locked descriptor. */
static char *read_locked(int fd, const char *path, size_t *len, fp_err *e)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		fp_fail(e, ERR_IO_ERROR, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		fp_fail(e, ERR_IO_ERROR, "%s: not a regular file", path);
		return NULL;
	}
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t k = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			fp_fail(e, ERR_IO_ERROR, "%s: read failed: %s", path,
				k < 0 ? strerror(errno) : "file shrank");
			free(buf);
			return NULL;
		}
		got += (size_t)k;
	}
	*len = got;
	return buf;
}

static char *utc_now(void)
{
	char s[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(s);
}

static int write_line(int fd, const char *path, const strbuf *line, off_t old_size, fp_err *e)
{
	size_t done = 0;
	while (done < line->len) {
		ssize_t k = write(fd, line->buf + done, line->len - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int err = errno;
			if (ftruncate(fd, old_size) != 0) { /* best effort: keep whole lines only */
			}
			return fp_fail(e, ERR_IO_ERROR, "%s: write failed: %s", path,
				       strerror(err));
		}
		done += (size_t)k;
	}
	if (fsync(fd) != 0)
		return fp_fail(e, ERR_IO_ERROR, "%s: fsync failed: %s", path, strerror(errno));
	return 0;
}

int ledger_append(const char *path, ledger_round *r, fp_err *e)
{
	int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return fp_fail(e, ERR_IO_ERROR, "%s: cannot open ledger: %s", path,
			       strerror(errno));
	int rc = -1;
	char *buf = NULL;
	ledger_rounds old = {0};
	strbuf line = STRBUF_INIT;
	size_t len = 0;
	if (lock_with_deadline(fd, path, e) < 0 || !(buf = read_locked(fd, path, &len, e)) ||
	    ledger_parse_text(buf, len, path, &old, e) < 0)
		goto out;
	r->round = 1;
	for (size_t i = 0; i < old.n; i++) /* max + 1: hand-edited ledgers may be out of order */
		if (old.v[i].round >= r->round)
			r->round = old.v[i].round + 1;
	free(r->time);
	r->time = utc_now();
	jv *o = ledger_round_to_json(r);
	json_write(&line, o, 0);
	jv_free(o);
	sb_addc(&line, '\n');
	rc = write_line(fd, path, &line, (off_t)len, e);
out:
	sb_release(&line);
	ledger_rounds_release(&old);
	free(buf);
	flock(fd, LOCK_UN);
	close(fd);
	return rc;
}
