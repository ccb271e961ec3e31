/* Which ATT dispatch directory an analysis command reads (docs/architecture.md#dispatch-selection:
 * "the dispatch that is analysed is the one that is shipped").
 *
 * Candidates: for a raw dispatch directory, itself; for a flyprof bundle or a capture, every
 * att/<tag>/ui_output_agent_*_dispatch_* directory (att_viewer/<tag>/ is accepted too, and
 * att/ui_output_* when the capture has no tag level). A candidate is non-empty when it has at
 * least one wave file and at least one code.json instruction with Hit > 0.
 *
 * Rule, in order: (1) --dispatch ID|DIRNAME picks that directory (DISPATCH_OUT_OF_RANGE with
 * error.available = every dispatch id when none matches); (2) a flyprof bundle's capture.json
 * naming the kept dispatch of the tag (tags.<tag>.kept_dir, a path relative to the bundle, or
 * tags.<tag>.dispatch, an id) is honoured; (3) otherwise the non-empty dispatch with the most
 * hits (Σ code.json Hit), ties broken by the lowest numeric dispatch id, then the directory
 * name. When every candidate is an empty shell the answer is EMPTY_ATT; when the tag has no
 * dispatch directory at all, NO_ARTIFACT with the tags that exist in error.available. */
#ifndef FLYPROF_CORE_DISPATCH_SELECT_H
#define FLYPROF_CORE_DISPATCH_SELECT_H

#include "base/err.h"
#include "base/fileio.h"
#include "base/json/jv.h"
#include "core/bundle/bundle.h"
#include "core/bundle/choice.h"
#include "model/trace.h"

/* Chooses the dispatch of bundle b for `tag` (NULL = "big") and `dispatch` (NULL = automatic).
 * Fills *out (owned by the caller: dispatch_choice_release). Returns 0 or -1 with e set. */
int dispatch_select(const bundle *b, const char *tag, const char *dispatch, dispatch_choice *out,
		    fp_err *e);
/* The same, and the chosen dispatch's code.json parsed into *code (initialized by the caller;
 * the caller releases it, also on failure), as att_code_read(out->dir, code, e) gives it: taken
 * over from the selection, which reads every candidate's code.json to count its hits, when
 * there was only one candidate (a dispatch directory), else read again. */
int dispatch_select_read(const bundle *b, const char *tag, const char *dispatch,
			 dispatch_choice *out, trace_dispatch *code, fp_err *e);
/* The same, sharing a listing with the caller (names may be NULL: dispatch_select_read). On
 * entry *names is a listing of b->dir (file_listing_init'ed, walked or not); when there is one
 * candidate, its waves are counted from *names, which is then a listing of that directory (the
 * same one when it is b->dir, else made in its place), so that the wave pass reads it instead
 * of listing the directory again. Several candidates are counted each by a walk, and *names is
 * left as it was. The caller releases *names either way. */
int dispatch_select_listed(const bundle *b, const char *tag, const char *dispatch,
			   dispatch_choice *out, trace_dispatch *code, file_listing *names,
			   fp_err *e);

/* The numbers in a wave file's name, se<se>_sm<simd>_sl<slot>_wv<wave>.json. */
typedef struct wave_file_name {
	int64_t se, simd, slot, wave;
} wave_file_name;

/* 1 if name looks like a wave file (se<N>_sm<N>_sl<N>_wv<N>.json). */
int dispatch_is_wave_file(const char *name);
/* The same, also reading its numbers into *out (may be NULL; strtoll's value, so a number too
 * long for 64 bits reads as the largest). */
int dispatch_wave_file_name(const char *name, wave_file_name *out);
/* The dispatch id in a ui_output_agent_<h>_dispatch_<id> name, or -1. */
long long dispatch_id_of(const char *dirname);

#endif
