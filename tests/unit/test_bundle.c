/* Bundle: creation, manifest, atomic artifacts, lock against a second writer, refusal of
 * foreign directories. */
#include "t.h"

#include "base/fileio.h"
#include "core/bundle/bundle.h"
#include "base/json/json_parse.h"

#include <stdlib.h>
#include <unistd.h>

TEST(bundle_create_write_reopen)
{
	char *dir = path_join(t_tmpdir(), "b1");
	bundle b;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), 0);
	jv *doc = jv_object();
	jv_set_int(doc, "x", 1);
	CHECK_INT(bundle_write_json(&b, "bubbles.json", doc, &e), 0);
	char *args[] = {"flyprof", "bubbles"};
	CHECK_INT(bundle_record_step(&b, "bubbles", 2, args, 0, 0.25, &e), 0);
	bundle_close(&b);

	CHECK_INT(bundle_open(&b, dir, &e), 0);
	CHECK_INT(b.kind, BUNDLE_FLYPROF);
	const jv *art = jv_get(jv_get(b.manifest, "artifacts"), "bubbles.json");
	CHECK(art != NULL);
	CHECK_INT(jv_len(jv_get(art, "sha256")), 64);
	CHECK_INT(jv_len(jv_get(b.manifest, "steps")), 1);
	jv *back = bundle_read_json(&b, "bubbles.json", "bubbles", &e);
	CHECK(jv_equal(back, doc));
	CHECK(bundle_read_json(&b, "report.json", "report", &e) == NULL);
	CHECK_INT(e.code, ERR_MISSING_PREREQ);
	fp_err_clear(&e);
	jv_free(back);
	jv_free(doc);
	bundle_close(&b);
	free(dir);
}

TEST(bundle_lock_excludes_second_writer)
{
	char *dir = path_join(t_tmpdir(), "b2");
	bundle a, b;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(bundle_open_write(&a, dir, "run", &e), 0);
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), -1);
	CHECK_INT(e.code, ERR_BUNDLE_LOCKED);
	fp_err_clear(&e);
	bundle_close(&b);
	bundle_close(&a);
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), 0);
	bundle_close(&b);
	free(dir);
}

/* The moment between a first writer taking the lock of a new bundle and writing its manifest:
 * the directory holds only .flyprof.lock. A second writer must get BUNDLE_LOCKED (it once got
 * NOT_A_BUNDLE); once the lock is free, a directory left like that is a new bundle. */
TEST(bundle_being_created_is_locked_not_foreign)
{
	char *dir = path_join(t_tmpdir(), "b-creating");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_mkdirs(dir, &e), 0);
	int fd = file_lock_dir(dir, &e);
	CHECK(fd >= 0);
	bundle b;
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), -1);
	CHECK_INT(e.code, ERR_BUNDLE_LOCKED);
	fp_err_clear(&e);
	bundle_close(&b);
	/* a moment later the creator is writing its manifest (a temporary file beside the lock) */
	char *tmp = path_join(dir, "manifest.json.tmp.1.0");
	CHECK_INT(file_write_atomic(tmp, "{", 1, &e), 0);
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), -1);
	CHECK_INT(e.code, ERR_BUNDLE_LOCKED);
	fp_err_clear(&e);
	bundle_close(&b);
	unlink(tmp);
	free(tmp);
	close(fd); /* a creator that died: its lock file stays, unheld */
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), 0);
	bundle_close(&b);
	free(dir);
}

TEST(bundle_refuses_foreign_directories)
{
	const char *dir = t_tmpdir();
	char *f = path_join(dir, "notes.txt");
	fp_err e = FP_ERR_INIT;
	CHECK_INT(file_write_atomic(f, "hi", 2, &e), 0);
	bundle b;
	CHECK_INT(bundle_open_write(&b, dir, "run", &e), -1);
	CHECK_INT(e.code, ERR_NOT_A_BUNDLE);
	fp_err_clear(&e);
	bundle_close(&b);
	/* a raw dispatch directory is readable but never writable */
	char *code = path_join(dir, "code.json");
	CHECK_INT(file_write_atomic(code, "{}", 2, &e), 0);
	CHECK_INT(bundle_open(&b, dir, &e), 0);
	CHECK_INT(b.kind, BUNDLE_DISPATCH);
	CHECK_INT(bundle_write_json(&b, "bubbles.json", NULL, &e), -1);
	CHECK_INT(e.code, ERR_NOT_A_BUNDLE);
	char *written = path_join(dir, "bubbles.json");
	CHECK(!file_exists(written));
	free(written);
	fp_err_clear(&e);
	bundle_close(&b);
	free(code);
	free(f);
}
