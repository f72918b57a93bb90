/* The CRT only has the "C" locale.  Its code page is 0 and MB_CUR_MAX 1,
 * as in msvcrt's own "C" locale; setlocale(..., "") answers "C" as well
 * instead of naming a Windows locale we would not honour. */
#include <string.h>

#include "msvcrt/msvcrt_private.h"

#define CRT_LC_ALL 0
#define CRT_LC_MAX 5

int crt___mb_cur_max = 1;

unsigned int __cdecl crt____lc_codepage_func(void)
{
	return 0;
}

int __cdecl crt____mb_cur_max_func(void)
{
	return crt___mb_cur_max;
}

static char c_locale[] = "C";
static WCHAR c_locale_w[] = { 'C', 0 };

static int is_c_locale(const char *l)
{
	return !strcmp(l, "C") || !strcmp(l, "") || !strcmp(l, "POSIX");
}

char *__cdecl crt_setlocale(int category, const char *locale)
{
	if (category < CRT_LC_ALL || category > CRT_LC_MAX)
		return NULL;
	if (locale && !is_c_locale(locale))
		return NULL;
	return c_locale;
}

WCHAR *__cdecl crt__wsetlocale(int category, const WCHAR *locale)
{
	char narrow[8];
	if (locale) {
		size_t len = crt_wcslen(locale);
		if (len >= sizeof(narrow))
			return NULL;
		for (size_t i = 0; i <= len; i++)
			narrow[i] = locale[i] < 0x80 ? (char)locale[i] : '?';
	}
	return crt_setlocale(category, locale ? narrow : NULL) ? c_locale_w : NULL;
}

static char empty[] = "";
static char dot[] = ".";
static struct crt_lconv c_lconv = {
	.decimal_point = dot,
	.thousands_sep = empty,
	.grouping = empty,
	.int_curr_symbol = empty,
	.currency_symbol = empty,
	.mon_decimal_point = empty,
	.mon_thousands_sep = empty,
	.mon_grouping = empty,
	.positive_sign = empty,
	.negative_sign = empty,
	.int_frac_digits = 127,
	.frac_digits = 127,
	.p_cs_precedes = 127,
	.p_sep_by_space = 127,
	.n_cs_precedes = 127,
	.n_sep_by_space = 127,
	.p_sign_posn = 127,
	.n_sign_posn = 127,
};

struct crt_lconv *__cdecl crt_localeconv(void)
{
	return &c_lconv;
}
