/* processthreadsapi: threads, the current process, affinity, APCs. */
#include <sched.h>
#include <unistd.h>

#include "core/context.h"
#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/process.h"
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

/* The main thread of a child process (CreateProcess's hThread), with a
 * reference; NULL (last error untouched) for anything else. */
static struct object *get_child_thread(HANDLE h)
{
	DWORD err = GetLastError();
	struct object *obj = handle_get(h, &process_thread_ops);

	SetLastError(err);
	return obj;
}

BOOL WINAPI GetExitCodeThread(HANDLE h, LPDWORD code)
{
	struct object *ct = get_child_thread(h);
	struct thread *t;

	if (ct) {
		/* Its process's code: the main thread ends with the process. */
		BOOL ok = process_exit_code(process_thread_process(ct), code);

		object_unref(ct);
		return ok;
	}
	if (!(t = get_thread(h)))
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

struct find_thread {
	DWORD tid;
	struct thread *found; /* a reference */
};

static void find_thread(struct thread *t, void *ctx)
{
	struct find_thread *f = ctx;

	if (!f->found && t->tid == f->tid)
		f->found = to_thread(object_ref(&t->obj));
}

/* Threads not yet running (CREATE_SUSPENDED, or just created) are not
 * on the live list, but a handle holds them. */
static void find_thread_handle(HANDLE h, struct object *obj, DWORD access, void *ctx)
{
	(void)h;
	(void)access;
	if (obj->ops == &thread_ops)
		find_thread(to_thread(obj), ctx);
}

/* Threads of this process, by id; another process's threads are not
 * reachable (ERROR_INVALID_PARAMETER, as for an id nobody has). */
HANDLE WINAPI OpenThread(DWORD access, BOOL inherit, DWORD tid)
{
	struct find_thread f = { tid, NULL };
	HANDLE h;

	TRACE(thread, "tid %u, access %#x\n", (unsigned)tid, (unsigned)access);
	if (access & (MAXIMUM_ALLOWED | GENERIC_ALL))
		access = THREAD_ALL_ACCESS;
	if (tid) {
		thread_list_lock();
		thread_for_each(find_thread, &f);
		thread_list_unlock();
		if (!f.found)
			handle_for_each(0, find_thread_handle, &f);
	}
	if (!f.found) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	h = handle_create(&f.found->obj, access, inherit ? HANDLE_FLAG_INHERIT : 0);
	object_unref(&f.found->obj);
	return h;
}

/* Either query right will do; a child's main thread has the id
 * CreateProcess gave it. */
DWORD WINAPI GetThreadId(HANDLE h)
{
	DWORD access, id;
	struct object *ct;
	struct thread *t = NULL;

	if ((ct = get_child_thread(h)))
		id = (DWORD)process_thread_process(ct)->pid;
	else if ((t = get_thread(h)))
		id = t->tid;
	else
		return 0;
	if (ct)
		object_unref(ct);
	else
		object_unref(&t->obj);
	if (h != PSEUDO_HANDLE_CURRENT_THREAD && handle_get_info(h, &access, NULL) &&
	    !(access & (GENERIC_ALL | THREAD_QUERY_INFORMATION | THREAD_QUERY_LIMITED_INFORMATION))) {
		SetLastError(ERROR_ACCESS_DENIED);
		return 0;
	}
	return id;
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

DWORD WINAPI SuspendThread(HANDLE h)
{
	struct object *ct = get_child_thread(h);
	struct thread *t;
	DWORD prev;

	if (ct) {
		prev = process_thread_suspend(ct);
		object_unref(ct);
		return prev;
	}
	if (!(t = get_thread(h)))
		return (DWORD)-1;
	prev = thread_suspend(t);
	object_unref(&t->obj);
	return prev;
}

DWORD WINAPI ResumeThread(HANDLE h)
{
	struct object *ct = get_child_thread(h);
	struct thread *t;
	DWORD prev;

	if (ct) {
		prev = process_thread_resume(ct);
		object_unref(ct);
		return prev;
	}
	if (!(t = get_thread(h)))
		return (DWORD)-1;
	prev = thread_resume(t);
	object_unref(&t->obj);
	return prev;
}

/* The registers of a thread of another process (a child ndrun) are out
 * of reach. */
static bool other_process_thread(HANDLE h)
{
	struct object *ct = get_child_thread(h);

	if (!ct)
		return false;
	object_unref(ct);
	TRACE(thread, "%p: a thread of another process\n", h);
	SetLastError(ERROR_NOT_SUPPORTED);
	return true;
}

BOOL WINAPI GetThreadContext(HANDLE h, CONTEXT *ctx)
{
	struct thread *t;
	BOOL ok;

	TRACE(thread, "%p flags %#x\n", h, (unsigned)ctx->ContextFlags);
	if (other_process_thread(h) || !(t = get_thread(h)))
		return FALSE;
	if (t == thread_current()) {
		/* The caller's own registers, as they are in here. */
		CONTEXT now;

		RtlCaptureContext(&now);
		now.SegCs = 0x33;
		now.SegSs = now.SegDs = now.SegEs = now.SegGs = 0x2b;
		now.SegFs = 0x53;
		now.Dr0 = now.Dr1 = now.Dr2 = now.Dr3 = now.Dr6 = now.Dr7 = 0;
		context_copy_parts(ctx, &now, ctx->ContextFlags);
		ok = TRUE;
	} else {
		ok = thread_get_context(t, ctx);
	}
	object_unref(&t->obj);
	return ok;
}

BOOL WINAPI SetThreadContext(HANDLE h, const CONTEXT *ctx)
{
	struct thread *t;
	BOOL ok = FALSE;

	TRACE(thread, "%p flags %#x rip %#llx\n", h, (unsigned)ctx->ContextFlags, (unsigned long long)ctx->Rip);
	if (other_process_thread(h) || !(t = get_thread(h)))
		return FALSE;
	if (t == thread_current()) {
		CONTEXT now;

		/* Only a jump elsewhere makes sense on the calling thread:
		 * other registers alone would land back in here, changed. */
		if ((ctx->ContextFlags & CONTEXT_CONTROL) != CONTEXT_CONTROL) {
			SetLastError(ERROR_INVALID_PARAMETER);
		} else {
			RtlCaptureContext(&now);
			context_copy_parts(&now, ctx, ctx->ContextFlags);
			object_unref(&t->obj);
			RtlRestoreContext(&now, NULL);
		}
	} else {
		ok = thread_set_context(t, ctx);
	}
	object_unref(&t->obj);
	return ok;
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

/* The whole reserved range of the thread's stack: from the bottom of its
 * reservation (DeallocationStack, or the lowest address it may grow to)
 * up to StackBase. */
void WINAPI GetCurrentThreadStackLimits(PULONG_PTR low, PULONG_PTR high)
{
	TEB *teb = loader_current_teb();

	if (!teb)
		return;
	*low = (ULONG_PTR)(teb->DeallocationStack ? teb->DeallocationStack : teb->Tib.StackLimit);
	*high = (ULONG_PTR)teb->Tib.StackBase;
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
