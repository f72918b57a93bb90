/* processthreadsapi: threads, the current process, affinity, APCs. */
#include <sched.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/thread.h"
#include "core/wait.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

HANDLE WINAPI CreateThread(LPSECURITY_ATTRIBUTES sa, SIZE_T stack, LPTHREAD_START_ROUTINE start,
			   LPVOID arg, DWORD flags, LPDWORD tid)
{
	struct thread *t;
	HANDLE h;

	if (!start) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	t = thread_create(stack, start, arg, flags, tid);
	if (!t)
		return NULL;
	h = handle_create(&t->obj, THREAD_ALL_ACCESS,
			  sa && sa->bInheritHandle ? HANDLE_FLAG_INHERIT : 0);
	if (!h && (flags & CREATE_SUSPENDED)) {
		/* Without a handle nobody could resume it: release it
		 * rather than leave it held forever. */
		wait_lock();
		t->suspend_count = 0;
		futex_wake(&t->suspend_count, 1);
		wait_unlock();
	}
	object_unref(&t->obj);
	return h;
}

void WINAPI ExitThread(DWORD code)
{
	thread_exit(code);
}

/* The thread object behind h, with a reference. */
static struct thread *get_thread(HANDLE h)
{
	struct object *obj = handle_get(h, &thread_ops);

	return obj ? to_thread(obj) : NULL;
}

BOOL WINAPI GetExitCodeThread(HANDLE h, LPDWORD code)
{
	struct thread *t = get_thread(h);

	if (!t)
		return FALSE;
	wait_lock();
	*code = t->exit_code;
	wait_unlock();
	object_unref(&t->obj);
	return TRUE;
}

HANDLE WINAPI GetCurrentThread(void)
{
	return PSEUDO_HANDLE_CURRENT_THREAD;
}

DWORD WINAPI GetCurrentThreadId(void)
{
	return thread_current_id();
}

HANDLE WINAPI GetCurrentProcess(void)
{
	return PSEUDO_HANDLE_CURRENT_PROCESS;
}

DWORD WINAPI GetCurrentProcessId(void)
{
	return (DWORD)getpid();
}

static bool valid_priority(int p)
{
	return (p >= THREAD_PRIORITY_LOWEST && p <= THREAD_PRIORITY_HIGHEST) ||
	       p == THREAD_PRIORITY_IDLE || p == THREAD_PRIORITY_TIME_CRITICAL;
}

/* Recorded only: Linux would need privileges to raise priorities. */
BOOL WINAPI SetThreadPriority(HANDLE h, INT priority)
{
	struct thread *t;

	TRACE(thread, "%p, %d\n", h, priority);
	if (!valid_priority(priority)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	t = get_thread(h);
	if (!t)
		return FALSE;
	__atomic_store_n(&t->priority, priority, __ATOMIC_RELAXED);
	object_unref(&t->obj);
	return TRUE;
}

INT WINAPI GetThreadPriority(HANDLE h)
{
	struct thread *t = get_thread(h);
	int p;

	if (!t)
		return THREAD_PRIORITY_ERROR_RETURN;
	p = __atomic_load_n(&t->priority, __ATOMIC_RELAXED);
	object_unref(&t->obj);
	return p;
}

BOOL WINAPI SwitchToThread(void)
{
	/* Linux does not say whether another thread ran; sched_yield
	 * succeeding is the nearest answer. */
	return sched_yield() == 0;
}

DWORD WINAPI GetCurrentProcessorNumber(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (DWORD)cpu;
}

VOID WINAPI GetCurrentProcessorNumberEx(PPROCESSOR_NUMBER number)
{
	number->Group = 0;
	number->Number = (BYTE)GetCurrentProcessorNumber();
	number->Reserved = 0;
}

/* CREATE_SUSPENDED threads only: a thread held at its start gate can be
 * suspended further and resumed; a running one cannot be stopped. */
DWORD WINAPI SuspendThread(HANDLE h)
{
	struct thread *t = get_thread(h);
	DWORD prev = (DWORD)-1;

	if (!t)
		return (DWORD)-1;
	wait_lock();
	if (!t->started && t->suspend_count < MAXIMUM_SUSPEND_COUNT)
		prev = t->suspend_count++;
	wait_unlock();
	if (prev == (DWORD)-1) {
		TRACE(thread, "%04x is running: suspending it is not supported\n", t->tid);
		SetLastError(ERROR_NOT_SUPPORTED);
	}
	object_unref(&t->obj);
	return prev;
}

DWORD WINAPI ResumeThread(HANDLE h)
{
	struct thread *t = get_thread(h);
	DWORD prev;

	if (!t)
		return (DWORD)-1;
	wait_lock();
	prev = t->suspend_count;
	if (prev && !--t->suspend_count)
		futex_wake(&t->suspend_count, 1);
	wait_unlock();
	TRACE(thread, "%04x: suspend count was %u\n", t->tid, prev);
	object_unref(&t->obj);
	return prev;
}

DWORD WINAPI QueueUserAPC(PAPCFUNC fn, HANDLE h, ULONG_PTR data)
{
	struct thread *t = get_thread(h);
	bool ok;

	if (!t)
		return 0;
	ok = apc_queue(t, fn, data);
	object_unref(&t->obj);
	return ok;
}

/* The guarantee lives in the TEB (GuaranteedStackBytes), where the
 * stack-overflow path can read it; it only grows, rounded up to whole
 * pages, and never past the thread's reserved stack. */
BOOL WINAPI SetThreadStackGuarantee(PULONG size)
{
	TEB *teb = loader_current_teb();
	ULONG page = (ULONG)sysconf(_SC_PAGESIZE), want, prev;
	char *bottom;
	SIZE_T reserved;

	if (!teb || !size) {
		SetLastError(!size ? ERROR_INVALID_PARAMETER : ERROR_INVALID_FUNCTION);
		return FALSE;
	}
	prev = teb->GuaranteedStackBytes;
	want = *size;
	TRACE(thread, "%u (was %u)\n", want, prev);
	bottom = teb->DeallocationStack ? teb->DeallocationStack : teb->Tib.StackLimit;
	reserved = (char *)teb->Tib.StackBase - bottom;
	if (want > reserved) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	want = (want + page - 1) & ~(page - 1);
	if (want > prev)
		teb->GuaranteedStackBytes = want;
	*size = prev;
	return TRUE;
}
