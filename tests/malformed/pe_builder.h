/* A tiny PE32+ image builder for tests: an exe whose entry calls
 * ExitProcess through an import of kernel32.dll, or a DLL with a few
 * exports (code, or forwarders), both with base relocations.
 *
 * The layout is fixed so that tests can corrupt any field by RVA:
 * FileAlignment = SectionAlignment = 0x1000, so a file offset equals
 * its RVA.
 *
 *   0x0000 headers     (MZ at 0, PE header at PB_NT_OFF)
 *   0x1000 .text  RX   entry at 0x1000, export i's code at 0x1100 + 0x20*i
 *   0x2000 .rdata R    import descriptors, lookup tables, names (0x2000..),
 *                      export directory (0x2800..), TLS directory (0x2c00),
 *                      free scratch space (PB_SCRATCH_RVA..0x3000)
 *   0x3000 .data  RW   import address tables, relocated pointers, TLS data
 *   0x4000 .reloc R    base relocations; its tail is scratch space too
 *   0x5000 end (SizeOfImage)
 */
#ifndef NDSHIM_TESTS_PE_BUILDER_H
#define NDSHIM_TESTS_PE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <windef.h>
#include <winnt.h>

#define PB_NT_OFF 0x80
#define PB_SEC_OFF (PB_NT_OFF + sizeof(IMAGE_NT_HEADERS64))
#define PB_NR_SECTIONS 4
#define PB_TEXT_RVA 0x1000
#define PB_RDATA_RVA 0x2000
#define PB_DATA_RVA 0x3000
#define PB_RELOC_RVA 0x4000
#define PB_IMAGE_SIZE 0x5000
#define PB_EXPORT_RVA 0x2800
#define PB_TLS_RVA 0x2c00
#define PB_SCRATCH_RVA 0x2e00
#define PB_TAIL_RVA 0x4f00 /* the last 0x100 bytes of the image, unused */

#define PB_EXE_BASE 0x140000000ull
#define PB_DLL_BASE 0x180000000ull

#define PB_MAX_IMPORTS 8
#define PB_MAX_EXPORTS 8

struct pb_import {
	const char *dll;
	const char *name; /* NULL: by ordinal */
	uint16_t ordinal;
};

struct pb_export {
	const char *name;    /* NULL: exported by ordinal only */
	const char *forward; /* "DLL.name" or "DLL.#n"; NULL: code */
	uint32_t value;      /* what the code returns (read through a relocated pointer) */
};

struct pb_spec {
	uint64_t image_base; /* 0: PB_EXE_BASE or PB_DLL_BASE */
	int base_zero;       /* ImageBase 0 (legal if relocatable: it always moves) */
	int dll;
	int tls;           /* a TLS directory (4 bytes of data, no callbacks) */
	int no_relocs;     /* strip relocations */
	int dllmain_fails; /* DllMain returns FALSE */
	uint32_t exit_code;
	/* exe: 1-based index into imports of a function to call first; its
	 * return value becomes the exit code.  0: exit with exit_code. */
	unsigned int call_import;
	/* exe: kernel32.dll!ExitProcess is always imported first, these after. */
	struct pb_import imports[PB_MAX_IMPORTS];
	unsigned int nr_imports;
	/* Sorted by name (names first, then ordinal-only ones); export i
	 * has ordinal export_base + i. */
	struct pb_export exports[PB_MAX_EXPORTS];
	unsigned int nr_exports;
	uint32_t export_base; /* 0: 1 */
	const char *export_name;
};

struct pb_image {
	uint8_t *data; /* PB_IMAGE_SIZE bytes; offset == RVA */
	size_t size;
	/* Where the builder put things, for tests that corrupt them. */
	uint32_t import_desc_rva;          /* descriptors, one per DLL, then a zero one */
	uint32_t ilt_rva[PB_MAX_IMPORTS + 1]; /* lookup table of each descriptor */
	uint32_t iat_rva[PB_MAX_IMPORTS + 1];
	uint32_t export_funcs_rva, export_names_rva, export_ords_rva;
	uint32_t reloc_size;
	uint32_t value_ptr_rva; /* exe: the relocated pointer to its exit code */
};

/* 0, or -1 on a bad spec (message on stderr). */
int pb_build(const struct pb_spec *spec, struct pb_image *img);
void pb_free(struct pb_image *img);
/* Write data[0..size) to path; 0 or -1. */
int pb_write(const void *data, size_t size, const char *path);

static inline IMAGE_DOS_HEADER *pb_dos(struct pb_image *img)
{
	return (IMAGE_DOS_HEADER *)img->data;
}

static inline IMAGE_NT_HEADERS64 *pb_nt(struct pb_image *img)
{
	return (IMAGE_NT_HEADERS64 *)(img->data + PB_NT_OFF);
}

static inline IMAGE_SECTION_HEADER *pb_section(struct pb_image *img, unsigned int i)
{
	return (IMAGE_SECTION_HEADER *)(img->data + PB_SEC_OFF) + i;
}

static inline IMAGE_DATA_DIRECTORY *pb_dir(struct pb_image *img, unsigned int i)
{
	return &pb_nt(img)->OptionalHeader.DataDirectory[i];
}

static inline void *pb_at(struct pb_image *img, uint32_t rva)
{
	return img->data + rva;
}

/* Base relocations: one block per 4 KiB page. */
struct pb_reloc {
	uint32_t rva;
	unsigned int type; /* IMAGE_REL_BASED_* */
};

/* Write blocks for relocs[0..n) (sorted by rva) at out; returns the
 * directory size, or 0 if it does not fit in cap bytes. */
uint32_t pb_make_relocs(uint8_t *out, size_t cap, const struct pb_reloc *relocs, unsigned int n);

#endif
