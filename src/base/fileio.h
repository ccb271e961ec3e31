/* File helpers: whole-file reads, atomic writes, directories and locks. Every failure becomes
 * an fp_err (IO_ERROR, or NO_ARTIFACT for a missing file where the caller asks for it). */
#ifndef FLYPROF_BASE_FILEIO_H
#define FLYPROF_BASE_FILEIO_H

#include "base/err.h"
#include "base/strbuf.h"

#include <stddef.h>

/* Reads a whole file into a NUL-terminated heap buffer (caller frees) through input_open
 * (kind INPUT_ANY): a missing file is NO_ARTIFACT, a FIFO/device/directory NOT_REGULAR_FILE,
 * one over the limit INPUT_TOO_LARGE, anything else IO_ERROR. */
char *file_read_all(const char *path, size_t *len, fp_err *e);
/* The same for optional evidence (a log, a side file): NULL when the file cannot be read, for
 * whatever reason, and no error. len may be NULL. */
char *file_read_optional(const char *path, size_t *len);
/* Writes data to path atomically: a temporary file beside it, fsync, rename, fsync of the
 * directory. On failure the previous file (if any) is untouched and the temporary removed. */
int file_write_atomic(const char *path, const void *data, size_t len, fp_err *e);
/* The same written piece by piece, for a file too large to hold in memory first (the wave
 * timeline's trace events): begin creates the temporary beside path; write appends to it (a
 * failure is kept and reported by commit); commit fsyncs, renames and fsyncs the directory, or
 * removes the temporary and fails; abort removes it. Until commit the file at path is as it
 * was. Every begun writer ends in commit or abort. */
typedef struct file_atomic {
	int fd;	    /* the temporary, -1 when none */
	int err;    /* errno of the first failed write, 0 when none */
	char *path; /* where commit renames it */
	strbuf tmp; /* its name */
} file_atomic;
int file_atomic_begin(file_atomic *f, const char *path, fp_err *e);
int file_atomic_write(file_atomic *f, const void *data, size_t len);
int file_atomic_commit(file_atomic *f, fp_err *e);
void file_atomic_abort(file_atomic *f);
/* mkdir -p; 0 on success. */
int file_mkdirs(const char *path, fp_err *e);
int file_is_dir(const char *path);
int file_is_reg(const char *path);
int file_exists(const char *path);
/* Joins two path parts with one '/'; caller frees. */
char *path_join(const char *a, const char *b);
/* Absolute, normalised (realpath) form of an existing path; caller frees; NULL if it fails. */
char *path_abs(const char *path);
/* Last path component (borrowed pointer into path). */
const char *path_base(const char *path);

/* An exclusive advisory lock (flock) on <dir>/.flyprof.lock; returns an fd >= 0 or -1 with
 * BUNDLE_LOCKED when another process holds it. file_unlock_dir releases it and removes the
 * lock file, so a finished command leaves no .flyprof.lock behind. */
int file_lock_dir(const char *dir, fp_err *e);
/* 1 when dir is a directory that holds nothing, or nothing but its lock file: a new bundle that
 * another process is creating looks like this between taking the lock and writing its manifest,
 * so a writer must try the lock (and get BUNDLE_LOCKED) rather than call it foreign. */
int file_dir_unclaimed(const char *dir);
/* 1 when another process holds dir's lock right now (a probe: creates nothing, takes nothing). A
 * bundle being created is only briefly without its manifest, but a second writer that looks in
 * that moment must hear BUNDLE_LOCKED, not that the directory is foreign. */
int file_lock_held(const char *dir);
void file_unlock_dir(const char *dir, int fd);

/* Sorted list of the names in a directory (without . and ..); caller frees with
 * file_list_free. Returns NULL with NO_ARTIFACT or IO_ERROR on failure (e may be NULL where
 * an unreadable directory simply lists nothing). */
char **file_list_dir(const char *dir, size_t *n, fp_err *e);
/* The same restricted to entries that are directories (symbolic links followed, as
 * file_is_dir does), telling them apart by the directory entry's type where the file system
 * gives it: no stat per entry, which matters in a dispatch directory of thousands of files. */
char **file_list_subdirs(const char *dir, size_t *n, fp_err *e);
/* Says whether a directory entry's name is wanted (ctx: the caller's). */
typedef int (*file_name_match)(const char *name, void *ctx);
/* The same restricted to the names match says yes to (ctx passed through), asked before any
 * name is copied: the few CSVs or code objects of a dispatch directory of thousands of wave
 * files without copying and sorting all of them. Same order, ownership and failures. */
char **file_list_matching(const char *dir, file_name_match match, void *ctx, size_t *n, fp_err *e);
void file_list_free(char **names, size_t n);
/* Whether some name in dir (not . or ..) satisfies match, read in directory order up to the
 * first that does: nothing copied or sorted, so a yes/no question about a dispatch directory of
 * thousands of files costs one walk of its entries, not a listing. 0 when dir is unreadable. */
int file_dir_any(const char *dir, file_name_match match, void *ctx);
/* How many names in dir (not . or ..) match says yes to: one walk, nothing copied or sorted
 * (a dispatch directory's wave files counted without listing them). 0 when dir is
 * unreadable. */
size_t file_dir_count(const char *dir, file_name_match match, void *ctx);

/* A directory's names read once for the several questions one command asks of them: whether
 * they hold Nsight Compute exports, how many are wave files, which ones in name order. Each
 * question would otherwise walk a dispatch directory of thousands of entries again. The walk
 * is made when first asked (or never), and a listing belongs to the caller that made it: it is
 * passed along, never found again by its path, so nothing outlives the command that made it
 * (`run` captures, then analyses what it captured, in one process). */
typedef struct file_listing {
	char *dir;    /* owned */
	char **names; /* into text; sorted once file_listing_names asked; NULL until walked */
	char *text;   /* the names, NUL-terminated, one after the other */
	size_t n;
	int walked, sorted;
	int err_no; /* the walk's failure (opendir's errno), 0 when it could list */
} file_listing;

/* An empty listing of dir (copied); nothing is read yet. */
void file_listing_init(file_listing *l, const char *dir);
/* The names of l->dir (not . or ..), sorted, walking the directory on the first question: the
 * array and its strings are borrowed, valid until file_listing_release. When the directory
 * cannot be listed: NULL with e set as file_list_dir sets it (NO_ARTIFACT, IO_ERROR; e may be
 * NULL), on every call. */
char **file_listing_names(file_listing *l, size_t *n, fp_err *e);
/* file_dir_any and file_dir_count asked of the listing (0 when the directory cannot be read). */
int file_listing_any(file_listing *l, file_name_match match, void *ctx);
size_t file_listing_count(file_listing *l, file_name_match match, void *ctx);
void file_listing_release(file_listing *l);

#endif
