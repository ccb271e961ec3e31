/* The NT_AMDGPU_METADATA reader on MessagePack documents built here with msgpack-c's packer,
 * and the resources it derives for the occupancy model. */
#include "t.h"

#include "read/amd/amdgpu_note.h"

#include <msgpack.h>
#include <string.h>

static void str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

/* {"amdhsa.target": ..., "amdhsa.version": [1,2], "amdhsa.kernels": [ {...} ]} with one
 * kernel using AGPRs (vgpr_count is arch + acc on gfx90a-class targets). */
static void pack_note(msgpack_sbuffer *sb, int vgpr_as_string)
{
	msgpack_packer pk;
	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	str(&pk, "amdhsa.target");
	str(&pk, "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-");
	str(&pk, "amdhsa.version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_int(&pk, 2);
	str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 9);
	str(&pk, ".name");
	str(&pk, "kernel_gemm_0");
	str(&pk, ".symbol");
	str(&pk, "kernel_gemm_0.kd");
	str(&pk, ".vgpr_count");
	if (vgpr_as_string)
		str(&pk, "256");
	else
		msgpack_pack_int(&pk, 256);
	str(&pk, ".agpr_count");
	msgpack_pack_int(&pk, 128);
	str(&pk, ".sgpr_count");
	msgpack_pack_int(&pk, 40);
	str(&pk, ".group_segment_fixed_size");
	msgpack_pack_int(&pk, 65536);
	str(&pk, ".private_segment_fixed_size");
	msgpack_pack_int(&pk, 0);
	str(&pk, ".wavefront_size");
	msgpack_pack_int(&pk, 64);
	str(&pk, ".reqd_workgroup_size");
	msgpack_pack_array(&pk, 3);
	msgpack_pack_int(&pk, 256);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_int(&pk, 1);
}

TEST(note_reads_kernel_fields)
{
	msgpack_sbuffer sb;
	pack_note(&sb, 0);
	amdgpu_metadata md;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(amdgpu_note_parse(sb.data, sb.size, "n", 100, &md, &e), 0);
	CHECK_STR(md.target, "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-");
	CHECK_INT(md.version[0], 1);
	CHECK_INT(md.version[1], 2);
	char arch[16];
	CHECK_INT(amdgpu_metadata_arch(&md, arch, sizeof arch), 0);
	CHECK_STR(arch, "gfx950");
	CHECK_INT(md.n_kernels, 1);
	const amdgpu_kernel_md *k = amdgpu_metadata_kernel(&md, "kernel_gemm_0.kd");
	CHECK(k != NULL);
	if (k) {
		CHECK_INT(k->vgpr_count, 256);
		CHECK_INT(k->agpr_count, 128);
		CHECK_INT(k->max_flat_workgroup_size, -1); /* absent */
		trace_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, NULL};
		amdgpu_kernel_resources(k, -1, &r);
		CHECK_INT(r.vgpr, 128); /* 256 total - 128 AGPRs without a descriptor */
		CHECK_INT(r.agpr, 128);
		CHECK_INT(r.sgpr, 40);
		CHECK_INT(r.lds_bytes, 65536);
		CHECK_INT(r.wg_size, 256);
		CHECK_INT(r.wave_size, 64);
		CHECK_INT(r.grid_size, -1); /* not a code object fact */
		CHECK_STR(r.source, "metadata");
		amdgpu_kernel_resources(k, 132, &r);
		CHECK_INT(r.vgpr, 132); /* the descriptor's ACCUM_OFFSET wins */
	}
	amdgpu_metadata_release(&md);
	msgpack_sbuffer_destroy(&sb);
}

TEST(note_wrong_types_are_bad_input)
{
	msgpack_sbuffer sb;
	pack_note(&sb, 1);
	amdgpu_metadata md;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(amdgpu_note_parse(sb.data, sb.size, "n", 100, &md, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	int64_t off = jv_i64(jv_get(e.extra, "offset"));
	CHECK(off > 100 && off < 100 + (int64_t)sb.size); /* at the text of ".vgpr_count" */
	CHECK(off > 100 && memcmp(sb.data + (off - 100), ".vgpr_count", 11) == 0);
	fp_err_clear(&e);
	msgpack_sbuffer_destroy(&sb);
}

TEST(note_truncations_are_bad_input)
{
	msgpack_sbuffer sb;
	pack_note(&sb, 0);
	for (size_t cut = 0; cut < sb.size; cut++) {
		amdgpu_metadata md;
		fp_err e = FP_ERR_INIT;
		CHECK_INT(amdgpu_note_parse(sb.data, cut, "n", 0, &md, &e), -1);
		CHECK_INT(e.code, ERR_BAD_INPUT);
		CHECK(jv_i64(jv_get(e.extra, "offset")) <= (int64_t)cut);
		fp_err_clear(&e);
	}
	msgpack_sbuffer_destroy(&sb);
}

TEST(note_shapes)
{
	amdgpu_metadata md;
	fp_err e = FP_ERR_INIT;
	const unsigned char arr[] = {0x91, 0x01}; /* [1]: not a map */
	CHECK_INT(amdgpu_note_parse(arr, sizeof arr, "n", 7, &md, &e), -1);
	CHECK_INT(jv_i64(jv_get(e.extra, "offset")), 7);
	fp_err_clear(&e);
	const unsigned char big[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x01}; /* array32 of 4G */
	CHECK_INT(amdgpu_note_parse(big, sizeof big, "n", 0, &md, &e), -1);
	CHECK_INT(e.code, ERR_BAD_INPUT);
	fp_err_clear(&e);
	/* {"amdhsa.kernels": [{}]}: a kernel without .name */
	const unsigned char noname[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a',  '.',
					'k',  'e',  'r', 'n', 'e', 'l', 's', 0x91, 0x80};
	CHECK_INT(amdgpu_note_parse(noname, sizeof noname, "n", 0, &md, &e), -1);
	CHECK(e.message && strstr(e.message, ".name") != NULL);
	fp_err_clear(&e);
	const unsigned char empty[] = {0x80}; /* {} is a valid, empty note */
	CHECK_INT(amdgpu_note_parse(empty, sizeof empty, "n", 0, &md, &e), 0);
	CHECK_INT(md.n_kernels, 0);
	CHECK(md.target == NULL);
	amdgpu_metadata_release(&md);
}

/* Found by fuzzing: a kernel whose own name ends in ".kd" must still be found by that name. */
TEST(note_lookup_prefers_exact_names)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1);
	str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_map(&pk, 1);
	str(&pk, ".name");
	str(&pk, "k");
	msgpack_pack_map(&pk, 1);
	str(&pk, ".name");
	str(&pk, "k.kd");
	amdgpu_metadata md;
	fp_err e = FP_ERR_INIT;
	CHECK_INT(amdgpu_note_parse(sb.data, sb.size, "n", 0, &md, &e), 0);
	CHECK(amdgpu_metadata_kernel(&md, "k.kd") == &md.kernels[1]);
	CHECK(amdgpu_metadata_kernel(&md, "k") == &md.kernels[0]);
	amdgpu_metadata_release(&md);
	msgpack_sbuffer_destroy(&sb);
}
