/* NT_AMDGPU_METADATA: a pre-check of the MessagePack bytes (so element counts are bounded by
 * the bytes left and errors get exact offsets), then msgpack-c unpacks, then the kernel maps
 * are copied into plain structs. */
#include "read/amd/amdgpu_note.h"

#include "base/xalloc.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

typedef struct note_src {
	const unsigned char *buf;
	size_t len;
	const char *file;
	int64_t base; /* file offset of buf[0] */
} note_src;

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* MessagePack type bytes 0xc0..0xdf: bytes of the length field that follows (-1: the
 * reserved byte 0xc1), a fixed payload size, whether the length counts elements (1 array,
 * 2 map: key + value) and whether an ext type byte follows the length. */
static const struct {
	signed char lenb, fixed, kids, ext;
} mp_types[32] = {
    {0, 0, 0, 0}, {-1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, /* nil, reserved, false, true */
    {1, 0, 0, 0}, {2, 0, 0, 0},	 {4, 0, 0, 0},		     /* bin8/16/32 */
    {1, 0, 0, 1}, {2, 0, 0, 1},	 {4, 0, 0, 1},		     /* ext8/16/32 */
    {0, 4, 0, 0}, {0, 8, 0, 0},				     /* float32/64 */
    {0, 1, 0, 0}, {0, 2, 0, 0},	 {0, 4, 0, 0}, {0, 8, 0, 0}, /* uint8..64 */
    {0, 1, 0, 0}, {0, 2, 0, 0},	 {0, 4, 0, 0}, {0, 8, 0, 0}, /* int8..64 */
    {0, 2, 0, 0}, {0, 3, 0, 0},	 {0, 5, 0, 0}, {0, 9, 0, 0}, {0, 17, 0, 0}, /* fixext */
    {1, 0, 0, 0}, {2, 0, 0, 0},	 {4, 0, 0, 0},				    /* str8/16/32 */
    {2, 0, 1, 0}, {4, 0, 1, 0},	 {2, 0, 2, 0}, {4, 0, 2, 0}, /* array16/32, map16/32 */
};

/* Size of the item header at p, and the payload bytes / child items it announces. Returns
 * 0, -1 for the reserved byte, -2 when the length field itself is cut. */
static int item_shape(const unsigned char *p, size_t left, size_t *head, uint64_t *payload,
		      uint64_t *children)
{
	unsigned t = p[0];
	*head = 1, *payload = 0, *children = 0;
	if (t <= 0x7f || t >= 0xe0)
		return 0; /* fixints */
	if (t < 0x90)
		*children = 2 * (uint64_t)(t & 0xf); /* fixmap */
	else if (t < 0xa0)
		*children = t & 0xf; /* fixarray */
	else if (t < 0xc0)
		*payload = t & 0x1f; /* fixstr */
	else {
		int lenb = mp_types[t - 0xc0].lenb;
		if (lenb < 0)
			return -1;
		if (left < (size_t)lenb + 1)
			return -2;
		uint64_t n = be(p + 1, lenb);
		*head = 1 + (size_t)lenb + (size_t)mp_types[t - 0xc0].ext;
		if (mp_types[t - 0xc0].kids)
			*children = n * (uint64_t)mp_types[t - 0xc0].kids;
		else
			*payload = lenb ? n : (uint64_t)mp_types[t - 0xc0].fixed;
	}
	return 0;
}

/* Walks one top-level item: every announced byte and child must fit in what is left. */
static int precheck(const note_src *s, fp_err *e)
{
	size_t off = 0;
	uint64_t pending = 1;
	while (pending > 0) {
		if (off >= s->len)
			return fp_fail_input(e, s->file, s->base + (int64_t)off, "more MessagePack",
					     "%s: metadata note ends inside an item", s->file);
		size_t left = s->len - off, head;
		uint64_t payload, children;
		int rc = item_shape(s->buf + off, left, &head, &payload, &children);
		if (rc == -1)
			return fp_fail_input(e, s->file, s->base + (int64_t)off,
					     "a MessagePack type",
					     "%s: reserved MessagePack byte 0xc1", s->file);
		if (rc < 0 || head > left || payload > left - head)
			return fp_fail_input(e, s->file, s->base + (int64_t)off,
					     "an item that fits the note",
					     "%s: metadata item runs past the note", s->file);
		off += head + (size_t)payload;
		pending--;
		if (children > s->len - off)
			return fp_fail_input(e, s->file, s->base + (int64_t)off,
					     "an element count that fits the note",
					     "%s: container announces %llu elements", s->file,
					     (unsigned long long)children);
		pending += children;
	}
	return 0;
}

static int64_t obj_offset(const note_src *s, const msgpack_object *key)
{
	if (key->type == MSGPACK_OBJECT_STR) {
		const unsigned char *p = (const unsigned char *)key->via.str.ptr;
		if (p >= s->buf && p <= s->buf + s->len)
			return s->base + (p - s->buf);
	}
	return s->base;
}

static int key_is(const msgpack_object *k, const char *name)
{
	size_t n = strlen(name);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
	       memcmp(k->via.str.ptr, name, n) == 0;
}

static char *obj_str(const msgpack_object *v)
{
	return v->type == MSGPACK_OBJECT_STR ? xstrndup(v->via.str.ptr, v->via.str.size) : NULL;
}

static int obj_int(const msgpack_object *v, int64_t *out)
{
	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
		*out = (int64_t)v->via.u64;
	else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*out = v->via.i64;
	else
		return -1;
	return 0;
}

static const struct {
	const char *key;
	size_t field;
} int_keys[] = {
    {".vgpr_count", offsetof(amdgpu_kernel_md, vgpr_count)},
    {".agpr_count", offsetof(amdgpu_kernel_md, agpr_count)},
    {".sgpr_count", offsetof(amdgpu_kernel_md, sgpr_count)},
    {".vgpr_spill_count", offsetof(amdgpu_kernel_md, vgpr_spill_count)},
    {".sgpr_spill_count", offsetof(amdgpu_kernel_md, sgpr_spill_count)},
    {".group_segment_fixed_size", offsetof(amdgpu_kernel_md, group_segment_fixed_size)},
    {".private_segment_fixed_size", offsetof(amdgpu_kernel_md, private_segment_fixed_size)},
    {".kernarg_segment_size", offsetof(amdgpu_kernel_md, kernarg_segment_size)},
    {".wavefront_size", offsetof(amdgpu_kernel_md, wavefront_size)},
    {".max_flat_workgroup_size", offsetof(amdgpu_kernel_md, max_flat_workgroup_size)},
};

static int kernel_field(const note_src *s, const msgpack_object_kv *kv, amdgpu_kernel_md *k,
			fp_err *e)
{
	const msgpack_object *v = &kv->val;
	if (key_is(&kv->key, ".name") || key_is(&kv->key, ".symbol")) {
		char **dst = key_is(&kv->key, ".name") ? &k->name : &k->symbol;
		free(*dst);
		if (!(*dst = obj_str(v)))
			return fp_fail_input(e, s->file, obj_offset(s, &kv->key), "a string",
					     "%s: kernel %.*s is not a string", s->file,
					     (int)kv->key.via.str.size, kv->key.via.str.ptr);
		return 0;
	}
	if (key_is(&kv->key, ".reqd_workgroup_size")) {
		if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 3)
			return fp_fail_input(e, s->file, obj_offset(s, &kv->key),
					     "an array of 3 integers",
					     "%s: bad .reqd_workgroup_size", s->file);
		for (int i = 0; i < 3; i++)
			if (obj_int(&v->via.array.ptr[i], &k->reqd_workgroup_size[i]) != 0)
				return fp_fail_input(e, s->file, obj_offset(s, &kv->key),
						     "an integer", "%s: bad .reqd_workgroup_size",
						     s->file);
		return 0;
	}
	for (size_t i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++) {
		if (!key_is(&kv->key, int_keys[i].key))
			continue;
		if (obj_int(v, (int64_t *)((char *)k + int_keys[i].field)) != 0)
			return fp_fail_input(e, s->file, obj_offset(s, &kv->key), "an integer",
					     "%s: %s is not an integer", s->file, int_keys[i].key);
	}
	return 0;
}

static void kernel_init(amdgpu_kernel_md *k)
{
	memset(k, 0, sizeof *k);
	for (size_t i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++)
		*(int64_t *)((char *)k + int_keys[i].field) = -1;
	k->reqd_workgroup_size[0] = k->reqd_workgroup_size[1] = k->reqd_workgroup_size[2] = -1;
}

static int read_kernels(const note_src *s, const msgpack_object_kv *kv, amdgpu_metadata *md,
			fp_err *e)
{
	const msgpack_object *v = &kv->val;
	if (v->type != MSGPACK_OBJECT_ARRAY)
		return fp_fail_input(e, s->file, obj_offset(s, &kv->key), "an array of kernels",
				     "%s: amdhsa.kernels is not an array", s->file);
	md->kernels = xcalloc(v->via.array.size ? v->via.array.size : 1, sizeof *md->kernels);
	for (uint32_t i = 0; i < v->via.array.size; i++) {
		const msgpack_object *km = &v->via.array.ptr[i];
		amdgpu_kernel_md *k = &md->kernels[md->n_kernels++];
		kernel_init(k);
		if (km->type != MSGPACK_OBJECT_MAP)
			return fp_fail_input(e, s->file, obj_offset(s, &kv->key), "a kernel map",
					     "%s: amdhsa.kernels[%u] is not a map", s->file, i);
		for (uint32_t j = 0; j < km->via.map.size; j++)
			if (kernel_field(s, &km->via.map.ptr[j], k, e) != 0)
				return -1;
		if (!k->name)
			return fp_fail_input(e, s->file, obj_offset(s, &kv->key), "a .name key",
					     "%s: amdhsa.kernels[%u] has no .name", s->file, i);
	}
	return 0;
}

static int read_top(const note_src *s, const msgpack_object *top, amdgpu_metadata *md, fp_err *e)
{
	if (top->type != MSGPACK_OBJECT_MAP)
		return fp_fail_input(e, s->file, s->base, "a MessagePack map",
				     "%s: metadata note is not a map", s->file);
	for (uint32_t i = 0; i < top->via.map.size; i++) {
		const msgpack_object_kv *kv = &top->via.map.ptr[i];
		if (key_is(&kv->key, "amdhsa.target")) {
			free(md->target);
			md->target = obj_str(&kv->val);
		} else if (key_is(&kv->key, "amdhsa.version") &&
			   kv->val.type == MSGPACK_OBJECT_ARRAY && kv->val.via.array.size >= 2) {
			obj_int(&kv->val.via.array.ptr[0], &md->version[0]);
			obj_int(&kv->val.via.array.ptr[1], &md->version[1]);
		} else if (key_is(&kv->key, "amdhsa.kernels") && !md->kernels) {
			if (read_kernels(s, kv, md, e) != 0)
				return -1;
		}
	}
	return 0;
}

int amdgpu_note_parse(const void *desc, size_t len, const char *file, int64_t file_offset,
		      amdgpu_metadata *md, fp_err *e)
{
	memset(md, 0, sizeof *md);
	md->version[0] = md->version[1] = -1;
	note_src s = {desc, len, file ? file : "<note>", file_offset};
	if (precheck(&s, e) != 0)
		return -1;
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc;
	if (msgpack_unpack_next(&u, desc, len, &off) != MSGPACK_UNPACK_SUCCESS)
		rc = fp_fail_input(e, s.file, file_offset, "a MessagePack document",
				   "%s: metadata note does not unpack (nesting too deep?)", s.file);
	else
		rc = read_top(&s, &u.data, md, e);
	msgpack_unpacked_destroy(&u);
	if (rc != 0)
		amdgpu_metadata_release(md);
	return rc;
}

void amdgpu_metadata_release(amdgpu_metadata *md)
{
	if (!md)
		return;
	for (size_t i = 0; i < md->n_kernels; i++) {
		free(md->kernels[i].name);
		free(md->kernels[i].symbol);
	}
	free(md->kernels);
	free(md->target);
	memset(md, 0, sizeof *md);
	md->version[0] = md->version[1] = -1;
}

const amdgpu_kernel_md *amdgpu_metadata_kernel(const amdgpu_metadata *md, const char *name)
{
	for (size_t i = 0; i < md->n_kernels; i++)
		if (strcmp(md->kernels[i].name, name) == 0)
			return &md->kernels[i];
	size_t n = strlen(name);
	if (n > 3 && strcmp(name + n - 3, ".kd") == 0)
		n -= 3;
	for (size_t i = 0; i < md->n_kernels; i++) {
		const amdgpu_kernel_md *k = &md->kernels[i];
		if (strlen(k->name) == n && strncmp(k->name, name, n) == 0)
			return k;
		if (k->symbol && strncmp(k->symbol, name, n) == 0 &&
		    (strcmp(k->symbol + n, ".kd") == 0 || k->symbol[n] == 0))
			return k;
	}
	return NULL;
}

int amdgpu_metadata_arch(const amdgpu_metadata *md, char *buf, size_t size)
{
	if (!md->target || size == 0)
		return -1;
	const char *p = strstr(md->target, "--");
	p = p ? p + 2 : md->target;
	size_t n = strcspn(p, ":");
	if (n == 0 || n >= size)
		return -1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

void amdgpu_kernel_resources(const amdgpu_kernel_md *k, int accum_offset, trace_resources *r)
{
	if (k->vgpr_count >= 0) {
		int64_t arch = k->vgpr_count;
		if (k->agpr_count > 0)
			arch = accum_offset > 0 ? accum_offset : k->vgpr_count - k->agpr_count;
		r->vgpr = (int)arch;
	}
	if (k->agpr_count >= 0)
		r->agpr = (int)k->agpr_count;
	if (k->sgpr_count >= 0)
		r->sgpr = (int)k->sgpr_count;
	if (k->group_segment_fixed_size >= 0)
		r->lds_bytes = k->group_segment_fixed_size;
	if (k->private_segment_fixed_size >= 0)
		r->scratch_bytes = k->private_segment_fixed_size;
	if (k->wavefront_size > 0)
		r->wave_size = (int)k->wavefront_size;
	if (k->reqd_workgroup_size[0] > 0 && k->reqd_workgroup_size[1] > 0 &&
	    k->reqd_workgroup_size[2] > 0)
		r->wg_size = (int)(k->reqd_workgroup_size[0] * k->reqd_workgroup_size[1] *
				   k->reqd_workgroup_size[2]);
	r->source = "metadata";
}
