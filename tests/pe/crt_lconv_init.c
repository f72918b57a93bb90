/* msvcrt's __lconv_init, which a program built with unsigned char
 * (MSVC's /J, gcc's -funsigned-char) calls at start-up: mingw-w64's
 * start-up code does when such a program references _charmax.
 *
 * Rules checked (msvcrt.dll's behaviour, as wine64 shows it too):
 *  - in the "C" locale, localeconv's char fields that mean "not
 *    available" are CHAR_MAX of a signed char, 127;
 *  - __lconv_init returns 0, and afterwards they read 255, CHAR_MAX of
 *    an unsigned char, in the structure localeconv returns and after
 *    setlocale(LC_ALL, "C") alike;
 *  - the string fields are untouched (decimal point "."). */
#include <locale.h>

#include "test.h"

static void check_fields(const char *when, int want)
{
	struct lconv *l = localeconv();
	const char *names[] = { "int_frac_digits", "frac_digits",   "p_cs_precedes", "p_sep_by_space",
				"n_cs_precedes",   "n_sep_by_space", "p_sign_posn",   "n_sign_posn" };
	char vals[8];

	ok(l != NULL, "%s: localeconv\n", when);
	if (!l)
		return;
	vals[0] = l->int_frac_digits;
	vals[1] = l->frac_digits;
	vals[2] = l->p_cs_precedes;
	vals[3] = l->p_sep_by_space;
	vals[4] = l->n_cs_precedes;
	vals[5] = l->n_sep_by_space;
	vals[6] = l->p_sign_posn;
	vals[7] = l->n_sign_posn;
	for (int i = 0; i < 8; i++)
		ok((unsigned char)vals[i] == want, "%s: %s is %d, not %d\n", when, names[i], (unsigned char)vals[i],
		   want);
	ok(l->decimal_point && !strcmp(l->decimal_point, "."), "%s: decimal point [%s]\n", when,
	   l->decimal_point ? l->decimal_point : "(null)");
}

int main(void)
{
	int(__cdecl * lconv_init)(void) = (void *)GetProcAddress(LoadLibraryA("msvcrt.dll"), "__lconv_init");

	ok(lconv_init != NULL, "msvcrt.dll has no __lconv_init\n");
	check_fields("at start", 127);
	if (!lconv_init)
		return test_summary();
	ok(lconv_init() == 0, "__lconv_init did not return 0\n");
	check_fields("after __lconv_init", 255);
	ok(setlocale(LC_ALL, "C") != NULL, "setlocale C\n");
	check_fields("after setlocale C", 255);
	return test_summary();
}
