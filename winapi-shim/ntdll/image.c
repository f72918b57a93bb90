/* RtlImageNtHeader: the NT headers of a mapped image, for runtimes that
 * read their own headers (GraalVM native images look it up in ntdll
 * before anything else and exit when it is missing).  The image is the
 * caller's: an address that is not one is its fault, as on Windows. */
#include "ntdll/ntdll_private.h"

PIMAGE_NT_HEADERS WINAPI RtlImageNtHeader(HMODULE module)
{
	const IMAGE_DOS_HEADER *dos = (const IMAGE_DOS_HEADER *)module;
	IMAGE_NT_HEADERS *nt;

	if (!dos || dos->e_magic != IMAGE_DOS_SIGNATURE || dos->e_lfanew <= 0 || dos->e_lfanew > 0x10000000)
		return NULL;
	nt = (IMAGE_NT_HEADERS *)((BYTE *)module + dos->e_lfanew);
	return nt->Signature == IMAGE_NT_SIGNATURE ? nt : NULL;
}

/* The section holding rva, from the section table nt describes. */
PIMAGE_SECTION_HEADER WINAPI RtlImageRvaToSection(const IMAGE_NT_HEADERS *nt, HMODULE module, DWORD rva)
{
	IMAGE_SECTION_HEADER *sec = (IMAGE_SECTION_HEADER *)((const BYTE *)&nt->OptionalHeader +
							     nt->FileHeader.SizeOfOptionalHeader);

	(void)module;
	for (WORD i = 0; i < nt->FileHeader.NumberOfSections; i++, sec++) {
		DWORD size = sec->SizeOfRawData > sec->Misc.VirtualSize ? sec->SizeOfRawData : sec->Misc.VirtualSize;

		if (rva >= sec->VirtualAddress && rva - sec->VirtualAddress < size)
			return sec;
	}
	return NULL;
}

/* Where rva lies in a copy of the image file (not a mapped image) at
 * module: the section's raw data, as read from the file.  NULL when no
 * section holds it.  last caches the section found, as documented. */
PVOID WINAPI RtlImageRvaToVa(const IMAGE_NT_HEADERS *nt, HMODULE module, DWORD rva, IMAGE_SECTION_HEADER **last)
{
	IMAGE_SECTION_HEADER *sec = last ? *last : NULL;

	if (!sec || rva < sec->VirtualAddress || rva - sec->VirtualAddress >= sec->SizeOfRawData) {
		sec = RtlImageRvaToSection(nt, module, rva);
		if (!sec)
			return NULL;
		if (last)
			*last = sec;
	}
	return (BYTE *)module + sec->PointerToRawData + (rva - sec->VirtualAddress);
}

/* GraalVM native images read their own file through this one. */
PVOID WINAPI RtlAddressInSectionTable(const IMAGE_NT_HEADERS *nt, HMODULE module, DWORD rva)
{
	return RtlImageRvaToVa(nt, module, rva, NULL);
}
