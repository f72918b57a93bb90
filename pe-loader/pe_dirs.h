/* Walkers over the data directories of a mapped PE image.
 *
 * Pure functions over [base, base+size): no loader state, no I/O, so the
 * loader (module.c, tls.c, pe_map.c) and the fuzzer (tests/fuzz) run the
 * same code on the same bytes.  Every RVA, count and size read from the
 * image is checked against size before it is used; pe_parse has already
 * checked that each directory lies inside the image. */
#ifndef NDSHIM_PE_DIRS_H
#define NDSHIM_PE_DIRS_H

#include "pe_image.h"

/* A NUL-terminated string at rva inside the image, or NULL. */
const char *pe_image_string(const uint8_t *base, uint32_t size, uint32_t rva);

enum pe_walk {
	PE_WALK_ENTRY,      /* an entry was returned */
	PE_WALK_END,        /* the list is terminated here */
	PE_WALK_OUTSIDE,    /* the list runs outside the image */
	PE_WALK_BAD_NAME,   /* an entry names a string that is not in the image */
};

/* An import descriptor where the image has it: the import directory need
 * not be 4-byte aligned (winnt.h's PIMAGE_IMPORT_DESCRIPTOR is UNALIGNED,
 * and lld places the directory unaligned inside .rdata). */
typedef IMAGE_IMPORT_DESCRIPTOR __attribute__((aligned(1))) pe_import_desc;

/* Import descriptor index of the import directory dir, with the name of
 * the DLL it imports from. */
enum pe_walk pe_import_descriptor(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
				  uint32_t index, const pe_import_desc **desc, const char **dllname);

/* Thunk index of an import descriptor: where its IAT slot is (*iat_rva),
 * and what it imports: a name (*name) or, with *name NULL, an ordinal. */
enum pe_walk pe_import_thunk(const uint8_t *base, uint32_t size, const pe_import_desc *desc,
			     uint32_t index, uint32_t *iat_rva, const char **name, unsigned int *ordinal);

enum pe_export {
	PE_EXPORT_FOUND,         /* *rva is the export */
	PE_EXPORT_FORWARDER,     /* *forwarder is "DLL.name" or "DLL.#ordinal" */
	PE_EXPORT_MISSING,       /* no such name or ordinal */
	PE_EXPORT_CORRUPT,       /* the export directory's tables do not fit */
	PE_EXPORT_OUTSIDE,       /* the function's RVA lies outside the image */
	PE_EXPORT_BAD_FORWARDER, /* a forwarder string runs off the image */
};

/* Look up name (or, name NULL, ordinal) in the export directory dir
 * (NULL: the image exports nothing). */
enum pe_export pe_find_export(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
			      const char *name, unsigned int ordinal, uint32_t *rva, const char **forwarder);

/* Validate the TLS directory dir of an image mapped (and relocated) at
 * base: its template, index slot and callback array lie inside the image,
 * and the callbacks point into it.  Returns the directory, or NULL with a
 * one-line reason in err. */
const IMAGE_TLS_DIRECTORY64 *pe_check_tls(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
					  char *err, size_t errlen);

/* Apply base relocations for a move by delta.  0 or -1 (reason in err). */
int pe_apply_relocations(uint8_t *base, uint32_t size_of_image, const IMAGE_DATA_DIRECTORY *dir,
			 int64_t delta, char *err, size_t errlen);

#endif
