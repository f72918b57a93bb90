/* ucrtbase's start-up and exit entry points.  The UCRT splits msvcrt's
 * __getmainargs into _configure_*_argv and _initialize_*_environment, and
 * leaves the exe's and each DLL's onexit tables to the program's own
 * start-up code (_initialize_onexit_table and friends); the process-wide
 * atexit list is msvcrt's (exit.c). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/pecall.h"

int __cdecl ucrt__configure_narrow_argv(int mode)
{
	crt_startup_init();
	return crt___argv ? 0 : ENOMEM;
}

int __cdecl ucrt__configure_wide_argv(int mode)
{
	crt_startup_init();
	return crt___wargv ? 0 : ENOMEM;
}

int __cdecl ucrt__initialize_narrow_environment(void)
{
	crt_startup_init();
	return crt__environ ? 0 : -1;
}

int __cdecl ucrt__initialize_wide_environment(void)
{
	crt_startup_init();
	return crt__wenviron ? 0 : -1;
}

char **__cdecl ucrt__get_initial_narrow_environment(void)
{
	crt_startup_init();
	return crt___initenv;
}

WCHAR **__cdecl ucrt__get_initial_wide_environment(void)
{
	crt_startup_init();
	return crt___winitenv;
}

void __cdecl ucrt__set_app_type(int type)
{
	crt___set_app_type(type);
}

/* One translation mode, nothing else. */
int __cdecl ucrt__set_fmode(int mode)
{
	if (mode != CRT_O_TEXT && mode != CRT_O_BINARY && mode != CRT_O_WTEXT && mode != CRT_O_U16TEXT &&
	    mode != CRT_O_U8TEXT) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	crt__fmode = mode;
	return 0;
}

int __cdecl ucrt__get_fmode(int *mode)
{
	if (!mode) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	*mode = crt__fmode;
	return 0;
}

/* malloc never calls the new handler here: the mode is only remembered. */
static int new_mode;

int __cdecl ucrt__set_new_mode(int mode)
{
	if (mode != 0 && mode != 1)
		return crt_invalid_arg();
	return __atomic_exchange_n(&new_mode, mode, __ATOMIC_SEQ_CST);
}

/* The CRT has one locale, "C" (see locale.c), so per-thread locales
 * only change what this reports: _ENABLE_PER_THREAD_LOCALE (1) or
 * _DISABLE_PER_THREAD_LOCALE (2); 0 queries, -1 resets to the default. */
static __thread int thread_locale_mode = 2;

int __cdecl ucrt__configthreadlocale(int mode)
{
	int old = thread_locale_mode;

	switch (mode) {
	case 0:
		break;
	case 1:
	case 2:
		thread_locale_mode = mode;
		break;
	case -1:
		thread_locale_mode = 2;
		break;
	default:
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return -1;
	}
	return old;
}

int __cdecl ucrt__crt_atexit(crt_pvfv func)
{
	return crt_atexit(func);
}

/* at_quick_exit handlers: their own list, run by quick_exit only. */
static pthread_mutex_t quick_lock = PTHREAD_MUTEX_INITIALIZER;
static crt_onexit_table quick_table;

int __cdecl ucrt__crt_at_quick_exit(crt_pvfv func)
{
	pthread_mutex_lock(&quick_lock);
	int r = ucrt__register_onexit_function(&quick_table, func);
	pthread_mutex_unlock(&quick_lock);
	return r;
}

void __cdecl ucrt_quick_exit(int code)
{
	ucrt__execute_onexit_table(&quick_table);
	crt__exit(code);
}

int __cdecl ucrt__initialize_onexit_table(crt_onexit_table *table)
{
	if (!table)
		return -1;
	if (table->first == table->end)
		table->first = table->last = table->end = NULL;
	return 0;
}

/* The table's storage comes from the CRT heap, as the program's own
 * start-up code (which may also free it) expects. */
int __cdecl ucrt__register_onexit_function(crt_onexit_table *table, crt_pvfv func)
{
	if (!table)
		return -1;
	if (table->last == table->end) {
		size_t n = table->end - table->first, size = n ? n * 2 : 32;
		crt_pvfv *t = crt_realloc(table->first, size * sizeof(*t));
		if (!t)
			return -1;
		table->first = t;
		table->last = t + n;
		table->end = t + size;
	}
	*table->last++ = func;
	return 0;
}

/* Entries run last registered first; the table is emptied first, so a
 * handler that registers another starts a new table. */
int __cdecl ucrt__execute_onexit_table(crt_onexit_table *table)
{
	crt_pvfv *first, *last;

	if (!table)
		return -1;
	first = table->first;
	last = table->last;
	table->first = table->last = table->end = NULL;
	while (last > first) {
		crt_pvfv f = *--last;
		if (f)
			PE_CALL0(f);
	}
	crt_free(first);
	return 0;
}

/* The filter around the exe's main: an exception that a C signal handler
 * is registered for (SIGSEGV, SIGILL, SIGFPE) runs that handler, reset to
 * SIG_DFL first as raise() does, and execution continues; SIG_IGN
 * continues too; anything else goes on to the next handler. */
int __cdecl ucrt__seh_filter_exe(DWORD code, EXCEPTION_POINTERS *ptrs)
{
	crt_sighandler_t h;
	int sig;

	switch (code) {
	case EXCEPTION_ACCESS_VIOLATION:
		sig = CRT_SIGSEGV;
		break;
	case EXCEPTION_ILLEGAL_INSTRUCTION:
	case EXCEPTION_PRIV_INSTRUCTION:
		sig = CRT_SIGILL;
		break;
	case EXCEPTION_FLT_DENORMAL_OPERAND:
	case EXCEPTION_FLT_DIVIDE_BY_ZERO:
	case EXCEPTION_FLT_INEXACT_RESULT:
	case EXCEPTION_FLT_INVALID_OPERATION:
	case EXCEPTION_FLT_OVERFLOW:
	case EXCEPTION_FLT_STACK_CHECK:
	case EXCEPTION_FLT_UNDERFLOW:
		sig = CRT_SIGFPE;
		break;
	default:
		return EXCEPTION_CONTINUE_SEARCH;
	}
	h = crt_signal(sig, CRT_SIG_DFL);
	if (h == CRT_SIG_DFL || h == CRT_SIG_ERR)
		return EXCEPTION_CONTINUE_SEARCH;
	if (h == CRT_SIG_IGN) {
		crt_signal(sig, CRT_SIG_IGN);
		return EXCEPTION_CONTINUE_EXECUTION;
	}
	TRACE(msvcrt, "exception %#lx -> signal %d handler %p\n", (unsigned long)code, sig, (void *)h);
	PE_CALL1(h, sig);
	return EXCEPTION_CONTINUE_EXECUTION;
}

int __cdecl ucrt__seh_filter_dll(DWORD code, EXCEPTION_POINTERS *ptrs)
{
	return ucrt__seh_filter_exe(code, ptrs);
}

/* No set_terminate here: terminate ends the process as abort does. */
void __cdecl ucrt_terminate(void)
{
	crt_abort();
}
