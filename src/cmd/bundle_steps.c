/* bundle_steps.h: the in-process analysis steps of `bundle`. */
#include "cmd/bundle_steps.h"

#include "base/fileio.h"
#include "base/xalloc.h"
#include "core/export/bundle_export.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const bundle_step_artifacts[] = {
    "bubbles.json", "map.json", "report.json", "headlines.json", "REPORT.md", "REPORT.html", NULL};

static const char *const steps[] = {"bubbles", "map", "report", NULL};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_one(cmd_ctx *parent, const char *name, const char *dir, const char *tag,
		   jv **data_out)
{
	char *argv[] = {"flyprof", (char *)name, "--bundle", (char *)dir,
			"--tag",   (char *)tag,	 NULL};
	int argc = 6;
	cmd_ctx sub;
	cmd_ctx_init(&sub, command_find(name), argc, argv);
	double t0 = now_seconds();
	int rc = cmd_ctx_run(&sub, argc - 2, argv + 2);
	rc = cmd_ctx_finish_bundle(&sub, rc, now_seconds() - t0);
	for (size_t i = 0; i < jv_len(sub.warnings); i++)
		ctx_warn(parent, "%s: %s", name, jv_string(jv_at(sub.warnings, i)));
	if (rc) {
		fp_err_move(&parent->err, &sub.err);
		fp_err_extra(&parent->err, "step", jv_str(name));
	} else if (data_out) {
		*data_out = sub.data;
		sub.data = NULL;
	}
	cmd_ctx_release(&sub);
	return rc;
}

int bundle_steps_run(cmd_ctx *parent, const char *dir, const char *tag, jv **report_data)
{
	*report_data = NULL;
	for (size_t i = 0; steps[i]; i++) {
		int is_report = strcmp(steps[i], "report") == 0;
		if (run_one(parent, steps[i], dir, tag, is_report ? report_data : NULL))
			return -1;
	}
	return 0;
}

int bundle_steps_relativize(bundle *b, fp_err *e)
{
	for (size_t i = 0; bundle_step_artifacts[i]; i++) {
		if (!bundle_has(b, bundle_step_artifacts[i]))
			continue;
		char *path = path_join(b->dir, bundle_step_artifacts[i]);
		size_t len = 0, outlen = 0;
		char *text = file_read_all(path, &len, e);
		free(path);
		if (!text)
			return -1;
		char *rel = bundle_export_relativize(text, len, b->dir, &outlen);
		int rc = bundle_write_file(b, bundle_step_artifacts[i], rel, outlen, e);
		free(text);
		free(rel);
		if (rc)
			return -1;
	}
	bundle_export_relativize_jv(jv_get(b->manifest, "steps"), b->dir);
	b->dirty = 1;
	return 0;
}
