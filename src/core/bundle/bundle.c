#include "core/bundle/bundle.h"

#include "base/fileio.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/undo.h"
#include "base/version.h"
#include "base/xalloc.h"
#include "base/json/json_write.h"
#include "base/json/json_parse.h"
#include "read/nvidia/ncu_exports.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MANIFEST "manifest.json"

const char *bundle_kind_name(bundle_kind k)
{
	switch (k) {
	case BUNDLE_FLYPROF:
		return "flyprof";
	case BUNDLE_CAPTURE:
		return "capture";
	case BUNDLE_DISPATCH:
		return "dispatch";
	}
	return "unknown";
}

static void utc_now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int has_att_tree(const char *dir)
{
	char *att = path_join(dir, "att");
	int yes = file_is_dir(att);
	free(att);
	return yes;
}

/* Reads manifest.json when present; returns 1 if it is a flyprof manifest, 0 if absent,
 * -1 (BAD_INPUT) when it exists but is not one of ours or does not parse. */
static int load_manifest(bundle *b, fp_err *e)
{
	char *path = path_join(b->dir, MANIFEST);
	int rc = 0;
	if (file_is_reg(path)) {
		jv *m = json_parse_file(path, e);
		if (!m) {
			rc = -1;
		} else if (strcmp(jv_string(jv_get(m, "tool")) ? jv_string(jv_get(m, "tool")) : "",
				  "flyprof") != 0) {
			jv_free(m);
			rc = fp_fail(e, ERR_NOT_A_BUNDLE, "%s is not a flyprof manifest", path);
		} else {
			if (jv_type_of(jv_get(m, "steps")) != JV_ARRAY)
				jv_set(m, "steps", jv_array());
			if (jv_type_of(jv_get(m, "artifacts")) != JV_OBJECT)
				jv_set(m, "artifacts", jv_object());
			b->manifest = m;
			rc = 1;
		}
	}
	free(path);
	return rc;
}

static void bundle_zero(bundle *b)
{
	memset(b, 0, sizeof *b);
	b->lock_fd = -1;
}

int bundle_open(bundle *b, const char *path, fp_err *e)
{
	bundle_zero(b);
	if (!file_is_dir(path))
		return fp_fail(e, ERR_NO_ARTIFACT, "%s: no such bundle directory", path);
	b->dir = path_abs(path);
	if (!b->dir)
		return fp_fail(e, ERR_IO_ERROR, "%s: cannot resolve path", path);
	int m = load_manifest(b, e);
	if (m < 0) {
		bundle_close(b);
		return -1;
	}
	if (m == 1) {
		b->kind = BUNDLE_FLYPROF;
		return 0;
	}
	char *code = path_join(b->dir, "code.json");
	int is_dispatch = file_is_reg(code);
	free(code);
	if (is_dispatch) {
		b->kind = BUNDLE_DISPATCH;
		return 0;
	}
	if (has_att_tree(b->dir) || ncu_bundle_has_exports(b->dir)) {
		b->kind = BUNDLE_CAPTURE;
		return 0;
	}
	if (ncu_dir_has_exports(b->dir)) {
		b->kind = BUNDLE_DISPATCH; /* a raw Nsight Compute export directory */
		return 0;
	}
	fp_fail(e, ERR_NOT_A_BUNDLE,
		"%s is not a flyprof bundle, a capture (att/<tag>/ui_output_* or ncu/), a dispatch "
		"directory (code.json) or a directory of Nsight Compute exports",
		b->dir);
	fp_err_set_help(e, "pass --bundle a directory made by flyprof, a rocprofv3 ATT capture or "
			   "a ui_output_agent_*_dispatch_* directory");
	bundle_close(b); /* a failed open leaves nothing to release */
	return -1;
}

static jv *new_manifest(const char *role)
{
	char now[32];
	utc_now(now);
	jv *m = jv_object();
	jv_set_str(m, "tool", "flyprof");
	jv_set_str(m, "version", FLYPROF_VERSION);
	jv_set_int(m, "format", 1);
	jv_set_str(m, "role", role);
	jv_set_str(m, "created", now);
	jv_set(m, "kernel", jv_null());
	jv_set(m, "backend", jv_null());
	jv_set(m, "arch", jv_null());
	jv_set_bool(m, "synthetic", 0);
	jv_set(m, "steps", jv_array());
	jv_set(m, "artifacts", jv_object());
	return m;
}

static int write_manifest(bundle *b, fp_err *e)
{
	strbuf sb = STRBUF_INIT;
	json_write(&sb, b->manifest, 2);
	sb_addc(&sb, '\n');
	char *path = path_join(b->dir, MANIFEST);
	int rc = file_write_atomic(path, sb.buf, sb.len, e);
	free(path);
	sb_release(&sb);
	if (rc == 0)
		b->dirty = 0;
	return rc;
}

int bundle_lock(bundle *b, fp_err *e)
{
	if (b->kind != BUNDLE_FLYPROF)
		return fp_fail(e, ERR_NOT_A_BUNDLE,
			       "%s was not created by flyprof; not writing there", b->dir);
	if (b->lock_fd >= 0)
		return 0;
	b->lock_fd = file_lock_dir(b->dir, e);
	return b->lock_fd >= 0 ? 0 : -1;
}

int bundle_open_write(bundle *b, const char *path, const char *role, fp_err *e)
{
	bundle_zero(b);
	/* a directory holding only a lock is a bundle being created: the lock decides */
	int fresh = !file_exists(path) || file_dir_unclaimed(path);
	if (fresh) {
		undo_mark_fresh(); /* a failed or interrupted command removes it again */
		if (file_mkdirs(path, e))
			return -1;
		b->dir = path_abs(path);
		if (!b->dir)
			return fp_fail(e, ERR_IO_ERROR, "%s: cannot resolve path", path);
		b->kind = BUNDLE_FLYPROF;
		b->manifest = new_manifest(role);
		if (bundle_lock(b, e) || write_manifest(b, e))
			return -1;
		return 0;
	}
	if (file_lock_held(path)) /* being created or written by another flyprof */
		return fp_fail(e, ERR_BUNDLE_LOCKED, "%s is locked by another flyprof process",
			       path);
	if (bundle_open(b, path, e))
		return -1;
	return bundle_lock(b, e);
}

static void record_artifact(bundle *b, const char *name, const void *data, size_t len)
{
	char hex[65];
	sha256_hex(data, len, hex);
	jv *arts = jv_get(b->manifest, "artifacts");
	jv *a = jv_set(arts, name, jv_object());
	jv_set_str(a, "sha256", hex);
	jv_set_int(a, "bytes", (int64_t)len);
	b->dirty = 1;
}

int bundle_write_file(bundle *b, const char *name, const void *data, size_t len, fp_err *e)
{
	if (bundle_lock(b, e))
		return -1;
	char *path = path_join(b->dir, name);
	char *slash = strrchr(path, '/');
	int rc = 0;
	if (slash && slash != path) {
		*slash = '\0';
		rc = file_mkdirs(path, e);
		*slash = '/';
	}
	if (rc == 0)
		rc = file_write_atomic(path, data, len, e);
	free(path);
	if (rc == 0)
		record_artifact(b, name, data, len);
	return rc;
}

int bundle_write_json(bundle *b, const char *name, const jv *doc, fp_err *e)
{
	strbuf sb = STRBUF_INIT;
	json_write(&sb, doc, 2);
	sb_addc(&sb, '\n');
	int rc = bundle_write_file(b, name, sb.buf, sb.len, e);
	sb_release(&sb);
	return rc;
}

int bundle_has(const bundle *b, const char *name)
{
	char *path = path_join(b->dir, name);
	int yes = file_exists(path);
	free(path);
	return yes;
}

jv *bundle_read_json(const bundle *b, const char *name, const char *producer, fp_err *e)
{
	char *path = path_join(b->dir, name);
	jv *doc = NULL;
	if (!file_is_reg(path)) {
		fp_fail(e, ERR_MISSING_PREREQ, "%s has no %s; run `flyprof %s` first", b->dir, name,
			producer);
	} else {
		doc = json_parse_file(path, e);
	}
	free(path);
	return doc;
}

void bundle_set_meta(bundle *b, const char *key, jv *value)
{
	if (!b->manifest) {
		jv_free(value);
		return;
	}
	jv_set(b->manifest, key, value);
	b->dirty = 1;
}

int bundle_record_step(bundle *b, const char *command, int argc, char **argv, int exit_status,
		       double seconds, fp_err *e)
{
	if (!b->manifest || b->lock_fd < 0)
		return 0;
	char now[32];
	utc_now(now);
	jv *step = jv_push(jv_get(b->manifest, "steps"), jv_object());
	jv_set_str(step, "command", command);
	jv *args = jv_set(step, "args", jv_array());
	for (int i = 1; i < argc; i++)
		jv_push(args, jv_str(argv[i]));
	jv_set_int(step, "exit", exit_status);
	jv_set_round(step, "seconds", seconds, 3);
	jv_set_str(step, "at", now);
	b->dirty = 1;
	return write_manifest(b, e);
}

void bundle_close(bundle *b)
{
	if (b->manifest && b->dirty && b->lock_fd >= 0) {
		fp_err e = FP_ERR_INIT;
		write_manifest(b, &e);
		fp_err_clear(&e);
	}
	file_unlock_dir(b->dir, b->lock_fd);
	jv_free(b->manifest);
	free(b->dir);
	bundle_zero(b);
}
