#include "out/roofline_svg.h"

#include "out/html.h"

#include <math.h>
#include <string.h>

#define RW	      640.0 /* plot area */
#define RH	      360.0
#define RX	      70.0 /* left margin (y labels) */
#define RY	      30.0 /* top margin (title) */
#define NEAR_ROOF_PCT 70.0 /* the near-roof threshold the report's verdict uses */

static void head(strbuf *out, const char *kernel, const char *title, double h)
{
	sb_addf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>"
		"<text x=\"%.0f\" y=\"18\" font-size=\"13\" font-weight=\"bold\">",
		RX + RW + 30, h, RX + RW + 30, h, RX);
	html_esc(out, kernel);
	sb_adds(out, ": ");
	html_esc(out, title);
	sb_adds(out, "</text>");
}

/* x = log10 position in [lo, hi] decades. */
static double lx(double v, double lo, double hi)
{
	return RX + RW * (log10(v) - lo) / (hi - lo);
}

static double ly(double v, double lo, double hi)
{
	return RY + RH - RH * (log10(v) - lo) / (hi - lo);
}

static int classical(const jv *r, const char *kernel, const char *kind, strbuf *out)
{
	double ai = jv_num(jv_get(r, "arithmetic_intensity"));
	double peak = jv_num(jv_get(r, "peak_flops"));
	double got = jv_num(jv_get(r, "achieved_flops"));
	double bw = jv_num(jv_get(r, "hbm_peak_tbps")) * 1e12;
	double ridge = peak / bw;
	double x0 = floor(log10(fmin(ai, ridge))) - 1, x1 = ceil(log10(fmax(ai, ridge))) + 1;
	double y1 = ceil(log10(peak)) + 0.3,
	       y0 = fmin(y1 - 4, floor(log10(got > 0 ? got : peak)) - 1);
	head(out, kernel, "roofline", RY + RH + 60);
	for (double d = x0; d <= x1; d++)
		sb_addf(out,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#eee\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">1e%.0f</text>",
			lx(pow(10, d), x0, x1), lx(pow(10, d), x0, x1), RY, RY + RH,
			lx(pow(10, d), x0, x1), RY + RH + 14, d);
	for (double d = ceil(y0); d <= y1; d++)
		sb_addf(out,
			"<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
			"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>",
			RX, RX + RW, ly(pow(10, d), y0, y1), ly(pow(10, d), y0, y1), RX - 4,
			ly(pow(10, d), y0, y1) + 4, d);
	/* memory roof from the left edge to the ridge, compute roof after it */
	double xa = pow(10, x0);
	sb_addf(out,
		"<polyline fill=\"none\" stroke=\"#1b1f24\" stroke-width=\"2\" "
		"points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
		lx(xa, x0, x1), ly(xa * bw, y0, y1), lx(ridge, x0, x1), ly(peak, y0, y1), RX + RW,
		ly(peak, y0, y1));
	sb_addf(out,
		"<text x=\"%.1f\" y=\"%.1f\">compute roof %.1f TFLOP/s</text>"
		"<text x=\"%.1f\" y=\"%.1f\" fill=\"#5b6470\">ridge %.1f FLOP/B</text>",
		lx(ridge, x0, x1) + 6, ly(peak, y0, y1) - 6, peak / 1e12, lx(ridge, x0, x1) + 6,
		ly(peak, y0, y1) + 14, ridge);
	sb_addf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#5b6470\">HBM roof %.2f TB/s</text>",
		lx(xa, x0, x1) + 6, ly(xa * bw, y0, y1) - 6, bw / 1e12);
	if (got > 0 && ai > 0)
		sb_addf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#d9534f\"><title>achieved "
			"%.2f TFLOP/s at %.2f FLOP/B</title></circle>"
			"<text x=\"%.1f\" y=\"%.1f\" fill=\"#d9534f\">%.2f TFLOP/s, %.1f%% of "
			"attainable</text>",
			lx(ai, x0, x1), ly(got, y0, y1), got / 1e12, ai, lx(ai, x0, x1) + 9,
			ly(got, y0, y1) + 4, got / 1e12,
			jv_num(jv_get(r, "pct_of_attainable_flops")));
	sb_addf(out,
		"<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">arithmetic intensity "
		"(FLOP/byte)</text><text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\" "
		"text-anchor=\"middle\">FLOP/s</text><text x=\"%.0f\" y=\"%.0f\" "
		"fill=\"#5b6470\">%s</text></svg>\n",
		RX + RW / 2, RY + RH + 30, RY + RH / 2, RY + RH / 2, RX, RY + RH + 50, kind);
	return 0;
}

/* No FLOPs: achieved bandwidth against the HBM roof. */
static int bandwidth(const jv *r, const char *kernel, const char *kind, strbuf *out)
{
	double got = jv_num(jv_get(r, "achieved_tbps")), peak = jv_num(jv_get(r, "hbm_peak_tbps"));
	double top = fmax(got, peak) * 1.15, bar = 60;
	head(out, kernel, "bandwidth against the HBM roof (no matrix FLOPs)", RY + 2 * bar + 110);
	double near = peak * NEAR_ROOF_PCT / 100;
	sb_addf(out,
		"<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"#d5d8dc\"/>"
		"<text x=\"%.0f\" y=\"%.0f\">HBM peak %.2f TB/s</text>",
		RX, RY + 10, RW * peak / top, bar, RX + 6, RY + 10 + bar / 2 + 4, peak);
	sb_addf(
	    out,
	    "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"#d9534f\"/>"
	    "<text x=\"%.0f\" y=\"%.0f\" fill=\"#fff\">achieved %.2f TB/s = %.1f%% of peak</text>",
	    RX, RY + 20 + bar, RW * got / top, bar, RX + 6, RY + 20 + 1.5 * bar + 4, got,
	    jv_num(jv_get(r, "pct_of_hbm_peak")));
	sb_addf(out,
		"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#1b1f24\" "
		"stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
		"near the roof from %.0f%%</text>",
		RX + RW * near / top, RX + RW * near / top, RY + 4, RY + 26 + 2 * bar,
		RX + RW * near / top, RY + 42 + 2 * bar, NEAR_ROOF_PCT);
	const char *v = jv_string(jv_get(r, "verdict"));
	sb_addf(out, "<text x=\"%.0f\" y=\"%.0f\">verdict: ", RX, RY + 62 + 2 * bar);
	html_esc(out, v ? v : "-");
	sb_addf(out, "</text><text x=\"%.0f\" y=\"%.0f\" fill=\"#5b6470\">%s</text></svg>\n", RX,
		RY + 80 + 2 * bar, kind);
	return 0;
}

int roofline_svg(const jv *roofline, const char *kernel, strbuf *out)
{
	if (jv_type_of(roofline) != JV_OBJECT)
		return -1;
	double got = jv_num(jv_get(roofline, "achieved_tbps"));
	double peak = jv_num(jv_get(roofline, "hbm_peak_tbps"));
	if (!(got > 0) || !(peak > 0))
		return -1;
	const char *k = jv_string(jv_get(roofline, "kind"));
	const char *kind =
	    k && strcmp(k, "estimate") == 0
		? "estimate from the trace: bytes and FLOPs of the ISA x waves over the "
		  "kernel-trace duration"
	    : k ? k
		: "";
	if (!kernel)
		kernel = "kernel";
	if (jv_num(jv_get(roofline, "arithmetic_intensity")) > 0 &&
	    jv_num(jv_get(roofline, "peak_flops")) > 0)
		return classical(roofline, kernel, kind, out);
	return bandwidth(roofline, kernel, kind, out);
}
