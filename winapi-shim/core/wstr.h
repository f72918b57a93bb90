/* 16-bit (WCHAR) string helpers for ndrun's own code.  Linux's wchar_t is
 * 32-bit, so libc's wcs* functions do not apply to Win32 strings. */
#ifndef NDSHIM_WSTR_H
#define NDSHIM_WSTR_H

#include <stddef.h>

#include <windef.h>

size_t wstr_len(const WCHAR *s);
WCHAR *wstr_dup(const WCHAR *s); /* malloc'd; NULL when out of memory */
int wstr_cmp(const WCHAR *a, const WCHAR *b);
/* Compares by simple (one-to-one) Unicode case folding to upper case,
 * like Windows' case-insensitive name comparisons. */
int wstr_icmp(const WCHAR *a, const WCHAR *b);
int wstr_nicmp(const WCHAR *a, const WCHAR *b, size_t n);

/* Simple Unicode case mapping of one UTF-16 unit (the full BMP, through
 * glibc's C.UTF-8 tables; ASCII only if that locale is missing). */
WCHAR wch_toupper(WCHAR c);
WCHAR wch_tolower(WCHAR c);

/* GetStringTypeW's CT_CTYPE1 bits (C1_UPPER ... C1_DEFINED) for c. */
WORD wch_ctype1(WCHAR c);

#endif
