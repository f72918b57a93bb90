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

/* The _s family.  count: at most that many units (CRT_TRUNCATE: as many as
 * fit, -1 when cut), or (size_t)-2 meaning "the whole text must fit" as
 * sprintf_s wants.  A text that must fit and does not: empty string,
 * ERANGE, invalid parameter, -1. */
#define MUST_FIT ((size_t)-2)

static int common_vsnprintf_s(uint64_t options, void *buf, size_t size, size_t count, int wide, const void *fmt,
			      __ms_va_list ap)
{
	return crt_vsnprintf_s_opts(ucrt_printf_opts(options), buf, size, count, wide, fmt, ap);
}

int crt_vsnprintf_s_opts(unsigned int pfopts, void *buf, size_t size, size_t count, int wide, const void *fmt,
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
	len = crt_pf_format(pfopts, wide, fmt, ap, &text);
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

static unsigned int scan_opts(uint64_t options)
{
	return (unsigned int)(options & CRT_SF_CALLER_OPTIONS) | CRT_SF_UCRT;
}

#define CH char
#define WIDE 0
#define NAME(n, w) n
#define CH_FOPEN crt_fopen
#include "msvcrt/ucrt_stdio_chars.h"

#define CH WCHAR
#define WIDE 1
#define NAME(n, w) w
#define CH_FOPEN crt__wfopen
#include "msvcrt/ucrt_stdio_chars.h"
