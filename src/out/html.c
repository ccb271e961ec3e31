#include "out/html.h"

#include <string.h>

void html_escn(strbuf *out, const char *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		switch (s[i]) {
		case '&':
			sb_adds(out, "&amp;");
			break;
		case '<':
			sb_adds(out, "&lt;");
			break;
		case '>':
			sb_adds(out, "&gt;");
			break;
		case '"':
			sb_adds(out, "&quot;");
			break;
		case '\'':
			sb_adds(out, "&#39;");
			break;
		default:
			sb_addc(out, s[i]);
		}
	}
}

void html_esc(strbuf *out, const char *s)
{
	if (s)
		html_escn(out, s, strlen(s));
}

void html_text(strbuf *out, const char *before, const char *s, const char *after)
{
	sb_adds(out, before);
	html_esc(out, s);
	sb_adds(out, after);
}

const char *html_class_color(const char *klass)
{
	/* memory-ish classes warm, sync violet, compute cool, the rest grey-blue */
	static const struct {
		const char *prefix;
		const char *color;
	} map[] = {
	    {"vmem", "#d9534f"},
	    {"long_scoreboard", "#d9534f"},
	    {"lg_", "#e07b39"},
	    {"lds", "#e08e0b"},
	    {"short_scoreboard", "#e08e0b"},
	    {"mio", "#e08e0b"},
	    {"smem", "#c9a227"},
	    {"imc", "#c9a227"},
	    {"barrier", "#8e44ad"},
	    {"membar", "#8e44ad"},
	    {"valu", "#2e86c1"},
	    {"math", "#2e86c1"},
	    {"mfma", "#17a589"},
	    {"mma", "#17a589"},
	    {"tex", "#a04000"},
	    {"salu", "#5dade2"},
	    {"branch", "#7f8c8d"},
	    {"wait", "#95a5a6"},
	    {"not_selected", "#48c9b0"},
	    {"selected", "#52be80"},
	    {"drain", "#b3b6b7"},
	};
	for (size_t i = 0; klass && i < sizeof map / sizeof map[0]; i++)
		if (strncmp(klass, map[i].prefix, strlen(map[i].prefix)) == 0)
			return map[i].color;
	return "#85929e";
}
