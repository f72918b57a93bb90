/* UCRT stdio (built against ucrtbase through the api-ms-win-crt-* sets, as
 * MSVC /MD programs are): where ucrtbase's printf differs from msvcrt's —
 * two-digit exponents, "inf"/"nan" spellings, %n refused unless
 * _set_printf_count_output allows it — and the __stdio_common_* entry
 * points' buffer rules (C99 snprintf, legacy _snprintf, the _s variants
 * with the invalid-parameter handler). */
#define __USE_MINGW_ANSI_STDIO 0

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned int line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

/* Not a printf-like prototype: the checks use conversions (%F) that
 * gcc's format checker does not know for this runtime. */
static void check_line(int line, const char *expect, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	test_ok(n == (int)strlen(expect) && !strcmp(buf, expect), __FILE__, line, "got %d [%s], want [%s]\n", n,
		buf, expect);
}
#define check_fmt(expect, ...) check_line(__LINE__, expect, __VA_ARGS__)

static void test_floats(void)
{
	double inf = HUGE_VAL, nan_ = NAN;

	/* Rule: the UCRT prints at least two exponent digits (msvcrt: three). */
	check_fmt("1.500000e+00", "%e", 1.5);
	check_fmt("1.5E-07", "%G", 1.5e-7);
	check_fmt("1e+100", "%g", 1e100);
	check_fmt("2.500000e+300", "%e", 2.5e300);
	check_fmt("0.000000e+00", "%e", 0.0);
	/* Rule: infinities and NaNs are spelled as C99 says (msvcrt: 1.#INF). */
	check_fmt("inf", "%f", inf);
	check_fmt("-inf", "%e", -inf);
	check_fmt("INF", "%F", inf);
	check_fmt("  inf", "%5.2f", inf);
	check_fmt("nan", "%f", nan_);
	check_fmt("-nan(ind)", "%f", -nan_);
	check_fmt("NAN", "%G", nan_);
	/* %F is a conversion of its own in the UCRT */
	check_fmt("3.250000", "%F", 3.25);
}

static void test_count_output(void)
{
	char buf[64];
	/* not literals: gcc would compute snprintf's result at compile time */
	const char *volatile fmt_ab = "ab%n", *volatile fmt_abcd = "abc%nd";
	int n = -7, r;

	/* Rule: %n is refused (invalid parameter, EINVAL, -1) until
	 * _set_printf_count_output(1). */
	ok(_get_printf_count_output() == 0, "count output on by default\n");
	invalid_calls = 0;
	errno = 0;
	r = snprintf(buf, sizeof(buf), fmt_ab, &n);
	ok(r == -1, "got %d\n", r);
	ok(errno == EINVAL, "errno %d\n", errno);
	ok(invalid_calls == 1, "handler ran %d times\n", invalid_calls);
	ok(n == -7, "%%n stored %d\n", n);
	ok(_set_printf_count_output(1) == 0, "previous value not 0\n");
	r = snprintf(buf, sizeof(buf), fmt_abcd, &n);
	ok(r == 4 && n == 3, "got %d, %%n %d\n", r, n);
	ok(_set_printf_count_output(0) == 1, "previous value not 1\n");
}

static void test_buffers(void)
{
	char buf[8];
	volatile size_t four = 4, three = 3;
	int r;

	/* Rule: C99 snprintf returns the full length and always terminates. */
	memset(buf, 'x', sizeof(buf));
	r = snprintf(buf, four, "%s", "abcdef");
	ok(r == 6 && !strcmp(buf, "abc"), "got %d [%.8s]\n", r, buf);
	ok(snprintf(NULL, 0, "%d", 12345) == 5, "count-only snprintf\n");
	/* Rule: _snprintf returns -1 when the text does not fit, and adds no
	 * terminator when it fits exactly. */
	memset(buf, 'x', sizeof(buf));
	r = _snprintf(buf, four, "%s", "abcdef");
	ok(r == -1 && !memcmp(buf, "abcdx", 5), "got %d [%.5s]\n", r, buf);
	memset(buf, 'x', sizeof(buf));
	r = _snprintf(buf, three, "%s", "abc");
	ok(r == 3 && !memcmp(buf, "abcx", 4), "got %d [%.4s]\n", r, buf);
	/* Rule: sprintf_s on a buffer too small: invalid parameter, ERANGE,
	 * empty string, -1. */
	invalid_calls = 0;
	errno = 0;
	r = sprintf_s(buf, four, "%s", "abcdef");
	/* Wine's ucrtbase returns -1 but leaves the buffer, errno and the
	 * handler alone, against the sprintf_s documentation. */
	ok(r == -1, "got %d\n", r);
	ok_todo_wine(buf[0] == 0, "buffer not emptied: [%.4s]\n", buf);
	ok_todo_wine(errno == ERANGE && invalid_calls == 1, "errno %d, handler %d\n", errno, invalid_calls);
	/* Rule: _snprintf_s with _TRUNCATE truncates, terminates, returns -1. */
	r = _snprintf_s(buf, sizeof(buf), _TRUNCATE, "%s", "0123456789");
	ok(r == -1 && !strcmp(buf, "0123456"), "got %d [%s]\n", r, buf);
	r = _snprintf_s(buf, sizeof(buf), _TRUNCATE, "%d", 42);
	ok(r == 2 && !strcmp(buf, "42"), "got %d [%s]\n", r, buf);
	ok(_scprintf("%05d", 3) == 5, "_scprintf\n");
}

static void test_wide(void)
{
	wchar_t w[32];
	int r;

	/* Rule: in the wide family (default, legacy wide specifiers) %s takes
	 * a wide string and %hs a narrow one. */
	r = swprintf(w, 32, L"%s-%hs-%d", L"wide", "narrow", 7);
	ok(r == 13 && !wcscmp(w, L"wide-narrow-7"), "got %d\n", r);
	r = swprintf(w, 4, L"%ls", L"toolong");
	ok(r == -1, "swprintf into a short buffer gave %d\n", r);
}

static void test_streams(void)
{
	char path[MAX_PATH], line[64];
	FILE *f;

	/* Rule: stdin/stdout/stderr are __acrt_iob_func(0..2). */
	ok(stdout == __acrt_iob_func(1) && stderr == __acrt_iob_func(2), "standard streams\n");
	GetTempPathA(sizeof(path), path);
	strcat(path, "ndshim_ucrt_stdio.txt");
	f = fopen(path, "w+");
	ok(f != NULL, "fopen failed, errno %d\n", errno);
	if (!f)
		return;
	ok(fprintf(f, "%s %.3e\n", "value", 12345.678) == 16, "fprintf count\n");
	rewind(f);
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "value 1.235e+04\n"), "read back [%s]\n", line);
	fclose(f);
	remove(path);
	ok(printf("%s\n", "printed through __stdio_common_vfprintf") > 0, "printf\n");
}

int main(void)
{
	_set_invalid_parameter_handler(on_invalid);
	test_floats();
	test_count_output();
	test_buffers();
	test_wide();
	test_streams();
	return test_summary();
}
