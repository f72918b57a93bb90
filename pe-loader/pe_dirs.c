/* Data-directory walkers: imports, exports, TLS, base relocations.  The
 * image is untrusted: arithmetic on RVAs is done in 64 bits so that no
 * sum wraps, and every table is range-checked before it is indexed. */
#include <stdio.h>
#include <string.h>

#include "pe_dirs.h"

/* [rva, rva+len) inside an image of size bytes. */
static int inside(uint32_t size, uint64_t rva, uint64_t len)
{
	return rva <= size && len <= size - rva;
}

/* Loads that do not assume alignment: Windows' loader reads these tables
 * wherever the linker put them (Go's linker leaves import lookup tables
 * 2-aligned; export directories sit at odd addresses in real images). */
static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

const char *pe_image_string(const uint8_t *base, uint32_t size, uint32_t rva)
{
	if (rva >= size || !memchr(base + rva, 0, size - rva))
		return NULL;
	return (const char *)base + rva;
}

enum pe_walk pe_import_descriptor(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
				  uint32_t index, const pe_import_desc **desc, const char **dllname)
{
	uint64_t rva = dir->VirtualAddress + (uint64_t)index * sizeof(**desc);
	const pe_import_desc *d;

	/* Windows reads descriptors up to the null one, whatever the
	 * directory's Size says; the image's end is the only bound. */
	if (!inside(size, rva, sizeof(*d)))
		return PE_WALK_OUTSIDE;
	d = (const void *)(base + rva);
	if (!d->Name && !d->FirstThunk)
		return PE_WALK_END;
	*desc = d;
	*dllname = pe_image_string(base, size, d->Name);
	if (!*dllname || !**dllname)
		return PE_WALK_BAD_NAME;
	return PE_WALK_ENTRY;
}

enum pe_walk pe_import_thunk(const uint8_t *base, uint32_t size, const pe_import_desc *desc,
			     uint32_t index, uint32_t *iat_rva, const char **name, unsigned int *ordinal)
{
	uint32_t lookup = desc->OriginalFirstThunk ? desc->OriginalFirstThunk : desc->FirstThunk;
	uint64_t at = (uint64_t)index * sizeof(uint64_t);
	uint64_t entry;

	/* No alignment is required of either table (see rd64). */
	if (!inside(size, lookup + at, sizeof(entry)) || !inside(size, desc->FirstThunk + at, sizeof(entry)))
		return PE_WALK_OUTSIDE;
	entry = rd64(base + lookup + at);
	if (!entry)
		return PE_WALK_END;
	*iat_rva = (uint32_t)(desc->FirstThunk + at);
	*name = NULL;
	*ordinal = 0;
	if (IMAGE_SNAP_BY_ORDINAL64(entry)) {
		*ordinal = IMAGE_ORDINAL64(entry);
	} else {
		/* An IMAGE_IMPORT_BY_NAME: a 16-bit hint, then the name. */
		uint64_t rva = (entry & 0x7fffffff) + 2;

		*name = rva < size ? pe_image_string(base, size, (uint32_t)rva) : NULL;
		if (!*name || !**name)
			return PE_WALK_BAD_NAME;
	}
	return PE_WALK_ENTRY;
}

enum pe_export pe_find_export(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
			      const char *name, unsigned int ordinal, uint32_t *rva, const char **forwarder)
{
	IMAGE_EXPORT_DIRECTORY edc, *ed = &edc;
	const uint8_t *funcs, *names, *ords;
	uint32_t idx, func;

	if (!dir || dir->Size < sizeof(*ed) || !inside(size, dir->VirtualAddress, sizeof(*ed)))
		return PE_EXPORT_MISSING;
	/* The directory and its three tables may lie at any address. */
	memcpy(ed, base + dir->VirtualAddress, sizeof(*ed));
	if (ed->NumberOfFunctions > 0x10000 || ed->NumberOfNames > 0x10000 ||
	    !inside(size, ed->AddressOfFunctions, (uint64_t)ed->NumberOfFunctions * 4) ||
	    !inside(size, ed->AddressOfNames, (uint64_t)ed->NumberOfNames * 4) ||
	    !inside(size, ed->AddressOfNameOrdinals, (uint64_t)ed->NumberOfNames * 2))
		return PE_EXPORT_CORRUPT;
	funcs = base + ed->AddressOfFunctions;
	names = base + ed->AddressOfNames;
	ords = base + ed->AddressOfNameOrdinals;

	if (name) {
		/* The name table is sorted: binary search.  A name that is not
		 * in the image ends the search as "missing". */
		uint32_t lo = 0, hi = ed->NumberOfNames;

		idx = UINT32_MAX;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			const char *n = pe_image_string(base, size, rd32(names + 4 * mid));
			int c;

			if (!n)
				break;
			c = strcmp(name, n);
			if (!c) {
				idx = rd16(ords + 2 * mid);
				break;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	} else {
		idx = ordinal - ed->Base;
	}
	if (idx >= ed->NumberOfFunctions || !(func = rd32(funcs + 4 * (uint64_t)idx)))
		return PE_EXPORT_MISSING;
	if (func >= size)
		return PE_EXPORT_OUTSIDE;
	/* An RVA inside the export directory itself is a forwarder string. */
	if (func >= dir->VirtualAddress && func - dir->VirtualAddress < dir->Size) {
		*forwarder = pe_image_string(base, size, func);
		return *forwarder ? PE_EXPORT_FORWARDER : PE_EXPORT_BAD_FORWARDER;
	}
	*rva = func;
	return PE_EXPORT_FOUND;
}

/* [va, va+len) inside the image mapped at base: the TLS directory holds
 * virtual addresses, already relocated. */
static int va_inside(const uint8_t *base, uint32_t size, uint64_t va, uint64_t len)
{
	uint64_t b = (uintptr_t)base;

	return va >= b && len <= size && va - b <= size - len;
}

const IMAGE_TLS_DIRECTORY64 *pe_check_tls(const uint8_t *base, uint32_t size, const IMAGE_DATA_DIRECTORY *dir,
					  char *err, size_t errlen)
{
	const IMAGE_TLS_DIRECTORY64 *td;

	if (dir->Size < sizeof(*td) || !inside(size, dir->VirtualAddress, sizeof(*td))) {
		snprintf(err, errlen, "TLS directory too small");
		return NULL;
	}
	td = (const void *)(base + dir->VirtualAddress);
	if (td->EndAddressOfRawData < td->StartAddressOfRawData ||
	    !va_inside(base, size, td->StartAddressOfRawData, td->EndAddressOfRawData - td->StartAddressOfRawData) ||
	    !va_inside(base, size, td->AddressOfIndex, sizeof(DWORD)) ||
	    td->AddressOfIndex % sizeof(DWORD) || td->AddressOfCallBacks % sizeof(uint64_t) ||
	    (td->AddressOfCallBacks && !va_inside(base, size, td->AddressOfCallBacks, sizeof(uint64_t))) ||
	    td->SizeOfZeroFill > 0x10000000) {
		snprintf(err, errlen, "TLS directory points outside the image");
		return NULL;
	}
	if (!td->AddressOfCallBacks)
		return td;
	for (uint64_t cb = td->AddressOfCallBacks;; cb += sizeof(uint64_t)) {
		uint64_t fn;

		if (!va_inside(base, size, cb, sizeof(fn))) {
			snprintf(err, errlen, "TLS callback list runs outside the image");
			return NULL;
		}
		fn = *(const uint64_t *)(uintptr_t)cb;
		if (!fn)
			return td;
		if (!va_inside(base, size, fn, 1)) {
			snprintf(err, errlen, "TLS callback 0x%llx lies outside the image", (unsigned long long)fn);
			return NULL;
		}
	}
}

int pe_apply_relocations(uint8_t *base, uint32_t size_of_image, const IMAGE_DATA_DIRECTORY *dir,
			 int64_t delta, char *err, size_t errlen)
{
	uint64_t off = 0;

	if (!inside(size_of_image, dir->VirtualAddress, dir->Size)) {
		snprintf(err, errlen, "base relocation directory lies outside the image");
		return -1;
	}
	while (off + sizeof(IMAGE_BASE_RELOCATION) <= dir->Size) {
		const IMAGE_BASE_RELOCATION *blk = (const void *)(base + dir->VirtualAddress + off);
		unsigned int n;
		const WORD *e;

		/* Blocks start on 32-bit boundaries. */
		if (blk->SizeOfBlock < sizeof(*blk) || blk->SizeOfBlock > dir->Size - off || (blk->SizeOfBlock & 3)) {
			snprintf(err, errlen, "corrupt base relocation block at 0x%llx",
				 (unsigned long long)(dir->VirtualAddress + off));
			return -1;
		}
		n = (blk->SizeOfBlock - sizeof(*blk)) / sizeof(WORD);
		e = (const WORD *)(blk + 1);
		for (unsigned int i = 0; i < n; i++) {
			unsigned int type = e[i] >> 12;
			uint64_t rva = (uint64_t)blk->VirtualAddress + (e[i] & 0xfff);
			uint64_t v64;
			uint32_t v32;

			switch (type) {
			case IMAGE_REL_BASED_ABSOLUTE:
				continue;
			case IMAGE_REL_BASED_DIR64:
				if (!inside(size_of_image, rva, 8))
					goto outside;
				/* Targets need no alignment (an imm64 inside an instruction). */
				memcpy(&v64, base + rva, 8);
				v64 += (uint64_t)delta;
				memcpy(base + rva, &v64, 8);
				break;
			case IMAGE_REL_BASED_HIGHLOW:
				if (!inside(size_of_image, rva, 4))
					goto outside;
				memcpy(&v32, base + rva, 4);
				v32 += (uint32_t)delta;
				memcpy(base + rva, &v32, 4);
				break;
			default:
				snprintf(err, errlen, "unsupported base relocation type %u at 0x%llx", type,
					 (unsigned long long)rva);
				return -1;
			}
			continue;
outside:
			snprintf(err, errlen, "base relocation at 0x%llx lies outside the image", (unsigned long long)rva);
			return -1;
		}
		off += blk->SizeOfBlock;
	}
	return 0;
}
