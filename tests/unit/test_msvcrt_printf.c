/* msvcrt's printf engine against what msvcrt itself prints: the cases are
 * msvcrt/printf_cases.h, the expectations msvcrt/printf_expected.h, recorded
 * under wine64 by msvcrt/printf_oracle.c (regen-printf-expected). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "msvcrt/test_support.h"

struct expect_n {
	int ret;
	const char *s;
};
struct expect_w {
	int ret;
	const WCHAR *s;
};

static const struct expect_n expected_n[] = {
#define EN(r, s) { r, s },
#define EW(r, s)
#include "msvcrt/printf_expected.h"
#undef EN
#undef EW
};
static const struct expect_w expected_w[] = {
#define EN(r, s)
#define EW(r, s) { r, s },
#include "msvcrt/printf_expected.h"
#undef EN
#undef EW
};

static int failures;

static void check_n(size_t idx, const char *fmt, int ret, const char *got)
{
	assert_true(idx < sizeof(expected_n) / sizeof(expected_n[0]));
	const struct expect_n *e = &expected_n[idx];
	if (ret != e->ret || strcmp(got, e->s)) {
		print_message("narrow case %zu \"%s\": got %d \"%s\", msvcrt %d \"%s\"\n", idx, fmt,
			      ret, got, e->ret, e->s);
		failures++;
	}
}

static void check_w(size_t idx, const WCHAR *fmt, int ret, const WCHAR *got)
{
	assert_true(idx < sizeof(expected_w) / sizeof(expected_w[0]));
	const struct expect_w *e = &expected_w[idx];
	if (ret != e->ret || crt_wcslen(got) != crt_wcslen(e->s) ||
	    memcmp(got, e->s, crt_wcslen(got) * sizeof(WCHAR))) {
		print_message("wide case %zu \"%s\": got %d \"%s\", msvcrt %d \"%s\"\n", idx,
			      crt_wide_to_utf8_alloc(fmt), ret, crt_wide_to_utf8_alloc(got), e->ret,
			      crt_wide_to_utf8_alloc(e->s));
		failures++;
	}
}

static void test_printf_cases(void **state)
{
	size_t in = 0, iw = 0;
#define WS(s) u##s
#define WCHAR_T WCHAR
#define N(...)                                                                \
	do {                                                                  \
		char b[512];                                                  \
		int r = crt__snprintf(b, sizeof(b), __VA_ARGS__);             \
		b[r < 0 ? 0 : r] = 0;                                         \
		check_n(in++, #__VA_ARGS__, r, b);                            \
	} while (0);
#define W(f, ...)                                                             \
	do {                                                                  \
		WCHAR b[512];                                                 \
		int r = crt__snwprintf(b, 512, WS(f), ##__VA_ARGS__);         \
		b[r < 0 ? 0 : r] = 0;                                         \
		check_w(iw++, WS(f), r, b);                                   \
	} while (0);
#include "msvcrt/printf_cases.h"
	assert_int_equal(in, sizeof(expected_n) / sizeof(expected_n[0]));
	assert_int_equal(iw, sizeof(expected_w) / sizeof(expected_w[0]));
	assert_int_equal(failures, 0);
}

/* _snprintf: -1 and no terminator when the output does not fit; no
 * terminator either when it fits exactly (recorded under wine64). */
static void test_snprintf_truncation(void **state)
{
	char b[16];
	memset(b, 'Z', sizeof(b));
	assert_int_equal(crt__snprintf(b, 4, "abcdef"), -1);
	assert_memory_equal(b, "abcdZZ", 6);
	memset(b, 'Z', sizeof(b));
	assert_int_equal(crt__snprintf(b, 6, "abcdef"), 6);
	assert_memory_equal(b, "abcdefZZ", 8);
	memset(b, 'Z', sizeof(b));
	assert_int_equal(crt__snprintf(b, 7, "abcdef"), 6);
	assert_string_equal(b, "abcdef");
	memset(b, 'Z', sizeof(b));
	assert_int_equal(crt__snprintf(b, 0, "abcdef"), -1);
	assert_int_equal(b[0], 'Z');

	WCHAR w[16];
	assert_int_equal(crt__snwprintf(w, 3, u"abcdef"), -1);

	/* C99 snprintf: always terminated, returns the full length */
	memset(b, 'Z', sizeof(b));
	assert_int_equal(crt_snprintf(b, 4, "abcdef"), 6);
	assert_string_equal(b, "abc");
	assert_int_equal(crt_snprintf(NULL, 0, "%d", 12345), 5);
	assert_int_equal(crt__scprintf("%s-%d", "ab", 7), 4);
	assert_int_equal(crt__scwprintf(u"%s", u"abc"), 3);
}

static void test_percent_n_and_nul_char(void **state)
{
	char b[32];
	int n = -1;
	assert_int_equal(crt_sprintf(b, "abc%nde", &n), 5);
	assert_int_equal(n, 3);
	/* %c of 0 writes a NUL into the output and counts it */
	assert_int_equal(crt_sprintf(b, "[%-3c]", 0), 5);
	assert_memory_equal(b, "[\0  ]", 6);
}

/* Non-ASCII text crosses between the families as UTF-8 <-> UTF-16. */
static void test_conversions_between_families(void **state)
{
	char b[64];
	WCHAR w[64];
	crt_sprintf(b, "%ls|%C", u"h\u00e9\U0001F600", 0x20ac);
	assert_string_equal(b, "h\xc3\xa9\xf0\x9f\x98\x80|\xe2\x82\xac");
	crt_swprintf(w, u"%hs|%S", "\xc3\xa9", "x\xe2\x82\xac");
	assert_memory_equal(w, u"\u00e9|x\u20ac", 5 * sizeof(WCHAR));
	/* width counts output units */
	crt_sprintf(b, "%5ls|", u"\u00e9");
	assert_string_equal(b, "   \xc3\xa9|");
}

static void test_large_output(void **state)
{
	char *big = malloc(5000);
	assert_int_equal(crt_sprintf(big, "%3000d|%.1000f", 1, 1.0), 3000 + 1 + 1002);
	assert_int_equal(big[2999], '1');
	assert_int_equal(big[3000], '|');
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printf_cases),
		cmocka_unit_test(test_snprintf_truncation),
		cmocka_unit_test(test_percent_n_and_nul_char),
		cmocka_unit_test(test_conversions_between_families),
		cmocka_unit_test(test_large_output),
	};
	return cmocka_run_group_tests(tests, msvcrt_test_setup, win32_test_teardown);
}
