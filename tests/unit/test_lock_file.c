/* The directory lock leaves no .flyprof.lock behind once released, and a lock file removed by
 * its holder is not mistaken for the directory's lock by a process that opened it earlier. */
#include "t.h"

#include "base/fileio.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

TEST(lock_file_removed_on_release)
{
	char *dir = path_join(t_tmpdir(), "lk");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	char *lock = path_join(dir, ".flyprof.lock");
	int fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	CHECK_INT(access(lock, F_OK), 0);
	/* a second taker while held: BUNDLE_LOCKED */
	CHECK_INT(file_lock_dir(dir, &e), -1);
	CHECK_INT(e.code, ERR_BUNDLE_LOCKED);
	fp_err_clear(&e);
	/* someone who opened the old file before the release ... */
	int stale = open(lock, O_RDWR);
	CHECK(stale >= 0);
	file_unlock_dir(dir, fd);
	CHECK(access(lock, F_OK) != 0);
	/* ... can flock the removed inode, yet the directory lock is still free to take */
	CHECK_INT(flock(stale, LOCK_EX | LOCK_NB), 0);
	fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	file_unlock_dir(dir, fd);
	close(stale);
	CHECK(access(lock, F_OK) != 0);
	free(lock);
	free(dir);
}
