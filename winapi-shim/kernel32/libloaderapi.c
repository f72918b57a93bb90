/* Modules: thin wrappers over the loader (pe-loader/loader.h).  The A
 * functions convert through the ANSI code page, as Windows does. */
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/path.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

HMODULE WINAPI LoadLibraryExW(LPCWSTR name, HANDLE file, DWORD flags)
{
	if (!name || file) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	return loader_load_library(name, flags);
}

HMODULE WINAPI LoadLibraryW(LPCWSTR name)
{
	return LoadLibraryExW(name, NULL, 0);
}

HMODULE WINAPI LoadLibraryExA(LPCSTR name, HANDLE file, DWORD flags)
{
	WCHAR *w;
	HMODULE h;

	if (!name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	w = cp_to_utf16_dup(cp_file(), name);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = LoadLibraryExW(w, file, flags);
	free(w);
	return h;
}

HMODULE WINAPI LoadLibraryA(LPCSTR name)
{
	return LoadLibraryExA(name, NULL, 0);
}

BOOL WINAPI FreeLibrary(HMODULE module)
{
	return loader_free_library(module);
}

/* For a thread running code of the DLL it unloads: the reference goes,
 * and the thread ends without returning into what may be unmapped. */
void WINAPI FreeLibraryAndExitThread(HMODULE module, DWORD code)
{
	loader_free_library(module);
	ExitThread(code);
}

HMODULE WINAPI GetModuleHandleW(LPCWSTR name)
{
	return loader_get_module_handle(name);
}

HMODULE WINAPI GetModuleHandleA(LPCSTR name)
{
	WCHAR *w;
	HMODULE h;

	if (!name)
		return loader_get_module_handle(NULL);
	w = cp_to_utf16_dup(cp_file(), name);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	h = loader_get_module_handle(w);
	free(w);
	return h;
}

BOOL WINAPI GetModuleHandleExW(DWORD flags, LPCWSTR name, HMODULE *module)
{
	if (!module) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*module = loader_get_module_handle_ex(flags, name);
	return *module != NULL;
}

FARPROC WINAPI GetProcAddress(HMODULE module, LPCSTR name)
{
	return (FARPROC)loader_get_proc_address(module, name);
}

DWORD WINAPI GetModuleFileNameW(HMODULE module, LPWSTR buf, DWORD size)
{
	return loader_get_module_file_name(module, buf, size);
}

DWORD WINAPI GetModuleFileNameA(HMODULE module, LPSTR buf, DWORD size)
{
	WCHAR wbuf[MAX_PATH * 4];
	DWORD n = loader_get_module_file_name(module, wbuf, sizeof(wbuf) / sizeof(wbuf[0]));
	char *a;
	DWORD len;

	if (!n)
		return 0;
	a = utf16_to_cp_dup(cp_file(), wbuf);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	len = (DWORD)strlen(a);
	if (len >= size) {
		/* Windows truncates, terminates, and says so. */
		if (size) {
			memcpy(buf, a, size - 1);
			buf[size - 1] = 0;
		}
		free(a);
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return size;
	}
	memcpy(buf, a, len + 1);
	free(a);
	return len;
}

BOOL WINAPI DisableThreadLibraryCalls(HMODULE module)
{
	return loader_disable_thread_calls(module);
}

void WINAPI DECLSPEC_NORETURN ExitProcess(UINT code)
{
	loader_exit_process(code);
}

BOOL WINAPI GetModuleHandleExA(DWORD flags, LPCSTR name, HMODULE *module)
{
	WCHAR *w;
	BOOL ok;

	/* By address, name is no string; without one, the program. */
	if ((flags & GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS) || !name)
		return GetModuleHandleExW(flags, (LPCWSTR)name, module);
	w = cp_to_utf16_dup(cp_file(), name);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ok = GetModuleHandleExW(flags, w, module);
	free(w);
	return ok;
}

/* SetDllDirectory: one folder searched right after the program's own
 * (module_locate's order); NULL restores the default search.  ndrun never
 * searches the current folder, so "" (which removes it on Windows) only
 * clears the folder set before. */
BOOL WINAPI SetDllDirectoryW(LPCWSTR dir)
{
	char *unix_dir = NULL;
	DWORD err;

	if (dir && *dir) {
		unix_dir = path_to_unix(dir, &err);
		if (!unix_dir) {
			SetLastError(err);
			return FALSE;
		}
	}
	if (!loader_set_dll_directory(unix_dir, dir && *dir ? dir : NULL)) {
		free(unix_dir);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI SetDllDirectoryA(LPCSTR dir)
{
	WCHAR *w;
	BOOL ok;

	if (!dir)
		return SetDllDirectoryW(NULL);
	w = cp_to_utf16_dup(cp_file(), dir);
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	ok = SetDllDirectoryW(w);
	free(w);
	return ok;
}

DWORD WINAPI GetDllDirectoryW(DWORD size, LPWSTR buf)
{
	WCHAR *dir = loader_get_dll_directory();
	DWORD n;

	if (!dir) {
		if (size && buf)
			buf[0] = 0;
		return 0;
	}
	n = string_result_w(dir, buf, size);
	free(dir);
	return n;
}
