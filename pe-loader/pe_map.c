#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/debug.h"
#include "pe_dirs.h"
#include "pe_map.h"

#define ALLOC_GRANULARITY 0x10000

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* A 64 KiB aligned reservation of len bytes, preferably at want. */
static void *reserve(uint64_t want, size_t len)
{
	void *p;
	uintptr_t a;
	size_t extra = ALLOC_GRANULARITY;

	if (want) {
		p = mmap((void *)(uintptr_t)want, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != MAP_FAILED)
			return p;
		return NULL;
	}
	p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + ALLOC_GRANULARITY - 1) & ~(uintptr_t)(ALLOC_GRANULARITY - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	if ((uintptr_t)p + len + extra > a + len)
		munmap((void *)(a + len), (uintptr_t)p + len + extra - (a + len));
	return (void *)a;
}

static int section_prot(DWORD ch)
{
	int prot = 0;

	if (ch & IMAGE_SCN_MEM_READ)
		prot |= PROT_READ;
	if (ch & IMAGE_SCN_MEM_WRITE)
		prot |= PROT_READ | PROT_WRITE;
	if (ch & IMAGE_SCN_MEM_EXECUTE)
		prot |= PROT_READ | PROT_EXEC;
	return prot;
}

/* Pages shared by two sections (SectionAlignment below the page size)
 * get the union of their protections. */
int pe_protect_image(uint8_t *base, const struct pe_image *img, char *err, size_t errlen)
{
	size_t ps = page_size();
	size_t npages = (img->size_of_image + ps - 1) / ps;
	unsigned char *prot = calloc(npages, 1);
	size_t i, j;

	if (!prot) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < (img->size_of_headers + ps - 1) / ps; i++)
		prot[i] = PROT_READ;
	for (unsigned int s = 0; s < img->nr_sections; s++) {
		const IMAGE_SECTION_HEADER *sec = &img->sections[s];
		uint32_t vsize = sec->Misc.VirtualSize ? sec->Misc.VirtualSize : sec->SizeOfRawData;
		size_t first = sec->VirtualAddress / ps, last;

		if (!vsize)
			continue;
		last = ((size_t)sec->VirtualAddress + vsize - 1) / ps;
		for (i = first; i <= last && i < npages; i++)
			prot[i] |= (unsigned char)section_prot(sec->Characteristics);
	}
	for (i = 0; i < npages; i = j) {
		for (j = i + 1; j < npages && prot[j] == prot[i]; j++)
			;
		if (mprotect(base + i * ps, (j - i) * ps, prot[i])) {
			snprintf(err, errlen, "mprotect: %s", strerror(errno));
			free(prot);
			return -1;
		}
	}
	free(prot);
	return 0;
}

void *pe_map_image(struct pe_image *img, char *err, size_t errlen)
{
	size_t len = ((size_t)img->size_of_image + page_size() - 1) & ~(page_size() - 1);
	const IMAGE_DATA_DIRECTORY *relocs = pe_directory(img, IMAGE_DIRECTORY_ENTRY_BASERELOC);
	/* ImageBase 0 is no place at all: such an image must be relocated. */
	uint8_t *base = img->image_base ? reserve(img->image_base, len) : NULL;

	if (!base) {
		if (!img->relocatable) {
			snprintf(err, errlen, "cannot place the image at its base 0x%llx and it has no relocations",
				 (unsigned long long)img->image_base);
			return NULL;
		}
		base = reserve(0, len);
		if (!base) {
			snprintf(err, errlen, "cannot reserve 0x%zx bytes: %s", len, strerror(errno));
			return NULL;
		}
	}
	pe_copy_image(img, base);
	/* From here on the headers are read from the image, not the file, at
	 * the offsets validated there: a relocation may rewrite e_lfanew. */
	pe_use_image(img, base);
	if ((uintptr_t)base != img->image_base) {
		TRACE(loader, "relocating from 0x%llx to %p\n", (unsigned long long)img->image_base, (void *)base);
		if (relocs && pe_apply_relocations(base, img->size_of_image, relocs,
						   (int64_t)((uintptr_t)base - img->image_base), err, errlen))
			goto fail;
		/* The mapped headers say where the image really is. */
		((IMAGE_NT_HEADERS64 *)img->nt)->OptionalHeader.ImageBase = (uintptr_t)base;
	}
	return base;
fail:
	munmap(base, len);
	return NULL;
}

void pe_unmap_image(void *base, uint32_t size_of_image)
{
	munmap(base, ((size_t)size_of_image + page_size() - 1) & ~(page_size() - 1));
}
