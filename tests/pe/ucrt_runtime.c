/* UCRT start-up and runtime (built against ucrtbase through the
 * api-ms-win-crt-* sets): argv and the environment as _configure_narrow_argv
 * and _initialize_narrow_environment set them up, atexit/_onexit order,
 * errno, strtod's C99 inputs, time conversions and threads started with
 * _beginthreadex.  tests.list passes the arguments and PE_UCRT_VAR; the
 * exit handlers' output is compared with ucrt_runtime.expected. */
#define __USE_MINGW_ANSI_STDIO 0

#include <errno.h>
#include <float.h>
#include <math.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <windows.h>

#include "test.h"

static const char *const expected_args[] = { "one", "two words", "" };
#define NARGS (sizeof(expected_args) / sizeof(expected_args[0]))

static void test_args(int argc, char **argv, char **envp)
{
	int found = 0;

	/* Rule: argv follows the C runtime's command-line parsing. */
	ok(argc == NARGS + 1, "argc %d\n", argc);
	for (unsigned int i = 0; i < NARGS && (int)i + 1 < argc; i++)
		ok(!strcmp(argv[i + 1], expected_args[i]), "argv[%u] [%s]\n", i + 1, argv[i + 1]);
	ok(argv[argc] == NULL, "argv not NULL-terminated\n");
	ok(__argc == argc && !strcmp(__argv[argc - 1], argv[argc - 1]), "__argc/__argv differ from main's\n");
	/* Rule: the environment holds the variables the program was started
	 * with; getenv finds them; _putenv-free programs see _environ == envp. */
	ok(getenv("PE_UCRT_VAR") && !strcmp(getenv("PE_UCRT_VAR"), "ucrt value"), "getenv [%s]\n",
	   getenv("PE_UCRT_VAR") ? getenv("PE_UCRT_VAR") : "(null)");
	for (char **e = envp; *e; e++)
		if (!strcmp(*e, "PE_UCRT_VAR=ucrt value"))
			found = 1;
	ok(found, "PE_UCRT_VAR not in envp\n");
	ok(_environ == envp, "_environ %p, envp %p\n", (void *)_environ, (void *)envp);
	ok(getenv("PE_UCRT_NO_SUCH_VAR") == NULL, "unset variable found\n");
}

static void test_errno(void)
{
	char *end;
	int err;

	/* Rule: errno is per thread; strtol reports overflow as ERANGE. */
	errno = 0;
	ok(strtol("99999999999999999999", &end, 10) == 2147483647L && errno == ERANGE, "errno %d\n", errno);
	ok(_get_errno(&err) == 0 && err == ERANGE, "_get_errno %d\n", err);
	ok(_set_errno(EDOM) == 0 && errno == EDOM, "_set_errno\n");
	ok(strtoul("12z", &end, 10) == 12 && *end == 'z', "strtoul end [%s]\n", end);
	ok(!strcmp(strerror(ENOENT), "No such file or directory"), "strerror [%s]\n", strerror(ENOENT));
}

/* keeps gcc from folding conversions of constant strings */
static const char *volatile_text(const char *s)
{
	const char *volatile v = s;
	return v;
}

static void test_strtod(void)
{
	char *end;
	double d;

	/* Rule: the UCRT's strtod reads C99 forms (msvcrt's does not). */
	d = strtod("  -1.5e3xyz", &end);
	ok(d == -1500.0 && !strcmp(end, "xyz"), "got %g end [%s]\n", d, end);
	d = strtod("0x1.8p4", &end);
	ok(d == 24.0 && !*end, "hex float gave %g end [%s]\n", d, end);
	d = strtod("INF", &end);
	ok(isinf(d) && d > 0 && !*end, "INF gave %g\n", d);
	d = strtod("nan", &end);
	ok(isnan(d) && !*end, "nan gave %g\n", d);
	errno = 0;
	d = strtod("1e400", &end);
	ok(d == HUGE_VAL && errno == ERANGE, "overflow gave %g, errno %d\n", d, errno);
	d = strtod("abc", &end);
	ok(d == 0.0 && !strcmp(end, "abc"), "no number: end [%s]\n", end);
	ok(atof("2.5") == 2.5, "atof\n");
	ok(strtof(volatile_text("0.25"), NULL) == 0.25f, "strtof\n");
	errno = 0;
	ok(isinf(strtof(volatile_text("1e40"), NULL)) && errno == ERANGE, "strtof overflow: errno %d\n", errno);
	ok(strtoll(volatile_text("-9223372036854775807"), NULL, 10) == -9223372036854775807LL, "strtoll\n");
	ok(wcstoull(L"18446744073709551615", NULL, 10) == 18446744073709551615ULL, "wcstoull\n");
	ok(wcstof(L"1.5e1", NULL) == 15.0f, "wcstof\n");
}

static void test_time(void)
{
	time_t t = 1000000000; /* 2001-09-09 01:46:40 UTC */
	struct tm *tm = gmtime(&t), copy;
	char buf[64];
	time_t now = time(NULL);

	ok(tm && tm->tm_year == 101 && tm->tm_mon == 8 && tm->tm_mday == 9 && tm->tm_hour == 1 && tm->tm_min == 46 &&
		   tm->tm_sec == 40 && tm->tm_wday == 0 && tm->tm_yday == 251,
	   "gmtime fields\n");
	ok(tm && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", tm) == 19 && !strcmp(buf, "2001-09-09 01:46:40"),
	   "strftime [%s]\n", buf);
	ok(sizeof(time_t) == 8, "time_t is %u bytes\n", (unsigned int)sizeof(time_t));
	ok(now > 1600000000, "time() gave %lld\n", (long long)now);
	tm = localtime(&now);
	ok(tm != NULL, "localtime failed\n");
	if (tm) {
		copy = *tm;
		ok(mktime(&copy) == now, "mktime(localtime(t)) != t\n");
	}
}

static volatile LONG thread_value;

static unsigned __stdcall thread_main(void *arg)
{
	/* errno is the thread's own */
	errno = 0;
	InterlockedExchange(&thread_value, (LONG)(uintptr_t)arg);
	_endthreadex(77);
	return 1;
}

static void test_threads(void)
{
	unsigned int id = 0;
	DWORD code = 0;
	HANDLE h;

	errno = EDOM;
	h = (HANDLE)_beginthreadex(NULL, 0, thread_main, (void *)(uintptr_t)1234, 0, &id);
	ok(h != NULL && id != 0, "_beginthreadex failed, errno %d\n", errno);
	if (!h)
		return;
	ok(WaitForSingleObject(h, 10000) == WAIT_OBJECT_0, "thread did not end\n");
	ok(GetExitCodeThread(h, &code) && code == 77, "exit code %lu\n", code);
	ok(thread_value == 1234, "thread saw %ld\n", thread_value);
	ok(errno == EDOM, "the thread changed this thread's errno to %d\n", errno);
	CloseHandle(h);
}

/* Rule: exit handlers run in reverse order of registration, atexit and
 * _onexit in one sequence, after main returns. */
static void __cdecl first(void)
{
	printf("atexit: first registered, runs last\n");
	fflush(stdout);
}

static int __cdecl second(void)
{
	printf("_onexit: second registered\n");
	return 0;
}

/* Rule: the exe's thread_local destructor callback runs at exit(), once,
 * with DLL_PROCESS_DETACH, before the atexit list. */
static void __cdecl tls_exit_callback(void *module, DWORD reason, void *reserved)
{
	(void)module, (void)reserved;
	printf("thread_local callback, reason %lu\n", reason);
}

static void __cdecl third(void)
{
	printf("atexit: third registered, runs first\n");
}

int main(int argc, char **argv, char **envp)
{
	test_args(argc, argv, envp);
	test_errno();
	test_strtod();
	test_time();
	test_threads();
	ok(atexit(first) == 0, "atexit\n");
	ok(_onexit(second) != NULL, "_onexit\n");
	ok(atexit(third) == 0, "atexit\n");
	_register_thread_local_exe_atexit_callback((_tls_callback_type)tls_exit_callback);
	return test_summary();
}
