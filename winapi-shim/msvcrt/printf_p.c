/* The printf functions with positional arguments ("%2$s %1$s"): msvcrt's
 * _printf_p family, and ucrtbase's __stdio_common_v*printf_p that the
 * UCRT's inline _printf_p and friends call.  The engine is printf.c's
 * (CRT_PF_POSITIONAL); the buffer rule is sprintf_s's: the text must fit,
 * else an empty string, ERANGE and the invalid-parameter handler. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static int to_buffer(unsigned int opts, void *buf, size_t size, int wide, const void *fmt, __ms_va_list ap)
{
	size_t unit = wide ? sizeof(WCHAR) : 1;
	void *text;
	int len;

	/* the UCRT's _scprintf_p: no buffer, only the length */
	if ((opts & CRT_PF_UCRT) && fmt && !buf && !size) {
		len = crt_pf_format(opts | CRT_PF_POSITIONAL, wide, fmt, ap, &text);
		free(text);
		return len;
	}
	if (!fmt || !buf || !size) {
		if (buf && size)
			memset(buf, 0, unit);
		return crt_invalid_arg();
	}
	len = crt_pf_format(opts | CRT_PF_POSITIONAL, wide, fmt, ap, &text);
	if (len < 0) {
		memset(buf, 0, unit);
		return -1;
	}
	if ((size_t)len >= size) {
		free(text);
		memset(buf, 0, unit);
		crt_set_errno(ERANGE);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	memcpy(buf, text, ((size_t)len + 1) * unit);
	free(text);
	return len;
}

static int to_stream(unsigned int opts, struct crt_file *f, int wide, const void *fmt, __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	return crt_pf_stream(opts | CRT_PF_POSITIONAL, f, wide, fmt, ap);
}

static int count(int wide, const void *fmt, __ms_va_list ap)
{
	void *text;
	int len;

	if (!fmt)
		return crt_invalid_arg();
	len = crt_pf_format(CRT_PF_POSITIONAL, wide, fmt, ap, &text);
	free(text);
	return len;
}

#define CH char
#define WIDE 0
#define NAME(n, w) n
#include "msvcrt/printf_p_chars.h"

#define CH WCHAR
#define WIDE 1
#define NAME(n, w) w
#include "msvcrt/printf_p_chars.h"
