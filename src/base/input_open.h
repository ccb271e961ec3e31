/* One checked way to open a file flyprof reads: every reader of external data goes through it.
 *
 * Inputs are untrusted (docs/security.md): a capture or bundle may hold a FIFO, a device node
 * or a huge sparse file where a trace file should be. So the open never blocks (O_NONBLOCK;
 * a FIFO without a writer would otherwise wait forever), the type is checked on the open
 * descriptor before a byte is read (NOT_REGULAR_FILE), and each kind of input has a size limit
 * (INPUT_TOO_LARGE naming file, size and limit) so a hostile size becomes an envelope instead
 * of an allocation failure. Limits are configurable per kind through FLYPROF_LIMIT_<KIND>
 * (bytes, or with a K/M/G suffix). */
#ifndef FLYPROF_BASE_INPUT_OPEN_H
#define FLYPROF_BASE_INPUT_OPEN_H

#include "base/err.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

typedef enum {
	INPUT_ANY,	   /* anything without a kind of its own (copies, small side files) */
	INPUT_JSON,	   /* JSON documents: manifests, capture.json, artifacts, snapshots.json */
	INPUT_ATT,	   /* rocprofv3 ATT decoder output: code.json, wave files, ... */
	INPUT_CSV,	   /* kernel-trace CSV, Nsight Compute exports */
	INPUT_CODE_OBJECT, /* AMDGPU code objects (ELF) */
	INPUT_SOURCE,	   /* source snapshot copies; never opened through a symbolic link */
	INPUT__COUNT
} input_kind;

/* The kind's name (as used in messages), its environment variable and its default limit. */
const char *input_kind_name(input_kind k);
const char *input_limit_env(input_kind k);
uint64_t input_limit_default(input_kind k);
/* The limit in force (the environment variable if set and valid, else the default). A bad
 * value of the variable is BAD_ARGS naming it. */
int input_limit(input_kind k, uint64_t *limit, fp_err *e);
/* The variables are read once per process (the first time each kind is asked for); after
 * changing one with setenv, call this so the next input_limit reads them again. */
void input_limit_reload(void);

/* Opens path for reading as kind k: non-blocking, close-on-exec, O_NOFOLLOW for INPUT_SOURCE;
 * checks that it is a regular file (NOT_REGULAR_FILE) within the limit (INPUT_TOO_LARGE). A
 * missing file is NO_ARTIFACT, other failures IO_ERROR. Returns the fd (blocking mode
 * restored) and fills *st, or -1. */
int input_open(const char *path, input_kind k, struct stat *st, fp_err *e);

/* Reads the whole file (input_open first) into *buf, reusing *cap bytes when large enough;
 * NUL-terminated. A file that grows past the limit while it is read is INPUT_TOO_LARGE. */
int input_read_into(const char *path, input_kind k, char **buf, size_t *cap, size_t *len,
		    fp_err *e);
/* input_read_into for name inside the directory open as dirfd: openat leaves the kernel one
 * path component to walk instead of every component of the path, which counts over the
 * thousands of wave files of a dispatch. path (the directory's path and name) is what errors
 * name; the checks are input_open's. A negative dirfd (AT_FDCWD, or a directory that could not
 * be opened) opens path itself, so a caller passes what open(2) gave it. */
int input_read_into_at(int dirfd, const char *name, const char *path, input_kind k, char **buf,
		       size_t *cap, size_t *len, fp_err *e);
/* Same into a fresh heap buffer (caller frees); NULL on failure. */
char *input_read_all(const char *path, input_kind k, size_t *len, fp_err *e);

#endif
