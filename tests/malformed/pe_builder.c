/* Builds the small PE32+ images described in pe_builder.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pe_builder.h"

#define ILT_RVA 0x2100
#define NAMES_RVA 0x2400
#define VALUE_PTR_RVA 0x3100 /* 8-byte pointers, one per export (exe: one) */
#define VALUE_RVA 0x3200     /* the dwords they point at */
#define TLS_DATA_RVA 0x3800
#define TLS_INDEX_RVA 0x3900
#define SPARE_PTR_RVA 0x3f00
#define MAX_RELOCS 32

struct group {
	const char *dll;
	const struct pb_import *funcs[PB_MAX_IMPORTS + 1];
	unsigned int n;
};

static const struct pb_import exit_process = { "kernel32.dll", "ExitProcess", 0 };

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* rel32 from the end of an instruction at rva (of length len) to target. */
static uint32_t rel32(uint32_t rva, uint32_t len, uint32_t target)
{
	return target - (rva + len);
}

static uint32_t put_string(uint8_t *img, uint32_t *cursor, const char *s)
{
	uint32_t rva = *cursor;

	strcpy((char *)img + rva, s);
	*cursor += strlen(s) + 1;
	return rva;
}

uint32_t pb_make_relocs(uint8_t *out, size_t cap, const struct pb_reloc *relocs, unsigned int n)
{
	uint32_t size = 0;

	for (unsigned int i = 0; i < n;) {
		uint32_t page = relocs[i].rva & ~0xfffu, block = size;
		unsigned int count = 0;

		if (size + 8 > cap)
			return 0;
		size += 8;
		for (; i < n && (relocs[i].rva & ~0xfffu) == page; i++, count++) {
			if (size + 2 > cap)
				return 0;
			put16(out + size, (uint16_t)(relocs[i].type << 12 | (relocs[i].rva & 0xfff)));
			size += 2;
		}
		if (count & 1) { /* blocks are a multiple of 4 bytes */
			if (size + 2 > cap)
				return 0;
			put16(out + size, IMAGE_REL_BASED_ABSOLUTE << 12);
			size += 2;
		}
		put32(out + block, page);
		put32(out + block + 4, size - block);
	}
	return size;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct pb_reloc *x = a, *y = b;
	return x->rva < y->rva ? -1 : x->rva > y->rva;
}

static unsigned int group_imports(const struct pb_spec *spec, struct group *groups)
{
	unsigned int nr = 0;

	for (unsigned int i = 0; i <= spec->nr_imports; i++) {
		const struct pb_import *imp;
		unsigned int g;

		if (i == 0) {
			if (spec->dll)
				continue;
			imp = &exit_process;
		} else {
			imp = &spec->imports[i - 1];
		}
		for (g = 0; g < nr; g++)
			if (!strcasecmp(groups[g].dll, imp->dll))
				break;
		if (g == nr) {
			groups[nr].dll = imp->dll;
			groups[nr].n = 0;
			nr++;
		}
		groups[g].funcs[groups[g].n++] = imp;
	}
	return nr;
}

static void build_sections(struct pb_image *img)
{
	static const struct {
		const char *name;
		uint32_t rva;
		DWORD flags;
	} secs[PB_NR_SECTIONS] = {
		{ ".text", PB_TEXT_RVA, IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE | IMAGE_SCN_MEM_READ },
		{ ".rdata", PB_RDATA_RVA, IMAGE_SCN_CNT_INITIALIZED_DATA | IMAGE_SCN_MEM_READ },
		{ ".data", PB_DATA_RVA, IMAGE_SCN_CNT_INITIALIZED_DATA | IMAGE_SCN_MEM_READ | IMAGE_SCN_MEM_WRITE },
		{ ".reloc", PB_RELOC_RVA, IMAGE_SCN_CNT_INITIALIZED_DATA | IMAGE_SCN_MEM_DISCARDABLE | IMAGE_SCN_MEM_READ },
	};

	for (unsigned int i = 0; i < PB_NR_SECTIONS; i++) {
		IMAGE_SECTION_HEADER *s = pb_section(img, i);
		memcpy(s->Name, secs[i].name, strlen(secs[i].name));
		s->Misc.VirtualSize = 0x1000;
		s->VirtualAddress = secs[i].rva;
		s->SizeOfRawData = 0x1000;
		s->PointerToRawData = secs[i].rva;
		s->Characteristics = secs[i].flags;
	}
}

static void build_headers(const struct pb_spec *spec, struct pb_image *img)
{
	IMAGE_DOS_HEADER *dos = pb_dos(img);
	IMAGE_NT_HEADERS64 *nt = pb_nt(img);
	IMAGE_OPTIONAL_HEADER64 *opt = &nt->OptionalHeader;

	dos->e_magic = IMAGE_DOS_SIGNATURE;
	dos->e_cblp = 0x90;
	dos->e_cp = 3;
	dos->e_cparhdr = 4;
	dos->e_maxalloc = 0xffff;
	dos->e_sp = 0xb8;
	dos->e_lfarlc = 0x40;
	dos->e_lfanew = PB_NT_OFF;

	nt->Signature = IMAGE_NT_SIGNATURE;
	nt->FileHeader.Machine = IMAGE_FILE_MACHINE_AMD64;
	nt->FileHeader.NumberOfSections = PB_NR_SECTIONS;
	nt->FileHeader.SizeOfOptionalHeader = sizeof(IMAGE_OPTIONAL_HEADER64);
	nt->FileHeader.Characteristics = IMAGE_FILE_EXECUTABLE_IMAGE | IMAGE_FILE_LARGE_ADDRESS_AWARE |
					 (spec->dll ? IMAGE_FILE_DLL : 0) |
					 (spec->no_relocs ? IMAGE_FILE_RELOCS_STRIPPED : 0);
	opt->Magic = IMAGE_NT_OPTIONAL_HDR64_MAGIC;
	opt->MajorLinkerVersion = 2;
	opt->SizeOfCode = 0x1000;
	opt->SizeOfInitializedData = 0x3000;
	opt->AddressOfEntryPoint = PB_TEXT_RVA;
	opt->BaseOfCode = PB_TEXT_RVA;
	opt->ImageBase = spec->base_zero ? 0 : spec->image_base ? spec->image_base : spec->dll ? PB_DLL_BASE : PB_EXE_BASE;
	opt->SectionAlignment = 0x1000;
	opt->FileAlignment = 0x1000;
	opt->MajorOperatingSystemVersion = 6;
	opt->MajorSubsystemVersion = 6;
	opt->SizeOfImage = PB_IMAGE_SIZE;
	opt->SizeOfHeaders = 0x1000;
	opt->Subsystem = IMAGE_SUBSYSTEM_WINDOWS_CUI;
	opt->DllCharacteristics = IMAGE_DLLCHARACTERISTICS_HIGH_ENTROPY_VA | IMAGE_DLLCHARACTERISTICS_NX_COMPAT |
				  (spec->no_relocs ? 0 : IMAGE_DLLCHARACTERISTICS_DYNAMIC_BASE);
	opt->SizeOfStackReserve = 0x200000;
	opt->SizeOfStackCommit = 0x1000;
	opt->SizeOfHeapReserve = 0x100000;
	opt->SizeOfHeapCommit = 0x1000;
	opt->NumberOfRvaAndSizes = IMAGE_NUMBEROF_DIRECTORY_ENTRIES;
	build_sections(img);
}

/* Import descriptors, lookup tables and names in .rdata, address tables
 * in .data.  Returns the IAT rva of each import (exe: [0] is ExitProcess). */
static int build_imports(const struct pb_spec *spec, struct pb_image *img, uint32_t *slot)
{
	struct group groups[PB_MAX_IMPORTS + 1];
	unsigned int nr = group_imports(spec, groups), k = 0;
	uint32_t ilt = ILT_RVA, iat = PB_DATA_RVA, names = NAMES_RVA;
	IMAGE_IMPORT_DESCRIPTOR *desc = pb_at(img, PB_RDATA_RVA);

	if (!nr)
		return 0;
	img->import_desc_rva = PB_RDATA_RVA;
	for (unsigned int g = 0; g < nr; g++) {
		img->ilt_rva[g] = ilt;
		img->iat_rva[g] = iat;
		desc[g].OriginalFirstThunk = ilt;
		desc[g].FirstThunk = iat;
		for (unsigned int f = 0; f < groups[g].n; f++) {
			const struct pb_import *imp = groups[g].funcs[f];
			uint64_t entry;

			if (imp->name) {
				names = (names + 1) & ~1u;
				entry = names;
				put16(img->data + names, 0);
				names += 2;
				put_string(img->data, &names, imp->name);
			} else {
				entry = IMAGE_ORDINAL_FLAG64 | imp->ordinal;
			}
			put64(img->data + ilt, entry);
			put64(img->data + iat, entry);
			/* Which import is this, in spec order? */
			if (imp == &exit_process)
				slot[0] = iat;
			else
				slot[1 + (imp - spec->imports)] = iat;
			ilt += 8;
			iat += 8;
			k++;
		}
		ilt += 8; /* zero terminators */
		iat += 8;
		desc[g].Name = put_string(img->data, &names, groups[g].dll);
	}
	if (ilt > NAMES_RVA || names > PB_EXPORT_RVA || iat > VALUE_PTR_RVA) {
		fprintf(stderr, "pe_builder: too many imports\n");
		return -1;
	}
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_IMPORT)->VirtualAddress = PB_RDATA_RVA;
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_IMPORT)->Size = (nr + 1) * sizeof(*desc);
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_IAT)->VirtualAddress = PB_DATA_RVA;
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_IAT)->Size = iat - PB_DATA_RVA;
	return 0;
}

static int build_exports(const struct pb_spec *spec, struct pb_image *img, struct pb_reloc *relocs,
			 unsigned int *nr_relocs)
{
	IMAGE_EXPORT_DIRECTORY *ed = pb_at(img, PB_EXPORT_RVA);
	unsigned int n = spec->nr_exports, nr_names = 0;
	uint32_t funcs = PB_EXPORT_RVA + sizeof(*ed), names, ords, str;

	if (!n)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (spec->exports[i].name)
			nr_names++;
	names = funcs + 4 * n;
	ords = names + 4 * nr_names;
	str = ords + 2 * nr_names;
	ed->Base = spec->export_base ? spec->export_base : 1;
	ed->NumberOfFunctions = n;
	ed->NumberOfNames = nr_names;
	ed->AddressOfFunctions = funcs;
	ed->AddressOfNames = names;
	ed->AddressOfNameOrdinals = ords;
	ed->Name = put_string(img->data, &str, spec->export_name ? spec->export_name : "test.dll");
	img->export_funcs_rva = funcs;
	img->export_names_rva = names;
	img->export_ords_rva = ords;

	for (unsigned int i = 0, ni = 0; i < n; i++) {
		const struct pb_export *e = &spec->exports[i];
		uint32_t code = PB_TEXT_RVA + 0x100 + 0x20 * i, ptr = VALUE_PTR_RVA + 8 * i, val = VALUE_RVA + 4 * i;
		uint8_t *c = img->data + code;

		if (e->name) {
			if (ni && strcmp(spec->exports[i - 1].name, e->name) >= 0) {
				fprintf(stderr, "pe_builder: export names not sorted\n");
				return -1;
			}
			put32(img->data + names + 4 * ni, put_string(img->data, &str, e->name));
			put16(img->data + ords + 2 * ni, (uint16_t)i);
			ni++;
		}
		if (e->forward) {
			put32(img->data + funcs + 4 * i, put_string(img->data, &str, e->forward));
			continue;
		}
		/* mov rax, [rip+ptr]; mov eax, [rax]; ret */
		c[0] = 0x48; c[1] = 0x8b; c[2] = 0x05;
		put32(c + 3, rel32(code, 7, ptr));
		c[7] = 0x8b; c[8] = 0x00;
		c[9] = 0xc3;
		put64(img->data + ptr, pb_nt(img)->OptionalHeader.ImageBase + val);
		put32(img->data + val, e->value);
		relocs[(*nr_relocs)++] = (struct pb_reloc){ ptr, IMAGE_REL_BASED_DIR64 };
		put32(img->data + funcs + 4 * i, code);
	}
	if (str > PB_TLS_RVA) {
		fprintf(stderr, "pe_builder: export names too long\n");
		return -1;
	}
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_EXPORT)->VirtualAddress = PB_EXPORT_RVA;
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_EXPORT)->Size = str - PB_EXPORT_RVA;
	return 0;
}

static void build_tls(struct pb_image *img, struct pb_reloc *relocs, unsigned int *nr_relocs)
{
	IMAGE_TLS_DIRECTORY64 *td = pb_at(img, PB_TLS_RVA);
	uint64_t base = pb_nt(img)->OptionalHeader.ImageBase;

	memcpy(img->data + TLS_DATA_RVA, "tls!", 4);
	td->StartAddressOfRawData = base + TLS_DATA_RVA;
	td->EndAddressOfRawData = base + TLS_DATA_RVA + 4;
	td->AddressOfIndex = base + TLS_INDEX_RVA;
	td->AddressOfCallBacks = base + PB_TLS_RVA + 0x40; /* an empty, zero-terminated list */
	td->SizeOfZeroFill = 12;
	for (unsigned int i = 0; i < 4; i++)
		relocs[(*nr_relocs)++] = (struct pb_reloc){ PB_TLS_RVA + 8 * i, IMAGE_REL_BASED_DIR64 };
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_TLS)->VirtualAddress = PB_TLS_RVA;
	pb_dir(img, IMAGE_DIRECTORY_ENTRY_TLS)->Size = sizeof(*td);
}

static void build_exe_entry(const struct pb_spec *spec, struct pb_image *img, const uint32_t *slot,
			    struct pb_reloc *relocs, unsigned int *nr_relocs)
{
	uint32_t rva = PB_TEXT_RVA;
	uint8_t *c = img->data + rva;

	/* sub rsp, 0x28: shadow space, and rsp 16-aligned at the calls */
	c[0] = 0x48; c[1] = 0x83; c[2] = 0xec; c[3] = 0x28;
	c += 4, rva += 4;
	if (spec->call_import) {
		/* call [rip+slot]; mov ecx, eax */
		c[0] = 0xff; c[1] = 0x15;
		put32(c + 2, rel32(rva, 6, slot[spec->call_import]));
		c[6] = 0x89; c[7] = 0xc1;
		c += 8, rva += 8;
	} else {
		/* mov rax, [rip+ptr]; mov ecx, [rax]: a relocated pointer */
		c[0] = 0x48; c[1] = 0x8b; c[2] = 0x05;
		put32(c + 3, rel32(rva, 7, VALUE_PTR_RVA));
		c[7] = 0x8b; c[8] = 0x08;
		c += 9, rva += 9;
	}
	/* Always there, so that every exe is relocatable: under ASan the
	 * usual exe base lies in the shadow gap and cannot be had. */
	put64(img->data + VALUE_PTR_RVA, pb_nt(img)->OptionalHeader.ImageBase + VALUE_RVA);
	put32(img->data + VALUE_RVA, spec->exit_code);
	relocs[(*nr_relocs)++] = (struct pb_reloc){ VALUE_PTR_RVA, IMAGE_REL_BASED_DIR64 };
	img->value_ptr_rva = VALUE_PTR_RVA;
	/* call [rip+ExitProcess]; int3 */
	c[0] = 0xff; c[1] = 0x15;
	put32(c + 2, rel32(rva, 6, slot[0]));
	c[6] = 0xcc;
}

static void build_dll_entry(const struct pb_spec *spec, struct pb_image *img)
{
	static const uint8_t ok[] = { 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3 }; /* mov eax, 1; ret */
	static const uint8_t no[] = { 0x31, 0xc0, 0xc3 };                   /* xor eax, eax; ret */

	if (spec->dllmain_fails)
		memcpy(img->data + PB_TEXT_RVA, no, sizeof(no));
	else
		memcpy(img->data + PB_TEXT_RVA, ok, sizeof(ok));
}

int pb_build(const struct pb_spec *spec, struct pb_image *img)
{
	struct pb_reloc relocs[MAX_RELOCS];
	unsigned int nr_relocs = 0;
	uint32_t slot[PB_MAX_IMPORTS + 1] = { 0 };

	memset(img, 0, sizeof(*img));
	if (spec->nr_imports > PB_MAX_IMPORTS || spec->nr_exports > PB_MAX_EXPORTS ||
	    spec->call_import > spec->nr_imports) {
		fprintf(stderr, "pe_builder: bad spec\n");
		return -1;
	}
	img->size = PB_IMAGE_SIZE;
	img->data = calloc(1, PB_IMAGE_SIZE);
	if (!img->data)
		return -1;
	build_headers(spec, img);
	if (build_imports(spec, img, slot) || build_exports(spec, img, relocs, &nr_relocs))
		goto fail;
	if (spec->tls)
		build_tls(img, relocs, &nr_relocs);
	if (spec->dll)
		build_dll_entry(spec, img);
	else
		build_exe_entry(spec, img, slot, relocs, &nr_relocs);

	if (!nr_relocs) {
		/* A DLL of forwarders only: one pointer, so that it can move. */
		put64(img->data + SPARE_PTR_RVA, pb_nt(img)->OptionalHeader.ImageBase + PB_DATA_RVA);
		relocs[nr_relocs++] = (struct pb_reloc){ SPARE_PTR_RVA, IMAGE_REL_BASED_DIR64 };
	}
	if (!spec->no_relocs) {
		qsort(relocs, nr_relocs, sizeof(relocs[0]), cmp_reloc);
		img->reloc_size = pb_make_relocs(img->data + PB_RELOC_RVA, PB_TAIL_RVA - PB_RELOC_RVA, relocs, nr_relocs);
		pb_dir(img, IMAGE_DIRECTORY_ENTRY_BASERELOC)->VirtualAddress = PB_RELOC_RVA;
		pb_dir(img, IMAGE_DIRECTORY_ENTRY_BASERELOC)->Size = img->reloc_size;
	}
	return 0;
fail:
	pb_free(img);
	return -1;
}

void pb_free(struct pb_image *img)
{
	free(img->data);
	img->data = NULL;
}

int pb_write(const void *data, size_t size, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	const uint8_t *p = data;

	if (fd < 0)
		return -1;
	while (size) {
		ssize_t n = write(fd, p, size);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		p += n;
		size -= (size_t)n;
	}
	return close(fd);
}
