/* Symbol handling for the calling process: SymInitialize, SymCleanup,
 * the options, SymGetModuleBase64, SymFunctionTableAccess64 and
 * SymFromAddr.
 *
 * A symbol is the nearest export at or below the address in the PE
 * module holding it (export tables are all a program's images carry
 * without a PDB), or an export of a builtin DLL at exactly that address.
 * Other processes (a handle that is not the calling process's, or its
 * id) are not implemented and stop the program naming the case
 * (core/unimpl.h).  The session state is one flag: the modules are
 * looked at when asked, so modules loaded later are found too. */
#include <string.h>

#include "builtin.h"
#include "core/unimpl.h"
#include "dbghelp/dbghelp_private.h"

/* SymTagPublicSymbol of Microsoft's cvconst.h (the Wine headers lack
 * the enumeration). */
#define SYMTAG_PUBLIC_SYMBOL 10

static volatile LONG initialised;
static DWORD options = SYMOPT_UNDNAME | SYMOPT_DEFERRED_LOADS;

static void check_process(const char *func, HANDLE process)
{
	if (process != GetCurrentProcess() && (DWORD_PTR)process != GetCurrentProcessId() &&
	    GetProcessId(process) != GetCurrentProcessId())
		unimplemented_case(func, "symbols of another process");
}

BOOL WINAPI SymInitialize(HANDLE process, PCSTR search_path, BOOL invade)
{
	check_process("dbghelp.SymInitialize", process);
	InterlockedExchange(&initialised, 1);
	return TRUE;
}

BOOL WINAPI SymInitializeW(HANDLE process, PCWSTR search_path, BOOL invade)
{
	return SymInitialize(process, NULL, invade);
}

BOOL WINAPI SymCleanup(HANDLE process)
{
	if (!InterlockedExchange(&initialised, 0)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	return TRUE;
}

DWORD WINAPI SymSetOptions(DWORD opts)
{
	return options = opts;
}

DWORD WINAPI SymGetOptions(void)
{
	return options;
}

/* The PE image holding addr: its base and size; NULL when none. */
static BYTE *image_of(DWORD64 addr, DWORD *size)
{
	const IMAGE_DOS_HEADER *dos;
	const IMAGE_NT_HEADERS64 *nt;
	HMODULE m = NULL;

	if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
				(LPCWSTR)(ULONG_PTR)addr, &m) || !m)
		return NULL;
	dos = (const IMAGE_DOS_HEADER *)m;
	nt = (const IMAGE_NT_HEADERS64 *)((const BYTE *)m + dos->e_lfanew);
	if (addr >= (DWORD64)(ULONG_PTR)m + nt->OptionalHeader.SizeOfImage)
		return NULL;
	*size = nt->OptionalHeader.SizeOfImage;
	return (BYTE *)m;
}

DWORD64 WINAPI SymGetModuleBase64(HANDLE process, DWORD64 addr)
{
	DWORD size;
	BYTE *base = image_of(addr, &size);

	return base ? (DWORD64)(ULONG_PTR)base : 0;
}

PVOID WINAPI SymFunctionTableAccess64(HANDLE process, DWORD64 addr)
{
	DWORD64 base;

	return RtlLookupFunctionEntry(addr, &base, NULL);
}

/* The nearest export of the image at or below addr (forwarders, which
 * point into the export directory, are no code and are skipped). */
static BOOL export_symbol(BYTE *base, DWORD size, DWORD64 addr, const char **name, DWORD64 *sym)
{
	const IMAGE_NT_HEADERS64 *nt = (const IMAGE_NT_HEADERS64 *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
	const IMAGE_DATA_DIRECTORY *dir = &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
	const IMAGE_EXPORT_DIRECTORY *exp;
	const DWORD *funcs, *names;
	const WORD *ords;
	DWORD best_rva = 0;
	const char *best = NULL;
	DWORD rva = (DWORD)(addr - (DWORD64)(ULONG_PTR)base);

	if (nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_EXPORT || !dir->VirtualAddress ||
	    dir->VirtualAddress + (uint64_t)sizeof(*exp) > size)
		return FALSE;
	exp = (const IMAGE_EXPORT_DIRECTORY *)(base + dir->VirtualAddress);
	if (exp->AddressOfFunctions + (uint64_t)exp->NumberOfFunctions * 4 > size ||
	    exp->AddressOfNames + (uint64_t)exp->NumberOfNames * 4 > size ||
	    exp->AddressOfNameOrdinals + (uint64_t)exp->NumberOfNames * 2 > size)
		return FALSE;
	funcs = (const DWORD *)(base + exp->AddressOfFunctions);
	names = (const DWORD *)(base + exp->AddressOfNames);
	ords = (const WORD *)(base + exp->AddressOfNameOrdinals);
	for (DWORD i = 0; i < exp->NumberOfNames; i++) {
		DWORD f;
		if (ords[i] >= exp->NumberOfFunctions || names[i] >= size)
			continue;
		f = funcs[ords[i]];
		if (f >= dir->VirtualAddress && f < dir->VirtualAddress + dir->Size)
			continue;
		if (f <= rva && f >= best_rva && (!best || f > best_rva || strcmp((const char *)base + names[i], best) < 0)) {
			best_rva = f;
			best = (const char *)base + names[i];
		}
	}
	if (!best)
		return FALSE;
	*name = best;
	*sym = (DWORD64)(ULONG_PTR)base + best_rva;
	return TRUE;
}

/* An export of a builtin DLL at exactly addr; its module's handle. */
static BOOL builtin_symbol(DWORD64 addr, const char **name, DWORD64 *mod)
{
	for (unsigned int d = 0; d < builtin_dll_count; d++) {
		const struct builtin_dll *dll = builtin_dlls[d];
		for (unsigned int i = 0; i < dll->count; i++)
			if ((DWORD64)(ULONG_PTR)dll->exports[i].addr == addr) {
				*name = dll->exports[i].name;
				*mod = (DWORD64)(ULONG_PTR)GetModuleHandleA(dll->name);
				return TRUE;
			}
	}
	return FALSE;
}

BOOL WINAPI SymFromAddr(HANDLE process, DWORD64 addr, DWORD64 *displacement, SYMBOL_INFO *info)
{
	const char *name = NULL;
	DWORD64 sym = addr, mod = 0;
	DWORD size;
	BYTE *base;
	size_t len;

	check_process("dbghelp.SymFromAddr", process);
	if (!info || info->SizeOfStruct < sizeof(SYMBOL_INFO) - sizeof(info->Name)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	base = image_of(addr, &size);
	if (base) {
		mod = (DWORD64)(ULONG_PTR)base;
		if (!export_symbol(base, size, addr, &name, &sym)) {
			SetLastError(ERROR_MOD_NOT_FOUND);
			return FALSE;
		}
	} else if (!builtin_symbol(addr, &name, &mod)) {
		SetLastError(ERROR_MOD_NOT_FOUND);
		return FALSE;
	}
	info->TypeIndex = 0;
	info->Index = 0;
	info->Size = 0;
	info->ModBase = mod;
	info->Flags = SYMFLAG_EXPORT;
	info->Value = sym;
	info->Address = sym;
	info->Register = 0;
	info->Scope = 0;
	info->Tag = SYMTAG_PUBLIC_SYMBOL;
	len = strlen(name);
	info->NameLen = (ULONG)len;
	if (info->MaxNameLen) {
		size_t n = len < info->MaxNameLen - 1 ? len : info->MaxNameLen - 1;
		memcpy(info->Name, name, n);
		info->Name[n] = 0;
	}
	if (displacement)
		*displacement = addr - sym;
	return TRUE;
}
