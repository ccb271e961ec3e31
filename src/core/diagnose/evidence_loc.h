/* Where a recommendation should point: the actionable .py:line of a bubble class, with the
 * kernel-entry artifact and library frames taken into account (docs/facts-flydsl.md#entry-bucket).
 *
 * FlyDSL gives the kernel prologue, compiler-generated code, ops without a user location and
 * many backend-inserted s_waitcnt the kernel's entry line (the @flyc.kernel decorator / def
 * line). srcmap_build flags such lines as entry buckets (srcmap.h; `map` shows them). FlyDSL
 * also skips frames inside its own package, but a few still appear (a wrapper's line such as
 * python_packages/flydsl/expr/rocdl/universal.py:144); Triton's triton/language/ the same.
 * Such a "library frame" is a line the kernel author cannot edit. Both are handled by one
 * mechanism with two reasons (evloc_kind): a hot instruction there is real stall, but the
 * line is not what to edit, so:
 *   - a wait whose producers (the loads/stores it waits on, the profile's waits[].producers,
 *     bubbles.waits[].producers in the file) have
 *     ordinary lines: the actionable line is the producer's (loads before stores, then the
 *     order of the producers list); the bucket line stays as secondary;
 *   - otherwise the hottest instruction of the same class that is on an ordinary line (not
 *     a bucket, not a library frame): from the whole trace when the caller had it
 * (evloc_scan_trace), else from the class's top list (bubbles.classes[].top);
 *   - otherwise there is no attributable line, and none_reason says so honestly.
 *
 * The bucket object `eb` is report.json "entry_buckets": {"lines": [{"file": F, "line": L,
 * ...}], "hottest_off_bucket": {class: {code_line, isa, source, stall}} or null}; a source string
 * is on a bucket when its innermost frame (what the line table records) is F:L.
 * Nothing here fails; absent inputs mean "no bucket". */
#ifndef FLYPROF_CORE_EVIDENCE_LOC_H
#define FLYPROF_CORE_EVIDENCE_LOC_H

#include "base/json/jv.h"
#include "model/profile.h"
#include "model/trace.h"

typedef enum {
	EVLOC_NONE,	     /* no source line */
	EVLOC_LINE,	     /* an ordinary line: the one to act on */
	EVLOC_ENTRY_BUCKET,  /* innermost frame is a kernel-entry bucket line of eb */
	EVLOC_LIBRARY_FRAME, /* innermost frame is inside FlyDSL's or Triton's own package */
} evloc_kind;

/* 1 when path[0..n) has a "python_packages/flydsl/" or "site-packages/flydsl/" pair of whole
 * components (FlyDSL's installed package), or "triton/language/" (Triton's own library). */
int evloc_library_path(const char *path, size_t n);
/* "none", "line", "entry_bucket", "library_frame": the JSON "source_kind" of k. */
const char *evloc_kind_name(evloc_kind k);
/* Prose for a "source_kind" value ("the kernel-entry bucket", "a library frame", ...), or NULL
 * for an unknown one. */
const char *evloc_kind_text(const char *source_kind);

/* Builds the bucket object from a classified trace (bubbles_compute sets insts[].klass): the
 * lines srcmap flags as entry buckets (innermost frame credited, like the line table) and, per
 * class, the hottest instruction on an ordinary line (EVLOC_LINE). Owned by the caller. */
jv *evloc_scan_trace(const trace_dispatch *d);
/* The bucket object read for lookups: its bucket lines as a sorted table (a source's
 * innermost frame is found by binary search) and its hottest_off_bucket object (NULL when the
 * trace was not searched). Borrows from eb, which must outlive it. */
typedef struct evloc_bucket_key {
	const char *file; /* borrowed */
	size_t len;
	int64_t line;
} evloc_bucket_key;
typedef struct evloc_buckets {
	evloc_bucket_key *keys; /* sorted by file, then line (owned) */
	size_t n;
	const jv *hottest;
} evloc_buckets;
void evloc_buckets_read(const jv *eb, evloc_buckets *b);
void evloc_buckets_release(evloc_buckets *b);
/* The kind of a source string (its innermost frame) against the buckets b (NULL: none). */
evloc_kind evloc_kind_in(const evloc_buckets *b, const char *source);

/* An instruction a location quotes (strings borrowed from the profile or the bucket
 * object). */
typedef struct evloc_entry {
	const char *source, *isa;
	int64_t code_line;
	int64_t stall; /* when has_stall: a wait producer carries none */
	int has_stall;
} evloc_entry;

/* Where a class's hot instruction points: the typed result of evloc_locate. Pointers are
 * borrowed from the profile and the bucket object, which must outlive it. */
typedef struct evloc_where {
	evloc_kind kind;       /* of the hot instruction's line */
	const char *source;    /* the hot instruction's source, or NULL */
	const prof_wait *wait; /* the profile's (listed) wait of the hot instruction, or NULL */
	/* A bucket or library line: the instruction whose line to act on (a producer of the hot
	 * wait, or another instruction of the class), when has_actionable. */
	int has_actionable;
	evloc_entry actionable;
	const char *via;	   /* "wait_producer", "class_hotspot_off_bucket" or
				      "class_hotspot_user_line" (static) */
	char basis[256];	   /* why that line */
	double pct_of_class_stall; /* the actionable instruction's share of the class's stall;
				      -1 for a wait producer or none */
	int unattributable;	   /* a bucket or library line and no actionable entry: evloc_write
				      says why in "none_reason" */
	/* what that reason quotes: how many instructions the class's top list holds, whether
	 * that is all of the class's instructions, and the bucket object */
	size_t listed;
	int all_listed;
	const evloc_buckets *eb;
} evloc_where;

/* Resolves the location of class klass of the profile (a listed class with a top list) from
 * its hottest instruction (top[0]) by the rules above: the wait of that instruction among the
 * profile's listed waits, its producers, the class's top list or the bucket object's scan. */
void evloc_locate(const stall_profile *p, int klass, const evloc_buckets *eb, evloc_where *w);
/* The line to act on: the hot line when it is an ordinary one, else the actionable entry's
 * source; NULL when there is none. */
const char *evloc_actionable_source(const evloc_where *w);
/* Writes a location as JSON: into the hotspot object h "source_kind" ("line", "entry_bucket",
 * "library_frame" or "none") and, for a bucket or library frame, "source_note"; into the
 * evidence object ev "actionable_source" (string or null), "actionable" ({source, code_line,
 * isa, [stall,] via, basis[, pct_of_class_stall]} or null), "secondary_source" (the bucket or
 * library line, whenever the hot line is one) and, when nothing is attributable,
 * "none_reason". */
void evloc_write(const evloc_where *w, jv *ev, jv *h);

#endif
