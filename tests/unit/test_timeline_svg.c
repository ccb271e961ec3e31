/* REPORT.html's timeline picture: each column of a row takes the state holding most of its
 * pixel (at least a quarter of it), runs of a state become one rect. The segments below cover
 * both ways a segment is spread: inside one column, and across several. */
#include "t.h"

#include "base/xalloc.h"
#include "core/amd/wave_timeline.h"
#include "out/timeline_svg.h"

#include <stdlib.h>

static void add(wave_timeline *t, const char *name, size_t rank, const att_wave_state *rows,
		size_t n)
{
	att_wave w;
	att_wave_init(&w);
	w.begin = 0;
	w.end = 5500; /* the span: 1100 px / 5500 cycles, 0.2 px a cycle */
	w.cu = 3;
	w.timeline = xcalloc(n, sizeof *w.timeline);
	memcpy(w.timeline, rows, n * sizeof *rows);
	w.n_timeline = w.cap_timeline = n;
	CHECK_INT(wave_timeline_add(t, name, rank, &w), 1);
	att_wave_release(&w);
}

TEST(timeline_svg_columns_take_the_state_holding_most)
{
	wave_timeline t;
	memset(&t, 0, sizeof t);
	/* slot 0: column 0 holds exec 0.6, stall 0.2, wait 0.2 px; wait runs on over column 1
	 * (a segment over two columns); idle fills the rest */
	static const att_wave_state a[] = {{2, 3}, {4, 1}, {3, 6}, {1, 5490}};
	/* slot 1: exec 0.2 px alone would stay empty (under a quarter pixel); stall 2 px from
	 * 0.2 takes column 0 (0.8 against 0.2), column 1, and leaves 0.2 px in column 2: empty */
	static const att_wave_state b[] = {{2, 1}, {4, 10}};
	add(&t, "se0_sm0_sl0_wv0.json", 0, a, 4);
	add(&t, "se0_sm0_sl1_wv0.json", 1, b, 2);
	strbuf sb = STRBUF_INIT;
	timeline_svg(&t, &sb);
	CHECK(sb.buf && strstr(sb.buf, "2 waves on 2 slots, 5500 cycles"));
	static const char *const want[] = {
	    "<path fill=\"#bdc3c7\" d=\"M82 30h1098v8h-1098z\"/>", /* idle, row 0 */
	    "<path fill=\"#52be80\" d=\"M80 30h1v8h-1z\"/>",	   /* exec */
	    "<path fill=\"#f4d03f\" d=\"M81 30h1v8h-1z\"/>",	   /* wait */
	    "<path fill=\"#d9534f\" d=\"M80 40h2v8h-2z\"/>",	   /* stall, row 1 */
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!sb.buf || !strstr(sb.buf, want[i]))
			t_fail(__FILE__, __LINE__, "missing %s", want[i]);
	/* four paths in all: no stall in row 0, no exec in row 1 */
	size_t paths = 0;
	for (const char *p = sb.buf; p && (p = strstr(p, "<path ")); p++)
		paths++;
	CHECK_INT(paths, 4);
	sb_release(&sb);
	wave_timeline_release(&t);
}
