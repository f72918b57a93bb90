/* ucrtbase's stdio entry points.  The UCRT's headers inline printf and
 * friends into calls of a few __stdio_common_* functions that take an
 * options word (corecrt_stdio_config.h) and a locale; the buffer rules
 * live here, the formatting is printf.c's with the UCRT's flavour.  The
 * streams are msvcrt's: __acrt_iob_func hands out the same FILEs (the
 * UCRT's FILE is opaque to programs). */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_TRUNCATE ((size_t)-1)

static atomic_int count_output;

unsigned int ucrt_printf_opts(uint64_t options)
{
	return (unsigned int)(options & CRT_PF_CALLER_OPTIONS) | CRT_PF_UCRT |
	       (atomic_load(&count_output) ? CRT_PF_COUNT_OUTPUT : 0);
}

struct crt_file *__cdecl ucrt___acrt_iob_func(unsigned int index)
{
	return index < CRT_IOB_ENTRIES ? &crt__iob[index] : NULL;
}

int __cdecl ucrt__get_printf_count_output(void)
{
	return atomic_load(&count_output);
}

int __cdecl ucrt__set_printf_count_output(int enable)
{
	return atomic_exchange(&count_output, enable != 0);
}

int __cdecl ucrt___stdio_common_vfprintf(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					  __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	return crt_pf_stream(ucrt_printf_opts(options), f, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vfwprintf(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					   __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	return crt_pf_stream(ucrt_printf_opts(options), f, 1, fmt, ap);
}

/* vsprintf, _vsnprintf and vsnprintf in one: with STANDARD_SNPRINTF_BEHAVIOR
 * (C99 vsnprintf) the result is always terminated and the full length is
 * returned; with LEGACY_VSPRINTF_NULL_TERMINATION (_vsnprintf) a text of
 * exactly count units gets no terminator and a longer one gives -1;
 * otherwise a text that does not fit is cut and terminated, and -2 says
 * so.  A NULL buffer only counts. */
static int common_vsprintf(uint64_t options, void *buf, size_t count, int wide, const void *fmt, __ms_va_list ap)
{
	size_t unit = wide ? sizeof(WCHAR) : 1;
	void *text;
	int len;

	if (!fmt || (!buf && count))
		return crt_invalid_arg();
	len = crt_pf_format(ucrt_printf_opts(options), wide, fmt, ap, &text);
	if (len < 0) {
		if (buf && count)
			memset(buf, 0, unit);
		return -1;
	}
	if (!buf) {
		free(text);
		return len;
	}
	if ((size_t)len < count) {
		memcpy(buf, text, ((size_t)len + 1) * unit);
	} else if (options & CRT_PF_STANDARD_SNPRINTF_BEHAVIOR) {
		if (count) {
			memcpy(buf, text, (count - 1) * unit);
			memset((char *)buf + (count - 1) * unit, 0, unit);
		}
	} else if (options & CRT_PF_LEGACY_VSPRINTF_NULL_TERMINATION) {
		memcpy(buf, text, count * unit);
		if ((size_t)len > count)
			len = -1;
	} else {
		if (count) {
			memcpy(buf, text, (count - 1) * unit);
			memset((char *)buf + (count - 1) * unit, 0, unit);
		}
		len = -2;
	}
	free(text);
	return len;
}

int __cdecl ucrt___stdio_common_vsprintf(uint64_t options, char *buf, size_t count, const char *fmt, void *locale,
					  __ms_va_list ap)
{
	return common_vsprintf(options, buf, count, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vswprintf(uint64_t options, WCHAR *buf, size_t count, const WCHAR *fmt,
					   void *locale, __ms_va_list ap)
{
	return common_vsprintf(options, buf, count, 1, fmt, ap);
}

/* The _s family.  count: at most that many units (CRT_TRUNCATE: as many as
 * fit, -1 when cut), or (size_t)-2 meaning "the whole text must fit" as
 * sprintf_s wants.  A text that must fit and does not: empty string,
 * ERANGE, invalid parameter, -1. */
#define MUST_FIT ((size_t)-2)

static int common_vsnprintf_s(uint64_t options, void *buf, size_t size, size_t count, int wide, const void *fmt,
			      __ms_va_list ap)
{
	size_t unit = wide ? sizeof(WCHAR) : 1;
	void *text;
	int len;

	if (!fmt || !buf || !size) {
		if (buf && size)
			memset(buf, 0, unit);
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	len = crt_pf_format(ucrt_printf_opts(options), wide, fmt, ap, &text);
	if (len < 0) {
		memset(buf, 0, unit);
		return -1;
	}
	if ((size_t)len < size && (count == MUST_FIT || count == CRT_TRUNCATE || (size_t)len <= count)) {
		memcpy(buf, text, ((size_t)len + 1) * unit);
	} else if (count == CRT_TRUNCATE || (count != MUST_FIT && count < size)) {
		size_t keep = count == CRT_TRUNCATE ? size - 1 : count;
		memcpy(buf, text, keep * unit);
		memset((char *)buf + keep * unit, 0, unit);
		len = -1;
	} else {
		memset(buf, 0, unit);
		crt_set_errno(ERANGE);
		free(text);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	free(text);
	return len;
}

int __cdecl ucrt___stdio_common_vsprintf_s(uint64_t options, char *buf, size_t size, const char *fmt, void *locale,
					    __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, MUST_FIT, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vswprintf_s(uint64_t options, WCHAR *buf, size_t size, const WCHAR *fmt,
					     void *locale, __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, MUST_FIT, 1, fmt, ap);
}

int __cdecl ucrt___stdio_common_vsnprintf_s(uint64_t options, char *buf, size_t size, size_t count, const char *fmt,
					     void *locale, __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, count == MUST_FIT ? size : count, 0, fmt, ap);
}

int __cdecl ucrt___stdio_common_vsnwprintf_s(uint64_t options, WCHAR *buf, size_t size, size_t count,
					      const WCHAR *fmt, void *locale, __ms_va_list ap)
{
	return common_vsnprintf_s(options, buf, size, count == MUST_FIT ? size : count, 1, fmt, ap);
}

int __cdecl ucrt_fopen_s(struct crt_file **out, const char *path, const char *mode)
{
	if (!out || !path || !mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	*out = crt_fopen(path, mode);
	if (*out)
		return 0;
	return *crt__errno() ? *crt__errno() : EINVAL;
}

static unsigned int scan_opts(uint64_t options)
{
	return (unsigned int)(options & CRT_SF_CALLER_OPTIONS) | CRT_SF_UCRT;
}

int __cdecl ucrt___stdio_common_vsscanf(uint64_t options, const char *input, size_t len, const char *fmt,
					 void *locale, __ms_va_list ap)
{
	if (!input || !fmt)
		return crt_invalid_arg();
	return crt_scan(scan_opts(options), 0, input, len, NULL, fmt, ap);
}

int __cdecl ucrt___stdio_common_vswscanf(uint64_t options, const WCHAR *input, size_t len, const WCHAR *fmt,
					  void *locale, __ms_va_list ap)
{
	if (!input || !fmt)
		return crt_invalid_arg();
	return crt_scan(scan_opts(options), 1, input, len, NULL, fmt, ap);
}

int __cdecl ucrt___stdio_common_vfscanf(uint64_t options, struct crt_file *f, const char *fmt, void *locale,
					 __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	crt__lock_file(f);
	int r = crt_scan(scan_opts(options), 0, NULL, 0, f, fmt, ap);
	crt__unlock_file(f);
	return r;
}

int __cdecl ucrt___stdio_common_vfwscanf(uint64_t options, struct crt_file *f, const WCHAR *fmt, void *locale,
					  __ms_va_list ap)
{
	if (!f || !fmt)
		return crt_invalid_arg();
	crt__lock_file(f);
	int r = crt_scan(scan_opts(options), 1, NULL, 0, f, fmt, ap);
	crt__unlock_file(f);
	return r;
}

int __cdecl ucrt__wfopen_s(struct crt_file **out, const WCHAR *path, const WCHAR *mode)
{
	if (!out || !path || !mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	*out = crt__wfopen(path, mode);
	if (*out)
		return 0;
	return *crt__errno() ? *crt__errno() : EINVAL;
}
