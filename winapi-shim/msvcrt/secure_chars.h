/* The bounds-checked string and environment functions for one character
 * type, included twice by secure.c: once with CH char, once with CH
 * WCHAR.  The includer defines
 *   CH                 the character type
 *   NAME(n, w)         n for char, w for WCHAR: each export keeps its name
 *   CH_NLEN, CH_LEN    strnlen and strlen for CH
 *   CH_GETENV, CH_DUP  the CRT's getenv and _strdup for CH
 * and fail() (secure.c).  No include guard: that is the point. */

/* report: through the invalid-parameter handler too; msvcrt.dll's
 * wcscpy_s does not (secure.c). */
static int NAME(strcpy_checked, wcscpy_checked)(CH *dst, size_t size, const CH *src, bool report)
{
	size_t n;
	int err = 0;

	if (!dst || !size) {
		err = EINVAL;
	} else if (!src) {
		dst[0] = 0;
		err = EINVAL;
	} else if ((n = CH_NLEN(src, size)) == size) {
		dst[0] = 0;
		err = ERANGE;
	} else {
		memcpy(dst, src, (n + 1) * sizeof(CH));
		return 0;
	}
	if (report)
		return fail(err);
	crt_set_errno(err);
	return err;
}

int __cdecl NAME(crt_strcpy_s, crt_wcscpy_s)(CH *dst, size_t size, const CH *src)
{
	return NAME(strcpy_checked, wcscpy_checked)(dst, size, src, true);
}

int __cdecl NAME(crt_strcat_s, crt_wcscat_s)(CH *dst, size_t size, const CH *src)
{
	size_t have, n;

	if (!dst || !size)
		return fail(EINVAL);
	if (!src) {
		dst[0] = 0;
		return fail(EINVAL);
	}
	have = CH_NLEN(dst, size);
	if (have == size) {
		/* the destination was not terminated within its size */
		dst[0] = 0;
		return fail(EINVAL);
	}
	n = CH_NLEN(src, size - have);
	if (have + n == size) {
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst + have, src, (n + 1) * sizeof(CH));
	return 0;
}

/* count == _TRUNCATE copies what fits and returns STRUNCATE when cut. */
int __cdecl NAME(crt_strncpy_s, crt_wcsncpy_s)(CH *dst, size_t size, const CH *src, size_t count)
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
	n = CH_NLEN(src, count == CRT_TRUNCATE ? size : count);
	if (n >= size) {
		if (count == CRT_TRUNCATE) {
			memcpy(dst, src, (size - 1) * sizeof(CH));
			dst[size - 1] = 0;
			return CRT_STRUNCATE;
		}
		dst[0] = 0;
		return fail(ERANGE);
	}
	memcpy(dst, src, n * sizeof(CH));
	dst[n] = 0;
	return 0;
}

/* getenv_s: *needed is the size with the terminator (0: not set, which
 * is not an error). */
int __cdecl NAME(crt_getenv_s, crt__wgetenv_s)(size_t *needed, CH *buf, size_t size, const CH *name)
{
	const CH *v;
	size_t n;

	if (!needed || !name || (!buf && size))
		return fail(EINVAL);
	if (buf && size)
		buf[0] = 0;
	v = CH_GETENV(name);
	if (!v) {
		*needed = 0;
		return 0;
	}
	n = CH_LEN(v) + 1;
	*needed = n;
	/* too small (a size query too): ERANGE, without the handler */
	if (n > size)
		return ERANGE;
	memcpy(buf, v, n * sizeof(CH));
	return 0;
}

/* _dupenv_s: a CRT-heap copy the caller frees; NULL when not set. */
int __cdecl NAME(crt__dupenv_s, crt__wdupenv_s)(CH **out, size_t *len, const CH *name)
{
	const CH *v;

	if (!out || !name)
		return fail(EINVAL);
	*out = NULL;
	if (len)
		*len = 0;
	v = CH_GETENV(name);
	if (!v)
		return 0;
	*out = CH_DUP(v);
	if (!*out) {
		crt_set_errno(ENOMEM);
		return ENOMEM;
	}
	if (len)
		*len = CH_LEN(v) + 1;
	return 0;
}

#undef CH
#undef NAME
#undef CH_NLEN
#undef CH_LEN
#undef CH_GETENV
#undef CH_DUP
