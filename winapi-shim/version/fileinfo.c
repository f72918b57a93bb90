/* GetFileVersionInfoSize and GetFileVersionInfo: the version resource of
 * a PE file, read from the file itself (a file that is not a PE image,
 * or has no version resource, fails with ERROR_RESOURCE_DATA_NOT_FOUND).
 * A name without a folder that is not in the current directory is looked
 * for beside the program; a builtin DLL (named alone or in the system folder), which
 * has no file, gets a version resource made up for it (builtin.c).
 * The size reported is three times the resource's: the block
 * keeps room after the resource for the ANSI copies VerQueryValueA makes
 * of its strings (query.c). */
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "core/wstr.h"
#include "version/version_private.h"

/* The whole file, malloc'd; NULL with the last error set. */
static uint8_t *read_file(const WCHAR *name, size_t *size)
{
	LARGE_INTEGER li;
	uint8_t *buf;
	DWORD got;
	HANDLE h;

	h = CreateFileW(name, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			OPEN_EXISTING, 0, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return NULL;
	if (!GetFileSizeEx(h, &li) || li.QuadPart > (1 << 30)) {
		CloseHandle(h);
		SetLastError(ERROR_BAD_FORMAT);
		return NULL;
	}
	buf = malloc(li.QuadPart ? li.QuadPart : 1);
	if (!buf || !ReadFile(h, buf, (DWORD)li.QuadPart, &got, NULL) || got != li.QuadPart) {
		free(buf);
		CloseHandle(h);
		SetLastError(buf ? ERROR_READ_FAULT : ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	CloseHandle(h);
	*size = got;
	return buf;
}

static BOOL has_folder(const WCHAR *name)
{
	for (; *name; name++)
		if (*name == '\\' || *name == '/' || *name == ':')
			return TRUE;
	return FALSE;
}

/* The file's version resource, copied into a malloc'd buffer. */
static uint8_t *load_resource(const WCHAR *name, size_t *len)
{
	WCHAR path[MAX_PATH];
	uint8_t *file, *res;
	size_t size, off;
	DWORD err;

	if (!name || !*name) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	file = read_file(name, &size);
	if (!file) {
		/* A builtin DLL has no file: its resource is made up. */
		const char *dll = version_builtin_name(name);
		if (dll) {
			res = version_builtin_resource(dll, len);
			if (!res)
				SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return res;
		}
	}
	if (!file && !has_folder(name) && GetLastError() == ERROR_FILE_NOT_FOUND) {
		DWORD n = GetModuleFileNameW(NULL, path, MAX_PATH), cut = 0;
		for (DWORD i = 0; i < n; i++)
			if (path[i] == '\\')
				cut = i + 1;
		if (cut + wstr_len(name) < MAX_PATH) {
			memcpy(path + cut, name, (wstr_len(name) + 1) * sizeof(WCHAR));
			file = read_file(path, &size);
			if (!file && GetLastError() == ERROR_PATH_NOT_FOUND)
				SetLastError(ERROR_FILE_NOT_FOUND);
		}
	}
	if (!file)
		return NULL;
	err = version_find_resource(file, size, &off, len);
	if (err) {
		/* Whatever the reason (not a PE image, no version resource),
		 * the caller learns that there is no version data, as from
		 * Windows' and Wine's version.dll. */
		TRACE(misc, "no version resource: %lu\n", (unsigned long)err);
		free(file);
		SetLastError(ERROR_RESOURCE_DATA_NOT_FOUND);
		return NULL;
	}
	res = malloc(*len ? *len : 1);
	if (res)
		memcpy(res, file + off, *len);
	else
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	free(file);
	return res;
}

DWORD WINAPI GetFileVersionInfoSizeExW(DWORD flags, LPCWSTR name, LPDWORD handle)
{
	size_t len;
	uint8_t *res;

	if (handle)
		*handle = 0;
	res = load_resource(name, &len);
	if (!res)
		return 0;
	free(res);
	return (DWORD)len * 3;
}

DWORD WINAPI GetFileVersionInfoSizeW(LPCWSTR name, LPDWORD handle)
{
	return GetFileVersionInfoSizeExW(0, name, handle);
}

/* The resource (as much of it as fits), then zeros up to size: the room
 * VerQueryValueA writes its ANSI strings into. */
BOOL WINAPI GetFileVersionInfoExW(DWORD flags, LPCWSTR name, DWORD handle, DWORD size, LPVOID data)
{
	size_t len;
	uint8_t *res;

	if (!data) {
		SetLastError(ERROR_INVALID_DATA);
		return FALSE;
	}
	res = load_resource(name, &len);
	if (!res)
		return FALSE;
	memcpy(data, res, len < size ? len : size);
	if (size > len)
		memset((uint8_t *)data + len, 0, size - len);
	free(res);
	return TRUE;
}

BOOL WINAPI GetFileVersionInfoW(LPCWSTR name, DWORD handle, DWORD size, LPVOID data)
{
	return GetFileVersionInfoExW(0, name, handle, size, data);
}

static WCHAR *to_wide(LPCSTR s)
{
	int n;
	WCHAR *w;

	if (!s)
		return NULL;
	n = MultiByteToWideChar(CP_ACP, 0, s, -1, NULL, 0);
	w = malloc(n * sizeof(WCHAR));
	if (w)
		MultiByteToWideChar(CP_ACP, 0, s, -1, w, n);
	return w;
}

DWORD WINAPI GetFileVersionInfoSizeA(LPCSTR name, LPDWORD handle)
{
	WCHAR *w = to_wide(name);
	DWORD r = GetFileVersionInfoSizeExW(0, w, handle);

	free(w);
	return r;
}

BOOL WINAPI GetFileVersionInfoA(LPCSTR name, DWORD handle, DWORD size, LPVOID data)
{
	WCHAR *w = to_wide(name);
	BOOL r = GetFileVersionInfoExW(0, w, handle, size, data);

	free(w);
	return r;
}
