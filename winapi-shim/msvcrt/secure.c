/* The bounds-checked ("_s") string and memory functions.  Shared rule
 * (Microsoft's "Security features in the CRT"): a NULL destination or a
 * zero size is EINVAL; a source that does not fit empties the destination
 * and is ERANGE; both report through the invalid-parameter handler first
 * and return the errno value. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_TRUNCATE ((size_t)-1)

static int fail(int err)
{
	crt_set_errno(err);
	crt_invalid_parameter_noinfo();
	return err;
}

int __cdecl crt_memcpy_s(void *dst, size_t size, const void *src, size_t count)
{
	if (!count)
		return 0;
	if (!dst)
		return fail(EINVAL);
	if (!src) {
		memset(dst, 0, size);
		return fail(EINVAL);
	}
	if (count > size) {
		memset(dst, 0, size);
		return fail(ERANGE);
	}
	memcpy(dst, src, count);
	return 0;
}

int __cdecl crt_memmove_s(void *dst, size_t size, const void *src, size_t count)
{
	if (!count)
		return 0;
	if (!dst || !src)
		return fail(EINVAL);
	if (count > size)
		return fail(ERANGE);
	memmove(dst, src, count);
	return 0;
}

#define CH char
#define NAME(n, w) n
#define CH_NLEN strnlen
#define CH_LEN strlen
#define CH_GETENV crt_getenv
#define CH_DUP crt__strdup
#include "msvcrt/secure_chars.h"

/* The wide forms read the CRT's wide environment copy. */
#define CH WCHAR
#define NAME(n, w) w
#define CH_NLEN crt_wcsnlen
#define CH_LEN crt_wcslen
#define CH_GETENV crt__wgetenv
#define CH_DUP crt__wcsdup
#include "msvcrt/secure_chars.h"

/* msvcrt.dll has no default action for an invalid parameter, so its
 * wcscpy_s (the one _s function mingw programs import from it) only sets
 * errno and returns it, as Wine's msvcrt.dll does; the UCRT's reports. */
int __cdecl crt_msvcrt_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	return wcscpy_checked(dst, size, src, false);
}
