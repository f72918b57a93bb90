/* 16-bit (WCHAR) string helpers for ndrun's own code.  Linux's wchar_t is
 * 32-bit, so none of libc's wcs* functions apply to what PE code sees. */
#ifndef NDSHIM_WSTR_H
#define NDSHIM_WSTR_H

#include <stddef.h>
#include <stdint.h>

size_t wstr_len(const uint16_t *s);
uint16_t *wstr_dup(const uint16_t *s);
int wstr_icmp_ascii(const uint16_t *a, const uint16_t *b); /* ASCII case folding only */

/* UTF-8 → UTF-16: writes at most outlen units including the terminator
 * (out may be NULL to measure) and returns the units needed including it.
 * Invalid bytes become U+FFFD. */
size_t utf8_to_utf16(const char *s, uint16_t *out, size_t outlen);
/* UTF-16 → UTF-8, same contract in bytes; lone surrogates become U+FFFD. */
size_t utf16_to_utf8(const uint16_t *s, char *out, size_t outlen);
/* Newly malloc'ed conversions; NULL on allocation failure. */
uint16_t *utf8_to_utf16_dup(const char *s);
char *utf16_to_utf8_dup(const uint16_t *s);

#endif
