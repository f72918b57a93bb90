/* shlwapi's string helpers (Str*).  Case-insensitive comparisons fold
 * WCHARs by simple Unicode case mapping (core/wstr.h) and ANSI bytes in
 * the ASCII range. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"
#include "shlwapi/shlwapi_private.h"

static int a_icmpn(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
		if (x != y || !x)
			return x - y;
	}
	return 0;
}

LPWSTR WINAPI StrStrIW(LPCWSTR s, LPCWSTR find)
{
	size_t n;

	if (!s || !find)
		return NULL;
	n = wstr_len(find);
	for (; *s; s++)
		if (!wstr_nicmp(s, find, n))
			return (LPWSTR)s;
	return NULL;
}

LPSTR WINAPI StrStrIA(LPCSTR s, LPCSTR find)
{
	size_t n;

	if (!s || !find)
		return NULL;
	n = strlen(find);
	for (; *s; s++)
		if (!a_icmpn(s, find, n))
			return (LPSTR)s;
	return NULL;
}

LPWSTR WINAPI StrStrW(LPCWSTR s, LPCWSTR find)
{
	size_t n;

	if (!s || !find)
		return NULL;
	n = wstr_len(find);
	for (; *s; s++)
		if (!memcmp(s, find, n * sizeof(WCHAR)))
			return (LPWSTR)s;
	return NULL;
}

LPSTR WINAPI StrStrA(LPCSTR s, LPCSTR find)
{
	if (!s || !find)
		return NULL;
	return strstr(s, find);
}

int WINAPI StrCmpIW(LPCWSTR a, LPCWSTR b)
{
	int c = wstr_icmp(a, b);

	return c < 0 ? -1 : c > 0;
}

int WINAPI StrCmpW(LPCWSTR a, LPCWSTR b)
{
	int c = wstr_cmp(a, b);

	return c < 0 ? -1 : c > 0;
}

int WINAPI StrCmpNIW(LPCWSTR a, LPCWSTR b, int n)
{
	int c;

	if (n <= 0)
		return 0;
	c = wstr_nicmp(a, b, n);
	return c < 0 ? -1 : c > 0;
}

int WINAPI StrCmpNIA(LPCSTR a, LPCSTR b, int n)
{
	int c;

	if (n <= 0)
		return 0;
	c = a_icmpn(a, b, n);
	return c < 0 ? -1 : c > 0;
}

LPWSTR WINAPI StrChrW(LPCWSTR s, WCHAR c)
{
	if (!s)
		return NULL;
	for (; *s; s++)
		if (*s == c)
			return (LPWSTR)s;
	return NULL;
}

LPSTR WINAPI StrChrA(LPCSTR s, WORD c)
{
	if (!s)
		return NULL;
	for (; *s; s++)
		if ((unsigned char)*s == c)
			return (LPSTR)s;
	return NULL;
}

/* The last c before end (the whole string when end is NULL). */
LPWSTR WINAPI StrRChrW(LPCWSTR s, LPCWSTR end, WORD c)
{
	const WCHAR *last = NULL;

	if (!s)
		return NULL;
	if (!end)
		end = s + wstr_len(s);
	for (; s < end && *s; s++)
		if (*s == c)
			last = s;
	return (LPWSTR)last;
}

/* A LocalAlloc'd copy (the caller frees it with LocalFree). */
LPWSTR WINAPI StrDupW(LPCWSTR s)
{
	size_t n = s ? wstr_len(s) : 0;
	WCHAR *d = LocalAlloc(LMEM_FIXED, (n + 1) * sizeof(WCHAR));

	if (d) {
		if (s)
			memcpy(d, s, n * sizeof(WCHAR));
		d[n] = 0;
	}
	return d;
}

LPSTR WINAPI StrDupA(LPCSTR s)
{
	size_t n = s ? strlen(s) : 0;
	char *d = LocalAlloc(LMEM_FIXED, n + 1);

	if (d) {
		if (s)
			memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

/* Leading decimal digits with an optional '-' (no spaces, no '+'); 0
 * when there are none. */
int WINAPI StrToIntA(LPCSTR s)
{
	int v = 0, neg = 0;

	if (!s)
		return 0;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return neg ? -v : v;
}

int WINAPI StrToIntW(LPCWSTR s)
{
	int v = 0, neg = 0;

	if (!s)
		return 0;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return neg ? -v : v;
}
