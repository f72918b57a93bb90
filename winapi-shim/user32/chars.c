/* CharUpper/CharLower (strings, buffers, single characters) and the
 * IsChar* classifiers.  Case and class come from the same Unicode tables
 * as kernel32's (core/wstr.h); the A forms go through the ANSI code page. */
#include <stdlib.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "user32/user32_private.h"

static void map_w(WCHAR *s, size_t len, bool upper)
{
	for (size_t i = 0; i < len; i++)
		s[i] = upper ? wch_toupper(s[i]) : wch_tolower(s[i]);
}

/* In place, through UTF-16: a single-byte code page maps character for
 * character; a multi-byte one keeps the buffer's length (a character
 * whose other case is longer is cut, which Windows' DBCS pages avoid). */
static DWORD map_a(char *s, size_t len, bool upper)
{
	UINT cp = cp_resolve(CP_ACP);
	WCHAR stack[256], *w = len <= 256 ? stack : malloc(len * sizeof(WCHAR));
	ssize_t n;

	if (!w)
		return 0;
	n = cp_to_utf16(cp, 0, s, len, w, len);
	if (n > 0) {
		map_w(w, n, upper);
		utf16_to_cp(cp, 0, w, n, s, len, '?', NULL);
	}
	if (w != stack)
		free(w);
	return len;
}

static size_t alen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* A pointer whose upper bits are 0 is one character, converted and
 * returned in the low word (the documented single-character form). */
static bool is_char(const void *p)
{
	return !((ULONG_PTR)p >> 16);
}

static LPSTR char_case_a(LPSTR s, bool upper)
{
	if (is_char(s)) {
		char c = (char)(ULONG_PTR)s;

		map_a(&c, 1, upper);
		return (LPSTR)(ULONG_PTR)(unsigned char)c;
	}
	map_a(s, alen(s), upper);
	return s;
}

static LPWSTR char_case_w(LPWSTR s, bool upper)
{
	if (is_char(s)) {
		WCHAR c = (WCHAR)(ULONG_PTR)s;

		return (LPWSTR)(ULONG_PTR)(upper ? wch_toupper(c) : wch_tolower(c));
	}
	map_w(s, wstr_len(s), upper);
	return s;
}

LPSTR WINAPI CharUpperA(LPSTR s)
{
	return char_case_a(s, true);
}

LPSTR WINAPI CharLowerA(LPSTR s)
{
	return char_case_a(s, false);
}

LPWSTR WINAPI CharUpperW(LPWSTR s)
{
	return char_case_w(s, true);
}

LPWSTR WINAPI CharLowerW(LPWSTR s)
{
	return char_case_w(s, false);
}

DWORD WINAPI CharUpperBuffA(LPSTR s, DWORD len)
{
	return s && len ? map_a(s, len, true) : 0;
}

DWORD WINAPI CharLowerBuffA(LPSTR s, DWORD len)
{
	return s && len ? map_a(s, len, false) : 0;
}

DWORD WINAPI CharUpperBuffW(LPWSTR s, DWORD len)
{
	if (!s)
		return 0;
	map_w(s, len, true);
	return len;
}

DWORD WINAPI CharLowerBuffW(LPWSTR s, DWORD len)
{
	if (!s)
		return 0;
	map_w(s, len, false);
	return len;
}

static WORD class_a(CHAR c)
{
	WCHAR w = 0;

	if (cp_to_utf16(cp_resolve(CP_ACP), 0, &c, 1, &w, 1) != 1)
		return 0;
	return wch_ctype1(w);
}

BOOL WINAPI IsCharAlphaA(CHAR c)
{
	return !!(class_a(c) & C1_ALPHA);
}

BOOL WINAPI IsCharAlphaW(WCHAR c)
{
	return !!(wch_ctype1(c) & C1_ALPHA);
}

BOOL WINAPI IsCharAlphaNumericA(CHAR c)
{
	return !!(class_a(c) & (C1_ALPHA | C1_DIGIT));
}

BOOL WINAPI IsCharAlphaNumericW(WCHAR c)
{
	return !!(wch_ctype1(c) & (C1_ALPHA | C1_DIGIT));
}

BOOL WINAPI IsCharUpperA(CHAR c)
{
	return !!(class_a(c) & C1_UPPER);
}

BOOL WINAPI IsCharUpperW(WCHAR c)
{
	return !!(wch_ctype1(c) & C1_UPPER);
}

BOOL WINAPI IsCharLowerA(CHAR c)
{
	return !!(class_a(c) & C1_LOWER);
}

BOOL WINAPI IsCharLowerW(WCHAR c)
{
	return !!(wch_ctype1(c) & C1_LOWER);
}
