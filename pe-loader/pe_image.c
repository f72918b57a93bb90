/* PE32+ header validation.  Everything here reads an untrusted file: each
 * field is checked before it is used to index anything, with overflow-safe
 * arithmetic, and each failure names what is wrong in one line. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pe_image.h"

/* Windows refuses more than 96 sections and images of 2 GiB or more. */
#define MAX_SECTIONS 96
#define MAX_IMAGE_SIZE 0x80000000u
#define PE_PAGE_SIZE 0x1000u
/* FileAlignment's smallest value for an image with page-sized sections. */
#define PE_MIN_FILE_ALIGNMENT 0x200u

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static const char *machine_name(WORD m)
{
	switch (m) {
	case IMAGE_FILE_MACHINE_I386: return "i386 (32-bit x86)";
	case IMAGE_FILE_MACHINE_ARM64: return "ARM64";
	case IMAGE_FILE_MACHINE_ARMNT: return "ARM (32-bit)";
	case IMAGE_FILE_MACHINE_IA64: return "IA-64";
	default: return NULL;
	}
}

int pe_check_range(uint32_t size_of_image, uint32_t rva, uint32_t size)
{
	return (uint64_t)rva + size <= size_of_image ? 0 : -1;
}

/* The directories the loader reads, with the alignment of their records.
 * Not the import directory: Windows loads it from any address (winnt.h's
 * PIMAGE_IMPORT_DESCRIPTOR is UNALIGNED) and lld 14 places it unaligned;
 * nor its lookup and address tables (Go's linker leaves them 2-aligned).
 * Not the export directory either: Windows loads images whose export
 * directory sits at an odd address (pe_dirs.c reads it byte-wise). */
static const unsigned char dir_align[] = {
	[IMAGE_DIRECTORY_ENTRY_BASERELOC] = _Alignof(IMAGE_BASE_RELOCATION),
	[IMAGE_DIRECTORY_ENTRY_TLS] = _Alignof(IMAGE_TLS_DIRECTORY64),
};

static int executable_rva(const struct pe_image *img, uint32_t rva)
{
	for (unsigned int i = 0; i < img->nr_sections; i++) {
		const IMAGE_SECTION_HEADER *s = &img->sections[i];
		uint32_t vsize = s->Misc.VirtualSize ? s->Misc.VirtualSize : s->SizeOfRawData;

		if (rva >= s->VirtualAddress && rva - s->VirtualAddress < vsize)
			return !!(s->Characteristics & IMAGE_SCN_MEM_EXECUTE);
	}
	return 0;
}

/* Where a section's raw data starts in the file.  Microsoft's PE format
 * documentation has PointerToRawData a multiple of FileAlignment, at
 * least 512 unless SectionAlignment is below the page size (then the two
 * match, and may be smaller); Windows' loader reads a section of such an
 * image from the 512-byte boundary at or below an offset that breaks the
 * rule, so a linker's or packer's stray low bits do not shift the
 * section's contents. */
static uint32_t raw_offset(const struct pe_image *img, const IMAGE_SECTION_HEADER *s)
{
	if (img->section_alignment >= PE_PAGE_SIZE)
		return s->PointerToRawData & ~(uint32_t)(PE_MIN_FILE_ALIGNMENT - 1);
	return s->PointerToRawData;
}

static int check_sections(struct pe_image *img, char *err, size_t errlen)
{
	uint32_t prev_end = img->size_of_headers;

	for (unsigned int i = 0; i < img->nr_sections; i++) {
		const IMAGE_SECTION_HEADER *s = &img->sections[i];
		char name[IMAGE_SIZEOF_SHORT_NAME + 1];
		uint32_t vsize = s->Misc.VirtualSize ? s->Misc.VirtualSize : s->SizeOfRawData;

		memcpy(name, s->Name, IMAGE_SIZEOF_SHORT_NAME);
		name[IMAGE_SIZEOF_SHORT_NAME] = 0;
		for (char *c = name; *c; c++)
			if (*c < 0x20 || *c > 0x7e)
				*c = '?';

		if (s->VirtualAddress % img->section_alignment)
			return fail(err, errlen, "section %u (%s) is not aligned to SectionAlignment", i, name);
		if (s->VirtualAddress < prev_end)
			return fail(err, errlen, "section %u (%s) overlaps the headers or the previous section", i, name);
		if ((uint64_t)s->VirtualAddress + vsize > img->size_of_image)
			return fail(err, errlen, "section %u (%s) extends past SizeOfImage", i, name);
		if (s->SizeOfRawData &&
		    (uint64_t)raw_offset(img, s) + s->SizeOfRawData > img->size) {
			/* The last section's raw data may be padded past the end of
			 * the file up to FileAlignment; what is really needed is
			 * the part that lands in the image. */
			uint32_t used = s->SizeOfRawData < vsize ? s->SizeOfRawData : vsize;
			if ((uint64_t)raw_offset(img, s) + used > img->size)
				return fail(err, errlen, "section %u (%s) lies outside the file (raw data at 0x%x, 0x%x bytes, file is 0x%zx bytes)",
					    i, name, s->PointerToRawData, s->SizeOfRawData, img->size);
		}
		prev_end = s->VirtualAddress + vsize;
	}
	return 0;
}

int pe_parse(const void *data, size_t size, struct pe_image *img, char *err, size_t errlen)
{
	const uint8_t *p = data;
	const IMAGE_DOS_HEADER *dos = data;
	const IMAGE_NT_HEADERS64 *nt;
	const IMAGE_OPTIONAL_HEADER64 *opt;
	size_t nt_off, opt_off, sec_off;
	const char *mname;

	memset(img, 0, sizeof(*img));
	img->data = p;
	img->size = size;

	if (size < sizeof(*dos) || dos->e_magic != IMAGE_DOS_SIGNATURE)
		return fail(err, errlen, "not a PE file (no MZ header)");
	nt_off = (uint32_t)dos->e_lfanew;
	if (dos->e_lfanew < (LONG)sizeof(*dos) - 4 || nt_off > size ||
	    size - nt_off < offsetof(IMAGE_NT_HEADERS64, OptionalHeader))
		return fail(err, errlen, "not a PE file (PE header offset 0x%x outside the file)", (unsigned)dos->e_lfanew);
	/* The headers are read in place through typed pointers; every linker
	 * puts them on an 8-byte boundary. */
	if (nt_off % _Alignof(IMAGE_NT_HEADERS64))
		return fail(err, errlen, "unsupported PE header offset 0x%x (not 8-byte aligned)", (unsigned)nt_off);
	nt = (const IMAGE_NT_HEADERS64 *)(p + nt_off);
	if (nt->Signature != IMAGE_NT_SIGNATURE)
		return fail(err, errlen, "not a PE file (MZ executable without a PE signature)");

	if (nt->FileHeader.Machine != IMAGE_FILE_MACHINE_AMD64) {
		mname = machine_name(nt->FileHeader.Machine);
		if (mname)
			return fail(err, errlen, "wrong machine: %s; ndrun runs x86-64 programs only", mname);
		return fail(err, errlen, "wrong machine: unknown type 0x%04x; ndrun runs x86-64 programs only",
			    nt->FileHeader.Machine);
	}
	if (!(nt->FileHeader.Characteristics & IMAGE_FILE_EXECUTABLE_IMAGE))
		return fail(err, errlen, "not an executable image (an object file?)");

	opt_off = nt_off + offsetof(IMAGE_NT_HEADERS64, OptionalHeader);
	if (nt->FileHeader.SizeOfOptionalHeader < offsetof(IMAGE_OPTIONAL_HEADER64, DataDirectory) ||
	    size - opt_off < sizeof(WORD))
		return fail(err, errlen, "truncated optional header");
	opt = &nt->OptionalHeader;
	if (opt->Magic == IMAGE_NT_OPTIONAL_HDR32_MAGIC)
		return fail(err, errlen, "32-bit PE (PE32); ndrun runs x86-64 (PE32+) programs only");
	if (opt->Magic != IMAGE_NT_OPTIONAL_HDR64_MAGIC)
		return fail(err, errlen, "unknown optional header magic 0x%04x", opt->Magic);
	if (size - opt_off < nt->FileHeader.SizeOfOptionalHeader)
		return fail(err, errlen, "truncated optional header (file ends inside it)");
	if (nt->FileHeader.SizeOfOptionalHeader % _Alignof(IMAGE_SECTION_HEADER))
		return fail(err, errlen, "inconsistent headers: SizeOfOptionalHeader 0x%x leaves the section table misaligned",
			    nt->FileHeader.SizeOfOptionalHeader);
	if (opt->NumberOfRvaAndSizes > IMAGE_NUMBEROF_DIRECTORY_ENTRIES ||
	    offsetof(IMAGE_OPTIONAL_HEADER64, DataDirectory) +
			    (size_t)opt->NumberOfRvaAndSizes * sizeof(IMAGE_DATA_DIRECTORY) >
		    nt->FileHeader.SizeOfOptionalHeader)
		return fail(err, errlen, "inconsistent headers: %u data directories do not fit the optional header",
			    opt->NumberOfRvaAndSizes);

	sec_off = opt_off + nt->FileHeader.SizeOfOptionalHeader;
	if (nt->FileHeader.NumberOfSections > MAX_SECTIONS)
		return fail(err, errlen, "too many sections (%u)", nt->FileHeader.NumberOfSections);
	if (sec_off + (size_t)nt->FileHeader.NumberOfSections * sizeof(IMAGE_SECTION_HEADER) > size)
		return fail(err, errlen, "truncated section table");

	if (!is_pow2(opt->SectionAlignment) || !is_pow2(opt->FileAlignment) ||
	    opt->FileAlignment > opt->SectionAlignment)
		return fail(err, errlen, "inconsistent headers: SectionAlignment 0x%x, FileAlignment 0x%x",
			    opt->SectionAlignment, opt->FileAlignment);
	if (!opt->SizeOfImage || opt->SizeOfImage >= MAX_IMAGE_SIZE)
		return fail(err, errlen, "inconsistent headers: SizeOfImage 0x%x", opt->SizeOfImage);
	if (opt->SizeOfHeaders > opt->SizeOfImage || opt->SizeOfHeaders > size ||
	    opt->SizeOfHeaders < sec_off + (size_t)nt->FileHeader.NumberOfSections * sizeof(IMAGE_SECTION_HEADER))
		return fail(err, errlen, "inconsistent headers: SizeOfHeaders 0x%x", opt->SizeOfHeaders);
	if (opt->ImageBase & 0xffff)
		return fail(err, errlen, "inconsistent headers: ImageBase 0x%llx is not 64 KiB aligned",
			    (unsigned long long)opt->ImageBase);
	if (opt->AddressOfEntryPoint >= opt->SizeOfImage)
		return fail(err, errlen, "entry point 0x%x lies outside the image", opt->AddressOfEntryPoint);

	img->nt = nt;
	img->sections = (const IMAGE_SECTION_HEADER *)(p + sec_off);
	img->nr_sections = nt->FileHeader.NumberOfSections;
	img->image_base = opt->ImageBase;
	img->size_of_image = opt->SizeOfImage;
	img->size_of_headers = opt->SizeOfHeaders;
	img->section_alignment = opt->SectionAlignment;
	img->entry_rva = opt->AddressOfEntryPoint;
	img->is_dll = !!(nt->FileHeader.Characteristics & IMAGE_FILE_DLL);
	if (!img->is_dll && !img->entry_rva)
		return fail(err, errlen, "executable without an entry point");

	if (check_sections(img, err, errlen))
		return -1;
	/* Jumping into a page that cannot execute would kill ndrun with
	 * SIGSEGV instead of an error message. */
	if (img->entry_rva && !executable_rva(img, img->entry_rva))
		return fail(err, errlen, "entry point 0x%x is not in an executable section", img->entry_rva);

	for (unsigned int i = 0; i < opt->NumberOfRvaAndSizes; i++) {
		const IMAGE_DATA_DIRECTORY *d = &opt->DataDirectory[i];
		/* The security directory holds a file offset, not an RVA. */
		if (i == IMAGE_DIRECTORY_ENTRY_SECURITY || !d->Size)
			continue;
		if (pe_check_range(img->size_of_image, d->VirtualAddress, d->Size))
			return fail(err, errlen, "data directory %u (0x%x, 0x%x bytes) lies outside the image",
				    i, d->VirtualAddress, d->Size);
		if (i < sizeof(dir_align) && dir_align[i] && d->VirtualAddress % dir_align[i])
			return fail(err, errlen, "data directory %u (0x%x) is misaligned", i, d->VirtualAddress);
	}
	memcpy(img->dirs, opt->DataDirectory, opt->NumberOfRvaAndSizes * sizeof(img->dirs[0]));
	img->relocatable = !(nt->FileHeader.Characteristics & IMAGE_FILE_RELOCS_STRIPPED) &&
			   pe_directory(img, IMAGE_DIRECTORY_ENTRY_BASERELOC);
	return 0;
}

const IMAGE_DATA_DIRECTORY *pe_directory(const struct pe_image *img, unsigned int i)
{
	if (i >= IMAGE_NUMBEROF_DIRECTORY_ENTRIES || !img->dirs[i].Size)
		return NULL;
	return &img->dirs[i];
}

void pe_copy_image(const struct pe_image *img, uint8_t *base)
{
	memcpy(base, img->data, img->size_of_headers);
	for (unsigned int s = 0; s < img->nr_sections; s++) {
		const IMAGE_SECTION_HEADER *sec = &img->sections[s];
		uint32_t vsize = sec->Misc.VirtualSize ? sec->Misc.VirtualSize : sec->SizeOfRawData;
		uint32_t raw = sec->SizeOfRawData < vsize ? sec->SizeOfRawData : vsize;

		/* pe_parse checked both ranges. */
		if (raw)
			memcpy(base + sec->VirtualAddress, img->data + raw_offset(img, sec), raw);
	}
}

void pe_use_image(struct pe_image *img, const uint8_t *base)
{
	img->nt = (const void *)(base + ((const uint8_t *)img->nt - img->data));
	img->sections = (const void *)(base + ((const uint8_t *)img->sections - img->data));
	img->data = base;
	img->size = img->size_of_image;
}
