/* PE32+ header parsing and validation, on a file image in memory.
 *
 * Pure functions over a byte buffer: no mapping, no I/O, no globals, so
 * the unit tests and the malformed-file corpus exercise exactly the code
 * ndrun runs.  Every offset and size read from the file is checked
 * against the buffer before use. */
#ifndef NDSHIM_PE_IMAGE_H
#define NDSHIM_PE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <windef.h>
#include <winnt.h>

struct pe_image {
	const uint8_t *data; /* the whole file */
	size_t size;
	const IMAGE_NT_HEADERS64 *nt;
	const IMAGE_SECTION_HEADER *sections;
	unsigned int nr_sections;
	uint64_t image_base;
	uint32_t size_of_image;
	uint32_t size_of_headers;
	uint32_t section_alignment;
	uint32_t entry_rva; /* 0: none (allowed for DLLs) */
	int is_dll;
	int relocatable;    /* has a base-relocation directory, not RELOCS_STRIPPED */
	/* The data directories as validated.  Relocations may rewrite the
	 * mapped headers, so the loader never reads them from there. */
	IMAGE_DATA_DIRECTORY dirs[IMAGE_NUMBEROF_DIRECTORY_ENTRIES];
};

/* Validate the headers of data[0..size) and fill *img.  On failure returns
 * -1 and writes a one-line reason (no trailing newline) into err. */
int pe_parse(const void *data, size_t size, struct pe_image *img, char *err, size_t errlen);

/* Data directory i (IMAGE_DIRECTORY_ENTRY_*), or NULL when absent. */
const IMAGE_DATA_DIRECTORY *pe_directory(const struct pe_image *img, unsigned int i);

/* Validate a mapped image's data directory: [rva, rva+size) inside the
 * image and not overflowing.  Returns 0 or -1. */
int pe_check_range(uint32_t size_of_image, uint32_t rva, uint32_t size);

/* Lay the file out as the loader maps it: headers and each section's raw
 * data at their RVAs in base[0..size_of_image), which the caller has
 * zero-filled (the rest of each section stays zero). */
void pe_copy_image(const struct pe_image *img, uint8_t *base);

/* Point img at the headers of its copy at base (made by pe_copy_image),
 * at the offsets validated in the file, so the file can go. */
void pe_use_image(struct pe_image *img, const uint8_t *base);

#endif
