/* Integers as text beyond _itoa (stdlib.c): the wide forms (_ltow,
 * _ultow, _i64tow, _ui64tow) and the _s forms of them all, which check
 * the buffer (EINVAL for none or a bad radix, ERANGE when the digits do
 * not fit, the buffer emptied) and report through the invalid-parameter
 * handler. */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static WCHAR *widen(const char *s, WCHAR *buf)
{
	size_t i = 0;

	do
		buf[i] = (unsigned char)s[i];
	while (s[i++]);
	return buf;
}

WCHAR *__cdecl crt__ltow(int v, WCHAR *buf, int radix)
{
	char tmp[72];

	return widen(crt__ltoa(v, tmp, radix), buf);
}

WCHAR *__cdecl crt__ultow(unsigned int v, WCHAR *buf, int radix)
{
	char tmp[72];

	return widen(crt__ultoa(v, tmp, radix), buf);
}

WCHAR *__cdecl crt__i64tow(int64_t v, WCHAR *buf, int radix)
{
	char tmp[72];

	return widen(crt__i64toa(v, tmp, radix), buf);
}

WCHAR *__cdecl crt__ui64tow(uint64_t v, WCHAR *buf, int radix)
{
	char tmp[72];

	return widen(crt__ui64toa(v, tmp, radix), buf);
}

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

/* text (from the plain form) into buf[size], narrow or wide. */
static int put_s(const char *text, void *buf, size_t size, int wide)
{
	size_t n = strlen(text);

	if (n + 1 > size) {
		if (wide)
			((WCHAR *)buf)[0] = 0;
		else
			((char *)buf)[0] = 0;
		return fail(ERANGE);
	}
	if (wide)
		widen(text, buf);
	else
		memcpy(buf, text, n + 1);
	return 0;
}

#define S_FORM(name, type, conv, wide)                                                                    \
	int __cdecl name(type v, void *buf, size_t size, int radix)                                       \
	{                                                                                                 \
		char tmp[72];                                                                             \
		if (!buf || !size)                                                                        \
			return fail(EINVAL);                                                              \
		if (radix < 2 || radix > 36) {                                                            \
			if (wide)                                                                         \
				((WCHAR *)buf)[0] = 0;                                                    \
			else                                                                              \
				((char *)buf)[0] = 0;                                                     \
			return fail(EINVAL);                                                              \
		}                                                                                         \
		return put_s(conv(v, tmp, radix), buf, size, wide);                                      \
	}

S_FORM(crt__itoa_s, int, crt__itoa, 0)
S_FORM(crt__ltoa_s, int, crt__ltoa, 0)
S_FORM(crt__ultoa_s, unsigned int, crt__ultoa, 0)
S_FORM(crt__i64toa_s, int64_t, crt__i64toa, 0)
S_FORM(crt__ui64toa_s, uint64_t, crt__ui64toa, 0)
S_FORM(crt__itow_s, int, crt__itoa, 1)
S_FORM(crt__ltow_s, int, crt__ltoa, 1)
S_FORM(crt__ultow_s, unsigned int, crt__ultoa, 1)
S_FORM(crt__i64tow_s, int64_t, crt__i64toa, 1)
S_FORM(crt__ui64tow_s, uint64_t, crt__ui64toa, 1)
