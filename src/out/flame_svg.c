#include "out/flame_svg.h"

#include "base/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH  1200.0
#define ROW    17.0
#define PAD    10.0
#define TOP    44.0
#define MIN_PX 0.3

typedef struct node {
	size_t frame;
	int64_t weight;
	size_t *kids;
	size_t n_kids;
} node;

typedef struct tree {
	node *v;
	size_t n, cap;
	size_t depth;
} tree;

static size_t new_node(tree *t, size_t frame)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	t->v[t->n] = (node){frame, 0, NULL, 0};
	return t->n++;
}

static size_t child(tree *t, size_t parent, size_t frame)
{
	for (size_t i = 0; i < t->v[parent].n_kids; i++)
		if (t->v[t->v[parent].kids[i]].frame == frame)
			return t->v[parent].kids[i];
	size_t c = new_node(t, frame);
	node *p = &t->v[parent];
	p->kids = xreallocarray(p->kids, p->n_kids + 1, sizeof *p->kids);
	p->kids[p->n_kids++] = c;
	return c;
}

static const flame *sort_flame; /* qsort has no context argument */
static const tree *sort_tree;

static int by_name(const void *a, const void *b)
{
	const node *x = &sort_tree->v[*(const size_t *)a], *y = &sort_tree->v[*(const size_t *)b];
	return strcmp(sort_flame->frames[x->frame].name, sort_flame->frames[y->frame].name);
}

static void build(const flame *f, tree *t)
{
	new_node(t, (size_t)-1); /* the root: all samples */
	for (size_t s = 0; s < f->n_samples; s++) {
		int64_t w = f->weights[s] > 0 ? f->weights[s] : 0;
		size_t at = 0;
		t->v[0].weight += w;
		for (size_t d = 0; d < f->depth[s]; d++) {
			at = child(t, at, f->stacks[s][d]);
			t->v[at].weight += w;
		}
		if (f->depth[s] > t->depth)
			t->depth = f->depth[s];
	}
	sort_flame = f;
	sort_tree = t;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].n_kids > 1) /* leaves have no array: qsort(NULL, 0) is undefined */
			qsort(t->v[i].kids, t->v[i].n_kids, sizeof(size_t), by_name);
}

static void xml_text(strbuf *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			sb_adds(o, "&lt;");
			break;
		case '>':
			sb_adds(o, "&gt;");
			break;
		case '&':
			sb_adds(o, "&amp;");
			break;
		case '"':
			sb_adds(o, "&quot;");
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				sb_addc(o, *s);
		}
	}
}

/* Stable warm colours from the name (flamegraph convention), blue for the stall classes so the
 * class leaf stands out from the source frames. */
static void colour(strbuf *o, const char *name, int leaf)
{
	unsigned h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	if (leaf)
		sb_addf(o, "rgb(%u,%u,%u)", 90 + h % 50, 140 + (h >> 8) % 60, 200 + (h >> 16) % 50);
	else
		sb_addf(o, "rgb(%u,%u,%u)", 205 + h % 50, 90 + (h >> 8) % 120, 40 + (h >> 16) % 40);
}

typedef struct draw {
	const flame *f;
	const tree *t;
	const char *unit;
	double height, scale;
	size_t hidden;
	strbuf *o;
} draw;

static void frame_rect(draw *d, size_t id, double x, size_t level)
{
	const node *n = &d->t->v[id];
	double w = (double)n->weight * d->scale;
	if (w < MIN_PX) {
		d->hidden++;
		return;
	}
	const char *name = id == 0 ? "all" : d->f->frames[n->frame].name;
	double y = d->height - 26 - ROW * (double)(level + 1);
	double pct = d->t->v[0].weight ? 100.0 * (double)n->weight / (double)d->t->v[0].weight : 0;
	sb_adds(d->o, "<g><title>");
	xml_text(d->o, name);
	sb_addf(d->o,
		" (%" PRId64 " %s, %.2f%% of all)</title><rect x=\"%.2f\" y=\"%.1f\" "
		"width=\"%.2f\" height=\"%.1f\" rx=\"2\" fill=\"",
		n->weight, d->unit, pct, x, y, w, ROW - 1);
	colour(d->o, name, n->n_kids == 0 && id != 0);
	sb_adds(d->o, "\"/>");
	size_t fit = (size_t)((w - 6) / 7.0); /* ~7 px per character at 12 px monospace */
	if (fit >= 3) {
		sb_addf(d->o, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + ROW - 5);
		size_t len = strlen(name);
		if (len <= fit) {
			xml_text(d->o, name);
		} else {
			char *cut = xstrndup(name, fit - 2);
			xml_text(d->o, cut);
			sb_adds(d->o, "..");
			free(cut);
		}
		sb_adds(d->o, "</text>");
	}
	sb_adds(d->o, "</g>\n");
	for (size_t i = 0; i < n->n_kids; i++) {
		frame_rect(d, n->kids[i], x, level + 1);
		x += (double)d->t->v[n->kids[i]].weight * d->scale;
	}
}

void flame_svg(const flame *f, const char *title, const char *unit, strbuf *o)
{
	tree t = {NULL, 0, 0, 0};
	build(f, &t);
	draw d = {f, &t, unit, TOP + PAD + ROW * (double)(t.depth + 1) + 20, 0, 0, o};
	d.scale = t.v[0].weight > 0 ? (WIDTH - 2 * PAD) / (double)t.v[0].weight : 0;
	sb_addf(
	    o,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
	    "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fbfbf8\"/>\n"
	    "<text x=\"%.0f\" y=\"22\" font-size=\"16\" font-weight=\"bold\">",
	    WIDTH, d.height, WIDTH, d.height, PAD);
	xml_text(o, title);
	sb_addf(o,
		"</text>\n<text x=\"%.0f\" y=\"38\" fill=\"#555\">width = share of %" PRId64 " %s; "
		"hover a frame for its weight</text>\n",
		PAD, t.v[0].weight, unit);
	if (t.v[0].weight > 0)
		frame_rect(&d, 0, PAD, 0);
	if (d.hidden)
		sb_addf(
		    o,
		    "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">%zu frame(s) narrower than %.1f px "
		    "not drawn</text>\n",
		    PAD, d.height - 8, d.hidden, MIN_PX);
	sb_adds(o, "</svg>\n");
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].kids);
	free(t.v);
}
