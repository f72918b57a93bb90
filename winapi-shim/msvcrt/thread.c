/* _beginthreadex/_endthreadex over kernel32's threads.  The CRT keeps no
 * per-thread block of its own (errno lives in host TLS), so the start
 * routine is handed to CreateThread through a small trampoline only to
 * call _endthreadex with its result, as msvcrt does. */
#include <errno.h>
#include <stdlib.h>

#include "msvcrt/msvcrt_private.h"
#include "core/pecall.h"

struct start_args {
	crt_thread_proc proc;
	void *arg;
};

static DWORD WINAPI thread_start(void *p)
{
	struct start_args a = *(struct start_args *)p;
	free(p);
	crt__endthreadex((unsigned int)PE_CALL1(a.proc, a.arg));
}

uintptr_t __cdecl crt__beginthreadex(void *security, unsigned int stack_size, crt_thread_proc proc,
				     void *arg, unsigned int flags, unsigned int *thread_id)
{
	if (!proc) {
		crt_set_errno(EINVAL);
		return 0;
	}
	struct start_args *a = malloc(sizeof(*a));
	if (!a) {
		crt_set_errno(ENOMEM);
		return 0;
	}
	a->proc = proc;
	a->arg = arg;
	DWORD tid;
	HANDLE h = CreateThread(security, stack_size, thread_start, a, flags, &tid);
	if (!h) {
		free(a);
		crt_set_errno(EAGAIN);
		return 0;
	}
	if (thread_id)
		*thread_id = tid;
	return (uintptr_t)h;
}

void __cdecl crt__endthreadex(unsigned int code)
{
	ExitThread(code);
}

/* _beginthread: the thread's handle closes itself when the thread ends
 * (_endthread, or its routine returning), so the value returned may be
 * stale by then, as documented; -1 and errno on failure. */
struct begin_args {
	void(__cdecl *proc)(void *);
	void *arg;
	HANDLE self;
};

static __thread HANDLE own_handle;

static DWORD WINAPI begin_start(void *p)
{
	struct begin_args a = *(struct begin_args *)p;

	free(p);
	own_handle = a.self;
	PE_CALL1(a.proc, a.arg);
	crt__endthread();
}

uintptr_t __cdecl crt__beginthread(void(__cdecl *proc)(void *), unsigned int stack_size, void *arg)
{
	struct begin_args *a;
	HANDLE h;

	if (!proc) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return (uintptr_t)-1;
	}
	if (!(a = malloc(sizeof(*a)))) {
		crt_set_errno(EAGAIN);
		return (uintptr_t)-1;
	}
	a->proc = proc;
	a->arg = arg;
	h = CreateThread(NULL, stack_size, begin_start, a, CREATE_SUSPENDED, NULL);
	if (!h) {
		free(a);
		crt_set_errno(EAGAIN);
		return (uintptr_t)-1;
	}
	a->self = h;
	ResumeThread(h);
	return (uintptr_t)h;
}

void __cdecl crt__endthread(void)
{
	if (own_handle)
		CloseHandle(own_handle);
	own_handle = NULL;
	ExitThread(0);
}
