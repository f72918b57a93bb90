/* The _l functions: the same as their plain forms with a locale given.
 * The CRT has the "C" locale only (locale.c), so the locale argument
 * (a _create_locale object, or NULL for the current one) names the same
 * rules as the global locale and each one calls its plain form. */
#include "msvcrt/msvcrt_private.h"

/* ret name(params, locale) { return base(args); } */
#define LOCALE_FORM(ret, name, base, params, args) \
	ret __cdecl crt_##name params                     \
	{                                                 \
		(void)locale;                              \
		return base args;                          \
	}

LOCALE_FORM(double, _atof_l, crt_atof, (const char *s, crt_locale_t locale), (s))
LOCALE_FORM(int64_t, _atoi64_l, crt__atoi64, (const char *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _atoi_l, crt_atoi, (const char *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _atol_l, crt_atol, (const char *s, crt_locale_t locale), (s))
LOCALE_FORM(int64_t, _atoll_l, crt_atoll, (const char *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _isalnum_l, crt_isalnum, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isalpha_l, crt_isalpha, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iscntrl_l, crt_iscntrl, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isctype_l, crt__isctype, (int c, int mask, crt_locale_t locale), (c, mask))
LOCALE_FORM(int, _isdigit_l, crt_isdigit, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isgraph_l, crt_isgraph, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _islower_l, crt_islower, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isprint_l, crt_isprint, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _ispunct_l, crt_ispunct, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isspace_l, crt_isspace, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isupper_l, crt_isupper, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswalnum_l, crt_iswalnum, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswalpha_l, crt_iswalpha, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswcntrl_l, crt_iswcntrl, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswctype_l, crt_iswctype, (WCHAR c, unsigned short mask, crt_locale_t locale), (c, mask))
LOCALE_FORM(int, _iswdigit_l, crt_iswdigit, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswlower_l, crt_iswlower, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswprint_l, crt_iswprint, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswpunct_l, crt_iswpunct, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswspace_l, crt_iswspace, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswupper_l, crt_iswupper, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _iswxdigit_l, crt_iswxdigit, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _isxdigit_l, crt_isxdigit, (int c, crt_locale_t locale), (c))
LOCALE_FORM(size_t, _mbstowcs_l, crt_mbstowcs, (WCHAR *d, const char *s, size_t n, crt_locale_t locale), (d, s, n))
LOCALE_FORM(int, _strcoll_l, crt_strcoll, (const char *a, const char *b, crt_locale_t locale), (a, b))
LOCALE_FORM(size_t, _strftime_l, crt_strftime, (char *buf, size_t max, const char *fmt, const struct crt_tm *tm, crt_locale_t locale), (buf, max, fmt, tm))
LOCALE_FORM(int, _stricmp_l, crt__stricmp, (const char *a, const char *b, crt_locale_t locale), (a, b))
LOCALE_FORM(char *, _strlwr_l, crt__strlwr, (char *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _strnicmp_l, crt__strnicmp, (const char *a, const char *b, size_t n, crt_locale_t locale), (a, b, n))
LOCALE_FORM(double, _strtod_l, crt_strtod, (const char *s, char **end, crt_locale_t locale), (s, end))
LOCALE_FORM(float, _strtof_l, crt_strtof, (const char *s, char **end, crt_locale_t locale), (s, end))
LOCALE_FORM(int64_t, _strtoi64_l, crt__strtoi64, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(int, _strtol_l, crt_strtol, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(double, _strtold_l, crt_strtod, (const char *s, char **end, crt_locale_t locale), (s, end))
LOCALE_FORM(int64_t, _strtoll_l, crt__strtoi64, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(uint64_t, _strtoui64_l, crt__strtoui64, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(unsigned int, _strtoul_l, crt_strtoul, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(uint64_t, _strtoull_l, crt__strtoui64, (const char *s, char **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(char *, _strupr_l, crt__strupr, (char *s, crt_locale_t locale), (s))
LOCALE_FORM(size_t, _strxfrm_l, crt_strxfrm, (char *d, const char *s, size_t n, crt_locale_t locale), (d, s, n))
LOCALE_FORM(int, _tolower_l, crt_tolower, (int c, crt_locale_t locale), (c))
LOCALE_FORM(int, _toupper_l, crt_toupper, (int c, crt_locale_t locale), (c))
LOCALE_FORM(WCHAR, _towlower_l, crt_towlower, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(WCHAR, _towupper_l, crt_towupper, (WCHAR c, crt_locale_t locale), (c))
LOCALE_FORM(int, _wcscoll_l, crt_wcscoll, (const WCHAR *a, const WCHAR *b, crt_locale_t locale), (a, b))
LOCALE_FORM(size_t, _wcsftime_l, crt_wcsftime, (WCHAR *buf, size_t max, const WCHAR *fmt, const struct crt_tm *tm, crt_locale_t locale), (buf, max, fmt, tm))
LOCALE_FORM(int, _wcsicmp_l, crt__wcsicmp, (const WCHAR *a, const WCHAR *b, crt_locale_t locale), (a, b))
LOCALE_FORM(WCHAR *, _wcslwr_l, crt__wcslwr, (WCHAR *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _wcsnicmp_l, crt__wcsnicmp, (const WCHAR *a, const WCHAR *b, size_t n, crt_locale_t locale), (a, b, n))
LOCALE_FORM(double, _wcstod_l, crt_wcstod, (const WCHAR *s, WCHAR **end, crt_locale_t locale), (s, end))
LOCALE_FORM(float, _wcstof_l, crt_wcstof, (const WCHAR *s, WCHAR **end, crt_locale_t locale), (s, end))
LOCALE_FORM(int64_t, _wcstoi64_l, crt__wcstoi64, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(int, _wcstol_l, crt_wcstol, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(double, _wcstold_l, crt_wcstod, (const WCHAR *s, WCHAR **end, crt_locale_t locale), (s, end))
LOCALE_FORM(int64_t, _wcstoll_l, crt__wcstoi64, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(size_t, _wcstombs_l, crt_wcstombs, (char *d, const WCHAR *s, size_t n, crt_locale_t locale), (d, s, n))
LOCALE_FORM(uint64_t, _wcstoui64_l, crt__wcstoui64, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(unsigned int, _wcstoul_l, crt_wcstoul, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(uint64_t, _wcstoull_l, crt__wcstoui64, (const WCHAR *s, WCHAR **end, int base, crt_locale_t locale), (s, end, base))
LOCALE_FORM(WCHAR *, _wcsupr_l, crt__wcsupr, (WCHAR *s, crt_locale_t locale), (s))
LOCALE_FORM(size_t, _wcsxfrm_l, crt_wcsxfrm, (WCHAR *d, const WCHAR *s, size_t n, crt_locale_t locale), (d, s, n))
LOCALE_FORM(int, _wtoi_l, crt__wtoi, (const WCHAR *s, crt_locale_t locale), (s))
LOCALE_FORM(int, _wtol_l, crt__wtol, (const WCHAR *s, crt_locale_t locale), (s))

/* msvcrt's printf _l forms (the UCRT's are its headers' inline calls of
 * __stdio_common_*, which take the locale themselves): the v form and the
 * one with "..." of each, both calling vbase, the plain v form.
 * PRINTF_FORMS(vname, name, vbase, (args), params...) */
#define PRINTF_FORMS(vname, name, vbase, args, ...)                                \
	int __cdecl crt_##vname(__VA_ARGS__, crt_locale_t locale, __ms_va_list ap) \
	{                                                                          \
		(void)locale;                                                      \
		return vbase args;                                                 \
	}                                                                          \
                                                                                   \
	int __cdecl crt_##name(__VA_ARGS__, crt_locale_t locale, ...)              \
	{                                                                          \
		__ms_va_list ap;                                                   \
		int r;                                                             \
                                                                                   \
		__ms_va_start(ap, locale);                                         \
		r = vbase args;                                                    \
		__ms_va_end(ap);                                                   \
		return r;                                                          \
	}

PRINTF_FORMS(_vsprintf_l, _sprintf_l, crt_vsprintf, (buf, fmt, ap), char *buf, const char *fmt)
PRINTF_FORMS(_vsnprintf_l, _snprintf_l, crt__vsnprintf, (buf, count, fmt, ap), char *buf, size_t count, const char *fmt)
PRINTF_FORMS(_vprintf_l, _printf_l, crt_vprintf, (fmt, ap), const char *fmt)
PRINTF_FORMS(_vfprintf_l, _fprintf_l, crt_vfprintf, (f, fmt, ap), struct crt_file *f, const char *fmt)
PRINTF_FORMS(_vscprintf_l, _scprintf_l, crt__vscprintf, (fmt, ap), const char *fmt)
