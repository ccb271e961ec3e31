/* att_scan: a small pull scanner over one JSON document held in memory, for the fixed shapes
 * of the ATT ui_output files (code.json, wave files, occupancy, wstates, realtime, filenames).
 *
 * No tree is built: readers walk the document with expect/next/int/str/skip calls and keep
 * only what they aggregate, which is what makes the wave-file hot path fast and flat in memory
 * (bench/RESULTS.md has the figures against the generic parser). Every malformed input becomes
 * BAD_INPUT carrying the file name, the byte offset, line, column and what was expected; the
 * skipper validates full JSON grammar (strings, numbers, literals) with a depth limit, so an
 * unknown key can hold any value. Nothing here allocates except att_scan_str.
 *
 * Ownership: the scanner borrows buf and file for its lifetime; errors go to *e. */
#ifndef FLYPROF_READ_ATT_SCAN_H
#define FLYPROF_READ_ATT_SCAN_H

#include "base/err.h"
#include "base/strbuf.h"

#include <stddef.h>
#include <stdint.h>

#define ATT_SCAN_MAX_DEPTH 128

typedef struct att_scan {
	const char *buf;
	size_t len, pos;
	const char *file; /* shown in errors */
	fp_err *e;
} att_scan;

void att_scan_init(att_scan *s, const char *buf, size_t len, const char *file, fp_err *e);
/* Records BAD_INPUT at the current position (after whitespace); returns -1. */
int att_scan_fail(att_scan *s, const char *expected);
/* Skips whitespace and returns the next byte without consuming it, or -1 at the end. */
int att_scan_peek(att_scan *s);
/* Consumes the byte c (after whitespace) or fails with `expected` (NULL: the byte itself). */
int att_scan_expect(att_scan *s, char c, const char *expected);
/* Container iteration: call after '[' or '{' with *first = 1. Returns 1 when another element
 * follows (a separating ',' was consumed), 0 when the closing byte was consumed, -1 on error. */
int att_scan_next(att_scan *s, char close, int *first);
/* An integer that fits int64 (no fraction or exponent). */
int att_scan_i64(att_scan *s, int64_t *out, const char *expected);
/* 1 and consumes `null` if the next value is null, 0 otherwise. */
int att_scan_null(att_scan *s);
/* An object key followed by ':'. The key is decoded into *scratch (reset first); *key points
 * into it. */
int att_scan_key(att_scan *s, strbuf *scratch, const char **key);
/* A string value decoded (escapes, \u surrogate pairs) into *out, which is reset first. */
int att_scan_str(att_scan *s, strbuf *out, const char *expected);
/* Skips any one JSON value, validating it. */
int att_scan_skip(att_scan *s);
/* Requires that only whitespace remains. */
int att_scan_end(att_scan *s);

/* One member of an object: key is its decoded key, held in *scratch, which the handler may
 * reuse once it is done with key (for nested keys). It consumes the value (reads it, or
 * att_scan_skip) and returns 0, or -1 with the error recorded. */
typedef int (*att_member_fn)(att_scan *s, const char *key, strbuf *scratch, void *ctx);
/* An object at the scanner's position, '{' (else `what` is what was expected), each member
 * handed to member(), '}'. Returns 0 or -1. Every object walk of the ATT readers is this loop. */
int att_scan_object(att_scan *s, const char *what, strbuf *key, att_member_fn member, void *ctx);
/* A whole document that is one object followed by nothing but whitespace: buf[0..len), or
 * with from_file the file at `name` read whole (NO_ARTIFACT when missing; buf and len unused);
 * name is the file in errors. The read-and-parse of every ATT reader of a one-object file.
 * Returns 0 or -1 with e set. */
int att_scan_doc(const char *name, int from_file, const char *buf, size_t len, const char *what,
		 att_member_fn member, void *ctx, fp_err *e);

/* Reads a whole file into *buf (reused and grown across calls; caller frees *buf) and sets
 * *len. A missing file is NO_ARTIFACT, other failures IO_ERROR. */
int att_read_file(const char *path, char **buf, size_t *cap, size_t *len, fp_err *e);
/* The same for name inside the directory open as dirfd; path names it in errors and is what
 * is opened when dirfd is negative (input_read_into_at). */
int att_read_file_at(int dirfd, const char *name, const char *path, char **buf, size_t *cap,
		     size_t *len, fp_err *e);

#endif
