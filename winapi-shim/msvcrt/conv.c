/* UTF-16 <-> narrow conversions for the CRT.
 *
 * ndrun's CRT encodes narrow text as UTF-8 whatever the locale says: the
 * Linux side (terminal, file names, environment) is UTF-8, and UTF-8
 * round-trips every UTF-16 string, where a Windows code page would lose
 * characters.  Unpaired surrogates become U+FFFD. */
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

size_t crt_encode_wchar(unsigned int cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* Returns the bytes the whole conversion needs (without a terminator);
 * writes at most dstsize bytes, never a partial character. */
size_t crt_wide_to_utf8(const WCHAR *src, size_t srclen, char *dst, size_t dstsize)
{
	size_t out = 0;
	for (size_t i = 0; i < srclen; i++) {
		unsigned int cp = src[i];
		if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < srclen && src[i + 1] >= 0xdc00 &&
		    src[i + 1] < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (src[i + 1] - 0xdc00);
			i++;
		} else if (cp >= 0xd800 && cp < 0xe000) {
			cp = 0xfffd;
		}
		char tmp[4];
		size_t n = crt_encode_wchar(cp, tmp);
		if (dst && out + n <= dstsize)
			memcpy(dst + out, tmp, n);
		else
			dst = NULL;
		out += n;
	}
	return out;
}

/* Decodes one UTF-8 sequence; invalid bytes decode as U+FFFD, one each. */
static unsigned int decode_utf8(const unsigned char *s, size_t len, size_t *used)
{
	unsigned int c = s[0], cp, min;
	size_t n;
	if (c < 0x80) {
		*used = 1;
		return c;
	}
	if (c >= 0xc2 && c < 0xe0) {
		n = 2, cp = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c < 0xf0) {
		n = 3, cp = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c < 0xf5) {
		n = 4, cp = c & 0x07, min = 0x10000;
	} else {
		*used = 1;
		return 0xfffd;
	}
	if (len < n) {
		*used = 1;
		return 0xfffd;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*used = 1;
			return 0xfffd;
		}
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	*used = n;
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		return 0xfffd;
	return cp;
}

size_t crt_utf8_to_wide(const char *src, size_t srclen, WCHAR *dst, size_t dstsize)
{
	size_t out = 0, i = 0;
	while (i < srclen) {
		size_t used;
		unsigned int cp = decode_utf8((const unsigned char *)src + i, srclen - i, &used);
		size_t n = cp >= 0x10000 ? 2 : 1;
		i += used;
		if (dst && out + n <= dstsize) {
			if (n == 2) {
				dst[out] = 0xd800 + ((cp - 0x10000) >> 10);
				dst[out + 1] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
			} else {
				dst[out] = cp;
			}
		} else {
			dst = NULL;
		}
		out += n;
	}
	return out;
}

char *crt_wide_to_utf8_alloc(const WCHAR *s)
{
	return crt_wide_to_utf8_alloc_n(s, crt_wcslen(s));
}

char *crt_wide_to_utf8_alloc_n(const WCHAR *s, size_t len)
{
	size_t n = crt_wide_to_utf8(s, len, NULL, 0);
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	crt_wide_to_utf8(s, len, r, n);
	r[n] = 0;
	return r;
}

WCHAR *crt_utf8_to_wide_alloc(const char *s)
{
	size_t len = strlen(s);
	size_t n = crt_utf8_to_wide(s, len, NULL, 0);
	WCHAR *r = malloc((n + 1) * sizeof(WCHAR));
	if (!r)
		return NULL;
	crt_utf8_to_wide(s, len, r, n);
	r[n] = 0;
	return r;
}
