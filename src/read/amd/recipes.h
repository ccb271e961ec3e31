/* Kernel recipes: how a kernel name becomes a run of its FlyDSL test harness (docs/capture.md).
 *
 * Two sources, merged by `list` and by the capture commands:
 *  - a registry file: data/recipes.json (embedded) or the file FLYPROF_RECIPES names. Its own
 *    format is an object {"kernels": [...], "att_defaults": {...}, "counters": {...}}; the
 *    profiling hubs' format (a bare JSON list of recipes with test_file, kernels, invocation,
 *    shape_env, kernel_name_hint; docs/facts-flydsl.md) is read too.
 *  - a FlyDSL worktree: every tests/kernels/test_<name>.py synthesizes a recipe named <name>
 *    (invocation "python tests/kernels/test_<name>.py", kernel pattern <name>, the first
 *    ROCDSL_*_SHAPES variable the harness mentions as its shape variable). Both kernel layouts
 *    are recognised when locating the kernel source: kernels/<name>[_kernel].py (before FlyDSL
 *    PR #807) and kernels/<domain>/<name>[_kernel].py (after).
 *
 * Failure: a registry that is not JSON, or a recipe without name/test_file/invocation, is
 * BAD_INPUT with the file and, for syntax errors, the byte offset. Ownership: recipe_set owns
 * everything (recipe_set_release). */
#ifndef FLYPROF_READ_RECIPES_H
#define FLYPROF_READ_RECIPES_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stddef.h>

typedef struct recipe_att {
	long target_cu;
	char *se_mask, *simd_select, *buffer_size; /* hex text as rocprofv3 takes it */
} recipe_att;

typedef struct recipe {
	char *name;	    /* what the user types: "softmax" */
	char *test_file;    /* relative to the worktree (or absolute, hub recipes) */
	char *kernel_regex; /* pattern of the JIT symbol ("softmax_kernel_0"), may be NULL */
	char **kernels;	    /* base names of the kernels the harness launches */
	size_t nkernels;
	char *
	    invocation; /* argv words (docs/capture.md: quoting rules), may start with NAME=value */
	char **env;	/* shape_env entries "NAME=value" with real values only */
	size_t nenv;
	char *shape_var;			      /* the env variable --shape sets, or NULL */
	char *op, *arch, *dtype, *iter_range, *notes; /* each may be NULL */
	char *from;				      /* "registry" or "worktree" */
	char *kernel_src; /* worktree recipes: the kernel source found, relative, or NULL */
	int test_present; /* -1 unknown (no worktree), 0 missing, 1 present in the worktree */
	recipe_att att;
} recipe;

typedef struct recipe_set {
	recipe *v;
	size_t n;
	char *origin; /* the registry read ("<embedded>/recipes.json" or a path) */
	jv *counters; /* the registry's "counters" object (owned), or NULL */
} recipe_set;

/* Parses a registry document. */
int recipes_parse(const char *buf, size_t len, const char *name, recipe_set *s, fp_err *e);
/* Loads FLYPROF_RECIPES or the embedded data/recipes.json. */
int recipes_load(recipe_set *s, fp_err *e);
/* Adds the worktree's harnesses: marks registry recipes whose test file exists, appends a
 * synthesized recipe for each tests/kernels/test_*.py no registry recipe names. A worktree
 * without tests/kernels adds nothing. */
void recipes_add_worktree(recipe_set *s, const char *worktree);
/* The recipe for `name`: a recipe name, else a recipe listing it in kernels[] or as its
 * kernel_regex. NULL with KERNEL_NOT_FOUND (error.available = every name, nearest first). */
const recipe *recipes_find(const recipe_set *s, const char *name, fp_err *e);
/* {"name","from","test_file",...} for list and capture.json. */
jv *recipe_to_json(const recipe *r);
void recipe_set_release(recipe_set *s);

#endif
