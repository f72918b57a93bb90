/* Long and short names (fileapi.h).  Linux file systems have no 8.3
 * short names, so both forms of a name are the name itself, as Windows
 * returns for a volume where short names are off: each function checks
 * that the file exists and returns the path it was given. */
#include <stdlib.h>
#include <string.h>

#include "core/codepage.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

/* in == out is allowed.  The length copied, or the size needed with the
 * terminator; 0 with the last error when the file does not exist. */
static DWORD same_name_w(LPCWSTR in, LPWSTR out, DWORD size)
{
	DWORD n;

	if (!in) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!*in) {
		SetLastError(ERROR_PATH_NOT_FOUND);
		return 0;
	}
	if (GetFileAttributesW(in) == INVALID_FILE_ATTRIBUTES)
		return 0; /* its error: not found, path not found */
	n = (DWORD)wstr_len(in);
	if (!out || size <= n)
		return n + 1;
	memmove(out, in, (n + 1) * sizeof(WCHAR));
	return n;
}

static DWORD same_name_a(LPCSTR in, LPSTR out, DWORD size)
{
	WCHAR *w;
	DWORD n;

	if (!in) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (!(w = a_to_w(in)))
		return 0;
	n = same_name_w(w, NULL, 0);
	free(w);
	if (!n)
		return 0;
	n = (DWORD)strlen(in);
	if (!out || size <= n)
		return n + 1;
	memmove(out, in, n + 1);
	return n;
}

DWORD WINAPI GetLongPathNameW(LPCWSTR short_path, LPWSTR long_path, DWORD size)
{
	return same_name_w(short_path, long_path, size);
}

DWORD WINAPI GetLongPathNameA(LPCSTR short_path, LPSTR long_path, DWORD size)
{
	return same_name_a(short_path, long_path, size);
}

DWORD WINAPI GetShortPathNameW(LPCWSTR long_path, LPWSTR short_path, DWORD size)
{
	return same_name_w(long_path, short_path, size);
}

DWORD WINAPI GetShortPathNameA(LPCSTR long_path, LPSTR short_path, DWORD size)
{
	return same_name_a(long_path, short_path, size);
}
