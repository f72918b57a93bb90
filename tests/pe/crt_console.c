/* msvcrt console basics: the printf family (exact output is compared against
 * crt_console.expected), stderr, argv/argc, the environment, atexit and the
 * exit code.  The runner passes the arguments and variables listed in
 * tests.list and expects exit code 37. */
/* The msvcrt.dll printf family itself, not mingw's C99 replacement that
 * a C99 compiler would otherwise pick (see _mingw.h). */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

/* The arguments tests.list passes: spaces, embedded quotes, a backslash
 * before the closing quote and an empty argument must all survive the trip
 * through the Windows command line (built by the runner, parsed by msvcrt). */
static const char *const expected_args[] = {
	"alpha", "two words", "say \"hi\"", "a dir\\", "", "tab\there",
};
#define NARGS (sizeof(expected_args) / sizeof(expected_args[0]))

static void test_printf(void)
{
	long long big = -1234567890123456789LL;
	unsigned long long ubig = 18446744073709551615ULL;
	size_t sz = 4000000000u;

	/* Rule: %lld/%llu/%I64d/%I64x take 64-bit integers; %zu takes size_t
	 * (64-bit on x64); %ls prints a wide string from a narrow printf. */
	printf("int: %d %i %u %x %X %o\n", -42, 42, 42u, 0xbeefu, 0xbeefu, 8u);
	printf("lld: %lld llu: %llu\n", big, ubig);
	printf("I64d: %I64d I64u: %I64u I64x: %I64x I64X: %I64X\n", big, ubig,
	       0x123456789abcdefULL, 0xfedcba9876543210ULL);
	/* %zu is C99/UCRT; the msvcrt.dll docs list only h, l, ll, I, I32 and
	 * I64, so gcc's ms_printf checker rejects it.  Wine's msvcrt accepts it
	 * and mingw programs use it: ndrun must too. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	printf("zu: %zu\n", sz);
#pragma GCC diagnostic pop
	printf("width: [%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42);
	printf("str: [%s] [%10s] [%-10s] [%.3s] [%ls]\n", "abc", "right", "left",
	       "truncate", L"wide");
	printf("char: [%c] [%%]\n", 'x');
	/* Rule (msvcrt): %e and %g print at least three exponent digits. */
	printf("float: %f %.2f %e %g %g\n", 3.5, 2.3456, 12345.678, 0.0001, 1e20);
	printf("hex: %#x %#o\n", 255u, 8u);
	printf("star: [%*d] [%.*f]\n", 6, 7, 3, 1.0);

	/* Rule (msvcrt): %p prints the pointer as 16 upper-case hex digits,
	 * zero-padded, no 0x prefix. */
	printf("ptr: %p\n", (void *)(uintptr_t)0x12345678abcULL);
}

static void test_sprintf(void)
{
	char buf[64];
	int n;

	/* Rule: sprintf returns the number of characters written, without
	 * the terminating NUL. */
	n = sprintf(buf, "%d-%s-%I64d", 7, "x", 1LL << 40);
	ok(n == 17 && !strcmp(buf, "7-x-1099511627776"), "sprintf: %d [%s]\n", n, buf);

	/* Rule (C99): snprintf truncates, always NUL-terminates, and returns
	 * the length the full output would have had. */
	memset(buf, 'Z', sizeof(buf));
	n = snprintf(buf, 6, "%s", "0123456789");
	ok(n == 10, "snprintf returned %d\n", n);
	ok(!strcmp(buf, "01234"), "snprintf wrote [%s]\n", buf);

	/* Rule (msvcrt _snprintf): when the output does not fit, it returns -1
	 * and the buffer is NOT NUL-terminated; when it fits exactly (no room
	 * for the NUL) it returns the count, again without a NUL. */
	memset(buf, 'Z', sizeof(buf));
	n = _snprintf(buf, 4, "%s", "0123456789");
	ok(n == -1, "_snprintf (too long) returned %d\n", n);
	ok(!memcmp(buf, "0123Z", 5), "_snprintf wrote [%.5s]\n", buf);
	memset(buf, 'Z', sizeof(buf));
	n = _snprintf(buf, 4, "%s", "abcd");
	ok(n == 4, "_snprintf (exact) returned %d\n", n);
	ok(!memcmp(buf, "abcdZ", 5), "_snprintf wrote [%.5s]\n", buf);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	n = _snprintf(buf, sizeof(buf), "%llx|%zu", 0xabcdef012345ULL, (size_t)12);
#pragma GCC diagnostic pop
	ok(n == 15 && !strcmp(buf, "abcdef012345|12"), "_snprintf: %d [%s]\n", n, buf);
}

static void test_wide_printf(void)
{
	wchar_t wbuf[64];
	int n;

	/* Rule: swprintf with a count formats into a wide buffer; %ls is a
	 * wide string and %hs a narrow one in every printf flavour. */
	n = swprintf(wbuf, 64, L"%d %ls %hs %I64u", -5, L"w\x00e9", "n", 1ULL << 33);
	ok(n == 18 && !wcscmp(wbuf, L"-5 w\x00e9 n 8589934592"),
	   "swprintf: %d [%ls]\n", n, wbuf);

	/* Rule (msvcrt, not ISO): in the wide functions a plain %s takes a
	 * wide string and %S a narrow one. */
	n = _snwprintf(wbuf, 64, L"[%s] [%S]", L"wide", "narrow");
	ok(n == 15 && !wcscmp(wbuf, L"[wide] [narrow]"), "_snwprintf: %d [%ls]\n", n, wbuf);

	wprintf(L"wprintf: %d %ls %hs %llx\n", 12, L"wide", "narrow", 0x1234567890ULL);
	fflush(stdout);
}

static void test_stderr(void)
{
	int n;

	/* Rule: fprintf(stderr) returns the character count; stderr is
	 * unbuffered, the runner compares it with crt_console.stderr. */
	n = fprintf(stderr, "to stderr: %d %s\n", 99, "ok");
	ok(n == 17, "fprintf(stderr) returned %d\n", n);
}

static void test_args(int argc, char **argv)
{
	unsigned i;

	/* Rule: argv[0] is the program, the rest are the arguments split by the
	 * msvcrt command-line rules; argv[argc] is NULL. */
	ok(argc == NARGS + 1, "argc %d\n", argc);
	ok(argv[argc] == NULL, "argv[argc] %p\n", argv[argc]);
	ok(strstr(argv[0], "crt_console") != NULL, "argv[0] [%s]\n", argv[0]);
	for (i = 0; i < NARGS && i + 1 < (unsigned)argc; i++)
		ok(!strcmp(argv[i + 1], expected_args[i]), "argv[%u] [%s], expected [%s]\n",
		   i + 1, argv[i + 1], expected_args[i]);
}

static void test_environment(void)
{
	char buf[64];
	WCHAR wbuf[64];
	const char *v;
	DWORD n;

	/* The runner sets PE_TEST_VAR="value with spaces". */
	v = getenv("PE_TEST_VAR");
	ok(v && !strcmp(v, "value with spaces"), "getenv [%s]\n", v ? v : "(null)");

	/* Rule: with a large enough buffer, GetEnvironmentVariable returns the
	 * length without the NUL. */
	n = GetEnvironmentVariableA("PE_TEST_VAR", buf, sizeof(buf));
	ok(n == 17 && !strcmp(buf, "value with spaces"), "GetEnvironmentVariableA %lu [%s]\n",
	   n, buf);
	/* Rule: too small a buffer: the return is the size needed, NUL included. */
	n = GetEnvironmentVariableA("PE_TEST_VAR", buf, 5);
	ok(n == 18, "GetEnvironmentVariableA (small) %lu\n", n);
	/* Rule: variable names are case-insensitive. */
	n = GetEnvironmentVariableW(L"pe_test_var", wbuf, 64);
	ok(n == 17 && !wcscmp(wbuf, L"value with spaces"), "GetEnvironmentVariableW %lu [%ls]\n",
	   n, wbuf);
	n = GetEnvironmentVariableW(L"PE_TEST_VAR", wbuf, 3);
	ok(n == 18, "GetEnvironmentVariableW (small) %lu\n", n);

	/* Rule: a missing variable gives 0 and ERROR_ENVVAR_NOT_FOUND. */
	SetLastError(0xdeadbeef);
	n = GetEnvironmentVariableW(L"PE_TEST_NOT_SET", wbuf, 64);
	ok(n == 0 && GetLastError() == ERROR_ENVVAR_NOT_FOUND, "missing: %lu, error %lu\n", n,
	   GetLastError());
	ok(getenv("PE_TEST_NOT_SET") == NULL, "getenv found PE_TEST_NOT_SET\n");

	/* Rule: SetEnvironmentVariableW creates a variable that both
	 * GetEnvironmentVariable flavours then see. */
	ok(SetEnvironmentVariableW(L"PE_TEST_NEW", L"fresh \x00e9"), "SetEnvironmentVariableW failed %lu\n",
	   GetLastError());
	n = GetEnvironmentVariableW(L"PE_TEST_NEW", wbuf, 64);
	ok(n == 7 && !wcscmp(wbuf, L"fresh \x00e9"), "after set: %lu [%ls]\n", n, wbuf);
	n = GetEnvironmentVariableA("PE_TEST_NEW", buf, sizeof(buf));
	/* é is one byte in a single-byte ANSI page, two in UTF-8 (65001) */
	ok(n == (GetACP() == CP_UTF8 ? 8u : 7u) && !strncmp(buf, "fresh ", 6), "after set (A): %lu [%s]\n", n, buf);
	/* Rule (getenv docs): getenv reads the CRT's copy of the environment,
	 * taken at startup; SetEnvironmentVariable does not change it. */
	ok(getenv("PE_TEST_NEW") == NULL, "getenv saw a SetEnvironmentVariableW change\n");

	/* Rule: a NULL value deletes the variable. */
	ok(SetEnvironmentVariableW(L"PE_TEST_NEW", NULL), "delete failed %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	n = GetEnvironmentVariableW(L"PE_TEST_NEW", wbuf, 64);
	ok(n == 0 && GetLastError() == ERROR_ENVVAR_NOT_FOUND, "after delete: %lu, error %lu\n", n,
	   GetLastError());
}

/* Rule: exit() runs atexit handlers (in reverse order of registration) and
 * flushes stdio before the process ends; the runner sees both lines. */
static void at_exit_first(void)
{
	printf("atexit: registered first, runs last\n");
}

static void at_exit_second(void)
{
	printf("atexit: registered second, runs first\n");
}

int main(int argc, char **argv)
{
	test_printf();
	test_sprintf();
	test_wide_printf();
	test_stderr();
	test_args(argc, argv);
	test_environment();
	atexit(at_exit_first);
	atexit(at_exit_second);
	if (test_summary())
		return 1;
	/* Rule: the value passed to exit() is the process exit code. */
	exit(37);
}
