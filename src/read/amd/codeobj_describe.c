/* codeobj_describe: a loaded code object as the jv tree `map --code-object` prints. Numbers
 * absent from the metadata are left out rather than printed as -1. */
#include "read/amd/codeobj_load.h"

#include <stdio.h>

static void set_known(jv *o, const char *key, int64_t v)
{
	if (v >= 0)
		jv_set_int(o, key, v);
}

static jv *hex32(uint32_t v)
{
	return jv_strf("0x%08x", (unsigned)v);
}

static jv *describe_md(const amdgpu_kernel_md *k, int accum_offset)
{
	jv *o = jv_object();
	trace_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, NULL};
	amdgpu_kernel_resources(k, accum_offset, &r);
	set_known(o, "arch_vgpr", r.vgpr);
	set_known(o, "vgpr_count", k->vgpr_count);
	set_known(o, "agpr_count", k->agpr_count);
	set_known(o, "sgpr_count", k->sgpr_count);
	set_known(o, "vgpr_spill_count", k->vgpr_spill_count);
	set_known(o, "sgpr_spill_count", k->sgpr_spill_count);
	set_known(o, "lds_bytes", k->group_segment_fixed_size);
	set_known(o, "scratch_bytes", k->private_segment_fixed_size);
	set_known(o, "kernarg_segment_size", k->kernarg_segment_size);
	set_known(o, "wavefront_size", k->wavefront_size);
	set_known(o, "max_flat_workgroup_size", k->max_flat_workgroup_size);
	if (r.wg_size > 0)
		jv_set_int(o, "reqd_workgroup_size", r.wg_size);
	jv_set_str(o, "source", "metadata");
	return o;
}

static jv *describe_kd(const codeobj *co, const codeobj_kernel *k)
{
	jv *o = jv_object();
	jv_set_int(o, "address", (int64_t)k->kd_addr);
	jv_set_int(o, "group_segment_fixed_size", k->kd_group_segment_fixed_size);
	jv_set_int(o, "private_segment_fixed_size", k->kd_private_segment_fixed_size);
	jv_set_int(o, "kernarg_size", k->kd_kernarg_size);
	jv_set_int(o, "entry_offset", k->kd_entry_offset);
	jv_set(o, "compute_pgm_rsrc1", hex32(k->kd_rsrc1));
	jv_set(o, "compute_pgm_rsrc2", hex32(k->kd_rsrc2));
	jv_set(o, "compute_pgm_rsrc3", hex32(k->kd_rsrc3));
	jv_set_int(o, "vgpr_alloc", codeobj_kd_vgpr_alloc(k));
	int acc = codeobj_kd_accum_offset(co, k);
	if (acc >= 0)
		jv_set_int(o, "accum_offset", acc);
	return o;
}

static jv *describe_kernels(const codeobj_full *cf)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < cf->co.n_kernels; i++) {
		const codeobj_kernel *k = &cf->co.kernels[i];
		jv *o = jv_push(arr, jv_object());
		jv_set_str(o, "name", k->name);
		jv_set_int(o, "address", (int64_t)k->addr);
		jv_set_int(o, "size", (int64_t)k->size);
		const amdgpu_kernel_md *md =
		    cf->has_md ? amdgpu_metadata_kernel(&cf->md, k->name) : NULL;
		if (md)
			jv_set(o, "resources",
			       describe_md(md, codeobj_kd_accum_offset(&cf->co, k)));
		else
			jv_set(o, "resources", jv_null());
		jv_set(o, "descriptor", k->has_kd ? describe_kd(&cf->co, k) : jv_null());
	}
	return arr;
}

static jv *describe_lines(const dwarf_lines *dl, size_t max_rows)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < dl->n_rows && (max_rows == 0 || i < max_rows); i++) {
		const dwarf_line_row *r = &dl->rows[i];
		jv *o = jv_push(arr, jv_object());
		jv_set_int(o, "addr", (int64_t)r->addr);
		jv_set_str(o, "file", r->file ? r->file : "");
		jv_set_int(o, "line", r->line);
		jv_set_int(o, "col", r->col);
		jv_set_bool(o, "is_stmt", r->is_stmt);
		jv_set_bool(o, "end_sequence", r->end_sequence);
	}
	return arr;
}

static jv *describe_inlined(const dwarf_lines *dl)
{
	jv *arr = jv_array();
	for (size_t i = 0; i < dl->n_inl; i++) {
		const dwarf_inline *in = &dl->inl[i];
		jv *o = jv_push(arr, jv_object());
		jv_set_int(o, "low_pc", (int64_t)in->lo);
		jv_set_int(o, "high_pc", (int64_t)in->hi);
		jv_set_int(o, "depth", in->depth);
		jv_set_str(o, "call_file", in->call_file ? in->call_file : "");
		jv_set_int(o, "call_line", in->call_line);
	}
	return arr;
}

jv *codeobj_describe(const codeobj_full *cf, size_t max_rows, size_t *total)
{
	char arch[32];
	jv *d = jv_object();
	jv *c = jv_set(d, "code_object", jv_object());
	jv_set_str(c, "path", cf->co.path);
	jv_set_str(c, "arch", codeobj_full_arch(cf, arch, sizeof arch));
	jv_set(c, "target", cf->has_md && cf->md.target ? jv_str(cf->md.target) : jv_null());
	jv_set_str(c, "mach", cf->co.mach);
	jv_set(c, "e_flags", hex32(cf->co.e_flags));
	jv_set_int(c, "code_object_version", cf->co.co_version);
	jv_set_str(c, "xnack", cf->co.xnack);
	jv_set_str(c, "sramecc", cf->co.sramecc);
	jv_set_bool(c, "metadata_note", cf->has_md);
	jv_set_bool(c, "debug_line", cf->dl.has_debug);
	jv_set(d, "kernels", describe_kernels(cf));
	jv *lt = jv_set(d, "line_table", jv_object());
	jv_set_int(lt, "rows", (int64_t)cf->dl.n_rows);
	jv *files = jv_set(lt, "files", jv_array());
	for (size_t i = 0; i < cf->dl.n_files; i++)
		jv_push(files, jv_str(cf->dl.files[i]));
	jv_set(lt, "entries", describe_lines(&cf->dl, max_rows));
	jv_set(d, "inlined", describe_inlined(&cf->dl));
	*total = cf->dl.n_rows;
	return d;
}
