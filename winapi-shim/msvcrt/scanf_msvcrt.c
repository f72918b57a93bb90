/* msvcrt.dll's own scanf entry points (the UCRT has only its
 * __stdio_common_v*scanf, ucrt_stdio.c): strings, streams and stdin,
 * narrow and wide, the _s forms (every %c %s %[ followed by its buffer's
 * size) and the _l forms (the locale is the C one here).  All go to the
 * one engine, scanf.c, with msvcrt's rules (no UCRT option bits). */
#include <errno.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"

static int bad_arg(void)
{
	crt_set_errno(EINVAL);
	crt_invalid_parameter_noinfo();
	return -1;
}

static int scan_string(unsigned int opts, int wide, const void *s, size_t len, const void *fmt, __ms_va_list ap)
{
	if (!s || !fmt)
		return bad_arg();
	return crt_scan(opts, wide, s, len, NULL, fmt, ap);
}

static int scan_stream(unsigned int opts, int wide, struct crt_file *f, const void *fmt, __ms_va_list ap)
{
	int r;

	if (!f || !fmt)
		return bad_arg();
	crt__lock_file(f);
	r = crt_scan(opts, wide, NULL, 0, f, fmt, ap);
	crt__unlock_file(f);
	return r;
}

#define SECURE CRT_SF_SECURECRT

/* NAME(first args...) with the format last before "...": the body
 * calls CALL with ap. */
#define DEFINE_STRING(name, CH, wide, opts)                                                              \
	int __cdecl name(const CH *s, const CH *fmt, ...)                                                  \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		__ms_va_start(ap, fmt);                                                                    \
		r = scan_string(opts, wide, s, (size_t)-1, fmt, ap);                                      \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_STRING_L(name, CH, wide, opts)                                                            \
	int __cdecl name(const CH *s, const CH *fmt, crt_locale_t locale, ...)                            \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		(void)locale;                                                                              \
		__ms_va_start(ap, locale);                                                                 \
		r = scan_string(opts, wide, s, (size_t)-1, fmt, ap);                                      \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_NSTRING(name, CH, wide, opts)                                                             \
	int __cdecl name(const CH *s, size_t n, const CH *fmt, ...)                                       \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		__ms_va_start(ap, fmt);                                                                    \
		r = scan_string(opts, wide, s, n, fmt, ap);                                                \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_NSTRING_L(name, CH, wide, opts)                                                           \
	int __cdecl name(const CH *s, size_t n, const CH *fmt, crt_locale_t locale, ...)                  \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		(void)locale;                                                                              \
		__ms_va_start(ap, locale);                                                                 \
		r = scan_string(opts, wide, s, n, fmt, ap);                                                \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_STREAM(name, CH, wide, opts)                                                              \
	int __cdecl name(struct crt_file *f, const CH *fmt, ...)                                           \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		__ms_va_start(ap, fmt);                                                                    \
		r = scan_stream(opts, wide, f, fmt, ap);                                                   \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_STREAM_L(name, CH, wide, opts)                                                            \
	int __cdecl name(struct crt_file *f, const CH *fmt, crt_locale_t locale, ...)                     \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		(void)locale;                                                                              \
		__ms_va_start(ap, locale);                                                                 \
		r = scan_stream(opts, wide, f, fmt, ap);                                                   \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_STDIN(name, CH, wide, opts)                                                               \
	int __cdecl name(const CH *fmt, ...)                                                               \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		__ms_va_start(ap, fmt);                                                                    \
		r = scan_stream(opts, wide, &crt___iob_func()[0], fmt, ap);                                \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}
#define DEFINE_STDIN_L(name, CH, wide, opts)                                                             \
	int __cdecl name(const CH *fmt, crt_locale_t locale, ...)                                         \
	{                                                                                                  \
		__ms_va_list ap;                                                                           \
		int r;                                                                                     \
		(void)locale;                                                                              \
		__ms_va_start(ap, locale);                                                                 \
		r = scan_stream(opts, wide, &crt___iob_func()[0], fmt, ap);                                \
		__ms_va_end(ap);                                                                           \
		return r;                                                                                  \
	}

#define FAMILY(suffix, opts)                                                                             \
	DEFINE_STRING(crt_sscanf##suffix, char, 0, opts)                                                   \
	DEFINE_STRING(crt_swscanf##suffix, WCHAR, 1, opts)                                                 \
	DEFINE_STRING_L(crt__sscanf##suffix##_l, char, 0, opts)                                            \
	DEFINE_STRING_L(crt__swscanf##suffix##_l, WCHAR, 1, opts)                                          \
	DEFINE_NSTRING(crt__snscanf##suffix, char, 0, opts)                                                \
	DEFINE_NSTRING(crt__snwscanf##suffix, WCHAR, 1, opts)                                              \
	DEFINE_NSTRING_L(crt__snscanf##suffix##_l, char, 0, opts)                                          \
	DEFINE_NSTRING_L(crt__snwscanf##suffix##_l, WCHAR, 1, opts)                                        \
	DEFINE_STREAM(crt_fscanf##suffix, char, 0, opts)                                                   \
	DEFINE_STREAM(crt_fwscanf##suffix, WCHAR, 1, opts)                                                 \
	DEFINE_STREAM_L(crt__fscanf##suffix##_l, char, 0, opts)                                            \
	DEFINE_STREAM_L(crt__fwscanf##suffix##_l, WCHAR, 1, opts)                                          \
	DEFINE_STDIN(crt_scanf##suffix, char, 0, opts)                                                     \
	DEFINE_STDIN(crt_wscanf##suffix, WCHAR, 1, opts)                                                   \
	DEFINE_STDIN_L(crt__scanf##suffix##_l, char, 0, opts)                                              \
	DEFINE_STDIN_L(crt__wscanf##suffix##_l, WCHAR, 1, opts)

FAMILY(, 0)
FAMILY(_s, SECURE)
