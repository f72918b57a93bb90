/* The _p printf family: positional arguments ("%2$s %1$s"), an argument
 * used twice, "*n$" widths and precisions, doubles and 64-bit integers
 * among others, and the invalid formats (numbered and unnumbered mixed, a
 * number skipped, number 0) and a buffer too small, which the
 * invalid-parameter handler sees. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "test.h"

/* msvcrt.dll and ucrtbase.dll both have them; mingw-w64 declares them
 * only for some configurations. */
#ifdef _UCRT
/* the UCRT's own entry point, which its headers' _sprintf_p calls */
int __cdecl __stdio_common_vsprintf_p(unsigned __int64 options, char *buf, size_t size, const char *fmt,
				      _locale_t locale, va_list ap);
int __cdecl __stdio_common_vswprintf_p(unsigned __int64 options, wchar_t *buf, size_t size, const wchar_t *fmt,
				       _locale_t locale, va_list ap);
int __cdecl __stdio_common_vfprintf_p(unsigned __int64 options, FILE *f, const char *fmt, _locale_t locale,
				      va_list ap);

static int sp(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __stdio_common_vsprintf_p(0, buf, size, fmt, NULL, ap);
	va_end(ap);
	return r;
}

static int swp(wchar_t *buf, size_t size, const wchar_t *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	/* legacy wide specifiers: %s is wide in the wide family, as msvcrt's */
	r = __stdio_common_vswprintf_p(4, buf, size, fmt, NULL, ap);
	va_end(ap);
	return r;
}

static int fp(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __stdio_common_vfprintf_p(0, f, fmt, NULL, ap);
	va_end(ap);
	return r;
}

static int scp(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __stdio_common_vsprintf_p(0, NULL, 0, fmt, NULL, ap);
	va_end(ap);
	return r;
}
#else
/* mingw-w64's libmsvcrt.a imports the va_list forms (and _fprintf_p) */
_CRTIMP int __cdecl _vsprintf_p(char *buf, size_t size, const char *fmt, va_list ap);
_CRTIMP int __cdecl _vswprintf_p(wchar_t *buf, size_t size, const wchar_t *fmt, va_list ap);
_CRTIMP int __cdecl _fprintf_p(FILE *f, const char *fmt, ...);
_CRTIMP int __cdecl _vscprintf_p(const char *fmt, va_list ap);

static int sp(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = _vsprintf_p(buf, size, fmt, ap);
	va_end(ap);
	return r;
}

static int swp(wchar_t *buf, size_t size, const wchar_t *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = _vswprintf_p(buf, size, fmt, ap);
	va_end(ap);
	return r;
}

static int scp(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = _vscprintf_p(fmt, ap);
	va_end(ap);
	return r;
}
#define fp _fprintf_p
#endif

static void test_positions(void)
{
	char buf[64];
	wchar_t wbuf[32];
	int n;

	n = sp(buf, sizeof(buf), "%2$s %1$s", "November", "10");
	ok(n == 11 && !strcmp(buf, "10 November"), "got %d \"%s\"\n", n, buf);
	n = sp(buf, sizeof(buf), "%1$d times %1$d is %2$d", 10, 100);
	ok(n == 18 && !strcmp(buf, "10 times 10 is 100"), "got %d \"%s\"\n", n, buf);
	n = sp(buf, sizeof(buf), "[%1$*2$s]", "Hello", 8);
	ok(n == 10 && !strcmp(buf, "[   Hello]"), "width from an argument: %d \"%s\"\n", n, buf);
	n = sp(buf, sizeof(buf), "[%3$*1$.*2$f]", 8, 3, 2.5);
	ok(!strcmp(buf, "[   2.500]"), "width and precision: %d \"%s\"\n", n, buf);
	n = sp(buf, sizeof(buf), "%2$lld %1$.1f %3$c %4$s", 1.5, 1LL << 40, 'z', "end");
	ok(!strcmp(buf, "1099511627776 1.5 z end"), "mixed types: \"%s\"\n", buf);
	n = sp(buf, sizeof(buf), "%d %s %.2f", 42, "plain", 0.125);
	ok(!strcmp(buf, "42 plain 0.13") || !strcmp(buf, "42 plain 0.12"), "no positions: \"%s\"\n", buf);
	n = sp(buf, sizeof(buf), "100%% %1$s", "sure");
	ok(!strcmp(buf, "100% sure"), "%%%% among positions: \"%s\"\n", buf);
	n = swp(wbuf, 32, L"%2$s-%1$d", 7, L"x");
	ok(n == 3 && !wcscmp(wbuf, L"x-7"), "wide: %d\n", n);
}

#ifdef _UCRT
static int invalid_calls;

static void __cdecl on_invalid(const wchar_t *expr, const wchar_t *func, const wchar_t *file, unsigned line,
			       uintptr_t reserved)
{
	(void)expr, (void)func, (void)file, (void)line, (void)reserved;
	invalid_calls++;
}

static void test_invalid(void)
{
	char buf[8];
	int n;

	_set_invalid_parameter_handler(on_invalid);
	invalid_calls = 0;
	errno = 0;
	strcpy(buf, "x");
	n = sp(buf, sizeof(buf), "%1$d %d", 1, 2);
	ok(n == -1 && errno == EINVAL, "mixed: %d errno %d\n", n, errno);
	/* an invalid format goes to the handler (Wine's msvcrt only sets
	 * errno) */
	ok_todo_wine(invalid_calls == 1, "mixed: the handler was called %d times\n", invalid_calls);
	errno = 0;
	n = sp(buf, sizeof(buf), "%2$d", 1, 2);
	ok(n == -1 && errno == EINVAL, "argument 1 unused: %d errno %d\n", n, errno);
	errno = 0;
	n = sp(buf, sizeof(buf), "%0$d", 1);
	ok(n == -1 && errno == EINVAL, "argument 0: %d errno %d\n", n, errno);
	errno = 0;
	invalid_calls = 0;
	strcpy(buf, "x");
	n = sp(buf, sizeof(buf), "%1$s", "much too long");
	ok(n == -1, "too small: %d\n", n);
	/* as sprintf_s: an empty string, ERANGE, the handler (Wine leaves
	 * the text cut and unterminated, and neither) */
	ok_todo_wine(errno == ERANGE && !buf[0] && invalid_calls == 1, "too small: errno %d buf[0] %#x calls %d\n", errno,
		     (unsigned char)buf[0], invalid_calls);
	_set_invalid_parameter_handler(NULL);
}

#endif

static void test_stream_and_count(void)
{
	char buf[32] = "";
	FILE *f = fopen("crt_printf_p.tmp", "w+");
	int n;

	ok(f != NULL, "fopen\n");
	if (f) {
		n = fp(f, "%3$s%2$s%1$s", "c", "b", "a");
		rewind(f);
		fgets(buf, sizeof(buf), f);
		fclose(f);
		ok(n == 3 && !strcmp(buf, "abc"), "fprintf_p: %d \"%s\"\n", n, buf);
	}
	remove("crt_printf_p.tmp");
	n = scp("%2$s%1$s", "ab", "cde");
	ok(n == 5, "count: %d\n", n);
}

int main(void)
{
	test_positions();
#ifdef _UCRT
	test_invalid();
#else
	/* msvcrt.dll has no handler a program can install (mingw-w64's
	 * _set_invalid_parameter_handler is its own), and without one what it
	 * does differs: ucrt_printf_p checks the invalid formats. */
	printf("crt_printf_p.c: invalid formats not checked against msvcrt.dll (no handler to install)\n");
#endif
	test_stream_and_count();
	return test_summary();
}
