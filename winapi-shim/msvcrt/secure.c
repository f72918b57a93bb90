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

int __cdecl crt_strcpy_s(char *dst, size_t size, const char *src)
{
	size_t n;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = strnlen(src, size);
	if (n == size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst, src, n + 1);
	return 0;
}

int __cdecl crt_strcat_s(char *dst, size_t size, const char *src)
{
	size_t have, n;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	have = strnlen(dst, size);
	if (have == size) {
		/* the destination was not terminated within its size */
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = strnlen(src, size - have);
	if (have + n == size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst + have, src, n + 1);
	return 0;
}

/* count == _TRUNCATE copies what fits and returns STRUNCATE when cut. */
int __cdecl crt_strncpy_s(char *dst, size_t size, const char *src, size_t count)
{
	size_t n;

	if (!count && !dst && !size)
		return 0;
	if (!dst || !size)
		return fail(EINVAL);
	if (!count) {
		dst[0] = 0;
		return 0;
	}
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = strnlen(src, count == CRT_TRUNCATE ? size : count);
	if (n >= size) {
		if (count == CRT_TRUNCATE) {
			memcpy(dst, src, size - 1);
			dst[size - 1] = 0;
			return CRT_STRUNCATE;
		}
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst, src, n);
	dst[n] = 0;
	return 0;
}

/* report: through the invalid-parameter handler too (the UCRT); msvcrt.dll
 * has no default action for an invalid parameter, so its wcscpy_s (the
 * one _s function mingw programs import from it) only sets errno and
 * returns it, as Wine's msvcrt.dll does. */
static int wcscpy_checked(WCHAR *dst, size_t size, const WCHAR *src, bool report)
{
	size_t n;
	int err = 0;

	if (!dst || !size) {
		err = EINVAL;
	} else if (!src) {
		dst[0] = 0;
		err = EINVAL;
	} else if ((n = crt_wcsnlen(src, size)) == size) {
		dst[0] = 0;
		err = ERANGE;
	} else {
		memcpy(dst, src, (n + 1) * sizeof(WCHAR));
		return 0;
	}
	if (report)
		return fail(err);
	crt_set_errno(err);
	return err;
}

int __cdecl crt_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	return wcscpy_checked(dst, size, src, true);
}

int __cdecl crt_msvcrt_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	return wcscpy_checked(dst, size, src, false);
}

int __cdecl crt_wcscat_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	size_t have, n;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	have = crt_wcsnlen(dst, size);
	if (have == size) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = crt_wcsnlen(src, size - have);
	if (have + n == size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst + have, src, (n + 1) * sizeof(WCHAR));
	return 0;
}

int __cdecl crt_wcsncpy_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count)
{
	size_t n;

	if (!count && !dst && !size)
		return 0;
	if (!dst || !size)
		return fail(EINVAL);
	if (!count) {
		dst[0] = 0;
		return 0;
	}
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = crt_wcsnlen(src, count == CRT_TRUNCATE ? size : count);
	if (n >= size) {
		if (count == CRT_TRUNCATE) {
			memcpy(dst, src, (size - 1) * sizeof(WCHAR));
			dst[size - 1] = 0;
			return CRT_STRUNCATE;
		}
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst, src, n * sizeof(WCHAR));
	dst[n] = 0;
	return 0;
}

/* getenv_s: *needed is the size with the terminator (0: not set, which
 * is not an error). */
int __cdecl crt_getenv_s(size_t *needed, char *buf, size_t size, const char *name)
{
	const char *v;
	size_t n;

	if (!needed || !name || (!buf && size))
		return fail(EINVAL);
	if (buf && size)
		buf[0] = 0;
	v = crt_getenv(name);
	if (!v) {
		*needed = 0;
		return 0;
	}
	n = strlen(v) + 1;
	*needed = n;
	/* too small (a size query too): ERANGE, without the handler */
	if (n > size)
		return ERANGE;
	memcpy(buf, v, n);
	return 0;
}

/* _dupenv_s: a CRT-heap copy the caller frees; NULL when not set. */
int __cdecl crt__dupenv_s(char **out, size_t *len, const char *name)
{
	const char *v;

	if (!out || !name)
		return fail(EINVAL);
	*out = NULL;
	if (len)
		*len = 0;
	v = crt_getenv(name);
	if (!v)
		return 0;
	*out = crt__strdup(v);
	if (!*out) {
		crt_set_errno(ENOMEM);
		return ENOMEM;
	}
	if (len)
		*len = strlen(v) + 1;
	return 0;
}

/* The wide forms read the CRT's wide environment copy. */
int __cdecl crt__wgetenv_s(size_t *needed, WCHAR *buf, size_t size, const WCHAR *name)
{
	const WCHAR *v;
	size_t n;

	if (!needed || !name || (!buf && size))
		return fail(EINVAL);
	if (buf && size)
		buf[0] = 0;
	v = crt__wgetenv(name);
	if (!v) {
		*needed = 0;
		return 0;
	}
	n = crt_wcslen(v) + 1;
	*needed = n;
	if (n > size)
		return ERANGE;
	memcpy(buf, v, n * sizeof(WCHAR));
	return 0;
}

int __cdecl crt__wdupenv_s(WCHAR **out, size_t *len, const WCHAR *name)
{
	const WCHAR *v;

	if (!out || !name)
		return fail(EINVAL);
	*out = NULL;
	if (len)
		*len = 0;
	v = crt__wgetenv(name);
	if (!v)
		return 0;
	*out = crt__wcsdup(v);
	if (!*out) {
		crt_set_errno(ENOMEM);
		return ENOMEM;
	}
	if (len)
		*len = crt_wcslen(v) + 1;
	return 0;
}
