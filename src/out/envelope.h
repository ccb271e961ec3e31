/* The envelope: the one JSON object a command prints (docs/architecture.md#envelope). */
#ifndef FLYPROF_OUT_ENVELOPE_H
#define FLYPROF_OUT_ENVELOPE_H

#include "base/err.h"
#include "base/json/jv.h"

/* Builds the envelope. On success (err == NULL or !err->set) it holds ok, command, bundle (if
 * non-NULL), data, warnings and truncated (if non-empty). On failure: ok, command, bundle,
 * error {code, exitCode, message, help, extra keys...}, warnings. Takes ownership of nothing;
 * the result is a new tree. */
jv *envelope_build(const char *command, const char *bundle, const jv *data, const jv *warnings,
		   const jv *truncated, const fp_err *err);
/* The process exit status the envelope stands for. */
int envelope_exit_status(const fp_err *err);

#endif
