/* The entry points every whole-document ATT reader has (filenames.json, occupancy.json,
 * realtime.json, the wstates files), declared once for a result type T:
 *
 *   int  T_parse(buf, len, name, out, e)   parses a document held in memory; `name` (its path)
 *                                          is what errors name, with the byte offset
 *   int  T_read(path, out, e)              reads the file and parses it; a missing file is
 *                                          NO_ARTIFACT
 *   void T_release(out)                    frees what a parse filled
 *
 * Both fill functions initialise *out first and leave it released on failure (-1 with e set:
 * BAD_INPUT for malformed JSON; for a path also the checked-open errors of base/input_open.h,
 * such as the size limit). The wave files have a streaming reader of their own (att_wave.h). */
#ifndef FLYPROF_READ_ATT_READER_H
#define FLYPROF_READ_ATT_READER_H

#include "base/err.h"

#include <stddef.h>

#define ATT_READER_DECLARE(T)                                                                      \
	int T##_parse(const char *buf, size_t len, const char *name, T *out, fp_err *e);           \
	int T##_read(const char *path, T *out, fp_err *e);                                         \
	void T##_release(T *out)

#endif
