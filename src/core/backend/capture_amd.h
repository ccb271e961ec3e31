/* Internal to the AMD capture backend (capture_*.c): the prepared command line and
 * environment, one profiler pass, the discovery result. */
#ifndef FLYPROF_CORE_BACKEND_CAPTURE_AMD_H
#define FLYPROF_CORE_BACKEND_CAPTURE_AMD_H

#include "core/backend/capture.h"
#include "drive/proc.h"
#include "read/amd/recipes.h"

#include <stddef.h>

/* Everything a pass needs that does not depend on the pass. */
typedef struct amd_prep {
	char *rocprof;	/* the rocprofv3 executable (resolved) */
	char *version;	/* its --version, or NULL when it did not say */
	char *worktree; /* absolute */
	recipe_set recipes;
	const recipe *r;	   /* borrowed from recipes */
	const char *recipe_source; /* "registry", "worktree" or "invocation-override" */
	char **app;		   /* the application's argv (NULL terminated) */
	size_t napp;
	char **env; /* NAME=value for every pass: PYTHONPATH, inline, shape, forced */
	size_t nenv;
	char *decoder_dir; /* directory of librocprof-trace-decoder.so, or NULL */
	char *shape;	   /* the big shape given to the shape variable, or NULL */
} amd_prep;

int amd_prep_init(capture_req *q, amd_prep *p, fp_err *e);
void amd_prep_release(amd_prep *p);
jv *amd_prep_json(const amd_prep *p);

/* Splits an invocation into words: blanks separate; '...' is literal; "..." keeps \" and \\;
 * a backslash outside quotes escapes the next character. Nothing else is special: $, `, *, ;,
 * | and & stay literal because no shell ever sees them. Returns NULL-terminated words (caller
 * frees with amd_words_free), NULL with BAD_ARGS on an unterminated quote. */
char **amd_split_words(const char *s, size_t *n, fp_err *e);
void amd_words_free(char **w);

/* One rocprofv3 run: rocprofv3 <args...> -- <app...> in the worktree, with the prepared
 * environment plus FLYDSL_RUNTIME_CACHE_DIR=<bundle>/.cache_<pass> (removed first: a cold JIT
 * cache makes FlyDSL emit the debug line info) and, when shape_var/shape are given, that
 * variable. Output goes to <bundle>/logs/<pass>.log. Returns 0 with *r filled whatever the
 * status (the caller decides), -1 when the runner could not run. */
int amd_run_pass(capture_req *q, const amd_prep *p, const char *pass, const char *const *args,
		 const char *shape, proc_result *r, char **log, fp_err *e);
/* Turns a failed pass into its typed error: DECODER_MISSING when the log says the decoder
 * library was not found, else proc_error's mapping (CAPTURE_TIMEOUT, INTERRUPTED,
 * PROFILER_FAILED) with error.log and error.log_tail (the last lines of the log). */
int amd_pass_error(const proc_result *r, const char *what, const char *log, fp_err *e);

/* <bundle>/.incoming-<name>, emptied and created (removed whole if the run is undone). */
char *amd_incoming(capture_req *q, const char *name, fp_err *e);
/* Replaces <bundle>/<dest> by the directory `from` (tree_replace: one rename; the old tree
 * is kept aside until the run commits). */
int amd_install(capture_req *q, const char *from, const char *dest, fp_err *e);

typedef struct amd_discovery {
	char *kernel;		/* the chosen JIT name */
	const char *confidence; /* "exact", "fuzzy", "heuristic" */
	long long calls;
	double total_ns, avg_ns;
	char *iter_range;
	const char *iter_source; /* "--iter-range", "recipe", "auto" */
	jv *candidates;		 /* ranked [{name, calls, total_ns, avg_ns, match}] */
	jv *pass;		 /* {seconds, status, exit_code, log} */
} amd_discovery;

/* Runs the discovery pass into <bundle>/rocprofv3/ and chooses the kernel. */
int amd_discover(capture_req *q, const amd_prep *p, amd_discovery *d, fp_err *e);
void amd_discovery_release(amd_discovery *d);
/* The automatic iteration range for a kernel called `calls` times (docs/capture.md). */
char *amd_auto_iter_range(long long calls);
/* An anchored extended regular expression matching exactly `name`. */
char *amd_exact_regex(const char *name);
/* The architecture of the capture's agent table under dir (recursively one level), or NULL. */
char *amd_agent_arch(const char *dir);

#endif
