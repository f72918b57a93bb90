/* The printf engine in ucrtbase's flavour, through __stdio_common_vsprintf
 * and __stdio_common_vswprintf with each option bit, beside msvcrt's
 * flavour of the same engine: exponent digits, non-finite spellings,
 * %F, %n gating, the buffer rules and the wide-specifier bit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "msvcrt/test_support.h"

#define STD_SNPRINTF 0x2
#define LEGACY_NULL 0x1
#define LEGACY_WIDE 0x4
#define LEGACY_MSVCRT 0x8
#define THREE_DIGITS 0x10

static int __attribute__((ms_abi)) ucrt_fmt(uint64_t opts, char *buf, size_t n, const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = ucrt___stdio_common_vsprintf(opts, buf, n, fmt, NULL, ap);
	__ms_va_end(ap);
	return r;
}

static int __attribute__((ms_abi)) ucrt_wfmt(uint64_t opts, WCHAR *buf, size_t n, const WCHAR *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = ucrt___stdio_common_vswprintf(opts, buf, n, fmt, NULL, ap);
	__ms_va_end(ap);
	return r;
}

static int __attribute__((ms_abi)) msvcrt_fmt(char *buf, size_t n, const char *fmt, ...)
{
	__ms_va_list ap;
	int r;

	__ms_va_start(ap, fmt);
	r = crt__vsnprintf(buf, n, fmt, ap);
	__ms_va_end(ap);
	return r;
}

static int invalid_calls;

static void __attribute__((ms_abi)) count_invalid(const WCHAR *e, const WCHAR *f, const WCHAR *file, unsigned int l,
						  uintptr_t r)
{
	invalid_calls++;
}

static void test_flavours(void **state)
{
	char buf[64];

	assert_int_equal(ucrt_fmt(STD_SNPRINTF, buf, sizeof(buf), "%e|%g", 1.5, 1e-10), 18);
	assert_string_equal(buf, "1.500000e+00|1e-10");
	assert_int_equal(msvcrt_fmt(buf, sizeof(buf), "%e|%g", 1.5, 1e-10), 20);
	assert_string_equal(buf, "1.500000e+000|1e-010");
	ucrt_fmt(STD_SNPRINTF | THREE_DIGITS, buf, sizeof(buf), "%e", 1.5);
	assert_string_equal(buf, "1.500000e+000");
	ucrt_fmt(STD_SNPRINTF, buf, sizeof(buf), "%f|%E|%F|%5.1f|%f", 1.0 / 0.0, -1.0 / 0.0, 1.0 / 0.0, __builtin_nan(""),
		 -__builtin_nan(""));
	assert_string_equal(buf, "inf|-INF|INF|  nan|-nan(ind)");
	ucrt_fmt(STD_SNPRINTF | LEGACY_MSVCRT, buf, sizeof(buf), "%f", 1.0 / 0.0);
	assert_string_equal(buf, "1.#INF00");
	msvcrt_fmt(buf, sizeof(buf), "%f", 1.0 / 0.0);
	assert_string_equal(buf, "1.#INF00");
	/* %F: a conversion in the UCRT, a (far) size prefix in msvcrt */
	ucrt_fmt(STD_SNPRINTF, buf, sizeof(buf), "%F", 2.5);
	assert_string_equal(buf, "2.500000");
	msvcrt_fmt(buf, sizeof(buf), "%Fd", 7);
	assert_string_equal(buf, "7");
}

static void test_count_output(void **state)
{
	char buf[16];
	int n = -1;

	crt__set_invalid_parameter_handler(count_invalid);
	invalid_calls = 0;
	*crt__errno() = 0;
	assert_int_equal(ucrt_fmt(STD_SNPRINTF, buf, sizeof(buf), "ab%n", &n), -1);
	assert_int_equal(invalid_calls, 1);
	assert_int_equal(*crt__errno(), 22);
	assert_int_equal(n, -1);
	assert_int_equal(ucrt__set_printf_count_output(1), 0);
	assert_int_equal(ucrt_fmt(STD_SNPRINTF, buf, sizeof(buf), "ab%nc", &n), 3);
	assert_int_equal(n, 2);
	ucrt__set_printf_count_output(0);
	/* msvcrt never refused it */
	assert_int_equal(msvcrt_fmt(buf, sizeof(buf), "abc%n", &n), 3);
	assert_int_equal(n, 3);
	crt__set_invalid_parameter_handler(NULL);
}

static void test_buffers(void **state)
{
	char buf[8];

	/* C99: full length, always terminated */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(ucrt_fmt(STD_SNPRINTF, buf, 4, "%s", "abcdef"), 6);
	assert_string_equal(buf, "abc");
	assert_int_equal(ucrt_fmt(STD_SNPRINTF, NULL, 0, "%d", 12345), 5);
	/* legacy _vsnprintf: no terminator when it fits exactly, -1 beyond */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(ucrt_fmt(LEGACY_NULL, buf, 3, "%s", "abc"), 3);
	assert_memory_equal(buf, "abcx", 4);
	assert_int_equal(ucrt_fmt(LEGACY_NULL, buf, 3, "%s", "abcd"), -1);
	assert_memory_equal(buf, "abcx", 4);
	/* neither: cut, terminated, -2 */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(ucrt_fmt(0, buf, 4, "%s", "abcdef"), -2);
	assert_string_equal(buf, "abc");
}

static void test_wide_specifiers(void **state)
{
	WCHAR w[16];

	/* with the legacy bit %s in the wide family is wide ... */
	assert_int_equal(ucrt_wfmt(STD_SNPRINTF | LEGACY_WIDE, w, 16, u"%s|%S", u"wide", "narrow"), 11);
	assert_memory_equal(w, u"wide|narrow", 12 * sizeof(WCHAR));
	/* ... without it, ISO C: %s is narrow, %ls wide */
	assert_int_equal(ucrt_wfmt(STD_SNPRINTF, w, 16, u"%s|%ls", "narrow", u"wide"), 11);
	assert_memory_equal(w, u"narrow|wide", 12 * sizeof(WCHAR));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flavours),
		cmocka_unit_test(test_count_output),
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_wide_specifiers),
	};
	return cmocka_run_group_tests(tests, msvcrt_test_setup, win32_test_teardown);
}
