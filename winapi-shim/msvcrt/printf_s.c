/* msvcrt.dll's printf _s family: printf as msvcrt formats it, with %n
 * refused (the invalid-parameter handler, -1), and the buffer forms with
 * _vsnprintf_s's rules (ucrt_stdio.c: the text must fit, or _TRUNCATE
 * cuts it; the buffer emptied on failure). */
#include <errno.h>

#include "msvcrt/msvcrt_private.h"

#define MUST_FIT ((size_t)-2)

static int stream(struct crt_file *f, int wide, const void *fmt, __ms_va_list ap)
{
	if (!f || !fmt) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	return crt_pf_stream(CRT_PF_SECURE, f, wide, fmt, ap);
}

int __cdecl crt_vfprintf_s(struct crt_file *f, const char *fmt, __ms_va_list ap)
{
	return stream(f, 0, fmt, ap);
}

int __cdecl crt_vfwprintf_s(struct crt_file *f, const WCHAR *fmt, __ms_va_list ap)
{
	return stream(f, 1, fmt, ap);
}

int __cdecl crt_vprintf_s(const char *fmt, __ms_va_list ap)
{
	return stream(crt_stdout(), 0, fmt, ap);
}

int __cdecl crt_vwprintf_s(const WCHAR *fmt, __ms_va_list ap)
{
	return stream(crt_stdout(), 1, fmt, ap);
}

#define VARIADIC(name, vname, last, ...)                                                                   \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		__ms_va_start(ap, last);                                                                   \
		r = vname(__VA_ARGS__, ap);                                                                \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}

int __cdecl crt_fprintf_s(struct crt_file *f, const char *fmt, ...) VARIADIC(fprintf_s, crt_vfprintf_s, fmt, f, fmt)
int __cdecl crt_fwprintf_s(struct crt_file *f, const WCHAR *fmt, ...)
	VARIADIC(fwprintf_s, crt_vfwprintf_s, fmt, f, fmt)
int __cdecl crt_printf_s(const char *fmt, ...) VARIADIC(printf_s, crt_vprintf_s, fmt, fmt)
int __cdecl crt_wprintf_s(const WCHAR *fmt, ...) VARIADIC(wprintf_s, crt_vwprintf_s, fmt, fmt)

int __cdecl crt__vsnprintf_s(char *buf, size_t size, size_t count, const char *fmt, __ms_va_list ap)
{
	return crt_vsnprintf_s_opts(CRT_PF_SECURE, buf, size, count, 0, fmt, ap);
}

int __cdecl crt__vsnwprintf_s(WCHAR *buf, size_t size, size_t count, const WCHAR *fmt, __ms_va_list ap)
{
	return crt_vsnprintf_s_opts(CRT_PF_SECURE, buf, size, count, 1, fmt, ap);
}

int __cdecl crt_vswprintf_s(WCHAR *buf, size_t size, const WCHAR *fmt, __ms_va_list ap)
{
	return crt_vsnprintf_s_opts(CRT_PF_SECURE, buf, size, MUST_FIT, 1, fmt, ap);
}

int __cdecl crt__snprintf_s(char *buf, size_t size, size_t count, const char *fmt, ...)
	VARIADIC(_snprintf_s, crt__vsnprintf_s, fmt, buf, size, count, fmt)
int __cdecl crt__snwprintf_s(WCHAR *buf, size_t size, size_t count, const WCHAR *fmt, ...)
	VARIADIC(_snwprintf_s, crt__vsnwprintf_s, fmt, buf, size, count, fmt)
int __cdecl crt_swprintf_s(WCHAR *buf, size_t size, const WCHAR *fmt, ...)
	VARIADIC(swprintf_s, crt_vswprintf_s, fmt, buf, size, fmt)
