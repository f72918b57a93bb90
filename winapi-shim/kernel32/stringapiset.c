/* Code page conversion and string comparison (stringapiset.h). */
#include <string.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"

INT WINAPI MultiByteToWideChar(UINT codepage, DWORD flags, LPCSTR src, INT srclen, LPWSTR dst,
			       INT dstlen)
{
	UINT cp = cp_resolve(codepage);
	ssize_t n;

	if (!cp || !src || !srclen || dstlen < 0 || (dstlen && !dst) ||
	    (dst && (const void *)src == (const void *)dst)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	/* UTF-8 named as such takes no flag but MB_ERR_INVALID_CHARS; the
	 * ANSI or OEM page being UTF-8 (65001) takes what a single-byte page
	 * takes, as programs (and C runtimes) written for those pass
	 * MB_PRECOMPOSED, meaningless for UTF-8 */
	if (codepage == CP_UTF8 ? (flags & ~MB_ERR_INVALID_CHARS)
				: (flags & ~(MB_PRECOMPOSED | MB_USEGLYPHCHARS | MB_ERR_INVALID_CHARS))) {
		/* MB_COMPOSITE (decomposing accented letters) is not done */
		TRACE(misc, "code page %u: flags %#x not supported\n", cp, (unsigned)flags);
		SetLastError(ERROR_INVALID_FLAGS);
		return 0;
	}
	if (cp == CP_UTF8)
		flags &= MB_ERR_INVALID_CHARS;
	if (srclen < 0)
		srclen = (INT)strlen(src) + 1;
	n = cp_to_utf16(cp, flags, src, (size_t)srclen, dst, (size_t)dstlen);
	if (n == CONV_INVALID) {
		SetLastError(ERROR_NO_UNICODE_TRANSLATION);
		return 0;
	}
	if (n == CONV_OVERFLOW) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	return (INT)n;
}

INT WINAPI WideCharToMultiByte(UINT codepage, DWORD flags, LPCWSTR src, INT srclen, LPSTR dst,
			       INT dstlen, LPCSTR defchar, LPBOOL used)
{
	const DWORD sb_flags = WC_COMPOSITECHECK | WC_DISCARDNS | WC_SEPCHARS | WC_DEFAULTCHAR |
			       WC_NO_BEST_FIT_CHARS;
	UINT cp = cp_resolve(codepage);
	ssize_t n;

	if (!cp || !src || !srclen || dstlen < 0 || (dstlen && !dst) ||
	    (dst && (const void *)src == (const void *)dst)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (codepage == CP_UTF8) {
		if (defchar || used) {
			SetLastError(ERROR_INVALID_PARAMETER);
			return 0;
		}
		if (flags & ~WC_ERR_INVALID_CHARS) {
			SetLastError(ERROR_INVALID_FLAGS);
			return 0;
		}
	} else if (flags & ~(sb_flags | (cp == CP_UTF8 ? WC_ERR_INVALID_CHARS : 0))) {
		SetLastError(ERROR_INVALID_FLAGS);
		return 0;
	}
	if (used)
		*used = FALSE;
	if (cp == CP_UTF8) {
		/* the ANSI or OEM page is UTF-8: it holds every character, and
		 * the single-byte flags and default character mean nothing */
		flags &= WC_ERR_INVALID_CHARS;
		used = NULL;
	}
	if (srclen < 0)
		srclen = (INT)wstr_len(src) + 1;
	n = utf16_to_cp(cp, flags, src, (size_t)srclen, dst, (size_t)dstlen, defchar ? *defchar : '?',
			used);
	if (n == CONV_INVALID) {
		SetLastError(ERROR_NO_UNICODE_TRANSLATION);
		return 0;
	}
	if (n == CONV_OVERFLOW) {
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return 0;
	}
	return (INT)n;
}

/* ---- comparison ---------------------------------------------------------
 *
 * Not Windows' full linguistic sort: letters compare case-insensitively
 * first (so "a" < "B"), then, for equal strings, lower case sorts before
 * upper case ("a" < "A"), as Windows does; other characters compare by
 * their lower-case code point.  NORM_IGNORECASE and
 * LINGUISTIC_IGNORECASE drop the second step; NORM_IGNORESYMBOLS skips
 * punctuation and spaces. */

static const WCHAR *skip_symbols(const WCHAR *s, const WCHAR *end, DWORD flags)
{
	if (flags & NORM_IGNORESYMBOLS)
		while (s < end && (wch_ctype1(*s) & (C1_PUNCT | C1_SPACE)))
			s++;
	return s;
}

static INT compare(DWORD flags, const WCHAR *s1, INT n1, const WCHAR *s2, INT n2)
{
	const WCHAR *e1, *e2, *p1, *p2;
	int tie = 0;

	if (n1 < 0)
		n1 = (INT)wstr_len(s1);
	if (n2 < 0)
		n2 = (INT)wstr_len(s2);
	e1 = s1 + n1;
	e2 = s2 + n2;
	for (p1 = s1, p2 = s2;;) {
		WCHAR c1, c2;

		p1 = skip_symbols(p1, e1, flags);
		p2 = skip_symbols(p2, e2, flags);
		if (p1 == e1 || p2 == e2)
			break;
		c1 = wch_tolower(*p1);
		c2 = wch_tolower(*p2);
		if (c1 != c2)
			return c1 < c2 ? CSTR_LESS_THAN : CSTR_GREATER_THAN;
		if (!tie && *p1 != *p2)
			tie = (*p1 == c1) ? -1 : 1; /* the lower-case one first */
		p1++;
		p2++;
	}
	if (p1 != e1)
		return CSTR_GREATER_THAN;
	if (p2 != e2)
		return CSTR_LESS_THAN;
	if (tie && !(flags & (NORM_IGNORECASE | LINGUISTIC_IGNORECASE)))
		return tie < 0 ? CSTR_LESS_THAN : CSTR_GREATER_THAN;
	return CSTR_EQUAL;
}

INT WINAPI CompareStringW(LCID lcid, DWORD flags, LPCWSTR s1, INT n1, LPCWSTR s2, INT n2)
{
	if (!s1 || !s2) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	return compare(flags, s1, n1, s2, n2);
}

INT WINAPI CompareStringEx(LPCWSTR locale, DWORD flags, LPCWSTR s1, INT n1, LPCWSTR s2, INT n2,
			   LPNLSVERSIONINFO version, LPVOID reserved, LPARAM param)
{
	return CompareStringW(LOCALE_USER_DEFAULT, flags, s1, n1, s2, n2);
}

INT WINAPI CompareStringA(LCID lcid, DWORD flags, LPCSTR s1, INT n1, LPCSTR s2, INT n2)
{
	WCHAR *w1, *w2;
	INT l1, l2, ret;

	if (!s1 || !s2) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (n1 < 0)
		n1 = (INT)strlen(s1);
	if (n2 < 0)
		n2 = (INT)strlen(s2);
	w1 = HeapAlloc(GetProcessHeap(), 0, (n1 + 1) * sizeof(WCHAR));
	w2 = HeapAlloc(GetProcessHeap(), 0, (n2 + 1) * sizeof(WCHAR));
	if (!w1 || !w2) {
		HeapFree(GetProcessHeap(), 0, w1);
		HeapFree(GetProcessHeap(), 0, w2);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	l1 = n1 ? MultiByteToWideChar(CP_ACP, 0, s1, n1, w1, n1) : 0;
	l2 = n2 ? MultiByteToWideChar(CP_ACP, 0, s2, n2, w2, n2) : 0;
	ret = compare(flags, w1, l1, w2, l2);
	HeapFree(GetProcessHeap(), 0, w1);
	HeapFree(GetProcessHeap(), 0, w2);
	return ret;
}

INT WINAPI CompareStringOrdinal(const WCHAR *s1, INT n1, const WCHAR *s2, INT n2, BOOL ignore_case)
{
	INT i, n;

	if (!s1 || !s2) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return 0;
	}
	if (n1 < 0)
		n1 = (INT)wstr_len(s1);
	if (n2 < 0)
		n2 = (INT)wstr_len(s2);
	n = n1 < n2 ? n1 : n2;
	for (i = 0; i < n; i++) {
		WCHAR c1 = ignore_case ? wch_toupper(s1[i]) : s1[i];
		WCHAR c2 = ignore_case ? wch_toupper(s2[i]) : s2[i];

		if (c1 != c2)
			return c1 < c2 ? CSTR_LESS_THAN : CSTR_GREATER_THAN;
	}
	return n1 < n2 ? CSTR_LESS_THAN : n1 > n2 ? CSTR_GREATER_THAN : CSTR_EQUAL;
}

/* ---- character types ----------------------------------------------------- */

BOOL WINAPI GetStringTypeW(DWORD type, LPCWSTR src, INT count, LPWORD chartype)
{
	if (!src || !chartype) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (type != CT_CTYPE1) {
		/* CT_CTYPE2 (bidi) and CT_CTYPE3 (text) classes are not kept */
		TRACE(misc, "type %#x not supported\n", (unsigned)type);
		SetLastError(ERROR_INVALID_FLAGS);
		return FALSE;
	}
	if (count == -1)
		count = (INT)wstr_len(src) + 1;
	for (INT i = 0; i < count; i++)
		chartype[i] = wch_ctype1(src[i]);
	return TRUE;
}

BOOL WINAPI GetStringTypeExW(LCID lcid, DWORD type, LPCWSTR src, INT count, LPWORD chartype)
{
	return GetStringTypeW(type, src, count, chartype);
}
