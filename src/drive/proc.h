/* The process runner: the one way flyprof runs an external program (docs/architecture.md#drivers).
 *
 * - argv vectors only, never a shell string; argv[0] without a '/' is looked up on PATH
 *   (proc_which) before anything is forked, so "not installed" is a result, not an error.
 * - The child runs in its own process group (setpgid), stdin from /dev/null.
 * - stdout/stderr go to log files (created, truncated) or into a bounded in-memory buffer
 *   (the first capture_max bytes are kept, the rest counted and dropped) or nowhere.
 * - A deadline: on expiry the whole group gets SIGTERM, then SIGKILL after a grace period.
 *   The same happens when signals_pending() reports SIGINT/SIGTERM to flyprof. When the
 *   leader exits, any stragglers left in its group are killed too, so a detached grandchild
 *   can neither outlive flyprof nor hold the pipes open.
 * - The exit status is decoded once into a proc_status; proc_error maps it to the registry
 *   codes (not found -> the caller's "missing" code, timeout -> CAPTURE_TIMEOUT, interrupted
 *   -> INTERRUPTED, anything else non-zero -> PROFILER_FAILED).
 *
 * Ownership: proc_result owns its strings; release with proc_result_release. */
#ifndef FLYPROF_DRIVE_PROC_H
#define FLYPROF_DRIVE_PROC_H

#include "base/err.h"

#include <stddef.h>

typedef enum {
	PROC_EXITED,	  /* exited by itself; see exit_code */
	PROC_SIGNALED,	  /* killed by a signal it did not get from us; see term_signal */
	PROC_TIMED_OUT,	  /* we killed it at the deadline */
	PROC_INTERRUPTED, /* we killed it because flyprof got SIGINT/SIGTERM */
	PROC_NOT_FOUND,	  /* the executable does not exist or is not executable */
	PROC_SPAWN_FAILED /* fork/exec failed for another reason; see spawn_errno */
} proc_status;

typedef struct proc_opts {
	const char *const *argv;    /* NULL-terminated; argv[0] is the program */
	const char *const *env_set; /* "NAME=value" entries to add or override, NULL-terminated */
	const char *cwd;	    /* working directory of the child, or NULL */
	double timeout_s;	    /* deadline in seconds; <= 0 means none */
	double kill_grace_s;	    /* SIGTERM -> SIGKILL delay; <= 0 means 2 s */
	const char *stdout_path;    /* log file for stdout, or NULL */
	const char *stderr_path;    /* log file for stderr (may equal stdout_path), or NULL */
	size_t capture_max;	    /* with no path: bytes of each stream kept (0 = discard) */
} proc_opts;

typedef struct proc_result {
	proc_status status;
	int exit_code;	 /* PROC_EXITED */
	int term_signal; /* PROC_SIGNALED: the signal; PROC_INTERRUPTED: flyprof's signal */
	int spawn_errno; /* PROC_NOT_FOUND / PROC_SPAWN_FAILED */
	double wall_s;
	char *path;	 /* the executable that ran (resolved), or NULL */
	char *out, *err; /* captured text (NUL-terminated) or NULL */
	size_t out_len, err_len;
	size_t out_dropped, err_dropped; /* bytes beyond capture_max */
} proc_result;

/* Runs the program and waits for it (or for the deadline). Returns 0 whenever a status was
 * decoded (including NOT_FOUND and TIMED_OUT); -1 with IO_ERROR/INTERNAL only when the runner
 * itself could not work (a log file cannot be created, pipe() fails). */
int proc_run(const proc_opts *o, proc_result *r, fp_err *e);
void proc_result_release(proc_result *r);

/* Resolves a program name: a name with '/' is checked as is; otherwise each PATH entry is
 * tried. Returns a heap path of an executable regular file, or NULL. */
char *proc_which(const char *name);
/* "exited", "signaled", "timed_out", "interrupted", "not_found", "spawn_failed". */
const char *proc_status_name(proc_status s);
/* 1 if the program ran and exited 0. */
int proc_ok(const proc_result *r);
/* Turns a failed result into an error: NOT_FOUND -> missing_code, TIMED_OUT ->
 * CAPTURE_TIMEOUT, INTERRUPTED -> INTERRUPTED, other failures -> PROFILER_FAILED. `what` names
 * the program in the message; `log` (may be NULL) is added as error.log. Returns -1. */
int proc_error(const proc_result *r, const char *what, err_code missing_code, const char *log,
	       fp_err *e);
/* Short human description: "exited 3", "killed by SIGSEGV", "timed out after 10.0 s", ... */
void proc_describe(const proc_result *r, char *buf, size_t n);

#endif
