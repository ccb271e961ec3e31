/* `list`: the kernels flyprof can profile: the recipe registry (data/recipes.json or
 * FLYPROF_RECIPES) united with the test harnesses of a FlyDSL worktree (--worktree), each with
 * where it came from and whether its harness exists in that worktree. Needs no GPU and runs
 * nothing. */
#include "cmd/cmds.h"

#include "base/fileio.h"
#include "read/amd/recipes.h"

#include <stdlib.h>

const opt_spec list_opts[] = {
    OPT_END,
};

int cmd_list(cmd_ctx *ctx)
{
	const char *wt = opts_str(&ctx->opts, "worktree");
	if (wt && !file_is_dir(wt))
		return fp_fail(&ctx->err, ERR_BAD_ARGS, "--worktree %s is not a directory", wt);
	recipe_set s;
	if (recipes_load(&s, &ctx->err))
		return -1;
	recipes_add_worktree(&s, wt);
	jv *ks = jv_set(ctx->data, "kernels", jv_array());
	size_t reg = 0, synth = 0, present = 0;
	for (size_t i = 0; i < s.n; i++) {
		jv_push(ks, recipe_to_json(&s.v[i]));
		reg += s.v[i].from[0] == 'r';
		synth += s.v[i].from[0] == 'w';
		present += s.v[i].test_present == 1;
	}
	jv_set_str(ctx->data, "registry", s.origin);
	char *abs = wt ? path_abs(wt) : NULL;
	jv_set(ctx->data, "worktree", abs ? jv_str(abs) : jv_null());
	free(abs);
	jv *c = jv_set(ctx->data, "counts", jv_object());
	jv_set_int(c, "registry", (int64_t)reg);
	jv_set_int(c, "worktree", (int64_t)synth);
	jv_set_int(c, "harness_present", (int64_t)present);
	if (!wt)
		ctx_warn(ctx,
			 "no --worktree: only the registry is listed and no harness was checked");
	recipe_set_release(&s);
	return 0;
}
