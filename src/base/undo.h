/* The undo journal of one command: what it created or replaced on disk, so that a command
 * that is interrupted (or that fails after creating a new --out directory) leaves nothing that
 * was not there before (docs/security.md).
 *
 * file_write_atomic, file_mkdirs and file_lock_dir note every path before they touch it: a
 * file that existed is kept as a hard-linked backup beside it (restored on rollback), a new
 * file or directory is removed on rollback. main() begins the journal before the command and
 * either commits it (backups dropped) or rolls it back. Once committed, the command's result
 * stands: a later signal no longer turns it into INTERRUPTED. */
#ifndef FLYPROF_BASE_UNDO_H
#define FLYPROF_BASE_UNDO_H

void undo_begin(void);
/* Before a file at path is created or replaced (the first note of a path counts). */
void undo_note_file(const char *path);
/* After a directory was created by this command. */
void undo_note_dir(const char *path);
/* A directory this command created (undo_note_dir) whose contents other processes write (a
 * profiler's output, its logs): rollback removes it with everything in it. A directory that
 * was there before is left alone. */
void undo_own_tree(const char *path);
/* `path` was just replaced by a whole new tree (base/tree.h); `aside` is where the previous
 * tree was moved, or NULL when there was none. Rollback removes the new tree and moves the old
 * one back; commit removes `aside`. Returns 0 when nothing was journaled (no journal open, or
 * path already noted in this run): the caller then removes `aside` itself. */
int undo_note_tree(const char *path, const char *aside);
/* The directory lock file at path, once this command holds it (base/fileio.h file_lock_dir): a
 * rollback removes it. Only its holder may: it is never noted (or backed up beside itself)
 * while another process may hold it, since a backup link in a directory being created made
 * that directory look taken to its own creator. */
void undo_note_lock(const char *path);
/* path's entry is dropped: the lock there was released and removed by this command, so a later
 * rollback must not remove a lock file another process has made there since. */
void undo_forget(const char *path);
/* A bundle directory was created (or an empty one taken) by this command: a failure then rolls
 * everything back, not only an interruption. */
void undo_mark_fresh(void);
int undo_fresh(void);
/* The command wrote evidence of its own failure into the bundle (a profiler log that the error
 * names): a failure then keeps a fresh bundle, with its manifest recording the failed step, so
 * that the log can be read and the command retried there. An interruption still rolls back. */
void undo_keep_on_failure(void);
int undo_keeps_failure(void);
/* The result is complete: backups are dropped and the journal closed. */
void undo_commit(void);
int undo_committed(void);
/* Restores replaced files, removes new files and directories (newest first). */
void undo_rollback(void);

#endif
