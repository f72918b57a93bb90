/* string.h and ctype.h functions beyond the common ones: reversing and
 * filling (_strrev, _strset, _strnset and wide), case-blind memory
 * compare (_memicmp), _memccpy, _swab, the _s forms of strncat,
 * _strlwr/_strupr and _strset/_strnset, strerror_s/_strerror_s/
 * _wcserror_s, and the ASCII helpers (_tolower/_toupper without a range
 * check, isascii, toascii, iscsym, iscsymf, iswascii). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

char *__cdecl crt__strrev(char *s)
{
	for (size_t i = 0, n = strlen(s); i < n / 2; i++) {
		char c = s[i];

		s[i] = s[n - 1 - i];
		s[n - 1 - i] = c;
	}
	return s;
}

WCHAR *__cdecl crt__wcsrev(WCHAR *s)
{
	for (size_t i = 0, n = crt_wcslen(s); i < n / 2; i++) {
		WCHAR c = s[i];

		s[i] = s[n - 1 - i];
		s[n - 1 - i] = c;
	}
	return s;
}

char *__cdecl crt__strset(char *s, int c)
{
	for (char *p = s; *p; p++)
		*p = (char)c;
	return s;
}

char *__cdecl crt__strnset(char *s, int c, size_t n)
{
	for (char *p = s; *p && n; p++, n--)
		*p = (char)c;
	return s;
}

WCHAR *__cdecl crt__wcsset(WCHAR *s, WCHAR c)
{
	for (WCHAR *p = s; *p; p++)
		*p = c;
	return s;
}

WCHAR *__cdecl crt__wcsnset(WCHAR *s, WCHAR c, size_t n)
{
	for (WCHAR *p = s; *p && n; p++, n--)
		*p = c;
	return s;
}

int __cdecl crt__memicmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (size_t i = 0; i < n; i++) {
		int x = crt_tolower(p[i]), y = crt_tolower(q[i]);

		if (x != y)
			return x - y;
	}
	return 0;
}

void *__cdecl crt__memccpy(void *dst, const void *src, int c, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (size_t i = 0; i < n; i++) {
		d[i] = s[i];
		if (s[i] == (unsigned char)c)
			return d + i + 1;
	}
	return NULL;
}

/* Swaps each pair of bytes: n/2 pairs (an odd last byte stays). */
void __cdecl crt__swab(char *src, char *dst, int n)
{
	for (int i = 0; i + 1 < n; i += 2) {
		char a = src[i], b = src[i + 1];

		dst[i] = b;
		dst[i + 1] = a;
	}
}

/* ---- the _s forms -------------------------------------------------------------- */

#define TRUNCATE ((size_t)-1)

int __cdecl crt_strncat_s(char *dst, size_t size, const char *src, size_t count)
{
	size_t len, add;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src && count) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	len = strnlen(dst, size);
	if (len == size) {
		dst[0] = 0;
		return fail(EINVAL); /* not terminated */
	}
	add = src ? strnlen(src, count == TRUNCATE ? size : count) : 0;
	if (count == TRUNCATE && len + add >= size) {
		memcpy(dst + len, src, size - 1 - len);
		dst[size - 1] = 0;
		return CRT_STRUNCATE;
	}
	if (len + add >= size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst + len, src, add);
	dst[len + add] = 0;
	return 0;
}

int __cdecl crt_wcsncat_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count)
{
	size_t len, add;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src && count) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	len = crt_wcsnlen(dst, size);
	if (len == size) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	add = src ? crt_wcsnlen(src, count == TRUNCATE ? size : count) : 0;
	if (count == TRUNCATE && len + add >= size) {
		memcpy(dst + len, src, (size - 1 - len) * sizeof(WCHAR));
		dst[size - 1] = 0;
		return CRT_STRUNCATE;
	}
	if (len + add >= size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst + len, src, add * sizeof(WCHAR));
	dst[len + add] = 0;
	return 0;
}

/* The string must end within size: EINVAL (and emptied) otherwise. */
#define CASE_S(name, CH, len_fn, conv)                                                                     \
	int __cdecl name(CH *s, size_t size)                                                               \
	{                                                                                                  \
		if (!s)                                                                                    \
			return fail(EINVAL);                                                               \
		if (len_fn(s, size) == size) {                                                             \
			if (size)                                                                          \
				s[0] = 0;                                                                  \
			return fail(EINVAL);                                                               \
		}                                                                                          \
		conv(s);                                                                                   \
		return 0;                                                                                  \
	}
CASE_S(crt__strlwr_s, char, strnlen, crt__strlwr)
CASE_S(crt__strupr_s, char, strnlen, crt__strupr)
CASE_S(crt__wcslwr_s, WCHAR, crt_wcsnlen, crt__wcslwr)
CASE_S(crt__wcsupr_s, WCHAR, crt_wcsnlen, crt__wcsupr)

int __cdecl crt__strset_s(char *s, size_t size, int c)
{
	if (!s)
		return fail(EINVAL);
	if (strnlen(s, size) == size) {
		if (size)
			s[0] = 0;
		return fail(EINVAL);
	}
	crt__strset(s, c);
	return 0;
}

int __cdecl crt__strnset_s(char *s, size_t size, int c, size_t n)
{
	if (!s)
		return n || size ? fail(EINVAL) : 0;
	if (strnlen(s, size) == size) {
		if (size)
			s[0] = 0;
		return fail(EINVAL);
	}
	crt__strnset(s, c, n);
	return 0;
}

int __cdecl crt__wcsset_s(WCHAR *s, size_t size, WCHAR c)
{
	if (!s)
		return fail(EINVAL);
	if (crt_wcsnlen(s, size) == size) {
		if (size)
			s[0] = 0;
		return fail(EINVAL);
	}
	crt__wcsset(s, c);
	return 0;
}

int __cdecl crt__wcsnset_s(WCHAR *s, size_t size, WCHAR c, size_t n)
{
	if (!s)
		return n || size ? fail(EINVAL) : 0;
	if (crt_wcsnlen(s, size) == size) {
		if (size)
			s[0] = 0;
		return fail(EINVAL);
	}
	crt__wcsnset(s, c, n);
	return 0;
}

/* ---- error text into a buffer ----------------------------------------------------- */

/* strerror's text, cut to the buffer (STRUNCATE is not an error here:
 * the documented result is the message as far as it fits). */
int __cdecl crt_strerror_s(char *buf, size_t size, int err)
{
	if (!buf || !size)
		return fail(EINVAL);
	snprintf(buf, size, "%s", crt_strerror(err));
	return 0;
}

int __cdecl crt__wcserror_s(WCHAR *buf, size_t size, int err)
{
	const char *m = crt_strerror(err);
	size_t i;

	if (!buf || !size)
		return fail(EINVAL);
	for (i = 0; m[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)m[i];
	buf[i] = 0;
	return 0;
}

/* _strerror's text ("s: message\n") into buf */
int __cdecl crt__strerror_s(char *buf, size_t size, const char *s)
{
	if (!buf || !size)
		return fail(EINVAL);
	snprintf(buf, size, "%s", crt__strerror(s));
	return 0;
}

/* ---- ASCII helpers ------------------------------------------------------------------ */

int __cdecl crt__tolower(int c)
{
	return c - 'A' + 'a';
}

int __cdecl crt__toupper(int c)
{
	return c - 'a' + 'A';
}

int __cdecl crt___isascii(int c)
{
	return (unsigned int)c < 0x80;
}

int __cdecl crt___toascii(int c)
{
	return c & 0x7f;
}

int __cdecl crt___iscsymf(int c)
{
	return crt_isalpha(c) || c == '_';
}

int __cdecl crt___iscsym(int c)
{
	return crt_isalnum(c) || c == '_';
}

int __cdecl crt_iswascii(WCHAR c)
{
	return c < 0x80;
}
