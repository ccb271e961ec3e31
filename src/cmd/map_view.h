/* The data objects of `map` built from a dispatch (docs/map.md describes every field):
 * mapped shares, unmapped instructions, entry buckets, hotspots with snippets, per-line,
 * per-file and per-call-site roll-ups, and the answers to --code-line / --source-line.
 * Functions add keys to `data`; lists are cut to --top unless --all (ctx_truncated says so).
 * Borrowed: d, snaps (its file cache is filled as snippets are read). */
#ifndef FLYPROF_CMD_MAP_VIEW_H
#define FLYPROF_CMD_MAP_VIEW_H

#include "cmd/command.h"
#include "core/analysis/srcmap.h"
#include "model/classes.h"
#include "model/trace.h"
#include "read/amd/snapshots.h"

typedef struct map_view {
	cmd_ctx *ctx;
	vendor_id vendor; /* of the class ids in d->insts[].klass */
	const trace_dispatch *d;
	snapshots *snaps;
	srcmap_summary leaf; /* roll-up crediting the innermost frame */
	size_t top;	     /* list length (SIZE_MAX with --all) */
	int context;	     /* snippet lines around the hot line */
} map_view;

/* Builds the leaf roll-up; release with map_view_release. */
void map_view_init(map_view *v, cmd_ctx *ctx, vendor_id vendor, const trace_dispatch *d,
		   snapshots *snaps);
void map_view_release(map_view *v);

/* Default view: "totals", "mapped", "unmapped", "entry_buckets", "hotspots", "lines",
 * "files", and "call_sites" when some sources are inline chains. */
void map_view_summary(map_view *v, jv *data);
/* --code-line N: "query", "matches" (one entry). NO_MATCH when no instruction has that code
 * line. 0 or -1 with ctx->err set. */
int map_view_code_line(map_view *v, int64_t code_line, jv *data);
/* --source-line FILE:LINE: "query", "totals" of the matched instructions, "snippet",
 * "matches". BAD_ARGS for a malformed query, NO_MATCH (with the hottest lines as available)
 * when nothing matches. */
int map_view_source_line(map_view *v, const char *query, jv *data);

/* Native class name of an instruction: its klass as the stall analysis set it (the class it has
 * in bubbles.json), by the vendor's class table. */
const char *map_view_class(vendor_id vendor, const trace_inst *in);

#endif
