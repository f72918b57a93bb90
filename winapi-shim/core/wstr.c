#include <stdlib.h>
#include <string.h>

#include "core/wstr.h"

size_t wstr_len(const uint16_t *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

uint16_t *wstr_dup(const uint16_t *s)
{
	size_t n = (wstr_len(s) + 1) * sizeof(*s);
	uint16_t *d = malloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

int wstr_icmp_ascii(const uint16_t *a, const uint16_t *b)
{
	for (;; a++, b++) {
		uint16_t ca = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a;
		uint16_t cb = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
		if (ca != cb || !ca)
			return ca - cb;
	}
}

/* One code point from UTF-8 at *s (advanced); U+FFFD for a bad sequence. */
static uint32_t next_utf8(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = *p++, min;
	int n;

	if (c < 0x80) { *s = p; return c; }
	if (c >= 0xc2 && c <= 0xdf) { n = 1; c &= 0x1f; min = 0x80; }
	else if (c >= 0xe0 && c <= 0xef) { n = 2; c &= 0x0f; min = 0x800; }
	else if (c >= 0xf0 && c <= 0xf4) { n = 3; c &= 0x07; min = 0x10000; }
	else { *s = p; return 0xfffd; }
	for (int i = 0; i < n; i++, p++) {
		if ((*p & 0xc0) != 0x80) { *s = p; return 0xfffd; }
		c = (c << 6) | (*p & 0x3f);
	}
	*s = p;
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0xfffd;
	return c;
}

size_t utf8_to_utf16(const char *str, uint16_t *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0;

	while (*s) {
		uint32_t c = next_utf8(&s);
		if (c >= 0x10000) {
			if (out && n + 2 < outlen) {
				out[n] = (uint16_t)(0xd800 | ((c - 0x10000) >> 10));
				out[n + 1] = (uint16_t)(0xdc00 | (c & 0x3ff));
			}
			n += 2;
		} else {
			if (out && n + 1 < outlen)
				out[n] = (uint16_t)c;
			n++;
		}
	}
	if (out && outlen)
		out[n < outlen ? n : outlen - 1] = 0;
	return n + 1;
}

size_t utf16_to_utf8(const uint16_t *s, char *out, size_t outlen)
{
	size_t n = 0;

	for (; *s; s++) {
		uint32_t c = *s;
		char buf[4];
		int len;

		if (c >= 0xd800 && c <= 0xdbff && s[1] >= 0xdc00 && s[1] <= 0xdfff) {
			c = 0x10000 + ((c - 0xd800) << 10) + (s[1] - 0xdc00);
			s++;
		} else if (c >= 0xd800 && c <= 0xdfff) {
			c = 0xfffd;
		}
		if (c < 0x80) { buf[0] = (char)c; len = 1; }
		else if (c < 0x800) { buf[0] = (char)(0xc0 | (c >> 6)); buf[1] = (char)(0x80 | (c & 0x3f)); len = 2; }
		else if (c < 0x10000) {
			buf[0] = (char)(0xe0 | (c >> 12)); buf[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[2] = (char)(0x80 | (c & 0x3f)); len = 3;
		} else {
			buf[0] = (char)(0xf0 | (c >> 18)); buf[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			buf[2] = (char)(0x80 | ((c >> 6) & 0x3f)); buf[3] = (char)(0x80 | (c & 0x3f)); len = 4;
		}
		if (out && n + len < outlen)
			memcpy(out + n, buf, len);
		n += len;
	}
	if (out && outlen)
		out[n < outlen ? n : outlen - 1] = 0;
	return n + 1;
}

uint16_t *utf8_to_utf16_dup(const char *s)
{
	size_t n = utf8_to_utf16(s, NULL, 0);
	uint16_t *w = malloc(n * sizeof(*w));

	if (w)
		utf8_to_utf16(s, w, n);
	return w;
}

char *utf16_to_utf8_dup(const uint16_t *s)
{
	size_t n = utf16_to_utf8(s, NULL, 0);
	char *a = malloc(n);

	if (a)
		utf16_to_utf8(s, a, n);
	return a;
}
