/* Reader of filenames.json (docs/facts-rocprofv3.md#filenames-json), the index of a dispatch
 * directory: gfxip, gfxv, version, counter_names and the wave file index wave_filenames {se: {simd:
 * {slot: {n: [file, begin, end]}}}}. Only what the analyses use is kept: gfxip, gfxv, version and
 * the list of wave files with their begin/end. Unknown keys are skipped. Malformed input is
 * BAD_INPUT with file and byte offset. */
#ifndef FLYPROF_READ_ATT_FILENAMES_H
#define FLYPROF_READ_ATT_FILENAMES_H

#include "base/err.h"
#include "read/amd/att_reader.h"

#include <stddef.h>
#include <stdint.h>

typedef struct att_wave_entry {
	char *file;
	int64_t begin, end;
} att_wave_entry;

typedef struct att_filenames {
	int64_t gfxip;	       /* -1 when absent */
	char *gfxv, *version;  /* owned or NULL */
	att_wave_entry *waves; /* in file order */
	size_t n_waves, cap_waves;
} att_filenames;

/* gfxip is -1 when the document has none. */
ATT_READER_DECLARE(att_filenames);

#endif
