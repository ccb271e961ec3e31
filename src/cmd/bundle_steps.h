/* The analysis half of `flyprof bundle`: runs `bubbles`, `map` and `report` in-process on a
 * bundle directory exactly as `flyprof <step> --bundle DIR --tag TAG` would (the same option
 * tables and defaults, the same command functions), so the exported artifacts are what those
 * commands give when re-run on the bundle. Each step is recorded in the bundle's manifest the
 * way main records a command; the steps' warnings are forwarded to the parent as
 * "<step>: <warning>".
 *
 *   bundle_steps_run       0, or -1 with parent->err set to the failing step's error (extra
 *                          key "step"). *report_data receives the report envelope's data
 *                          (owned by the caller) when report ran.
 *   bundle_steps_relativize rewrites the artifacts the steps wrote (bubbles.json, map.json,
 *                          report.json, headlines.json, REPORT.md) and the manifest's step
 *                          arguments so paths are relative to the bundle (its own directory
 *                          becomes "."); checksums are recorded again. b is open for writing. */
#ifndef FLYPROF_CMD_BUNDLE_STEPS_H
#define FLYPROF_CMD_BUNDLE_STEPS_H

#include "cmd/command.h"
#include "core/bundle/bundle.h"

int bundle_steps_run(cmd_ctx *parent, const char *dir, const char *tag, jv **report_data);
int bundle_steps_relativize(bundle *b, fp_err *e);

/* The artifact files the steps write, NULL terminated. */
extern const char *const bundle_step_artifacts[];

#endif
