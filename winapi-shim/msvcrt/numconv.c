/* The C99 number conversions ucrtbase adds to msvcrt's (stdlib.c):
 * strtof, strtold (long double is double), the long long names, and the
 * wide forms.  glibc converts; its errno crosses into the CRT's. */
#include <errno.h>
#include <stdlib.h>

#include "msvcrt/msvcrt_private.h"

float __cdecl crt_strtof(const char *s, char **end)
{
	int saved = errno;
	float v;

	errno = 0;
	v = strtof(s, end);
	if (errno == ERANGE)
		crt_set_errno(ERANGE);
	errno = saved;
	return v;
}

/* Wide input: the number's characters are ASCII, so the longest ASCII
 * prefix is converted and the end pointer mapped back. */
static char *ascii_prefix(const WCHAR *s, size_t *len)
{
	size_t n = 0;
	char *a;

	while (s[n] && s[n] < 0x80)
		n++;
	a = malloc(n + 1);
	if (!a)
		return NULL;
	for (size_t i = 0; i < n; i++)
		a[i] = (char)s[i];
	a[n] = 0;
	*len = n;
	return a;
}

float __cdecl crt_wcstof(const WCHAR *s, WCHAR **end)
{
	size_t n;
	char *a = ascii_prefix(s, &n), *e;
	float v;

	if (!a) {
		crt_set_errno(ENOMEM);
		if (end)
			*end = (WCHAR *)s;
		return 0;
	}
	v = crt_strtof(a, &e);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

int64_t __cdecl crt__wcstoi64(const WCHAR *s, WCHAR **end, int base)
{
	size_t n;
	char *a = ascii_prefix(s, &n), *e;
	int64_t v;

	if (!a) {
		crt_set_errno(ENOMEM);
		if (end)
			*end = (WCHAR *)s;
		return 0;
	}
	v = crt__strtoi64(a, &e, base);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

uint64_t __cdecl crt__wcstoui64(const WCHAR *s, WCHAR **end, int base)
{
	size_t n;
	char *a = ascii_prefix(s, &n), *e;
	uint64_t v;

	if (!a) {
		crt_set_errno(ENOMEM);
		if (end)
			*end = (WCHAR *)s;
		return 0;
	}
	v = crt__strtoui64(a, &e, base);
	if (end)
		*end = (WCHAR *)s + (e - a);
	free(a);
	return v;
}

int64_t __cdecl crt_atoll(const char *s)
{
	return crt__strtoi64(s, NULL, 10);
}
