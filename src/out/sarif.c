/* SARIF 2.1.0 writer (sarif.h). */
#include "out/sarif.h"

#include "base/strbuf.h"
#include "base/version.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

int sarif_split_source(const char *source, char **path, long *line)
{
	*path = NULL;
	*line = 0;
	if (!source || !*source)
		return -1;
	const char *end = strstr(source, " -> ");
	size_t n = end ? (size_t)(end - source) : strlen(source);
	const char *colon = NULL;
	for (size_t i = 0; i < n; i++)
		if (source[i] == ':')
			colon = source + i;
	if (!colon || colon == source || colon + 1 >= source + n)
		return -1;
	char *stop = NULL;
	long l = strtol(colon + 1, &stop, 10);
	if (stop != source + n || l <= 0)
		return -1;
	*path = xstrndup(source, (size_t)(colon - source));
	*line = l;
	return 0;
}

static const char *level_of(const jv *rec)
{
	const char *c = jv_string(jv_get(rec, "confidence"));
	return c && strcmp(c, "low") == 0 ? "note" : "warning";
}

static jv *descriptor(const jv *rec)
{
	jv *d = jv_object();
	jv_set(d, "id", jv_copy(jv_get(rec, "rule")));
	jv_set(d, "name", jv_copy(jv_get(rec, "rule")));
	const char *lang = jv_string(jv_get(jv_get(rec, "knob"), "language"));
	const char *title = !lang || strcmp(lang, "flydsl") == 0 ? "FlyDSL"
			    : strcmp(lang, "triton") == 0	 ? "Triton"
								 : "CUDA";
	jv_set(jv_set(d, "shortDescription", jv_object()), "text",
	       jv_strf("%s bubble -> %s knob %s", jv_string(jv_get(rec, "class")), title,
		       jv_string(jv_get(jv_get(rec, "knob"), "id"))));
	jv_set(jv_set(d, "fullDescription", jv_object()), "text", jv_copy(jv_get(rec, "change")));
	jv_set(jv_set(d, "help", jv_object()), "text",
	       jv_strf("%s Knob: %s", jv_string(jv_get(rec, "expected")),
		       jv_string(jv_get(jv_get(rec, "knob"), "api"))));
	jv_set_str(jv_set(d, "defaultConfiguration", jv_object()), "level", level_of(rec));
	return d;
}

/* A physical location: the path relative to SRCROOT when it lies under it (uriBaseId), else
 * as given; the region with the line's text as its snippet when the capture has it. */
static jv *location(const sarif_opts *o, const char *path, long line)
{
	jv *loc = jv_object();
	jv *pl = jv_set(loc, "physicalLocation", jv_object());
	jv *al = jv_set(pl, "artifactLocation", jv_object());
	size_t rl = o && o->root ? strlen(o->root) : 0;
	if (rl && strncmp(path, o->root, rl) == 0 && path[rl] == '/') {
		jv_set_str(al, "uri", path + rl + 1);
		jv_set_str(al, "uriBaseId", "SRCROOT");
	} else {
		jv_set(al, "uri", path[0] == '/' ? jv_strf("file://%s", path) : jv_str(path));
	}
	jv *rg = jv_set(pl, "region", jv_object());
	jv_set_int(rg, "startLine", line);
	const char *text = o ? jv_string(jv_at(jv_get(o->texts, path), (size_t)(line - 1))) : NULL;
	if (text)
		jv_set_str(jv_set(rg, "snippet", jv_object()), "text", text);
	return loc;
}

/* Whole-kernel findings (occupancy, grid, roofline) have no line: the kernel itself. */
static jv *kernel_location(const char *kernel)
{
	jv *loc = jv_object();
	jv *ll = jv_push(jv_set(loc, "logicalLocations", jv_array()), jv_object());
	jv_set_str(ll, "name", kernel ? kernel : "kernel");
	jv_set_str(ll, "kind", "function");
	return loc;
}

static const char *str_or(const jv *v, const char *dflt)
{
	return jv_string(v) ? jv_string(v) : dflt;
}

/* "<class>: <signal> = <value>; hot `<isa>`; upper bound X% of <denominator>. Knob <api>:
 * <change>" */
static jv *message(const jv *rec)
{
	const jv *ev = jv_get(rec, "evidence");
	const jv *hs = jv_get(ev, "hotspot");
	const jv *g = jv_get(rec, "gain");
	const jv *val = jv_get(ev, "value");
	strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s: %s = ", str_or(jv_get(rec, "class"), "?"),
		str_or(jv_get(ev, "signal"), "?"));
	if (jv_string(val))
		sb_adds(&sb, jv_string(val));
	else
		sb_addf(&sb, "%g", jv_num(val));
	if (jv_type_of(hs) == JV_OBJECT)
		sb_addf(&sb, "; hot `%s`", str_or(jv_get(hs, "isa"), "?"));
	sb_addf(&sb, "; upper bound %.1f%% of %s. Knob %s: %s",
		jv_num(jv_get(g, "upper_bound_pct")), str_or(jv_get(g, "denominator"), "?"),
		str_or(jv_get(jv_get(rec, "knob"), "api"), "?"), str_or(jv_get(rec, "change"), ""));
	jv *out = jv_str(sb_str(&sb));
	sb_release(&sb);
	return out;
}

static jv *result(const jv *rec, const sarif_opts *o, const char *kernel)
{
	const jv *ev = jv_get(rec, "evidence");
	const jv *hs = jv_get(ev, "hotspot");
	const jv *g = jv_get(rec, "gain");
	/* the line to act on (evidence_loc.h): on a kernel-entry bucket or a library frame that is
	 * not the hot instruction's own line; older reports without the field fall back to it */
	const jv *act = jv_get(ev, "actionable_source");
	const char *src = act ? jv_string(act) : jv_string(jv_get(hs, "source"));
	jv *r = jv_object();
	jv_set(r, "ruleId", jv_copy(jv_get(rec, "rule")));
	jv_set_str(r, "level", level_of(rec));
	jv_set(jv_set(r, "message", jv_object()), "text", message(rec));
	char *path = NULL;
	long line = 0;
	jv *props = jv_object();
	if (sarif_split_source(src, &path, &line) == 0) {
		jv_push(jv_set(r, "locations", jv_array()), location(o, path, line));
		jv_set(jv_set(r, "partialFingerprints", jv_object()), "flyprofRuleLine/v1",
		       jv_strf("%s:%s:%ld", jv_string(jv_get(rec, "rule")), path, line));
	} else {
		jv_push(jv_set(r, "locations", jv_array()), kernel_location(kernel));
		jv_set(props, "no_location_reason",
		       jv_string(jv_get(ev, "none_reason")) ? jv_copy(jv_get(ev, "none_reason"))
							    : jv_str("no source line"));
	}
	free(path);
	jv_set(props, "rank", jv_copy(jv_get(rec, "rank")));
	jv_set(props, "class", jv_copy(jv_get(rec, "class")));
	jv_set(props, "gain_upper_bound_pct_of_latency", jv_copy(jv_get(g, "upper_bound_pct")));
	jv_set(props, "gain_kind", jv_copy(jv_get(g, "kind")));
	jv_set(props, "confidence", jv_copy(jv_get(rec, "confidence")));
	if (jv_type_of(hs) == JV_OBJECT) {
		jv_set(props, "isa", jv_copy(jv_get(hs, "isa")));
		jv_set(props, "code_line", jv_copy(jv_get(hs, "code_line")));
		const char *kind = jv_string(jv_get(hs, "source_kind"));
		if (kind && strcmp(kind, "entry_bucket") == 0) {
			jv_set(props, "entry_bucket_source", jv_copy(jv_get(hs, "source")));
			jv_set(props, "entry_bucket_note", jv_copy(jv_get(hs, "source_note")));
		} else if (kind && strcmp(kind, "library_frame") == 0) {
			jv_set(props, "library_frame_source", jv_copy(jv_get(hs, "source")));
			jv_set(props, "library_frame_note", jv_copy(jv_get(hs, "source_note")));
		}
		if (jv_get(jv_get(ev, "actionable"), "via"))
			jv_set(props, "location_basis",
			       jv_copy(jv_get(jv_get(ev, "actionable"), "basis")));
	}
	jv_set(r, "properties", props);
	return r;
}

/* The directory SRCROOT stands for: o->root when every located file lies under it, else the
 * deepest directory all located absolute paths share; NULL when there is none. Owned. */
static char *common_root(const jv *recs, const char *want)
{
	char *root = want ? xstrdup(want) : NULL;
	size_t n = root ? strlen(root) : 0;
	while (n > 1 && root[n - 1] == '/')
		root[--n] = '\0';
	int first = !root;
	for (size_t i = 0; i < jv_len(recs); i++) {
		const jv *ev = jv_get(jv_at(recs, i), "evidence");
		const jv *act = jv_get(ev, "actionable_source");
		const char *src =
		    act ? jv_string(act) : jv_string(jv_get(jv_get(ev, "hotspot"), "source"));
		char *path = NULL;
		long line = 0;
		if (sarif_split_source(src, &path, &line) || path[0] != '/') {
			free(path);
			continue;
		}
		if (first) {
			root = path;
			char *slash = strrchr(root, '/');
			*slash = '\0';
			n = strlen(root);
			first = 0;
			continue;
		}
		if (want && !(strncmp(path, root, n) == 0 && path[n] == '/')) {
			free(root); /* --worktree does not hold every file: fall back to the common
				       one */
			free(path);
			return common_root(recs, NULL);
		}
		while (n && !(strncmp(path, root, n) == 0 && path[n] == '/')) {
			char *sl = strrchr(root, '/');
			n = sl ? (size_t)(sl - root) : 0;
			root[n] = '\0';
		}
		free(path);
	}
	if (root && !*root) {
		free(root);
		return NULL;
	}
	return root;
}

jv *sarif_build(const jv *report)
{
	return sarif_build_opts(report, NULL);
}

jv *sarif_build_opts(const jv *report, const sarif_opts *opts)
{
	jv *doc = jv_object();
	jv_set_str(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	jv_set_str(doc, "version", "2.1.0");
	jv *run = jv_push(jv_set(doc, "runs", jv_array()), jv_object());
	jv *drv = jv_set(jv_set(run, "tool", jv_object()), "driver", jv_object());
	jv_set_str(drv, "name", "flyprof");
	jv_set_str(drv, "version", FLYPROF_VERSION);
	jv_set_str(drv, "informationUri", "docs/report.md");
	jv *rules = jv_set(drv, "rules", jv_array());
	const jv *recs = jv_get(report, "recommendations");
	sarif_opts o = {NULL, opts ? opts->texts : NULL};
	char *root = common_root(recs, opts ? opts->root : NULL);
	o.root = root;
	if (root) {
		jv *base =
		    jv_set(jv_set(run, "originalUriBaseIds", jv_object()), "SRCROOT", jv_object());
		jv_set(base, "uri", jv_strf("file://%s/", root));
		jv_set_str(jv_set(base, "description", jv_object()), "text",
			   "the kernel's source tree: --worktree when given and holding every "
			   "located file, else the deepest directory they share");
	}
	const char *kernel = jv_string(jv_get(report, "kernel"));
	jv *results = jv_set(run, "results", jv_array());
	for (size_t i = 0; i < jv_len(recs); i++) {
		const jv *rec = jv_at(recs, i);
		int seen = 0;
		for (size_t k = 0; k < jv_len(rules); k++)
			seen |= jv_equal(jv_get(jv_at(rules, k), "id"), jv_get(rec, "rule"));
		if (!seen)
			jv_push(rules, descriptor(rec));
		jv_push(results, result(rec, &o, kernel));
	}
	free(root);
	jv *props = jv_set(run, "properties", jv_object());
	jv_set(props, "kernel",
	       jv_get(report, "kernel") ? jv_copy(jv_get(report, "kernel")) : jv_null());
	jv_set(props, "headline",
	       jv_get(report, "headline") ? jv_copy(jv_get(report, "headline")) : jv_null());
	return doc;
}
