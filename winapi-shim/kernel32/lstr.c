/* The lstr* string functions (winbase.h).  lstrcmp/lstrcmpi compare
 * like CompareString in the user locale, not ordinally. */
#include <string.h>

#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

INT WINAPI lstrlenA(LPCSTR s)
{
	return s ? (INT)strlen(s) : 0;
}

INT WINAPI lstrlenW(LPCWSTR s)
{
	return s ? (INT)wstr_len(s) : 0;
}

LPSTR WINAPI lstrcpyA(LPSTR dst, LPCSTR src)
{
	return strcpy(dst, src);
}

LPWSTR WINAPI lstrcpyW(LPWSTR dst, LPCWSTR src)
{
	memcpy(dst, src, (wstr_len(src) + 1) * sizeof(WCHAR));
	return dst;
}

/* Copies at most n - 1 characters and always terminates (n > 0). */
LPSTR WINAPI lstrcpynA(LPSTR dst, LPCSTR src, INT n)
{
	INT i;

	if (n <= 0)
		return dst;
	for (i = 0; i < n - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
	return dst;
}

LPWSTR WINAPI lstrcpynW(LPWSTR dst, LPCWSTR src, INT n)
{
	INT i;

	if (n <= 0)
		return dst;
	for (i = 0; i < n - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
	return dst;
}

LPSTR WINAPI lstrcatA(LPSTR dst, LPCSTR src)
{
	return strcat(dst, src);
}

LPWSTR WINAPI lstrcatW(LPWSTR dst, LPCWSTR src)
{
	lstrcpyW(dst + wstr_len(dst), src);
	return dst;
}

/* NULL sorts before every string. */
static INT null_order(const void *a, const void *b)
{
	return a ? 1 : b ? -1 : 0;
}

INT WINAPI lstrcmpA(LPCSTR a, LPCSTR b)
{
	if (!a || !b)
		return null_order(a, b);
	return CompareStringA(LOCALE_USER_DEFAULT, 0, a, -1, b, -1) - CSTR_EQUAL;
}

INT WINAPI lstrcmpiA(LPCSTR a, LPCSTR b)
{
	if (!a || !b)
		return null_order(a, b);
	return CompareStringA(LOCALE_USER_DEFAULT, NORM_IGNORECASE, a, -1, b, -1) - CSTR_EQUAL;
}

INT WINAPI lstrcmpW(LPCWSTR a, LPCWSTR b)
{
	if (!a || !b)
		return null_order(a, b);
	return CompareStringW(LOCALE_USER_DEFAULT, 0, a, -1, b, -1) - CSTR_EQUAL;
}

INT WINAPI lstrcmpiW(LPCWSTR a, LPCWSTR b)
{
	if (!a || !b)
		return null_order(a, b);
	return CompareStringW(LOCALE_USER_DEFAULT, NORM_IGNORECASE, a, -1, b, -1) - CSTR_EQUAL;
}
