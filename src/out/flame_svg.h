/* A flame graph drawn by flyprof as one self-contained SVG (no script, no network): the stacks
 * of a flame merged into a tree, the root at the bottom, each frame as wide as its share of the
 * total weight, children in name order, a tooltip (<title>) per frame with its weight and its
 * share of the total. Frames narrower than MIN_PX are left out and counted in a note. */
#ifndef FLYPROF_OUT_FLAME_SVG_H
#define FLYPROF_OUT_FLAME_SVG_H

#include "base/strbuf.h"
#include "out/flame.h"

/* Appends the SVG. `title` heads the picture; `unit` names the weight ("stall cycles"). */
void flame_svg(const flame *f, const char *title, const char *unit, strbuf *out);

#endif
