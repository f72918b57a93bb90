/* libFuzzer target: everything ndrun does to a PE file before any of its
 * code runs, on the same functions (pe_image.c, pe_dirs.c): validate the
 * headers, lay the image out, relocate it, walk the import descriptors and
 * thunks, resolve each import against the image's own export directory by
 * name and by ordinal (forwarders included), and validate the TLS
 * directory.  Only the mmap and the binding to other modules are left out.
 *
 * Built with clang -fsanitize=fuzzer by `make fuzz`, and with the host
 * compiler and tests/fuzz/replay.c by `make check-pefuzz`, which replays
 * the committed corpus and every crash the fuzzer ever found. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pe_dirs.h"
#include "pe_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Larger images are valid but only cost the fuzzer time and memory. */
#define MAX_FUZZ_IMAGE (64u << 20)

static void lookup(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *exports, const char *name,
		   unsigned int ordinal)
{
	const char *fwd;
	uint32_t rva;
	volatile uint8_t sink;

	switch (pe_find_export(base, size, exports, name, ordinal, &rva, &fwd)) {
	case PE_EXPORT_FOUND:
		/* The loader hands out base + rva: it must be in the image. */
		sink = base[rva];
		(void)sink;
		break;
	case PE_EXPORT_FORWARDER:
		if (strlen(fwd) >= size)
			abort();
		break;
	default:
		break;
	}
}

static void walk_imports(const uint8_t *base, uint32_t size, const struct pe_image *img)
{
	const IMAGE_DATA_DIRECTORY *imports = pe_directory(img, IMAGE_DIRECTORY_ENTRY_IMPORT);
	const IMAGE_DATA_DIRECTORY *exports = pe_directory(img, IMAGE_DIRECTORY_ENTRY_EXPORT);

	if (!imports)
		return;
	for (uint32_t d = 0;; d++) {
		const pe_import_desc *desc;
		const char *dll;

		if (pe_import_descriptor(base, size, imports, d, &desc, &dll) != PE_WALK_ENTRY)
			return;
		for (uint32_t t = 0;; t++) {
			const char *name;
			unsigned int ord;
			uint32_t iat;

			if (pe_import_thunk(base, size, desc, t, &iat, &name, &ord) != PE_WALK_ENTRY)
				break;
			if (iat > size - sizeof(uint64_t))
				abort();
			lookup(base, size, exports, name, ord);
			/* The loader writes the bound address into the slot. */
			memcpy((uint8_t *)base + iat, &base, sizeof(base));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const IMAGE_DATA_DIRECTORY *dir;
	struct pe_image img;
	char err[256];
	uint8_t *base;

	if (pe_parse(data, size, &img, err, sizeof(err)) || img.size_of_image > MAX_FUZZ_IMAGE)
		return 0;
	base = calloc(1, img.size_of_image);
	if (!base)
		return 0;
	pe_copy_image(&img, base);
	pe_use_image(&img, base);
	/* The fuzzer's buffer is never at ImageBase: always relocate, as
	 * the loader does when the preferred base is taken. */
	dir = pe_directory(&img, IMAGE_DIRECTORY_ENTRY_BASERELOC);
	if (dir && pe_apply_relocations(base, img.size_of_image, dir, (int64_t)((uintptr_t)base - img.image_base),
					err, sizeof(err)))
		goto out;
	walk_imports(base, img.size_of_image, &img);
	dir = pe_directory(&img, IMAGE_DIRECTORY_ENTRY_EXPORT);
	for (unsigned int ord = 0; dir && ord < 8; ord++)
		lookup(base, img.size_of_image, dir, NULL, ord);
	dir = pe_directory(&img, IMAGE_DIRECTORY_ENTRY_TLS);
	if (dir)
		pe_check_tls(base, img.size_of_image, dir, err, sizeof(err));
out:
	free(base);
	return 0;
}
