/* bundle_export.h: the copies. Files are written without a per-file fsync because the whole
 * tree is built under a temporary name and flushed once before it is renamed into place
 * (bundle_export_swap_in), which is what makes the export atomic. */
#include "core/export/bundle_export.h"

#include "base/fileio.h"
#include "base/sha256.h"
#include "base/signals.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "read/amd/codeobj_load.h"
#include "read/amd/kernel_trace_csv.h"
#include "core/amd/dispatch_select.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define AGENT_INFO_MAX (1024 * 1024)

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int bundle_export_wanted(const char *name)
{
	static const char *const fixed[] = {"code.json",      "occupancy.json", "realtime.json",
					    "filenames.json", "snapshots.json", NULL};
	for (size_t i = 0; fixed[i]; i++)
		if (strcmp(name, fixed[i]) == 0)
			return 1;
	if (strncmp(name, "wstates", 7) == 0 && ends_with(name, ".json")) {
		const char *p = name + 7;
		while (*p >= '0' && *p <= '9')
			p++;
		return p > name + 7 && strcmp(p, ".json") == 0;
	}
	if (strncmp(name, "source_", 7) == 0 && name[7])
		return 1;
	if (strstr(name, "_code_object_id_") && ends_with(name, ".out"))
		return 1;
	return dispatch_is_wave_file(name);
}

static int write_new(const char *path, const char *data, size_t len, fp_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return fp_fail(e, ERR_IO_ERROR, "%s: cannot create: %s", path, strerror(errno));
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = errno;
			close(fd);
			unlink(path);
			return fp_fail(e, ERR_IO_ERROR, "%s: write failed: %s", path,
				       strerror(err));
		}
		off += (size_t)w;
	}
	if (close(fd) != 0) {
		unlink(path);
		return fp_fail(e, ERR_IO_ERROR, "%s: close failed: %s", path, strerror(errno));
	}
	return 0;
}

static void record(jv *artifacts, const char *rel, const char *data, size_t len)
{
	char hex[65];
	sha256_hex(data, len, hex);
	jv *a = jv_set(artifacts, rel, jv_object());
	jv_set_str(a, "sha256", hex);
	jv_set_int(a, "bytes", (int64_t)len);
}

/* 1 if path is a regular file and not a symbolic link. */
static int plain_file(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int bundle_export_copy_file(const char *src, const char *dst, const char *rel, jv *artifacts,
			    fp_err *e)
{
	if (signals_pending())
		return fp_fail(e, ERR_INTERRUPTED, "interrupted while copying %s", src);
	size_t len = 0;
	char *buf = file_read_all(src, &len, e);
	if (!buf)
		return -1;
	int rc = write_new(dst, buf, len, e);
	if (rc == 0)
		record(artifacts, rel, buf, len);
	free(buf);
	return rc;
}

long bundle_export_dispatch(const char *src, const char *dst, const char *rel, jv *artifacts,
			    jv *skipped, fp_err *e)
{
	size_t n = 0;
	char **names = file_list_dir(src, &n, e);
	if (!names)
		return -1;
	long copied = 0;
	if (file_mkdirs(dst, e))
		copied = -1;
	for (size_t i = 0; i < n && copied >= 0; i++) {
		char *from = path_join(src, names[i]);
		if (!bundle_export_wanted(names[i])) {
			jv_push(skipped, jv_strf("%s: not read by flyprof", names[i]));
		} else if (!plain_file(from)) {
			jv_push(skipped, jv_strf("%s: not a regular file", names[i]));
		} else {
			char *to = path_join(dst, names[i]);
			char *key = path_join(rel, names[i]);
			copied =
			    bundle_export_copy_file(from, to, key, artifacts, e) ? -1 : copied + 1;
			free(to);
			free(key);
		}
		free(from);
	}
	file_list_free(names, n);
	return copied;
}

static int seen_id(const int64_t *ids, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

long bundle_export_code_objects(const trace_dispatch *t, const char *src_dispatch,
				const char *dst_dispatch, const char *rel, jv *artifacts, fp_err *e)
{
	int64_t ids[CODEOBJ_FILL_MAX];
	size_t nids = 0;
	long copied = 0;
	for (size_t i = 0; i < t->n_insts && nids < CODEOBJ_FILL_MAX; i++) {
		int64_t id = t->insts[i].codeobj;
		if (t->insts[i].is_label || seen_id(ids, nids, id))
			continue;
		ids[nids++] = id;
		char *found = codeobj_find_beside(src_dispatch, id, NULL);
		if (!found)
			continue;
		char *to = path_join(dst_dispatch, path_base(found));
		char *key = path_join(rel, path_base(found));
		if (!file_exists(to) && plain_file(found))
			copied =
			    bundle_export_copy_file(found, to, key, artifacts, e) ? -1 : copied + 1;
		free(to);
		free(key);
		free(found);
		if (copied < 0)
			break;
	}
	return copied;
}

/* The line at p, up to stop, without its newline: its length in *l; returns where the next
 * line starts. */
static const char *line_at(const char *p, const char *stop, size_t *l)
{
	const char *end = memchr(p, '\n', (size_t)(stop - p));
	*l = end ? (size_t)(end - p) : (size_t)(stop - p);
	return end ? end + 1 : stop;
}

/* A CSV of one row: the header, then the row, each ended by a newline. */
static void one_row_csv(strbuf *sb, const char *head, size_t hlen, const char *row, size_t l)
{
	sb_add(sb, head, hlen);
	sb_addc(sb, '\n');
	sb_add(sb, row, l);
	sb_addc(sb, '\n');
}

/* Lines are split on '\n': a kernel-trace row never holds a newline, and a line that does not
 * parse on its own (with the header) is simply not a match. */
char *bundle_export_csv_row(const char *buf, size_t len, const char *name, long long id,
			    const char *kernel)
{
	const char *nl = memchr(buf, '\n', len);
	if (!nl)
		return NULL;
	size_t hlen = (size_t)(nl - buf);
	/* The result is a C string: a NUL byte (never in a real CSV) would cut it short. */
	if (memchr(buf, '\0', hlen))
		return NULL;
	for (const char *p = nl + 1, *next; p < buf + len; p = next) {
		size_t l;
		next = line_at(p, buf + len, &l);
		if (memchr(p, '\0', l))
			continue;
		strbuf sb = STRBUF_INIT;
		one_row_csv(&sb, buf, hlen, p, l);
		trace_resources r;
		memset(&r, 0, sizeof r);
		fp_err e = FP_ERR_INIT;
		int hit =
		    ktcsv_resources(sb.buf, sb.len, name, id, id >= 0 ? NULL : kernel, &r, &e);
		fp_err_clear(&e);
		if (hit == 1)
			return sb_detach(&sb);
		sb_release(&sb);
	}
	return NULL;
}

/* Appends to `rows` (header + the kept row) every other row of `kernel` with the kept row's
 * launch shape: the roofline's duration is their median (docs/diagnosis.md), so a re-analysed
 * export gives the same roofline. */
static char *add_timing_rows(char *rows, const char *buf, size_t len, const char *name,
			     const char *kernel)
{
	trace_resources r;
	memset(&r, 0, sizeof r);
	fp_err e = FP_ERR_INIT;
	const char *kept = strchr(rows, '\n');
	if (!kernel || !kept ||
	    ktcsv_resources(rows, strlen(rows), name, -1, kernel, &r, &e) != 1) {
		fp_err_clear(&e);
		return rows;
	}
	kept++;
	size_t kept_len = strlen(kept);
	strbuf out = STRBUF_INIT;
	sb_adds(&out, rows);
	const char *nl = memchr(buf, '\n', len);
	size_t hlen = nl ? (size_t)(nl - buf) : 0;
	for (const char *p = nl ? nl + 1 : buf + len, *next; p < buf + len; p = next) {
		size_t l;
		next = line_at(p, buf + len, &l);
		strbuf one = STRBUF_INIT;
		one_row_csv(&one, buf, hlen, p, l);
		int64_t ns;
		size_t n = 0;
		int same = kept_len == l + 1 && memcmp(kept, p, l) == 0;
		if (!same && !memchr(p, '\0', l) &&
		    ktcsv_durations(one.buf, one.len, name, kernel, r.grid_size, r.wg_size, &ns, 1,
				    &n, &e) == 1) {
			sb_add(&out, p, l);
			sb_addc(&out, '\n');
		}
		fp_err_clear(&e);
		sb_release(&one);
	}
	free(rows);
	return sb_detach(&out);
}

static int take_kernel_trace(const char *path, long long id, const char *kernel,
			     const char *out_dir, jv *artifacts, jv *rec, fp_err *e)
{
	size_t len = 0;
	char *buf = plain_file(path) ? file_read_optional(path, &len) : NULL;
	if (!buf)
		return 0;
	const char *how = "dispatch id";
	char *rows = id >= 0 ? bundle_export_csv_row(buf, len, path, id, NULL) : NULL;
	if (!rows && kernel) {
		rows = bundle_export_csv_row(buf, len, path, -1, kernel);
		how = "kernel name";
	}
	if (rows)
		rows = add_timing_rows(rows, buf, len, path, kernel);
	free(buf);
	if (!rows)
		return 0;
	char *to = path_join(out_dir, path_base(path));
	char *key = path_join("rocprofv3", path_base(path));
	int rc = write_new(to, rows, strlen(rows), e);
	if (rc == 0) {
		record(artifacts, key, rows, strlen(rows));
		jv *k = jv_set(rec, "kernel_trace", jv_object());
		jv_set_str(k, "file", key);
		jv_set_str(k, "from", path);
		jv_set_str(k, "row_matched_by", how);
		jv_set_str(
		    k, "note",
		    "the header, the row of the kept dispatch, then the other rows of the "
		    "same kernel and launch shape (their median duration is the roofline's)");
	}
	free(rows);
	free(to);
	free(key);
	return rc ? -1 : 1;
}

static int take_agent_info(const char *path, const char *out_dir, jv *artifacts, jv *rec, fp_err *e)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > AGENT_INFO_MAX)
		return 0;
	char *to = path_join(out_dir, path_base(path));
	char *key = path_join("rocprofv3", path_base(path));
	int rc = 0;
	if (!file_exists(to)) {
		rc = bundle_export_copy_file(path, to, key, artifacts, e);
		if (rc == 0)
			jv_push(rec, jv_str(key));
	}
	free(to);
	free(key);
	return rc;
}

int bundle_export_rocprof(const char *const *dirs, size_t ndirs, long long dispatch_id,
			  const char *kernel, const char *bundle_dir, jv *artifacts, jv *record_out,
			  fp_err *e)
{
	char *out_dir = path_join(bundle_dir, "rocprofv3");
	jv *agents = jv_set(record_out, "agent_info", jv_array());
	jv_set(record_out, "kernel_trace", jv_null());
	int have_row = 0, rc = 0;
	for (size_t d = 0; d < ndirs && rc == 0; d++) {
		size_t n = 0;
		fp_err le = FP_ERR_INIT;
		char **names =
		    dirs[d] && file_is_dir(dirs[d]) ? file_list_dir(dirs[d], &n, &le) : NULL;
		fp_err_clear(&le);
		if (n && file_mkdirs(out_dir, e))
			rc = -1;
		for (size_t i = 0; i < n && rc == 0; i++) {
			char *p = path_join(dirs[d], names[i]);
			if (!have_row && ends_with(names[i], "kernel_trace.csv")) {
				int got = take_kernel_trace(p, dispatch_id, kernel, out_dir,
							    artifacts, record_out, e);
				rc = got < 0 ? -1 : 0;
				have_row = got > 0;
			} else if (ends_with(names[i], "agent_info.csv")) {
				rc = take_agent_info(p, out_dir, artifacts, agents, e);
			}
			free(p);
		}
		file_list_free(names, n);
	}
	/* an empty rocprofv3/ folder is no evidence: do not leave it behind */
	rmdir(out_dir);
	free(out_dir);
	return rc;
}
