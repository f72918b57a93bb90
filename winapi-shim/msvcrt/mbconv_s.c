/* mbstowcs_s and wcstombs_s: wstring.c's conversions (the narrow side is
 * UTF-8) with a caller's buffer size.  *converted counts what was stored
 * with its terminator (or what would be, asked with no buffer); a result
 * that does not fit is ERANGE with the buffer emptied, or, with count
 * _TRUNCATE, as much as fits and STRUNCATE. */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define TRUNCATE ((size_t)-1)

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

int __cdecl crt_mbstowcs_s(size_t *converted, WCHAR *dst, size_t size, const char *src, size_t count)
{
	size_t need, n;
	int truncated = 0;

	if (converted)
		*converted = 0;
	if ((!dst) != (!size) || !src)
		return fail(EINVAL);
	need = crt_mbstowcs(NULL, src, 0);
	if (!dst) {
		if (converted)
			*converted = need + 1;
		return 0;
	}
	n = count != TRUNCATE && count < need ? count : need;
	if (n + 1 > size) {
		if (count != TRUNCATE) {
			dst[0] = 0;
			return fail(ERANGE);
		}
		n = size - 1;
		truncated = 1;
	}
	n = crt_mbstowcs(dst, src, n);
	dst[n] = 0;
	if (converted)
		*converted = n + 1;
	return truncated ? CRT_STRUNCATE : 0;
}

int __cdecl crt_wcstombs_s(size_t *converted, char *dst, size_t size, const WCHAR *src, size_t count)
{
	size_t need, n;
	int truncated = 0;

	if (converted)
		*converted = 0;
	if ((!dst) != (!size) || !src)
		return fail(EINVAL);
	need = crt_wcstombs(NULL, src, 0);
	if (!dst) {
		if (converted)
			*converted = need + 1;
		return 0;
	}
	n = count != TRUNCATE && count < need ? count : need;
	if (n + 1 > size) {
		if (count != TRUNCATE) {
			dst[0] = 0;
			return fail(ERANGE);
		}
		n = size - 1;
		truncated = 1;
	}
	/* whole characters only, within n bytes */
	n = crt_wcstombs(dst, src, n);
	dst[n] = 0;
	if (converted)
		*converted = n + 1;
	return truncated ? CRT_STRUNCATE : 0;
}
