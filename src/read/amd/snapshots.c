/* snapshots.json: tree walk, containment checks on the local copies, lookup and snippets.
 * Copies are opened with O_NOFOLLOW as well as checked with lstat, so a symlink swapped in
 * after the check is still not followed. */
#include "read/amd/snapshots.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "model/source_loc.h"
#include "base/json/json_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct walker {
	snapshots *s;
	const char *file;
	size_t cap, cap_refused;
} walker;

static const char *local_problem(const char *dir, const char *local)
{
	if (!*local)
		return "empty name";
	if (local[0] == '/')
		return "absolute path";
	if (strchr(local, '/'))
		return "name with a directory part";
	if (strcmp(local, ".") == 0 || strcmp(local, "..") == 0)
		return "leaves the dispatch directory";
	if (!dir)
		return NULL;
	char *p = path_join(dir, local);
	struct stat st;
	int rc = lstat(p, &st);
	free(p);
	if (rc != 0)
		return "missing";
	if (S_ISLNK(st.st_mode))
		return "symbolic link";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	return NULL;
}

static void add_entry(walker *w, const char *path, const char *local)
{
	snapshots *s = w->s;
	const char *why = local_problem(s->dir, local);
	if (why) {
		s->refused =
		    xgrow(s->refused, &w->cap_refused, s->n_refused + 1, sizeof *s->refused);
		strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s -> %s: %s", path, local, why);
		s->refused[s->n_refused++] = sb_detach(&sb);
		return;
	}
	s->entries = xgrow(s->entries, &w->cap, s->n + 1, sizeof *s->entries);
	s->entries[s->n++] = (snapshot_entry){xstrdup(path), xstrdup(local), NULL, 0, 0};
}

static int walk(walker *w, const jv *node, strbuf *path, int depth, fp_err *e)
{
	if (depth > SNAPSHOTS_MAX_DEPTH)
		return fp_fail_input(e, w->file, 0, "a tree at most 64 levels deep",
				     "%s: snapshot tree too deep at %s", w->file, sb_str(path));
	for (size_t i = 0; i < jv_len(node); i++) {
		const char *key = jv_key_at(node, i);
		const jv *val = jv_value_at(node, i);
		size_t keep = path->len;
		if (strcmp(key, "/") == 0 && path->len == 0)
			sb_addc(path, '/');
		else {
			if (path->len > 0 && path->buf[path->len - 1] != '/')
				sb_addc(path, '/');
			sb_adds(path, key);
		}
		int rc = 0;
		if (jv_type_of(val) == JV_OBJECT)
			rc = walk(w, val, path, depth + 1, e);
		else if (jv_type_of(val) == JV_STRING)
			add_entry(w, sb_str(path), jv_string(val));
		else
			rc = fp_fail_input(e, w->file, 0, "an object or a file name string",
					   "%s: snapshot entry %s is neither", w->file,
					   sb_str(path));
		path->len = keep;
		path->buf[keep] = 0;
		if (rc != 0)
			return -1;
	}
	return 0;
}

int snapshots_from_tree(const jv *tree, const char *dir, const char *file, snapshots *s, fp_err *e)
{
	memset(s, 0, sizeof *s);
	s->dir = dir ? xstrdup(dir) : NULL;
	walker w = {s, file ? file : "snapshots.json", 0, 0};
	if (jv_type_of(tree) != JV_OBJECT) {
		snapshots_release(s);
		return fp_fail_input(e, w.file, 0, "a JSON object", "%s: not an object", w.file);
	}
	strbuf path = STRBUF_INIT;
	sb_adds(&path, "");
	int rc = walk(&w, tree, &path, 0, e);
	sb_release(&path);
	if (rc != 0)
		snapshots_release(s);
	return rc;
}

int snapshots_load(const char *dir, snapshots *s, fp_err *e)
{
	char *p = path_join(dir, "snapshots.json");
	memset(s, 0, sizeof *s);
	if (!file_exists(p)) {
		free(p);
		s->dir = xstrdup(dir);
		return 0;
	}
	jv *tree = json_parse_file(p, e);
	int rc = tree ? snapshots_from_tree(tree, dir, p, s, e) : -1;
	jv_free(tree);
	free(p);
	return rc;
}

void snapshots_release(snapshots *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->entries[i].path);
		free(s->entries[i].local);
		free(s->entries[i].text);
	}
	for (size_t i = 0; i < s->n_refused; i++)
		free(s->refused[i]);
	free(s->entries);
	free(s->refused);
	free(s->dir);
	memset(s, 0, sizeof *s);
}

const snapshot_entry *snapshots_find(const snapshots *s, const char *path, size_t n, int *ambiguous)
{
	const snapshot_entry *best = NULL;
	int best_score = 0, tie = 0;
	if (ambiguous)
		*ambiguous = 0;
	for (size_t i = 0; i < s->n; i++) {
		const snapshot_entry *ent = &s->entries[i];
		if (strlen(ent->path) == n && memcmp(ent->path, path, n) == 0)
			return ent;
		int score = srcmap_path_matches(path, n, ent->path);
		if (score > best_score)
			best = ent, best_score = score, tie = 0;
		else if (score > 0 && score == best_score)
			tie = 1;
	}
	if (tie) {
		if (ambiguous)
			*ambiguous = 1;
		return NULL;
	}
	return best;
}

static int load_copy(const snapshots *s, snapshot_entry *ent)
{
	if (ent->text || ent->load_failed)
		return ent->text ? 0 : -1;
	ent->load_failed = 1;
	if (!s->dir)
		return -1;
	char *p = path_join(s->dir, ent->local);
	/* A copy that is a link, FIFO, device or over the source limit gives no snippet. */
	struct stat st;
	fp_err e = FP_ERR_INIT;
	int fd = input_open(p, INPUT_SOURCE, &st, &e);
	fp_err_clear(&e);
	free(p);
	if (fd < 0)
		return -1;
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	ent->text = buf;
	ent->len = got;
	ent->load_failed = 0;
	return 0;
}

jv *snapshots_snippet(snapshots *s, const snapshot_entry *cent, int64_t line, int context)
{
	snapshot_entry *ent = (snapshot_entry *)cent; /* the cache lives in the entry */
	if (line <= 0 || context < 0 || load_copy(s, ent) != 0)
		return NULL;
	if (context > SNAPSHOT_CONTEXT_MAX)
		context = SNAPSHOT_CONTEXT_MAX;
	jv *lines = jv_array();
	const char *p = ent->text, *end = ent->text + ent->len;
	int found = 0;
	for (int64_t n = 1; p < end && n <= line + context; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (n >= line - context) {
			jv *o = jv_push(lines, jv_object());
			jv_set_int(o, "n", n);
			/* A hostile copy may hold a 10 MB line: cut at a UTF-8 boundary so output
			 * stays bounded however many snippets are shown. */
			size_t shown = len;
			if (shown > SNAPSHOT_LINE_MAX) {
				shown = SNAPSHOT_LINE_MAX;
				while (shown > 0 && ((unsigned char)p[shown] & 0xC0) == 0x80)
					shown--;
			}
			jv_set(o, "text", jv_strn(p, shown));
			if (shown < len)
				jv_set_int(o, "cut_from_bytes", (int64_t)len);
			jv_set_bool(o, "hot", n == line);
			found |= n == line;
		}
		p = nl ? nl + 1 : end;
	}
	if (!found) {
		jv_free(lines);
		return NULL;
	}
	jv *o = jv_object();
	jv_set_str(o, "file", ent->path);
	jv_set_str(o, "local", ent->local);
	jv_set_int(o, "line", line);
	jv_set(o, "lines", lines);
	return o;
}
