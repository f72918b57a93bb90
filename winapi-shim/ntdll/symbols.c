/* Names for crash reports: the nearest symbol at or below a pc, from the
 * image's export directory (in memory) and from the COFF symbol table of
 * its file (mingw-w64 binaries keep one unless stripped; it lies past the
 * sections, so it is read from the file).  Only the report calls this,
 * once per frame: nothing is cached, nothing allocated.  Every offset the image or the file
 * gives is checked, since the program may be damaged. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

#define COFF_SYMBOL_SIZE 18
/* Symbol tables larger than this are not read (a report must not stall). */
#define MAX_SYMBOL_TABLE (64u << 20)
#define COFF_CLASS_EXTERNAL 2
#define COFF_CLASS_STATIC 3
#define COFF_TYPE_FUNCTION 0x20

struct best {
	DWORD rva;
	char name[128];
	int found;
};

static void consider(struct best *b, DWORD rva, DWORD target, const char *name, size_t len)
{
	if (rva > target || (b->found && rva <= b->rva) || !len)
		return;
	b->rva = rva;
	b->found = 1;
	if (len >= sizeof(b->name))
		len = sizeof(b->name) - 1;
	memcpy(b->name, name, len);
	b->name[len] = 0;
}

static const IMAGE_NT_HEADERS64 *nt_headers(const BYTE *base, DWORD size)
{
	const IMAGE_DOS_HEADER *dos = (const void *)base;
	DWORD off;

	if (size < sizeof(*dos) || dos->e_magic != IMAGE_DOS_SIGNATURE)
		return NULL;
	off = (DWORD)dos->e_lfanew;
	if (off > size || size - off < sizeof(IMAGE_NT_HEADERS64))
		return NULL;
	return (const void *)(base + off);
}

/* Length of the NUL-terminated string at rva, 0 if it runs off the image. */
static size_t image_strlen(const BYTE *base, DWORD size, DWORD rva)
{
	const BYTE *end;

	if (rva >= size)
		return 0;
	end = memchr(base + rva, 0, size - rva);
	return end ? (size_t)(end - (base + rva)) : 0;
}

static void from_exports(const BYTE *base, DWORD size, const IMAGE_NT_HEADERS64 *nt, DWORD target,
			 struct best *b)
{
	const IMAGE_DATA_DIRECTORY *dir;
	const IMAGE_EXPORT_DIRECTORY *exp;
	const DWORD *funcs, *names;
	const WORD *ords;

	if (nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_EXPORT)
		return;
	dir = &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
	if (!dir->VirtualAddress || dir->VirtualAddress > size || size - dir->VirtualAddress < sizeof(*exp))
		return;
	exp = (const void *)(base + dir->VirtualAddress);
	if (exp->AddressOfFunctions > size || exp->NumberOfFunctions > (size - exp->AddressOfFunctions) / 4 ||
	    exp->AddressOfNames > size || exp->NumberOfNames > (size - exp->AddressOfNames) / 4 ||
	    exp->AddressOfNameOrdinals > size || exp->NumberOfNames > (size - exp->AddressOfNameOrdinals) / 2)
		return;
	funcs = (const DWORD *)(base + exp->AddressOfFunctions);
	names = (const DWORD *)(base + exp->AddressOfNames);
	ords = (const WORD *)(base + exp->AddressOfNameOrdinals);
	for (DWORD i = 0; i < exp->NumberOfNames; i++) {
		DWORD rva;

		if (ords[i] >= exp->NumberOfFunctions)
			continue;
		rva = funcs[ords[i]];
		/* A forwarder names another DLL's function, not code here. */
		if (rva >= dir->VirtualAddress && rva - dir->VirtualAddress < dir->Size)
			continue;
		consider(b, rva, target, (const char *)base + names[i], image_strlen(base, size, names[i]));
	}
}

/* Streams the symbol table through a buffer on the stack and reads the
 * winning name alone: no allocation and only open/pread/close, so a
 * report from the fault handler (no stack left for the program) may
 * call it too. */
static void from_coff(const char *path, const IMAGE_NT_HEADERS64 *nt, const BYTE *base, DWORD size, DWORD target,
		      struct best *b)
{
	const IMAGE_SECTION_HEADER *sect;
	DWORD nsyms = nt->FileHeader.NumberOfSymbols, nsect = nt->FileHeader.NumberOfSections;
	off_t table = nt->FileHeader.PointerToSymbolTable;
	off_t strtab = table + (off_t)nsyms * COFF_SYMBOL_SIZE;
	BYTE chunk[COFF_SYMBOL_SIZE * 128], winner[COFF_SYMBOL_SIZE];
	DWORD best_rva = 0, skip = 0;
	int found = 0, fd;

	if (!*path || !table || !nsyms || (size_t)nsyms * COFF_SYMBOL_SIZE > MAX_SYMBOL_TABLE)
		return;
	sect = (const IMAGE_SECTION_HEADER *)((const BYTE *)&nt->OptionalHeader + nt->FileHeader.SizeOfOptionalHeader);
	if ((const BYTE *)sect < base || (const BYTE *)(sect + nsect) > base + size)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (DWORD first = 0; first < nsyms; first += sizeof(chunk) / COFF_SYMBOL_SIZE) {
		DWORD n = nsyms - first < sizeof(chunk) / COFF_SYMBOL_SIZE ? nsyms - first :
									   (DWORD)(sizeof(chunk) / COFF_SYMBOL_SIZE);

		if (pread(fd, chunk, (size_t)n * COFF_SYMBOL_SIZE, table + (off_t)first * COFF_SYMBOL_SIZE) !=
		    (ssize_t)n * COFF_SYMBOL_SIZE)
			break;
		for (DWORD i = 0; i < n; i++) {
			const BYTE *sym = chunk + (size_t)i * COFF_SYMBOL_SIZE;
			DWORD value, rva;
			SHORT secnum;
			WORD type;
			BYTE cls = sym[16];

			/* Auxiliary records follow their symbol, maybe across
			 * chunks. */
			if (skip) {
				skip--;
				continue;
			}
			skip = sym[17];
			memcpy(&value, sym + 8, 4);
			memcpy(&secnum, sym + 12, 2);
			memcpy(&type, sym + 14, 2);
			if (secnum < 1 || (DWORD)secnum > nsect)
				continue;
			if (cls != COFF_CLASS_EXTERNAL &&
			    !(cls == COFF_CLASS_STATIC && (type & 0x30) == COFF_TYPE_FUNCTION))
				continue;
			if (!(sect[secnum - 1].Characteristics & IMAGE_SCN_CNT_CODE))
				continue;
			rva = sect[secnum - 1].VirtualAddress + value;
			if (rva > target || (found && rva <= best_rva))
				continue;
			best_rva = rva;
			found = 1;
			memcpy(winner, sym, sizeof(winner));
		}
	}
	if (found && (!b->found || best_rva > b->rva)) {
		char name[sizeof(b->name)];
		DWORD stroff;
		ssize_t got;

		if (memcmp(winner, "\0\0\0\0", 4)) {
			consider(b, best_rva, target, (const char *)winner, strnlen((const char *)winner, 8));
		} else {
			/* A long name: an offset into the string table, which
			 * follows the symbols. */
			memcpy(&stroff, winner + 4, 4);
			got = stroff >= 4 ? pread(fd, name, sizeof(name) - 1, strtab + stroff) : -1;
			if (got > 0) {
				name[got] = 0;
				consider(b, best_rva, target, name, strlen(name));
			}
		}
	}
	close(fd);
}

struct image_lookup {
	const BYTE *base;
	DWORD size, target;
	struct best *b;
	const char *path;
};

static void lookup_image(void *arg)
{
	struct image_lookup *l = arg;
	const IMAGE_NT_HEADERS64 *nt = nt_headers(l->base, l->size);

	if (!nt || nt->Signature != IMAGE_NT_SIGNATURE)
		return;
	from_exports(l->base, l->size, nt, l->target, l->b);
	from_coff(l->path, nt, l->base, l->size, l->target, l->b);
}

int seh_symbol_for_pc(ULONG64 pc, int is_return, char *buf, size_t len)
{
	char path[4096];
	ULONG64 base;
	DWORD size;
	struct best b = { 0 };

	struct image_lookup l;

	if (!seh_image_of_pc(pc, &base, &size, path, sizeof(path)))
		return 0;
	/* A return address lies past its call, maybe past the end of the
	 * function: the symbol is the one holding the byte before.  The
	 * image's pages are read under a probe: a damaged one may have
	 * made them unreadable. */
	l.base = (const BYTE *)base;
	l.size = size;
	l.target = (DWORD)(pc - base - (is_return ? 1 : 0));
	l.b = &b;
	l.path = path;
	if (!seh_run_probed(lookup_image, &l))
		b.found = 0;
	if (!b.found)
		return 0;
	snprintf(buf, len, "%s+0x%lx", b.name, (unsigned long)(pc - base - b.rva));
	return 1;
}
