/* Code page conversions (UTF-8 edge cases, 1252 and 437 against glibc's
 * iconv tables, the size protocol, flags) and the NLS string functions. */
#include <iconv.h>

#include "k32_test.h"
#include "core/codepage.h"

static void test_utf8_roundtrip_surrogates(void **state)
{
	/* U+0041, U+00E9, U+20AC, U+1F600 */
	const char utf8[] = "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	const WCHAR want[] = { 0x41, 0xe9, 0x20ac, 0xd83d, 0xde00, 0 };
	WCHAR w[16];
	char back[32];
	INT n;

	n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, NULL, 0);
	assert_int_equal(n, 6); /* terminator included with -1 */
	n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, w, 16);
	assert_int_equal(n, 6);
	assert_memory_equal(w, want, sizeof(want));
	n = MultiByteToWideChar(CP_UTF8, 0, utf8, (INT)strlen(utf8), w, 16);
	assert_int_equal(n, 5); /* explicit length: no terminator */
	n = WideCharToMultiByte(CP_UTF8, 0, want, -1, NULL, 0, NULL, NULL);
	assert_int_equal(n, (INT)sizeof(utf8));
	n = WideCharToMultiByte(CP_UTF8, 0, want, -1, back, sizeof(back), NULL, NULL);
	assert_int_equal(n, (INT)sizeof(utf8));
	assert_string_equal(back, utf8);
}

static void test_utf8_invalid(void **state)
{
	static const struct {
		const char *in;
		WCHAR out[8];
	} cases[] = {
		{ "\x80", { 0xfffd } },                      /* lone continuation */
		{ "a\xc0\xafz", { 'a', 0xfffd, 0xfffd, 'z' } }, /* overlong '/' */
		{ "\xe0\x80\x80", { 0xfffd, 0xfffd, 0xfffd } },
		{ "\xed\xa0\x80", { 0xfffd, 0xfffd, 0xfffd } }, /* encoded surrogate */
		{ "\xf4\x90\x80\x80", { 0xfffd, 0xfffd, 0xfffd, 0xfffd } }, /* > U+10FFFF */
		{ "\xe2\x82", { 0xfffd } },                  /* truncated: one subpart */
		{ "\xf0\x9f\x98x", { 0xfffd, 'x' } },
		{ "\xff", { 0xfffd } },
	};
	WCHAR w[16];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		INT len = (INT)strlen(cases[i].in), want = 0, n;

		while (want < 8 && cases[i].out[want])
			want++;
		n = MultiByteToWideChar(CP_UTF8, 0, cases[i].in, len, w, 16);
		if (n != want || memcmp(w, cases[i].out, want * sizeof(WCHAR)))
			fail_msg("case %zu: got %d units", i, n);
		SetLastError(SENTINEL_ERROR);
		assert_int_equal(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, cases[i].in, len, w, 16), 0);
		assert_last_error(ERROR_NO_UNICODE_TRANSLATION);
		SetLastError(SENTINEL_ERROR);
		assert_int_equal(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, cases[i].in, len, NULL, 0), 0);
		assert_last_error(ERROR_NO_UNICODE_TRANSLATION);
	}
}

static void test_utf16_lone_surrogates(void **state)
{
	const WCHAR high_alone[] = { 'a', 0xd800, 'b' }, low_alone[] = { 0xdc00 }, reversed[] = { 0xdc00, 0xd800 };
	char out[16];

	assert_int_equal(WideCharToMultiByte(CP_UTF8, 0, high_alone, 3, out, 16, NULL, NULL), 5);
	assert_memory_equal(out, "a\xef\xbf\xbd" "b", 5);
	assert_int_equal(WideCharToMultiByte(CP_UTF8, 0, low_alone, 1, out, 16, NULL, NULL), 3);
	assert_int_equal(WideCharToMultiByte(CP_UTF8, 0, reversed, 2, out, 16, NULL, NULL), 6);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, high_alone, 3, out, 16, NULL, NULL), 0);
	assert_last_error(ERROR_NO_UNICODE_TRANSLATION);
}

static void test_size_protocol_and_errors(void **state)
{
	WCHAR w[4];
	char a[4];
	BOOL used;

	SetLastError(SENTINEL_ERROR);
	assert_int_equal(MultiByteToWideChar(CP_UTF8, 0, "hello", -1, w, 4), 0);
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(WideCharToMultiByte(CP_UTF8, 0, u"\x20ac\x20ac", 2, a, 4, NULL, NULL), 0);
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(MultiByteToWideChar(CP_UTF8, 0, "x", 0, w, 4), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(MultiByteToWideChar(CP_UTF8, 0, NULL, 1, w, 4), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(MultiByteToWideChar(12345, 0, "x", 1, w, 4), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(MultiByteToWideChar(CP_UTF8, MB_PRECOMPOSED, "x", 1, w, 4), 0);
	assert_last_error(ERROR_INVALID_FLAGS);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(WideCharToMultiByte(CP_UTF8, 0, u"x", 1, a, 4, NULL, &used), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(WideCharToMultiByte(1252, WC_ERR_INVALID_CHARS, u"x", 1, a, 4, NULL, NULL), 0);
	assert_last_error(ERROR_INVALID_FLAGS);
}

/* Compares our table for cp with glibc's iconv for every byte. */
static void check_against_iconv(UINT cp, const char *iconv_name, const unsigned char *skip)
{
	iconv_t cd = iconv_open("UTF-16LE", iconv_name);

	if (cd == (iconv_t)-1)
		skip();
	for (unsigned int b = 0x80; b < 0x100; b++) {
		char in = (char)b, *pin = &in;
		WCHAR want = 0, got = 0;
		char *pout = (char *)&want;
		size_t inl = 1, outl = 2;
		char back;
		BOOL used = FALSE;

		if (skip && strchr((const char *)skip, (int)b))
			continue;
		if (iconv(cd, &pin, &inl, &pout, &outl) == (size_t)-1)
			fail_msg("iconv %s has no byte %#x", iconv_name, b);
		assert_int_equal(MultiByteToWideChar(cp, 0, &in, 1, &got, 1), 1);
		if (got != want)
			fail_msg("cp %u byte %#x: got U+%04X, iconv says U+%04X", cp, b, got, want);
		assert_int_equal(WideCharToMultiByte(cp, 0, &got, 1, &back, 1, NULL, &used), 1);
		assert_int_equal((unsigned char)back, b);
		assert_false(used);
	}
	iconv_close(cd);
}

static void test_cp1252_cp437(void **state)
{
	/* the bytes Windows 1252 leaves undefined (iconv refuses them) */
	static const unsigned char undefined[] = { 0x81, 0x8d, 0x8f, 0x90, 0x9d, 0 };
	WCHAR w;
	char a[4];
	BOOL used = FALSE;

	check_against_iconv(1252, "CP1252", undefined);
	check_against_iconv(437, "CP437", NULL);
	assert_int_equal(MultiByteToWideChar(1252, 0, "\x81", 1, &w, 1), 1);
	assert_int_equal(w, 0x81);
	/* what the page cannot hold becomes the default character */
	assert_int_equal(WideCharToMultiByte(1252, 0, u"a\x3a9", 2, a, 4, NULL, &used), 2);
	assert_memory_equal(a, "a?", 2);
	assert_true(used);
	used = FALSE;
	assert_int_equal(WideCharToMultiByte(437, 0, u"\x3a9", 1, a, 4, "#", &used), 1);
	assert_int_equal((unsigned char)a[0], 0xea); /* 437 has Omega */
	assert_false(used);
	assert_int_equal(WideCharToMultiByte(437, 0, u"\x20ac", 1, a, 4, "#", &used), 1);
	assert_int_equal(a[0], '#');
	assert_true(used);
	/* MB_USEGLYPHCHARS: 437's pictures for control characters */
	assert_int_equal(MultiByteToWideChar(437, MB_USEGLYPHCHARS, "\x01", 1, &w, 1), 1);
	assert_int_equal(w, 0x263a);
	assert_int_equal(MultiByteToWideChar(437, 0, "\x01", 1, &w, 1), 1);
	assert_int_equal(w, 1);
}

static void test_acp_and_cpinfo(void **state)
{
	CPINFO info;
	CPINFOEXW ex;
	WCHAR w;

	assert_int_equal(GetACP(), 1252);
	assert_int_equal(GetOEMCP(), 437);
	assert_int_equal(MultiByteToWideChar(CP_ACP, 0, "\x80", 1, &w, 1), 1);
	assert_int_equal(w, 0x20ac);
	assert_int_equal(MultiByteToWideChar(CP_OEMCP, 0, "\x80", 1, &w, 1), 1);
	assert_int_equal(w, 0xc7);
	assert_true(IsValidCodePage(65001));
	assert_true(IsValidCodePage(1252));
	assert_false(IsValidCodePage(932));
	assert_false(IsValidCodePage(CP_ACP));
	assert_true(GetCPInfo(CP_UTF8, &info));
	assert_int_equal(info.MaxCharSize, 4);
	assert_true(GetCPInfo(1252, &info));
	assert_int_equal(info.MaxCharSize, 1);
	assert_int_equal(info.DefaultChar[0], '?');
	assert_true(GetCPInfoExW(CP_ACP, 0, &ex));
	assert_int_equal(ex.CodePage, 1252);
	assert_wstr_equal(ex.CodePageName, u"1252  (ANSI - Latin I)");
	assert_false(IsDBCSLeadByte(0x81));
	SetLastError(SENTINEL_ERROR);
	assert_false(IsDBCSLeadByteEx(932, 0x81));
	assert_last_error(ERROR_INVALID_PARAMETER);
}

static void test_locale_policy(void **state)
{
	assert_true(cp_locale_is_utf8(NULL, NULL, "C.UTF-8"));
	assert_true(cp_locale_is_utf8(NULL, NULL, "en_US.utf8"));
	assert_true(cp_locale_is_utf8(NULL, NULL, "de_DE.UTF-8@euro"));
	assert_true(cp_locale_is_utf8("", "fr_FR.UTF-8", "C"));
	assert_false(cp_locale_is_utf8("de_DE.ISO-8859-15", "fr_FR.UTF-8", "en_US.UTF-8")); /* LC_ALL wins */
	/* no character set declared: UTF-8, like the C runtime's strings */
	assert_true(cp_locale_is_utf8("POSIX", NULL, NULL));
	assert_true(cp_locale_is_utf8("C", "de_DE.ISO-8859-1", NULL));
	assert_true(cp_locale_is_utf8(NULL, NULL, NULL));
	assert_true(cp_locale_is_utf8("", "", ""));
	assert_false(cp_locale_is_utf8(NULL, NULL, "en_US"));
	assert_false(cp_locale_is_utf8(NULL, NULL, "en_US.ISO-8859-1"));
	assert_false(cp_locale_is_utf8(NULL, NULL, "xx.UTF-80"));
}

static void test_helpers(void **state)
{
	WCHAR *w = utf8_to_utf16_dup("h\xc3\xa9");
	char *a = utf16_to_utf8_dup(w), *b = utf16_to_cp_dup(1252, w);

	assert_int_equal(w[1], 0xe9);
	assert_string_equal(a, "h\xc3\xa9");
	assert_string_equal(b, "h\xe9");
	free(w);
	free(a);
	free(b);
}

static void test_compare(void **state)
{
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, 0, u"abc", -1, u"abc", -1), CSTR_EQUAL);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, 0, u"a", -1, u"B", -1), CSTR_LESS_THAN);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, 0, u"a", -1, u"A", -1), CSTR_LESS_THAN);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, NORM_IGNORECASE, u"hello", -1, u"HELLO", -1),
			 CSTR_EQUAL);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, 0, u"ab", 1, u"ac", 1), CSTR_EQUAL);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, 0, u"ab", -1, u"abc", -1), CSTR_LESS_THAN);
	assert_int_equal(CompareStringW(LOCALE_USER_DEFAULT, NORM_IGNORESYMBOLS, u"a-b", -1, u"ab", -1),
			 CSTR_EQUAL);
	assert_int_equal(CompareStringA(LOCALE_USER_DEFAULT, NORM_IGNORECASE, "\xe9t\xe9", -1, "\xc9T\xc9", -1),
			 CSTR_EQUAL);
	assert_int_equal(CompareStringOrdinal(u"a", -1, u"B", -1, FALSE), CSTR_GREATER_THAN);
	assert_int_equal(CompareStringOrdinal(u"a", -1, u"A", -1, TRUE), CSTR_EQUAL);
	assert_true(lstrcmpW(u"apple", u"Banana") < 0);
	assert_true(lstrcmpiA("ABC", "abd") < 0);
	assert_int_equal(lstrcmpiW(u"\x3a3", u"\x3c3"), 0); /* Greek sigma */
	assert_int_equal(lstrcmpA(NULL, NULL), 0);
	assert_true(lstrcmpA(NULL, "") < 0);
	assert_int_equal(lstrlenW(u"four"), 4);
	assert_int_equal(lstrlenA(NULL), 0);
}

static void test_lstrcpyn(void **state)
{
	char a[8];
	WCHAR w[8];

	lstrcpynA(a, "abcdef", 4);
	assert_string_equal(a, "abc");
	lstrcpynW(w, u"xy", 8);
	assert_wstr_equal(w, u"xy");
	lstrcpyW(w, u"ab");
	lstrcatW(w, u"cd");
	assert_wstr_equal(w, u"abcd");
}

static void test_lcmap_and_types(void **state)
{
	WCHAR out[16];
	WORD types[4];

	assert_int_equal(LCMapStringW(LOCALE_USER_DEFAULT, LCMAP_UPPERCASE, u"stra\xdf" u"e\xe9", -1, out, 16), 8);
	assert_wstr_equal(out, u"STRA\xdf" u"E\xc9"); /* sharp s has no one-unit upper case */
	assert_int_equal(LCMapStringEx(NULL, LCMAP_LOWERCASE, u"\x3a9X", 2, out, 16, NULL, NULL, 0), 2);
	assert_int_equal(out[0], 0x3c9);
	assert_int_equal(out[1], 'x');
	assert_int_equal(LCMapStringW(LOCALE_USER_DEFAULT, LCMAP_UPPERCASE, u"abc", 3, NULL, 0), 3);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(LCMapStringW(LOCALE_USER_DEFAULT, LCMAP_UPPERCASE, u"abc", 3, out, 2), 0);
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(LCMapStringW(LOCALE_USER_DEFAULT, LCMAP_UPPERCASE | LCMAP_LOWERCASE, u"a", 1, out, 2), 0);
	assert_last_error(ERROR_INVALID_FLAGS);

	assert_true(GetStringTypeW(CT_CTYPE1, u"A0 \t", 4, types));
	assert_int_equal(types[0], C1_UPPER | C1_XDIGIT | C1_ALPHA | C1_DEFINED);
	assert_int_equal(types[1], C1_DIGIT | C1_XDIGIT | C1_DEFINED);
	assert_int_equal(types[2], C1_SPACE | C1_BLANK | C1_DEFINED);
	assert_int_equal(types[3], C1_CNTRL | C1_SPACE | C1_BLANK | C1_DEFINED);
	assert_true(GetStringTypeW(CT_CTYPE1, u"\xe9!", 2, types));
	assert_int_equal(types[0], C1_LOWER | C1_ALPHA | C1_DEFINED);
	assert_int_equal(types[1], C1_PUNCT | C1_DEFINED);
}

static void test_locale_info(void **state)
{
	WCHAR buf[32];
	char a[32];
	DWORD num = 0;

	assert_int_equal(GetUserDefaultLCID(), 0x409);
	assert_int_equal(GetThreadLocale(), 0x409);
	assert_int_equal(GetLocaleInfoW(LOCALE_USER_DEFAULT, LOCALE_SDECIMAL, buf, 32), 2);
	assert_wstr_equal(buf, u".");
	assert_int_equal(GetLocaleInfoW(LOCALE_USER_DEFAULT, LOCALE_SNAME, NULL, 0), 6);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetLocaleInfoW(LOCALE_USER_DEFAULT, LOCALE_SNAME, buf, 3), 0);
	assert_last_error(ERROR_INSUFFICIENT_BUFFER);
	assert_int_equal(GetLocaleInfoA(0x409, LOCALE_IDEFAULTANSICODEPAGE, a, 32), 5);
	assert_string_equal(a, "1252");
	assert_int_equal(GetLocaleInfoW(0x409, LOCALE_IDEFAULTCODEPAGE | LOCALE_RETURN_NUMBER, (WCHAR *)&num,
					sizeof(num) / sizeof(WCHAR)),
			 2);
	assert_int_equal(num, 437);
	assert_int_equal(GetLocaleInfoEx(u"en-US", LOCALE_STHOUSAND, buf, 32), 2);
	assert_wstr_equal(buf, u",");
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetLocaleInfoW(0x407, LOCALE_SDECIMAL, buf, 32), 0);
	assert_last_error(ERROR_INVALID_PARAMETER);
	SetLastError(SENTINEL_ERROR);
	assert_int_equal(GetLocaleInfoW(0x409, 0x7777, buf, 32), 0);
	assert_last_error(ERROR_INVALID_FLAGS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_roundtrip_surrogates),
		cmocka_unit_test(test_utf8_invalid),
		cmocka_unit_test(test_utf16_lone_surrogates),
		cmocka_unit_test(test_size_protocol_and_errors),
		cmocka_unit_test(test_cp1252_cp437),
		cmocka_unit_test(test_acp_and_cpinfo),
		cmocka_unit_test(test_locale_policy),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_lstrcpyn),
		cmocka_unit_test(test_lcmap_and_types),
		cmocka_unit_test(test_locale_info),
	};
	unsetenv("NDSHIM_ACP");
	unsetenv("NDSHIM_OEMCP");
	/* a Latin-1 locale: the 1252/437 pages these tests are about */
	setenv("LC_ALL", "en_US.ISO-8859-1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
