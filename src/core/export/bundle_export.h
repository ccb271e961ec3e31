/* Building blocks of `flyprof bundle` (docs/bundle.md): copying the files flyprof reads out of
 * an ATT dispatch directory and out of a capture's rocprofv3/ folder into a new bundle with a
 * checksum per file, making the paths inside exported artifacts relative to the bundle, and
 * swapping a finished temporary tree into place.
 *
 * Copies never follow symbolic links and skip anything that is not a regular file (listed as
 * skipped), so an export never reads outside the source directories.
 * Ownership: the caller owns every jv passed in; returned strings are heap (caller frees).
 * Failure: IO_ERROR with the path for a file that cannot be read or written; INTERRUPTED when
 * SIGINT/SIGTERM arrives during a copy. */
#ifndef FLYPROF_CORE_BUNDLE_EXPORT_H
#define FLYPROF_CORE_BUNDLE_EXPORT_H

#include "base/err.h"
#include "base/json/jv.h"
#include "model/trace.h"

#include <stddef.h>

/* 1 if a dispatch-directory entry is one flyprof reads: code.json, wave files
 * (se*_sm*_sl*_wv*.json), occupancy.json, wstates<k>.json, realtime.json, filenames.json,
 * snapshots.json, source_* copies and code objects (*_code_object_id_*.out). */
int bundle_export_wanted(const char *name);

/* Copies regular file src to dst (created exclusively; its directory must exist) and records
 * {"sha256","bytes"} under artifacts[rel]. 0 or -1 with e set. */
int bundle_export_copy_file(const char *src, const char *dst, const char *rel, jv *artifacts,
			    fp_err *e);

/* Copies the wanted regular files of dispatch directory src into dst (created); rel is dst
 * relative to the bundle (the artifact key prefix). Entries left out are appended to
 * `skipped` as "name: reason". Returns the number of files copied, or -1. */
long bundle_export_dispatch(const char *src, const char *dst, const char *rel, jv *artifacts,
			    jv *skipped, fp_err *e);

/* Copies the code objects of t's instructions that rocprofv3 saved beside src_dispatch
 * (codeobj_find_beside) into dst_dispatch unless already there. Returns the number copied or
 * -1. */
long bundle_export_code_objects(const trace_dispatch *t, const char *src_dispatch,
				const char *dst_dispatch, const char *rel, jv *artifacts,
				fp_err *e);

/* The rocprofv3 evidence `report` reads, looked up in `dirs` in order (as report does):
 * the header and the one row of the first *kernel_trace.csv that has the dispatch (by id,
 * else by kernel name) -> <bundle>/rocprofv3/<same name>, and every *agent_info.csv (up to
 * 1 MiB each) copied whole. Fills `record` with what was taken from where. 0 or -1. */
int bundle_export_rocprof(const char *const *dirs, size_t ndirs, long long dispatch_id,
			  const char *kernel, const char *bundle_dir, jv *artifacts, jv *record,
			  fp_err *e);

/* The header line and the first row of kernel-trace CSV text buf[0..len) whose Dispatch_Id
 * is id (id >= 0) or, with id < 0, whose Kernel_Name is kernel, each ending in '\n'; NULL when
 * no row matches or the header lacks the kernel-trace columns (heap string). name is used in
 * error positions only. */
char *bundle_export_csv_row(const char *buf, size_t len, const char *name, long long id,
			    const char *kernel);

/* Puts the finished tree tmp at final: a rename when final is absent or an empty directory;
 * when `replace` is set (the caller holds the lock of the bundle at final) and final is not
 * empty, an atomic exchange (renameat2 RENAME_EXCHANGE; two renames where the file system
 * lacks it) after which the old tree is removed. Without `replace` a non-empty final is an
 * IO_ERROR (it changed since it was checked) and is left alone. Flushes tmp first (syncfs). */
int bundle_export_swap_in(const char *tmp, const char *final, int replace, fp_err *e);

/* Copy of text in which every occurrence of abs_dir followed by '/' loses that prefix and
 * every other occurrence becomes "." (paths relative to the bundle); an occurrence followed by
 * a character that continues a file name ("/t/bb" for "/t/b") is left alone. *outlen gets
 * the length. */
char *bundle_export_relativize(const char *text, size_t len, const char *abs_dir, size_t *outlen);
/* The same on every string inside a jv array or object, in place. */
void bundle_export_relativize_jv(jv *v, const char *abs_dir);

#endif
