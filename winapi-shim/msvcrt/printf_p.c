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

/* ---- ucrtbase ------------------------------------------------------------ */

int __cdecl ucrt___stdio_common_vfprintf_p(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					    __ms_va_list ap)
{
	return to_stream(ucrt_printf_opts(options), f, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vfwprintf_p(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					     __ms_va_list ap)
{
	return to_stream(ucrt_printf_opts(options), f, 1, fmt, ap);
}

int __cdecl ucrt___stdio_common_vsprintf_p(uint64_t options, char *buf, size_t size, const char *fmt, void *locale,
					    __ms_va_list ap)
{
	return to_buffer(ucrt_printf_opts(options), buf, size, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vswprintf_p(uint64_t options, WCHAR *buf, size_t size, const WCHAR *fmt,
					     void *locale, __ms_va_list ap)
{
	return to_buffer(ucrt_printf_opts(options), buf, size, 1, fmt, ap);
}

/* ---- msvcrt -------------------------------------------------------------- */

int __cdecl crt__vfprintf_p(struct crt_file *f, const char *fmt, __ms_va_list ap)
{
	return to_stream(0, f, 0, fmt, ap);
}

int __cdecl crt__fprintf_p(struct crt_file *f, const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, f, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vprintf_p(const char *fmt, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), 0, fmt, ap);
}

int __cdecl crt__printf_p(const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, crt_stdout(), 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vsprintf_p(char *buf, size_t size, const char *fmt, __ms_va_list ap)
{
	return to_buffer(0, buf, size, 0, fmt, ap);
}

int __cdecl crt__sprintf_p(char *buf, size_t size, const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_buffer(0, buf, size, 0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vscprintf_p(const char *fmt, __ms_va_list ap)
{
	return count(0, fmt, ap);
}

int __cdecl crt__scprintf_p(const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = count(0, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vfwprintf_p(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap)
{
	return to_stream(0, f, 1, fmt, ap);
}

int __cdecl crt__fwprintf_p(struct crt_file *f, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, f, 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vwprintf_p(const WCHAR *fmt, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), 1, fmt, ap);
}

int __cdecl crt__wprintf_p(const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_stream(0, crt_stdout(), 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vswprintf_p(WCHAR *buf, size_t size, const WCHAR *fmt, __ms_va_list ap)
{
	return to_buffer(0, buf, size, 1, fmt, ap);
}

int __cdecl crt__swprintf_p(WCHAR *buf, size_t size, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = to_buffer(0, buf, size, 1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

int __cdecl crt__vscwprintf_p(const WCHAR *fmt, __ms_va_list ap)
{
	return count(1, fmt, ap);
}

int __cdecl crt__scwprintf_p(const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = count(1, fmt, ap);
	__ms_va_end(ap);
	return r;
}

/* The _l forms: the CRT has the "C" locale only, whichever is passed. */
int __cdecl crt__vsprintf_p_l(char *buf, size_t size, const char *fmt, void *locale, __ms_va_list ap)
{
	return to_buffer(0, buf, size, 0, fmt, ap);
}

int __cdecl crt__vswprintf_p_l(WCHAR *buf, size_t size, const WCHAR *fmt, void *locale, __ms_va_list ap)
{
	return to_buffer(0, buf, size, 1, fmt, ap);
}

int __cdecl crt__vscprintf_p_l(const char *fmt, void *locale, __ms_va_list ap)
{
	return count(0, fmt, ap);
}

int __cdecl crt__vscwprintf_p_l(const WCHAR *fmt, void *locale, __ms_va_list ap)
{
	return count(1, fmt, ap);
}

int __cdecl crt__vfprintf_p_l(struct crt_file *f, const char *fmt, void *locale, __ms_va_list ap)
{
	return to_stream(0, f, 0, fmt, ap);
}

int __cdecl crt__vfwprintf_p_l(struct crt_file *f, const WCHAR *fmt, void *locale, __ms_va_list ap)
{
	return to_stream(0, f, 1, fmt, ap);
}

int __cdecl crt__vprintf_p_l(const char *fmt, void *locale, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), 0, fmt, ap);
}

int __cdecl crt__vwprintf_p_l(const WCHAR *fmt, void *locale, __ms_va_list ap)
{
	return to_stream(0, crt_stdout(), 1, fmt, ap);
}
