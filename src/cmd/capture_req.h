/* What `capture`, `counters` and `run` share: the kernel argument, the bundle they write
 * (--bundle, else flyprof-bundles/<kernel> in the current directory) and the capture request
 * handed to the backend chosen by --backend (core/backend/capture.h). */
#ifndef FLYPROF_CMD_CAPTURE_REQ_H
#define FLYPROF_CMD_CAPTURE_REQ_H

#include "cmd/command.h"
#include "core/backend/capture.h"

/* Fills q from ctx and opens the bundle for writing (ctx->bundle, recorded and closed by
 * main). kernel may come from the bundle's capture.json when `kernel_from_bundle` is set and
 * no positional was given. Returns the backend, or NULL with ctx->err set. */
const backend *capture_req_init(cmd_ctx *ctx, capture_req *q, int kernel_from_bundle);
void capture_req_release(capture_req *q);
/* The default bundle of a kernel: flyprof-bundles/<kernel>, with anything but [A-Za-z0-9_.-] in
 * the name (and a leading '.') replaced by '_'. Owned by the caller. */
char *capture_default_bundle(const char *kernel);

#endif
