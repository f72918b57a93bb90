/* A tiny Wine-style conformance harness for the PE test programs.
 *
 *   ok(cond, "got %d\n", x);   counts a check; prints "file:line: Test failed: ..."
 *   return test_summary();     prints "<prog>: N tests executed, N failures"
 *
 * Thread-safe: counters are interlocked and each message is one stdio call,
 * so checks may run in several threads.  Messages go to stdout so they stay
 * in order with the rest of what the program prints. */
#ifndef NDSHIM_PE_TEST_H
#define NDSHIM_PE_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>

static volatile LONG test_executed;
static volatile LONG test_failures;

static inline const char *test_basename(const char *path)
{
	const char *p = path, *s;

	for (s = path; *s; s++)
		if (*s == '/' || *s == '\\')
			p = s + 1;
	return p;
}

static inline int __attribute__((format(gnu_printf, 4, 5)))
test_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	InterlockedIncrement(&test_executed);
	if (cond)
		return 1;
	InterlockedIncrement(&test_failures);
	va_start(ap, fmt);
	/* __mingw_vsnprintf: the harness must not depend on the msvcrt
	 * printf family that some of the tests are checking. */
	__mingw_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stdout, "%s:%d: Test failed: %s", test_basename(file), line, msg);
	fflush(stdout);
	return 0;
}

#define ok(cond, ...) test_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Under Wine (ntdll exports wine_get_version), not under ndrun or Windows. */
static inline int test_on_wine(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");

	return ntdll && GetProcAddress(ntdll, "wine_get_version") != NULL;
}

/* A check of documented Windows behaviour that Wine is known not to
 * follow: counted normally except under Wine, where a failure prints
 * "Test marked todo_wine" and does not count (the test names the
 * deviation in a comment). */
static inline int __attribute__((format(gnu_printf, 4, 5)))
test_ok_todo_wine(int cond, const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!test_on_wine() || cond) {
		va_start(ap, fmt);
		__mingw_vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		return test_ok(cond, file, line, "%s", msg);
	}
	va_start(ap, fmt);
	__mingw_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stdout, "%s:%d: Test marked todo_wine: %s", test_basename(file), line, msg);
	fflush(stdout);
	return 0;
}

#define ok_todo_wine(cond, ...) test_ok_todo_wine(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Name of the running program, for the summary line. */
static inline const char *test_progname(void)
{
	static char name[MAX_PATH];
	char *dot;

	if (!GetModuleFileNameA(NULL, name, sizeof(name)))
		return "?";
	memmove(name, test_basename(name), strlen(test_basename(name)) + 1);
	dot = strrchr(name, '.');
	if (dot)
		*dot = 0;
	return name;
}

/* Returns non-zero when any check failed, to be used as the exit status. */
static inline int test_summary(void)
{
	fprintf(stdout, "%s: %ld tests executed, %ld failures\n", test_progname(),
		(long)test_executed, (long)test_failures);
	fflush(stdout);
	return test_failures != 0;
}

#endif
