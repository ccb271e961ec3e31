/* Flame-graph exports of weighted stacks:
 *   - folded stacks (Brendan Gregg's flamegraph.pl / inferno / speedscope import):
 *     one line per distinct stack, "root;child;leaf WEIGHT", identical stacks merged, lines in
 *     byte order, zero weights left out. ';' and line breaks inside a frame name become '_'.
 *   - speedscope JSON (https://www.speedscope.app/file-format-schema.json): one "sampled"
 *     profile whose samples are stacks of indices into shared.frames, with one weight each.
 *
 * Ownership: a flame owns copies of every frame name and its samples; flame_release frees
 * them. Nothing here fails (allocation failure stops the process, see xalloc.h). */
#ifndef FLYPROF_OUT_FLAME_H
#define FLYPROF_OUT_FLAME_H

#include "base/json/jv.h"
#include "base/strbuf.h"

#include <stddef.h>
#include <stdint.h>

typedef struct flame_frame {
	const char *name; /* shown name (required) */
	const char *file; /* optional source file (speedscope "file"), NULL if none */
	int64_t line;	  /* optional source line (speedscope "line"), 0 if none */
} flame_frame;

typedef struct flame {
	char *name; /* profile name */
	char *unit; /* speedscope unit: "none", "nanoseconds", ... (cycles are "none") */
	struct flame_fr {
		char *name, *file;
		int64_t line;
	} * frames;
	size_t n_frames, cap_frames;
	size_t **stacks; /* per sample: frame indices, root first */
	size_t *depth;
	int64_t *weights;
	size_t n_samples, cap_samples;
} flame;

void flame_init(flame *f, const char *name, const char *unit);
void flame_release(flame *f);
/* Adds one sample: frames[0] is the root, frames[n-1] the leaf. Negative weights count 0. */
void flame_add(flame *f, const flame_frame *frames, size_t n, int64_t weight);
/* Sum of all weights. */
int64_t flame_total(const flame *f);
/* Appends the folded-stack text. */
void flame_folded(const flame *f, strbuf *out);
/* The speedscope document (owned by the caller). `exporter` names the producing tool. */
jv *flame_speedscope(const flame *f, const char *exporter);

#endif
