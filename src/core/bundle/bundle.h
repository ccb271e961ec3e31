/* The bundle directory: state shared by commands (docs/architecture.md#bundle-directory).
 *
 * Kinds of input a command may be pointed at with --bundle:
 *   BUNDLE_FLYPROF   a directory flyprof created (manifest.json with "tool": "flyprof"),
 *                    including examples/<kernel>/ bundles; writable.
 *   BUNDLE_CAPTURE   a directory holding att/<tag>/ui_output_* (a capture made elsewhere);
 *                    read-only.
 *   BUNDLE_DISPATCH  one raw ui_output_agent_*_dispatch_* directory (has code.json); read-only.
 * flyprof never writes into a directory it did not create as a bundle: for read-only inputs
 * the result goes to the envelope only, or to --out DIR (created as a flyprof bundle).
 *
 * Writes are atomic (fileio) and made under an flock on <dir>/.flyprof.lock, so a second
 * writer fails with BUNDLE_LOCKED instead of interleaving. */
#ifndef FLYPROF_CORE_BUNDLE_H
#define FLYPROF_CORE_BUNDLE_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stddef.h>

typedef enum { BUNDLE_FLYPROF, BUNDLE_CAPTURE, BUNDLE_DISPATCH } bundle_kind;

typedef struct bundle {
	char *dir; /* absolute path */
	bundle_kind kind;
	jv *manifest; /* owned; NULL for read-only kinds */
	int lock_fd;  /* >= 0 while locked for writing */
	int dirty;    /* manifest changed since it was read */
} bundle;

const char *bundle_kind_name(bundle_kind k);

/* Opens an existing directory for reading and detects its kind. A missing path is
 * NO_ARTIFACT; a directory of none of the kinds is NOT_A_BUNDLE. */
int bundle_open(bundle *b, const char *path, fp_err *e);
/* Opens path for writing: creates it (with a new manifest, kind "run" / "output" / "example"
 * given by `role`) when it does not exist or is an empty directory; reopens it when it is a
 * flyprof bundle; refuses anything else (NOT_A_BUNDLE). Takes the write lock. */
int bundle_open_write(bundle *b, const char *path, const char *role, fp_err *e);
/* Takes the write lock on a bundle opened with bundle_open (BUNDLE_FLYPROF only). */
int bundle_lock(bundle *b, fp_err *e);
/* Writes <dir>/<name> atomically (parent directories created) and records its checksum. */
int bundle_write_file(bundle *b, const char *name, const void *data, size_t len, fp_err *e);
/* Pretty-printed JSON artifact. */
int bundle_write_json(bundle *b, const char *name, const jv *doc, fp_err *e);
/* Reads a JSON artifact; a missing one is MISSING_PREREQ naming `producer` (the command that
 * writes it). */
jv *bundle_read_json(const bundle *b, const char *name, const char *producer, fp_err *e);
/* 1 if <dir>/<name> exists. */
int bundle_has(const bundle *b, const char *name);
/* Sets a top-level manifest field (kernel, backend, arch, synthetic, ...); takes ownership. */
void bundle_set_meta(bundle *b, const char *key, jv *value);
/* Appends a step record (command, argv, exit status, duration) and writes the manifest. */
int bundle_record_step(bundle *b, const char *command, int argc, char **argv, int exit_status,
		       double seconds, fp_err *e);
/* Writes the manifest if dirty, releases the lock and frees everything. */
void bundle_close(bundle *b);

#endif
