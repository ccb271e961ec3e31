/* The directory lock leaves no .flyprof.lock behind once released, and a lock file removed by
 * its holder is not mistaken for the directory's lock by a process that opened it earlier. */
#include "t.h"

#include "base/err.h"
#include "base/fileio.h"
#include "base/undo.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* A second writer that finds the lock held puts nothing beside it (an undo backup of the lock
 * made a directory being created look taken to its own creator, who then refused it as "not a
 * bundle"), and its rollback leaves the holder's lock in place. */
TEST(lock_refused_writer_leaves_the_holders_lock_alone)
{
	char *dir = path_join(t_tmpdir(), "held");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	char *lock = path_join(dir, ".flyprof.lock");
	int fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	struct stat before, after;
	CHECK_INT(stat(lock, &before), 0);
	pid_t pid = fork();
	if (pid == 0) { /* the second writer, with its own journal */
		fp_err ce = FP_ERR_INIT;
		undo_begin();
		int got = file_lock_dir(dir, &ce);
		int only_lock = file_dir_unclaimed(dir);
		undo_rollback();
		int ok = got == -1 && ce.code == ERR_BUNDLE_LOCKED && only_lock;
		fp_err_clear(&ce);
		free(lock); /* the parent's copies, which this process holds too */
		free(dir);
		_exit(ok ? 0 : 1);
	}
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_INT(stat(lock, &after), 0);
	CHECK(before.st_ino == after.st_ino);
	CHECK(file_dir_unclaimed(dir));
	file_unlock_dir(dir, fd);
	CHECK(access(lock, F_OK) != 0);
	free(lock);
	free(dir);
}

/* A rollback removes a lock this command took and still holds (an interrupted run leaves no
 * lock file behind), and not one it already released. */
TEST(lock_rollback_removes_only_a_held_lock)
{
	char *dir = path_join(t_tmpdir(), "rb");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	char *lock = path_join(dir, ".flyprof.lock");
	undo_begin();
	int fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	undo_rollback();
	CHECK(access(lock, F_OK) != 0);
	close(fd);
	undo_begin();
	fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	file_unlock_dir(dir, fd);
	int other = open(lock, O_RDWR | O_CREAT, 0644); /* another process's lock, made since */
	CHECK(other >= 0);
	undo_rollback();
	CHECK_INT(access(lock, F_OK), 0);
	close(other);
	unlink(lock);
	free(lock);
	free(dir);
}
