/* Reader of an ATT dispatch directory's snapshots.json: a nested directory tree mapping each
 * source file the decoder saw to its local copy source_<i>_<name> in the same directory
 * (docs/facts-rocprofv3.md#snapshots-json), e.g.
 *   {"/":{"a":{"kernels":{"k.py":"source_1_k.py"}}}}  ->  "/a/kernels/k.py" = source_1_k.py
 *
 * Safety: a local name that would leave the dispatch directory is refused: names with '/',
 * "." or "..", absolute names, and entries that are symbolic links or not regular files.
 * Refused entries are counted and listed (the caller warns); they never become readable.
 *
 * Ownership: a snapshots owns its entries and cached file contents (snapshots_release).
 * Failure: a snapshots.json that does not parse or has the wrong shape (a leaf that is not a
 * string, a tree deeper than SNAPSHOTS_MAX_DEPTH) is BAD_INPUT; a missing snapshots.json is
 * not an error (no entries). */
#ifndef FLYPROF_READ_SNAPSHOTS_H
#define FLYPROF_READ_SNAPSHOTS_H

#include "base/err.h"
#include "base/json/jv.h"

#include <stddef.h>
#include <stdint.h>

#define SNAPSHOTS_MAX_DEPTH 64

typedef struct snapshot_entry {
	char *path;  /* the original path, rebuilt from the tree ("/a/kernels/k.py") */
	char *local; /* file name inside the dispatch directory */
	char *text;  /* contents once loaded (owned), NULL before */
	size_t len;
	int load_failed;
} snapshot_entry;

typedef struct snapshots {
	char *dir; /* dispatch directory (owned) */
	snapshot_entry *entries;
	size_t n;
	char **refused; /* "path -> local: reason" for each refused entry (owned) */
	size_t n_refused;
} snapshots;

/* Loads <dir>/snapshots.json. 0 (maybe with no entries) or -1 with e filled. */
int snapshots_load(const char *dir, snapshots *s, fp_err *e);
/* Builds entries from an already parsed tree (used by snapshots_load and the fuzz target);
 * `file` names the source in errors. Entries are checked against `dir` (may be NULL: then
 * only the name rules apply and nothing is readable). */
int snapshots_from_tree(const jv *tree, const char *dir, const char *file, snapshots *s, fp_err *e);
void snapshots_release(snapshots *s);

/* The entry naming `path` (path[0..n)): an exact match, else the unique entry with the
 * longest whole-component suffix match (srcmap_path_matches). NULL when none, or when two
 * entries match equally well (*ambiguous set to 1 then, if given). */
const snapshot_entry *snapshots_find(const snapshots *s, const char *path, size_t n,
				     int *ambiguous);

/* Output bounds of a snippet (docs/security.md): a line's text is cut to SNAPSHOT_LINE_MAX
 * bytes (at a UTF-8 boundary; "cut_from_bytes" then gives its length) and the context to
 * SNAPSHOT_CONTEXT_MAX lines each side, so `map --all` on a hostile copy stays small. */
#define SNAPSHOT_LINE_MAX    512
#define SNAPSHOT_CONTEXT_MAX 50

/* A source snippet of lines [line-context, line+context] of the entry's copy:
 * {"file": original path, "local": copy name, "line": LINE,
 *  "lines": [{"n": 17, "text": "...", "hot": false}, ...]}; NULL when the copy cannot be read
 * or the file has fewer than `line` lines. Loads and caches the copy. */
jv *snapshots_snippet(snapshots *s, const snapshot_entry *ent, int64_t line, int context);

#endif
