/* AMDGPU ELF code objects through libelf: header, sections, kernel symbols, descriptors and
 * the metadata note's location. Every structure is bounds-checked against the image before
 * use because code objects come from traces of arbitrary origin. */
#include "read/amd/elf_codeobj.h"

#include "base/fileio.h"
#include "base/input_open.h"
#include "base/xalloc.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT_AMDGPU_METADATA_TYPE 32

/* EF_AMDGPU_MACH values (low byte of e_flags) for the targets flyprof meets; other values
 * print as unknown(0xNN) and the metadata note's amdhsa.target is the better source then. */
static const struct {
	unsigned mach;
	const char *name;
} mach_names[] = {
    {0x2c, "gfx900"},  {0x2f, "gfx906"},  {0x30, "gfx908"},  {0x3f, "gfx90a"},
    {0x40, "gfx940"},  {0x4b, "gfx941"},  {0x4c, "gfx942"},  {0x4f, "gfx950"},
    {0x36, "gfx1030"}, {0x41, "gfx1100"}, {0x48, "gfx1200"}, {0x4e, "gfx1201"},
};

static int elf_ready;

static void init_libelf(void)
{
	if (!elf_ready) {
		elf_version(EV_CURRENT);
		elf_ready = 1;
	}
}

static int bad(fp_err *e, const codeobj *co, int64_t off, const char *expected, const char *what)
{
	return fp_fail_input(e, co->path, off, expected, "%s: %s%s%s", co->path, what,
			     elf_errno() ? ": " : "", elf_errno() ? elf_errmsg(-1) : "");
}

static const char *feature_name(uint32_t bits)
{
	switch (bits) {
	case 1:
		return "any";
	case 2:
		return "off";
	case 3:
		return "on";
	default:
		return "unsupported";
	}
}

static int read_header(codeobj *co, fp_err *e)
{
	const unsigned char *id = co->image;
	if (co->len < 64 || memcmp(id, ELFMAG, SELFMAG) != 0)
		return fp_fail_input(e, co->path, 0, "ELF magic 7f 45 4c 46", "%s: not an ELF file",
				     co->path);
	if (id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB)
		return fp_fail_input(e, co->path, EI_CLASS, "ELF64 little-endian",
				     "%s: not a 64-bit little-endian ELF", co->path);
	GElf_Ehdr eh;
	if (!gelf_getehdr(co->elf, &eh))
		return bad(e, co, 0, "an ELF header", "unreadable ELF header");
	if (eh.e_machine != EM_AMDGPU)
		return fp_fail_input(e, co->path, 18, "e_machine EM_AMDGPU (224)",
				     "%s: e_machine is %u, not an AMDGPU code object", co->path,
				     (unsigned)eh.e_machine);
	/* libelf quietly treats out-of-file header tables as absent; a cut file must not look
	 * like a code object without sections. */
	if (eh.e_shoff > co->len || (uint64_t)eh.e_shnum * eh.e_shentsize > co->len - eh.e_shoff)
		return fp_fail_input(e, co->path, 0x28, "a section header table inside the file",
				     "%s: section headers at %llu run past the end (%zu bytes); "
				     "truncated file?",
				     co->path, (unsigned long long)eh.e_shoff, co->len);
	if (eh.e_phoff > co->len || (uint64_t)eh.e_phnum * eh.e_phentsize > co->len - eh.e_phoff)
		return fp_fail_input(e, co->path, 0x20, "a program header table inside the file",
				     "%s: program headers run past the end; truncated file?",
				     co->path);
	co->abi_version = id[EI_ABIVERSION];
	co->co_version = co->abi_version >= 1 && co->abi_version <= 4 ? co->abi_version + 2 : 0;
	co->e_flags = (uint32_t)eh.e_flags;
	unsigned mach = co->e_flags & 0xff;
	snprintf(co->mach, sizeof co->mach, "unknown(0x%02x)", mach);
	for (size_t i = 0; i < sizeof mach_names / sizeof mach_names[0]; i++)
		if (mach_names[i].mach == mach)
			snprintf(co->mach, sizeof co->mach, "%s", mach_names[i].name);
	/* Feature bits exist in this form from code object v4 on (xnack 0x300, sramecc 0xc00). */
	co->xnack = co->co_version >= 4 ? feature_name((co->e_flags >> 8) & 3) : "unsupported";
	co->sramecc = co->co_version >= 4 ? feature_name((co->e_flags >> 10) & 3) : "unsupported";
	return 0;
}

static int read_sections(codeobj *co, fp_err *e)
{
	size_t shnum = 0, shstrndx = 0;
	if (elf_getshdrnum(co->elf, &shnum) != 0)
		return bad(e, co, 0x3c, "a section header count", "bad section headers");
	if (shnum > co->len / sizeof(Elf64_Shdr))
		return fp_fail_input(e, co->path, 0x3c, "a section count that fits the file",
				     "%s: %zu section headers cannot fit", co->path, shnum);
	if (elf_getshdrstrndx(co->elf, &shstrndx) != 0)
		shstrndx = 0;
	co->sections = xcalloc(shnum ? shnum : 1, sizeof *co->sections);
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(co->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return bad(e, co, 0x28, "a section header", "unreadable section header");
		if (co->n_sections >= shnum)
			break;
		codeobj_section *s = &co->sections[co->n_sections++];
		const char *nm = shstrndx ? elf_strptr(co->elf, shstrndx, sh.sh_name) : NULL;
		s->name = xstrdup(nm ? nm : "");
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->addr = sh.sh_addr;
		s->offset = sh.sh_offset;
		s->size = sh.sh_size;
		/* The error points at the section header, which is inside the file. */
		GElf_Ehdr eh;
		uint64_t hdr = gelf_getehdr(co->elf, &eh)
				   ? eh.e_shoff + (uint64_t)elf_ndxscn(scn) * eh.e_shentsize
				   : 0;
		if (hdr > co->len)
			hdr = 0x28; /* e_shoff itself */
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > co->len || sh.sh_size > co->len - sh.sh_offset))
			return fp_fail_input(
			    e, co->path, (int64_t)hdr, "section contents inside the file",
			    "%s: section %s runs past the end of the file", co->path, s->name);
	}
	return 0;
}

/* Finds the NT_AMDGPU_METADATA note ("AMDGPU" owner, type 32) in any SHT_NOTE section. */
static int find_note(codeobj *co, fp_err *e)
{
	for (size_t i = 0; i < co->n_sections; i++) {
		const codeobj_section *s = &co->sections[i];
		if (s->type != SHT_NOTE)
			continue;
		Elf_Scn *scn = elf_getscn(co->elf, i + 1);
		Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
		if (!d || !d->d_buf)
			return bad(e, co, (int64_t)s->offset, "note contents", "unreadable note");
		size_t off = 0, next, name_off, desc_off;
		GElf_Nhdr nh;
		while (off < d->d_size &&
		       (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_AMDGPU_METADATA_TYPE && nh.n_namesz == 7 &&
			    memcmp((const char *)d->d_buf + name_off, "AMDGPU", 7) == 0) {
				co->note_desc = (const unsigned char *)d->d_buf + desc_off;
				co->note_len = nh.n_descsz;
				co->note_offset = (int64_t)(s->offset + desc_off);
				return 0;
			}
			off = next;
		}
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads the 64-byte descriptor at virtual address kd_addr from the allocated section that
 * holds it; leaves has_kd 0 when no section holds all 64 bytes. */
static void read_kd(codeobj *co, codeobj_kernel *k)
{
	for (size_t i = 0; i < co->n_sections; i++) {
		const codeobj_section *s = &co->sections[i];
		if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || k->kd_addr < s->addr ||
		    s->size < CODEOBJ_KD_SIZE || k->kd_addr - s->addr > s->size - CODEOBJ_KD_SIZE)
			continue;
		const unsigned char *p = co->image + s->offset + (k->kd_addr - s->addr);
		k->has_kd = 1;
		k->kd_group_segment_fixed_size = le32(p);
		k->kd_private_segment_fixed_size = le32(p + 4);
		k->kd_kernarg_size = le32(p + 8);
		k->kd_entry_offset =
		    (int64_t)((uint64_t)le32(p + 16) | (uint64_t)le32(p + 20) << 32);
		k->kd_rsrc3 = le32(p + 44);
		k->kd_rsrc1 = le32(p + 48);
		k->kd_rsrc2 = le32(p + 52);
		k->kd_code_properties = (uint16_t)(p[56] | p[57] << 8);
		return;
	}
}

static int cmp_kernel(const void *a, const void *b)
{
	const codeobj_kernel *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

typedef struct sym_row {
	const char *name;
	GElf_Sym sym;
} sym_row;

static int collect_syms(codeobj *co, sym_row **out, size_t *n, fp_err *e)
{
	size_t cap = 0;
	for (size_t i = 0; i < co->n_sections; i++) {
		if (co->sections[i].type != SHT_SYMTAB)
			continue;
		Elf_Scn *scn = elf_getscn(co->elf, i + 1);
		GElf_Shdr sh;
		Elf_Data *d = scn && gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
		if (!d)
			return bad(e, co, (int64_t)co->sections[i].offset, "a symbol table",
				   "unreadable .symtab");
		size_t cnt = sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
		for (size_t j = 0; j < cnt; j++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)j, &sym))
				break;
			const char *nm = elf_strptr(co->elf, sh.sh_link, sym.st_name);
			if (!nm || !*nm)
				continue;
			*out = xgrow(*out, &cap, *n + 1, sizeof **out);
			(*out)[(*n)++] = (sym_row){nm, sym};
		}
	}
	return 0;
}

/* Kernels are the function symbols that have a <name>.kd descriptor symbol (helpers and
 * device-library functions have none). */
static int read_kernels(codeobj *co, fp_err *e)
{
	sym_row *syms = NULL;
	size_t n = 0;
	if (collect_syms(co, &syms, &n, e) != 0) {
		free(syms);
		return -1;
	}
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (GELF_ST_TYPE(syms[i].sym.st_info) != STT_FUNC)
			continue;
		size_t nl = strlen(syms[i].name);
		for (size_t j = 0; j < n; j++) {
			const char *kn = syms[j].name;
			if (strncmp(kn, syms[i].name, nl) != 0 || strcmp(kn + nl, ".kd") != 0)
				continue;
			co->kernels =
			    xgrow(co->kernels, &cap, co->n_kernels + 1, sizeof *co->kernels);
			codeobj_kernel *k = &co->kernels[co->n_kernels++];
			memset(k, 0, sizeof *k);
			k->name = xstrdup(syms[i].name);
			k->addr = syms[i].sym.st_value;
			k->size = syms[i].sym.st_size;
			k->kd_addr = syms[j].sym.st_value;
			read_kd(co, k);
			break;
		}
	}
	free(syms);
	if (co->n_kernels > 1)
		qsort(co->kernels, co->n_kernels, sizeof *co->kernels, cmp_kernel);
	return 0;
}

int codeobj_read_mem(const void *buf, size_t len, const char *name, codeobj *co, fp_err *e)
{
	memset(co, 0, sizeof *co);
	init_libelf();
	co->path = xstrdup(name ? name : "<memory>");
	co->image = xmalloc(len ? len : 1);
	if (len)
		memcpy(co->image, buf, len);
	co->len = len;
	co->xnack = co->sramecc = "unsupported";
	if (len < 64 || memcmp(co->image, ELFMAG, SELFMAG) != 0)
		return fp_fail_input(e, co->path, 0, "ELF magic 7f 45 4c 46", "%s: not an ELF file",
				     co->path);
	co->elf = elf_memory((char *)co->image, len);
	if (!co->elf || elf_kind(co->elf) != ELF_K_ELF)
		return bad(e, co, 0, "an ELF image", "libelf rejects the image");
	if (read_header(co, e) || read_sections(co, e) || find_note(co, e) || read_kernels(co, e))
		return -1;
	return 0;
}

int codeobj_read_file(const char *path, codeobj *co, fp_err *e)
{
	size_t len = 0;
	char *buf = input_read_all(path, INPUT_CODE_OBJECT, &len, e);
	if (!buf) {
		memset(co, 0, sizeof *co);
		return -1;
	}
	int rc = codeobj_read_mem(buf, len, path, co, e);
	free(buf);
	return rc;
}

void codeobj_release(codeobj *co)
{
	if (!co)
		return;
	if (co->elf)
		elf_end(co->elf);
	for (size_t i = 0; i < co->n_sections; i++)
		free(co->sections[i].name);
	for (size_t i = 0; i < co->n_kernels; i++)
		free(co->kernels[i].name);
	free(co->sections);
	free(co->kernels);
	free(co->image);
	free(co->path);
	memset(co, 0, sizeof *co);
}

const codeobj_section *codeobj_section_find(const codeobj *co, const char *name)
{
	for (size_t i = 0; i < co->n_sections; i++)
		if (strcmp(co->sections[i].name, name) == 0)
			return &co->sections[i];
	return NULL;
}

const codeobj_kernel *codeobj_kernel_at(const codeobj *co, uint64_t addr)
{
	for (size_t i = 0; i < co->n_kernels; i++) {
		const codeobj_kernel *k = &co->kernels[i];
		if (addr == k->addr || (addr > k->addr && addr - k->addr < k->size))
			return k;
	}
	return NULL;
}

const codeobj_kernel *codeobj_kernel_find(const codeobj *co, const char *name)
{
	for (size_t i = 0; i < co->n_kernels; i++)
		if (strcmp(co->kernels[i].name, name) == 0)
			return &co->kernels[i];
	size_t n = strlen(name);
	if (n > 3 && strcmp(name + n - 3, ".kd") == 0)
		n -= 3;
	for (size_t i = 0; i < co->n_kernels; i++)
		if (strlen(co->kernels[i].name) == n && strncmp(co->kernels[i].name, name, n) == 0)
			return &co->kernels[i];
	return NULL;
}

int codeobj_kd_vgpr_alloc(const codeobj_kernel *k)
{
	if (!k->has_kd)
		return -1;
	return (int)((k->kd_rsrc1 & 0x3f) + 1) * 8;
}

int codeobj_kd_accum_offset(const codeobj *co, const codeobj_kernel *k)
{
	/* ACCUM_OFFSET exists only on targets with the unified arch+acc VGPR file. */
	static const char *const unified[] = {"gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"};
	if (!k->has_kd)
		return -1;
	for (size_t i = 0; i < sizeof unified / sizeof unified[0]; i++)
		if (strcmp(co->mach, unified[i]) == 0)
			return (int)((k->kd_rsrc3 & 0x3f) + 1) * 4;
	return -1;
}
