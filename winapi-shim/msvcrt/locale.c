/* The CRT only has the "C" locale.  Its code page is 0 and MB_CUR_MAX 1,
 * as in msvcrt's own "C" locale; setlocale(..., "") answers "C" as well
 * instead of naming a Windows locale we would not honour. */
#include <errno.h>
#include <stdlib.h>
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

/* __lconv_init: what a program built with unsigned char (MSVC's /J,
 * gcc's -funsigned-char) calls at start-up, so that localeconv's "not
 * available" char fields read as its CHAR_MAX, 255, rather than 127. */
int __cdecl crt___lconv_init(void)
{
	char *fields[] = { &c_lconv.int_frac_digits, &c_lconv.frac_digits,  &c_lconv.p_cs_precedes,
			   &c_lconv.p_sep_by_space,  &c_lconv.n_cs_precedes, &c_lconv.n_sep_by_space,
			   &c_lconv.p_sign_posn,     &c_lconv.n_sign_posn };

	for (unsigned int i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		*fields[i] = (char)255;
	return 0;
}

/* _locale_t objects (_create_locale).  Their layout is the UCRT's: a
 * pointer to the locale data, which begins with what its headers' inline
 * functions read (the ctype table, MB_CUR_MAX, the code page), and one to
 * the multibyte data.  Every object names the one "C" locale: the data
 * is shared, only the pair is the caller's to free. */
struct crt_locale_data {
	const unsigned short *pctype;
	int mb_cur_max;
	unsigned int lc_codepage;
};

struct crt_locale {
	struct crt_locale_data *locinfo;
	void *mbcinfo;
};

static struct crt_locale_data c_data;
/* __crt_multibyte_data: code page 0, no lead bytes */
static unsigned char c_mbcinfo[1024];

static crt_locale_t new_c_locale(void)
{
	struct crt_locale *l = malloc(sizeof(*l));

	if (!l) {
		crt_set_errno(ENOMEM);
		return NULL;
	}
	c_data.pctype = crt___pctype_func();
	c_data.mb_cur_max = crt___mb_cur_max;
	c_data.lc_codepage = 0;
	l->locinfo = &c_data;
	l->mbcinfo = c_mbcinfo;
	return l;
}

/* Only "C" (and "", which setlocale answers with "C" too) exists; other
 * names give NULL, as unknown locale names do on Windows. */
crt_locale_t __cdecl crt__create_locale(int category, const char *name)
{
	if (category < CRT_LC_ALL || category > CRT_LC_MAX || !name || !is_c_locale(name))
		return NULL;
	return new_c_locale();
}

crt_locale_t __cdecl crt__wcreate_locale(int category, const WCHAR *name)
{
	char narrow[8];
	size_t len;

	if (!name)
		return NULL;
	len = crt_wcslen(name);
	if (len >= sizeof(narrow))
		return NULL;
	for (size_t i = 0; i <= len; i++)
		narrow[i] = name[i] < 0x80 ? (char)name[i] : '?';
	return crt__create_locale(category, narrow);
}

crt_locale_t __cdecl crt__get_current_locale(void)
{
	return new_c_locale();
}

void __cdecl crt__free_locale(crt_locale_t locale)
{
	free(locale);
}
