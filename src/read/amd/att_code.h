/* Reader of an ATT dispatch's code.json (docs/facts-rocprofv3.md#code-json) into the trace model.
 *
 * Rows are indexed, never zipped with the header: columns 0 ISA, 2 LineNumber, 3 Source,
 * 4 Codeobj, 5 Vaddr, 6 Hit, 7 Latency, 8 Stall, 9 Idle; column 1 and any trailing columns
 * (newer writers append ServiceType, Issued, ...) are skipped. A Source of null reads as "".
 * Label rows ("; <kernel symbol>") are kept with is_label set; d->kernel is the symbol of the
 * first label row (without "; "). "code": null is an empty trace: zero instructions, no error.
 * Instructions are sorted by code_line (labels first on a shared line). */
#ifndef FLYPROF_READ_ATT_CODE_H
#define FLYPROF_READ_ATT_CODE_H

#include "base/err.h"
#include "model/trace.h"

#include <stddef.h>

/* Reads <dispatch_dir>/code.json into d (which must be initialised; its previous contents are
 * freed). d->dir becomes the absolute directory. Fails with NO_ARTIFACT when code.json is
 * missing, BAD_INPUT (file, byte offset, expected) when it is malformed, IO_ERROR otherwise. */
int att_code_read(const char *dispatch_dir, trace_dispatch *d, fp_err *e);
/* The same from a buffer already in memory (`name` is used in errors); d->dir is left alone. */
int att_code_parse(const char *buf, size_t len, const char *name, trace_dispatch *d, fp_err *e);

#endif
