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
/* A bundle directory was created (or an empty one taken) by this command: a failure then rolls
 * everything back, not only an interruption. */
void undo_mark_fresh(void);
int undo_fresh(void);
/* The result is complete: backups are dropped and the journal closed. */
void undo_commit(void);
int undo_committed(void);
/* Restores replaced files, removes new files and directories (newest first). */
void undo_rollback(void);

#endif
