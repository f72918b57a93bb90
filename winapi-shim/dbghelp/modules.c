/* EnumerateLoadedModules(Ex, 64, W64): the calling process's modules
 * (EnumProcessModules' list: the program, its DLLs and the builtins),
 * each with its file name, base and image size, until the callback
 * answers FALSE. */
#include <stdlib.h>

#include "core/unimpl.h"
#include "dbghelp/dbghelp_private.h"
#include "core/pecall.h"

BOOL WINAPI K32EnumProcessModules(HANDLE process, HMODULE *mods, DWORD size, DWORD *needed);

static ULONG image_size(HMODULE m)
{
	const IMAGE_DOS_HEADER *dos = (const IMAGE_DOS_HEADER *)m;
	const IMAGE_NT_HEADERS64 *nt = (const IMAGE_NT_HEADERS64 *)((const BYTE *)m + dos->e_lfanew);

	return nt->OptionalHeader.SizeOfImage;
}

/* The modules, malloc'd; NULL with the last error set. */
static HMODULE *list_modules(HANDLE process, DWORD *count)
{
	HMODULE *mods = NULL;
	DWORD needed = 0, size = 0;

	if (process != GetCurrentProcess() && GetProcessId(process) != GetCurrentProcessId())
		unimplemented_case("dbghelp.EnumerateLoadedModules", "modules of another process");
	do {
		free(mods);
		size = needed + 16 * sizeof(HMODULE);
		mods = malloc(size);
		if (!mods) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
		if (!K32EnumProcessModules(GetCurrentProcess(), mods, size, &needed)) {
			free(mods);
			return NULL;
		}
	} while (needed > size);
	*count = needed / sizeof(HMODULE);
	return mods;
}

BOOL WINAPI EnumerateLoadedModulesEx(HANDLE process, PENUMLOADED_MODULES_CALLBACK64 cb, PVOID ctx)
{
	char name[MAX_PATH];
	HMODULE *mods;
	DWORD n;

	if (!cb) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	mods = list_modules(process, &n);
	if (!mods)
		return FALSE;
	for (DWORD i = 0; i < n; i++) {
		if (!GetModuleFileNameA(mods[i], name, MAX_PATH))
			continue;
		if (!(BOOL)PE_CALL4(cb, name, (DWORD64)(ULONG_PTR)mods[i], image_size(mods[i]), ctx))
			break;
	}
	free(mods);
	return TRUE;
}

BOOL WINAPI EnumerateLoadedModules64(HANDLE process, PENUMLOADED_MODULES_CALLBACK64 cb, PVOID ctx)
{
	return EnumerateLoadedModulesEx(process, cb, ctx);
}

BOOL WINAPI EnumerateLoadedModulesExW(HANDLE process, PENUMLOADED_MODULES_CALLBACKW64 cb, PVOID ctx)
{
	WCHAR name[MAX_PATH];
	HMODULE *mods;
	DWORD n;

	if (!cb) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	mods = list_modules(process, &n);
	if (!mods)
		return FALSE;
	for (DWORD i = 0; i < n; i++) {
		if (!GetModuleFileNameW(mods[i], name, MAX_PATH))
			continue;
		if (!(BOOL)PE_CALL4(cb, name, (DWORD64)(ULONG_PTR)mods[i], image_size(mods[i]), ctx))
			break;
	}
	free(mods);
	return TRUE;
}

BOOL WINAPI EnumerateLoadedModulesW64(HANDLE process, PENUMLOADED_MODULES_CALLBACKW64 cb, PVOID ctx)
{
	return EnumerateLoadedModulesExW(process, cb, ctx);
}
