/* UCRT start-up and exit entry points that MSVC's start-up code calls:
 * the onexit tables (_initialize_onexit_table, _register_onexit_function,
 * _execute_onexit_table), _register_thread_local_exe_atexit_callback
 * (runs at exit, before the atexit list: see ucrt_startup.expected),
 * _seh_filter_exe's mapping of exceptions to C signal handlers,
 * _configthreadlocale, _set_fmode/_get_fmode and at_quick_exit/quick_exit
 * (the program ends through quick_exit: tests.list expects exit code 5). */
#define __USE_MINGW_ANSI_STDIO 0

#include <fcntl.h>
#include <locale.h>
#include <process.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>
/* after stdlib.h: it relies on _CRTIMP */
#include <corecrt_startup.h>

#include "test.h"

int __cdecl _seh_filter_exe(unsigned long code, struct _EXCEPTION_POINTERS *ptrs);

static char order[8];
static int norder;

static void __cdecl first(void)
{
	order[norder++] = '1';
}

static void __cdecl second(void)
{
	order[norder++] = '2';
}

static void __cdecl third(void)
{
	order[norder++] = '3';
}

static void test_onexit_table(void)
{
	_onexit_table_t table = { 0 };

	ok(_initialize_onexit_table(&table) == 0, "initialize\n");
	ok(_register_onexit_function(&table, (_onexit_t)first) == 0, "register\n");
	ok(_register_onexit_function(&table, (_onexit_t)second) == 0, "register\n");
	ok(_register_onexit_function(&table, (_onexit_t)third) == 0, "register\n");
	/* Rule: the table runs last registered first, and is emptied */
	ok(_execute_onexit_table(&table) == 0 && norder == 3 && !memcmp(order, "321", 3), "order [%.*s]\n", norder,
	   order);
	norder = 0;
	ok(_execute_onexit_table(&table) == 0 && norder == 0, "a second run ran %d entries\n", norder);
}

static int signals_seen;

static void __cdecl on_segv(int sig)
{
	signals_seen += sig == SIGSEGV;
}

static void test_seh_filter(void)
{
	EXCEPTION_RECORD rec = { .ExceptionCode = EXCEPTION_ACCESS_VIOLATION };
	CONTEXT ctx;
	EXCEPTION_POINTERS ptrs = { &rec, &ctx };
	int r;

	/* Rule: without a C handler the exception goes on searching */
	r = _seh_filter_exe(EXCEPTION_ACCESS_VIOLATION, &ptrs);
	ok(r == EXCEPTION_CONTINUE_SEARCH, "no handler: %d\n", r);
	/* Rule: with one, it runs (reset to SIG_DFL first) and execution
	 * continues */
	signal(SIGSEGV, on_segv);
	r = _seh_filter_exe(EXCEPTION_ACCESS_VIOLATION, &ptrs);
	ok(r == EXCEPTION_CONTINUE_EXECUTION && signals_seen == 1, "handler: %d, seen %d\n", r, signals_seen);
	ok(signal(SIGSEGV, SIG_DFL) == SIG_DFL, "the handler was not reset\n");
	/* exceptions that map to no signal */
	rec.ExceptionCode = 0xe0001234;
	ok(_seh_filter_exe(0xe0001234, &ptrs) == EXCEPTION_CONTINUE_SEARCH, "other exception\n");
}

static void test_knobs(void)
{
	int mode = -1;

	ok(_configthreadlocale(0) == _DISABLE_PER_THREAD_LOCALE, "default %d\n", _configthreadlocale(0));
	ok(_configthreadlocale(_ENABLE_PER_THREAD_LOCALE) == _DISABLE_PER_THREAD_LOCALE, "set\n");
	ok(_configthreadlocale(0) == _ENABLE_PER_THREAD_LOCALE, "query after set\n");
	_configthreadlocale(_DISABLE_PER_THREAD_LOCALE);
	ok(_set_fmode(_O_BINARY) == 0 && _get_fmode(&mode) == 0 && mode == _O_BINARY, "fmode %#x\n", mode);
	ok(_set_fmode(_O_TEXT) == 0, "back to text\n");
}

static void __cdecl tls_exit_callback(void *module, DWORD reason, void *reserved)
{
	(void)module, (void)reserved;
	printf("thread_local callback, reason %lu\n", reason);
}

static void __cdecl at_exit(void)
{
	printf("atexit handler: must not run after quick_exit\n");
}

static void __cdecl at_quick(void)
{
	printf("at_quick_exit handler\n");
	fflush(stdout);
}

int main(void)
{
	test_onexit_table();
	test_seh_filter();
	test_knobs();
	ok(at_quick_exit(at_quick) == 0, "at_quick_exit\n");
	ok(atexit(at_exit) == 0, "atexit\n");
	/* Rule: the exe's thread_local callback runs at exit(), before the
	 * atexit list; quick_exit runs neither, only at_quick_exit handlers. */
	_register_thread_local_exe_atexit_callback((_tls_callback_type)tls_exit_callback);
	test_summary();
	fflush(stdout);
	quick_exit(5);
}
