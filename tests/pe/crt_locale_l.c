/* The _l functions take a locale and behave as their plain forms do in
 * it: number parsing, case-insensitive comparison, case mapping and
 * character classes, and printf's _l forms.  Against ucrtbase also
 * _create_locale ("C"; an unknown name or category gives NULL),
 * _get_current_locale and _free_locale (msvcrt.dll has none of them:
 * its _l functions get NULL, the current locale). */
#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

/* both runtimes have it; mingw-w64's headers do not declare it */
_CRTIMP char *__cdecl _strlwr_l(char *s, _locale_t locale);
#ifdef _UCRT
_CRTIMP float __cdecl _strtof_l(const char *s, char **end, _locale_t locale);
_CRTIMP long long __cdecl _atoll_l(const char *s, _locale_t locale);
#endif

int main(void)
{
	_locale_t loc = NULL;
	char *end = NULL;
	wchar_t *wend = NULL;
	char buf[32];

#ifdef _UCRT
	_locale_t cur;

	loc = _create_locale(LC_ALL, "C");
	ok(loc != NULL, "_create_locale(LC_ALL, \"C\") failed\n");
	ok(_create_locale(LC_ALL, "no_such_locale_xyz") == NULL, "an unknown locale was created\n");
	ok(_create_locale(-1, "C") == NULL, "category -1 accepted\n");
	cur = _get_current_locale();
	ok(cur != NULL, "_get_current_locale failed\n");
	ok(_strtod_l("0.75", NULL, cur) == 0.75, "strtod in the current locale\n");
	_free_locale(cur);
	_free_locale(NULL);
	ok(_strtof_l("2.5", NULL, loc) == 2.5f, "_strtof_l\n");
	ok(_wcstod_l(L"1.25", NULL, loc) == 1.25, "_wcstod_l\n");
	ok(_atoll_l("-9000000000", loc) == -9000000000LL, "_atoll_l\n");
	ok(_isspace_l(' ', loc) && !_isspace_l('x', loc), "_isspace_l\n");
#endif
	ok(_strtod_l("1.5x", &end, loc) == 1.5 && *end == 'x', "_strtod_l: end at \"%s\"\n", end);
	ok(_strtol_l("-42z", &end, 10, loc) == -42 && *end == 'z', "_strtol_l\n");
	ok(_strtoi64_l("123456789012", NULL, 10, loc) == 123456789012LL, "_strtoi64_l\n");
	ok(_strtoul_l("ff", NULL, 16, loc) == 255, "_strtoul_l\n");
	ok(_wcstol_l(L"0x1f", &wend, 16, loc) == 31 && !*wend, "_wcstol_l\n");
	ok(_atof_l("2.25", loc) == 2.25, "_atof_l\n");
	ok(_atoi_l("77", loc) == 77 && _wtoi_l(L"-8", loc) == -8, "_atoi_l/_wtoi_l\n");
	ok(_strnicmp_l("ABc", "abD", 2, loc) == 0 && _strnicmp_l("ABc", "abD", 3, loc) < 0, "_strnicmp_l\n");
	ok(_stricmp_l("Hello", "hELLO", loc) == 0, "_stricmp_l\n");
	ok(_wcsicmp_l(L"Hello", L"hELLO", loc) == 0 && _wcsnicmp_l(L"ab", L"AC", 1, loc) == 0, "_wcsicmp_l\n");
	ok(_tolower_l('Q', loc) == 'q' && _toupper_l('q', loc) == 'Q', "_tolower_l/_toupper_l\n");
	ok(_towlower_l(L'A', loc) == L'a' && _towupper_l(L'z', loc) == L'Z', "_towlower_l\n");
	ok(_isdigit_l('7', loc) && !_isalpha_l('7', loc) && _isalpha_l('g', loc), "_isdigit_l/_isalpha_l\n");
	ok(_isupper_l('G', loc) && _islower_l('g', loc) && _isxdigit_l('F', loc), "_isupper_l\n");
	ok(_iswdigit_l(L'5', loc) && _iswalpha_l(L'x', loc) && !_iswspace_l(L'x', loc), "_isw*_l\n");
	ok(_strcoll_l("a", "b", loc) < 0, "_strcoll_l\n");
	strcpy(buf, "MiXeD");
	ok(!strcmp(_strlwr_l(buf, loc), "mixed"), "_strlwr_l: %s\n", buf);
#ifndef _UCRT
	ok(_sprintf_l(buf, "%d-%s", loc, 5, "x") == 3 && !strcmp(buf, "5-x"), "_sprintf_l: %s\n", buf);
	ok(_snprintf_l(buf, 4, "%s", loc, "abcdef") == -1 && !memcmp(buf, "abcd", 4), "_snprintf_l\n");
	ok(_scprintf_l("%05d", loc, 42) == 5, "_scprintf_l\n");
#else
	ok(_sprintf_l(buf, "%d-%s", loc, 5, "x") == 3 && !strcmp(buf, "5-x"), "_sprintf_l: %s\n", buf);
	_free_locale(loc);
#endif
	return test_summary();
}
