/* Initialisers, the onexit table and the ways out of the process. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/pecall.h"
#include "core/startup.h"

/* _onexit/atexit entries run in reverse order at exit() or _cexit(). */
static pthread_mutex_t onexit_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static crt_onexit_t *onexit_table;
static size_t onexit_count, onexit_size;

void __cdecl crt__initterm(crt_pvfv *start, crt_pvfv *end)
{
	for (; start < end; start++)
		if (*start)
			PE_CALL0(*start);
}

int __cdecl crt__initterm_e(crt_pifv *start, crt_pifv *end)
{
	for (; start < end; start++) {
		if (*start) {
			int r = (int)PE_CALL0(*start);
			if (r)
				return r;
		}
	}
	return 0;
}

crt_onexit_t __cdecl crt__onexit(crt_onexit_t func)
{
	if (!func)
		return NULL;
	pthread_mutex_lock(&onexit_lock);
	if (onexit_count == onexit_size) {
		size_t size = onexit_size ? onexit_size * 2 : 32;
		crt_onexit_t *t = realloc(onexit_table, size * sizeof(*t));
		if (!t) {
			pthread_mutex_unlock(&onexit_lock);
			return NULL;
		}
		onexit_table = t;
		onexit_size = size;
	}
	onexit_table[onexit_count++] = func;
	pthread_mutex_unlock(&onexit_lock);
	return func;
}

/* atexit's void(void) has the same ms_abi call shape as _onexit's
 * int(void); the result is ignored. */
int __cdecl crt_atexit(crt_pvfv func)
{
	return crt__onexit((crt_onexit_t)func) ? 0 : -1;
}

/* A DLL's private onexit table: [*start, *end) grown with the CRT heap. */
crt_onexit_t __cdecl crt___dllonexit(crt_onexit_t func, crt_onexit_t **start, crt_onexit_t **end)
{
	if (!func || !start || !end)
		return NULL;
	size_t n = *end - *start;
	crt_onexit_t *t = realloc(*start, (n + 1) * sizeof(*t));
	if (!t)
		return NULL;
	t[n] = func;
	*start = t;
	*end = t + n + 1;
	return func;
}

/* The UCRT's hook for the exe's thread_local destructors: a TLS
 * callback, called once with DLL_PROCESS_DETACH before the atexit list. */
typedef void(WINAPI *crt_tls_callback)(void *module, DWORD reason, void *reserved);
static crt_tls_callback tls_exit_callback;

void __cdecl crt__register_thread_local_exe_atexit_callback(void *callback)
{
	tls_exit_callback = (crt_tls_callback)callback;
}

/* Handlers may register more handlers; each entry runs once. */
void crt_run_exit_handlers(void)
{
	crt_tls_callback tls = __atomic_exchange_n(&tls_exit_callback, NULL, __ATOMIC_SEQ_CST);

	if (tls)
		PE_CALL3(tls, NULL, DLL_PROCESS_DETACH, NULL);
	pthread_mutex_lock(&onexit_lock);
	while (onexit_count) {
		crt_onexit_t f = onexit_table[--onexit_count];
		pthread_mutex_unlock(&onexit_lock);
		PE_CALL0(f);
		pthread_mutex_lock(&onexit_lock);
	}
	pthread_mutex_unlock(&onexit_lock);
}

void __cdecl crt__cexit(void)
{
	crt_run_exit_handlers();
	crt_flush_all_streams();
}

void __cdecl crt__c_exit(void)
{
	crt_flush_all_streams();
}

void __cdecl crt_exit(int code)
{
	TRACE(msvcrt, "exit %d\n", code);
	crt__cexit();
	ExitProcess(code);
}

/* No handlers, no DLL detach, no stdio flush: like msvcrt's _exit. */
void __cdecl crt__exit(int code)
{
	startup_record_exit((UINT)code);
	_exit(code);
}

void __cdecl crt__amsg_exit(int code)
{
	static const char msg[] = "runtime error: the C runtime stopped the program (_amsg_exit)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing left to report to */
	}
	startup_record_exit(255);
	_exit(255);
}

/* msvcrt's abort: raise SIGABRT (a handler may longjmp out), then exit
 * with code 3 without running atexit handlers. */
void __cdecl crt_abort(void)
{
	crt_raise(CRT_SIGABRT);
	_exit(3);
}
