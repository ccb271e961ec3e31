/* Code objects compiled at test time (tests/fixtures/fake_kernel.cl): ELF, kernel
 * descriptors, metadata note, DWARF line table and inlined call sites; and truncated or
 * corrupted copies, which must be BAD_INPUT and never a crash. */
#include "t.h"

#include "fixture_codeobj.h"
#include "read/amd/codeobj_load.h"

#include <stdlib.h>
#include <string.h>

#define NEED_FIXTURE(path, debug)                                                                  \
	const char *path = fixture_codeobj(debug);                                                 \
	if (!path)                                                                                 \
	SKIP("clang/ld.lld for amdgcn not available: test code objects not built")

TEST(codeobj_kernels_and_descriptors)
{
	NEED_FIXTURE(p, 1);
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_full_read(p, &cf, &e), 0);
	CHECK_STR(cf.co.mach, "gfx90a");
	CHECK((cf.co.e_flags & 0xff) == 0x3f);
	CHECK(cf.co.co_version >= 4);
	CHECK_INT(cf.co.n_kernels, 2);
	const codeobj_kernel *k = codeobj_kernel_find(&cf.co, "fake_kernel");
	CHECK(k != NULL);
	if (k) {
		CHECK(k->has_kd);
		/* The descriptor's entry offset leads from the descriptor to the code. */
		CHECK_INT((int64_t)k->kd_addr + k->kd_entry_offset, (int64_t)k->addr);
		CHECK_INT(k->kd_group_segment_fixed_size, 256); /* __local float tile[64] */
		CHECK_INT(k->kd_kernarg_size, 20);
		CHECK(codeobj_kernel_at(&cf.co, k->addr + 4) == k);
	}
	CHECK(codeobj_kernel_find(&cf.co, "second_kernel.kd") != NULL);
	CHECK(codeobj_kernel_find(&cf.co, "helper") == NULL);
	codeobj_full_release(&cf);
}

TEST(codeobj_metadata_resources)
{
	NEED_FIXTURE(p, 1);
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_full_read(p, &cf, &e), 0);
	CHECK(cf.has_md);
	CHECK_STR(cf.md.target, "amdgcn-amd-amdhsa--gfx90a");
	char arch[32];
	CHECK_STR(codeobj_full_arch(&cf, arch, sizeof arch), "gfx90a");
	CHECK_INT(cf.md.n_kernels, 2);
	const amdgpu_kernel_md *k = amdgpu_metadata_kernel(&cf.md, "fake_kernel.kd");
	CHECK(k != NULL);
	if (k) {
		CHECK_STR(k->symbol, "fake_kernel.kd");
		CHECK_INT(k->group_segment_fixed_size, 256);
		CHECK_INT(k->kernarg_segment_size, 20);
		CHECK_INT(k->wavefront_size, 64);
		CHECK(k->vgpr_count > 0 && k->sgpr_count > 0);
	}
	trace_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, NULL};
	CHECK_INT(codeobj_kernel_resources(&cf, "second_kernel", &r), 0);
	CHECK_STR(r.source, "metadata");
	CHECK_INT(r.lds_bytes, 0);
	CHECK_INT(r.wave_size, 64);
	CHECK_INT(r.scratch_bytes, 0);
	CHECK(r.vgpr > 0);
	CHECK_INT(r.wg_size, -1); /* no reqd_work_group_size in the source */
	CHECK_INT(codeobj_kernel_resources(&cf, "nope", &r), -1);
	codeobj_full_release(&cf);
}

/* The first row at a line of a file whose name ends with `suffix`. */
static const dwarf_line_row *row_at(const dwarf_lines *dl, const char *suffix, int line)
{
	for (size_t i = 0; i < dl->n_rows; i++) {
		const dwarf_line_row *r = &dl->rows[i];
		size_t n = r->file ? strlen(r->file) : 0, sn = strlen(suffix);
		if (r->line == line && n >= sn && strcmp(r->file + n - sn, suffix) == 0)
			return r;
	}
	return NULL;
}

TEST(codeobj_dwarf_lines_and_inline_chain)
{
	NEED_FIXTURE(p, 1);
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_full_read(p, &cf, &e), 0);
	CHECK(cf.dl.has_debug);
	CHECK(cf.dl.n_rows > 5);
	for (size_t i = 1; i < cf.dl.n_rows; i++)
		CHECK(cf.dl.rows[i - 1].addr <= cf.dl.rows[i].addr);
	CHECK(cf.dl.n_inl >= 1);
	const dwarf_line_row *h = row_at(&cf.dl, "/flydsl/expr/helper.py", 5);
	CHECK(h != NULL);
	if (h) {
		CHECK(h->file[0] == '/'); /* resolved against DW_AT_comp_dir */
		strbuf sb = STRBUF_INIT;
		CHECK_INT(dwarf_lines_source(&cf.dl, h->addr, &sb), 1);
		const char *s = sb_str(&sb);
		const char *arrow = strstr(s, ":5 -> ");
		CHECK(arrow != NULL);
		CHECK(arrow && strstr(arrow, "/kernels/fake_kernel.py:23") != NULL);
		sb_release(&sb);
	}
	const dwarf_line_row *l21 = row_at(&cf.dl, "/kernels/fake_kernel.py", 21);
	CHECK(l21 != NULL);
	if (l21) {
		strbuf sb = STRBUF_INIT;
		CHECK_INT(dwarf_lines_source(&cf.dl, l21->addr, &sb), 1);
		CHECK(strstr(sb_str(&sb), " -> ") == NULL);
		sb_release(&sb);
	}
	/* Past the end of every sequence there is no source. */
	strbuf sb = STRBUF_INIT;
	CHECK_INT(dwarf_lines_source(&cf.dl, 0x7fffffff, &sb), 0);
	sb_release(&sb);
	codeobj_full_release(&cf);
}

TEST(codeobj_without_debug_info)
{
	NEED_FIXTURE(p, 0);
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_full_read(p, &cf, &e), 0);
	CHECK_INT(cf.dl.has_debug, 0);
	CHECK_INT(cf.dl.n_rows, 0);
	CHECK(cf.has_md);
	CHECK_INT(cf.co.n_kernels, 2);
	codeobj_full_release(&cf);
}

/* A parse either succeeds or fails with BAD_INPUT carrying a file offset inside the image. */
static int parse_is_clean(const unsigned char *buf, size_t len)
{
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	if (codeobj_full_read_mem(buf, len, "cut", &cf, &e) == 0) {
		codeobj_full_release(&cf);
		return 1;
	}
	int64_t off = jv_i64(jv_get(e.extra, "offset"));
	int ok = e.code == ERR_BAD_INPUT && off >= 0 && jv_get(e.extra, "file") != NULL;
	fp_err_clear(&e);
	return ok ? 2 : 0;
}

TEST(codeobj_truncated_copies_are_bad_input)
{
	NEED_FIXTURE(p, 1);
	size_t len = 0;
	unsigned char *buf = fixture_read(p, &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	size_t cuts[] = {0, 3, 16, 63, 64, 65, 200, len / 3, len / 2, len - 100, len - 1};
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
		CHECK(cuts[i] > len || parse_is_clean(buf, cuts[i]) != 0);
	CHECK_INT(parse_is_clean(buf, 10), 2);
	CHECK_INT(parse_is_clean(buf, len / 2), 2); /* section headers sit at the end */
	free(buf);
}

TEST(codeobj_corrupted_copies_are_bad_input)
{
	NEED_FIXTURE(p, 1);
	size_t len = 0;
	unsigned char *buf = fixture_read(p, &len);
	if (!buf)
		SKIP("fixture unreadable");
	codeobj co;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_read_mem(buf, len, "x", &co, &e), 0);
	int64_t note = co.note_offset;
	size_t note_len = co.note_len;
	const codeobj_section *dl = codeobj_section_find(&co, ".debug_line");
	int64_t dl_off = dl ? (int64_t)dl->offset : -1, dl_size = dl ? (int64_t)dl->size : 0;
	codeobj_release(&co);

	unsigned char *c = malloc(len);
	memcpy(c, buf, len);
	c[18] = 0x3e; /* e_machine = EM_X86_64 */
	CHECK_INT(codeobj_read_mem(c, len, "x", &co, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 18);
	fp_err_clear(&e);
	codeobj_release(&co);

	/* Reserved MessagePack byte at the start of the note: offset points at it. */
	memcpy(c, buf, len);
	CHECK(note > 0 && note_len > 8);
	c[note] = 0xc1;
	codeobj_full cf;
	CHECK_INT(codeobj_full_read_mem(c, len, "x", &cf, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), note);
	fp_err_clear(&e);

	/* A map that announces 2^32-1 entries must not be believed. */
	memcpy(c, buf, len);
	c[note] = 0xdf, c[note + 1] = c[note + 2] = c[note + 3] = c[note + 4] = 0xff;
	CHECK_INT(codeobj_full_read_mem(c, len, "x", &cf, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);

	/* Garbage line program: BAD_INPUT or an empty table, never a crash. */
	if (dl_off > 0) {
		memcpy(c, buf, len);
		memset(c + dl_off, 0xff, (size_t)dl_size);
		int rc = codeobj_full_read_mem(c, len, "x", &cf, &e);
		if (rc == 0)
			codeobj_full_release(&cf);
		else
			CHECK_INT(e.code, ERR_BAD_INPUT);
		fp_err_clear(&e);
	}
	/* Flip every 7th byte one at a time across the headers and note: clean results only. */
	for (size_t i = 0; i < len && i < 0x400; i += 7) {
		memcpy(c, buf, len);
		c[i] ^= 0x5a;
		CHECK(parse_is_clean(c, len) != 0);
	}
	free(c);
	free(buf);
}

TEST(codeobj_missing_file_is_no_artifact)
{
	codeobj_full cf;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(codeobj_full_read("/nonexistent/x.hsaco", &cf, &e), -1);
	CHECK_INT(e.code, ERR_NO_ARTIFACT);
	fp_err_clear(&e);
}
