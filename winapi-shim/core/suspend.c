/* SuspendThread/ResumeThread and Get/SetThreadContext on other threads.
 *
 * A thread held at its start gate (CREATE_SUSPENDED, never resumed) has
 * only a count.  A started thread is stopped by a signal: the suspender
 * raises the count from 0, marks the thread PARK_REQUESTED and sends it
 * SIG_SUSPEND; the thread's handler publishes the ucontext of the point
 * it was interrupted at, turns the mark to PARK_PARKED and sleeps on it
 * until the count is back at 0.  While it sleeps, that ucontext (in its
 * signal frame) is its register state: GetThreadContext reads it,
 * SetThreadContext writes it, and the kernel resumes the thread from it
 * when the handler returns.  The handler only uses atomics and futexes.
 *
 * Like Windows, which stops a thread anywhere in user mode, a thread may
 * park inside ndrun's code holding a lock of its own; locks over what
 * Windows keeps in its kernel (core/klock.h: handles, waits, ports, ...)
 * are the exception: a thread parks only once it has let go of all of
 * them (suspend_hold/suspend_allow), so the rest of the process, and the
 * suspender itself, go on.  Get/SetThreadContext stop a thread with a
 * hold of their own (context_holds), which the program's suspend count
 * does not show. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/context.h"
#include "core/debug.h"
#include "core/eflags.h"
#include "core/futex.h"
#include "core/klock.h"
#include "core/thread.h"
#include "core/wait.h"

enum { PARK_NONE, PARK_REQUESTED, PARK_PARKED };

static pthread_mutex_t suspend_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int sig_suspend;

static __thread struct thread *self;
__thread unsigned int suspend_hold_depth;
__thread volatile sig_atomic_t suspend_deferred;

static void send_suspend(struct thread *t)
{
	syscall(SYS_tgkill, getpid(), t->tid, sig_suspend);
}

static void park(struct thread *t, ucontext_t *uc)
{
	uint32_t expect = PARK_REQUESTED;

	t->parked_uc = uc;
	/* A ResumeThread that came first turned the request back. */
	if (!atomic_compare_exchange_strong(&t->park, &expect, PARK_PARKED))
		return;
	futex_wake_all(&t->park);
	while (atomic_load(&t->park) == PARK_PARKED)
		futex_wait(&t->park, PARK_PARKED, NULL);
}

static void suspend_handler(int sig, siginfo_t *si, void *uc)
{
	struct thread *t = self;
	int saved_errno = errno;

	host_clear_ac(); /* the program may have set it */
	(void)sig;
	(void)si;
	if (t) {
		if (suspend_hold_depth)
			suspend_deferred = 1;
		else
			park(t, uc);
	}
	errno = saved_errno;
}

/* suspend_allow (klock.h) let go of the last kernel lock with a
 * suspension deferred. */
void __attribute__((ms_abi, noinline)) suspend_park_deferred(void)
{
	suspend_deferred = 0;
	/* Park now, through the handler, for a ucontext to show. */
	raise(sig_suspend);
}

static void suspend_init(void)
{
	struct sigaction sa;

	/* glibc keeps the first real-time signals for itself; ndrun uses no
	 * other. */
	sig_suspend = SIGRTMIN + 6;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = suspend_handler;
	/* Interrupted system calls resume; on the signal stack, should the
	 * thread be short of its own. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig_suspend, &sa, NULL) < 0)
		ndrun_error("cannot install the thread suspension signal: %s", strerror(errno));
}

void suspend_thread_attach(struct thread *t)
{
	pthread_once(&init_once, suspend_init);
	self = t;
}

void suspend_thread_detach(void)
{
	self = NULL;
}

static bool is_started(struct thread *t)
{
	return __atomic_load_n(&t->started, __ATOMIC_ACQUIRE);
}

static bool is_finished(struct thread *t)
{
	return __atomic_load_n(&t->finished, __ATOMIC_ACQUIRE);
}

/* Until t is parked: false if it ended first (or was resumed meanwhile). */
static bool wait_parked(struct thread *t)
{
	struct timespec deadline;
	uint32_t state;

	while ((state = atomic_load(&t->park)) == PARK_REQUESTED) {
		if (is_finished(t))
			return false;
		/* A thread that ends with the signal pending never answers:
		 * look at it again now and then. */
		deadline_after_ms(&deadline, 20);
		futex_wait(&t->park, PARK_REQUESTED, &deadline);
	}
	return state == PARK_PARKED;
}

/* CREATE_SUSPENDED threads not yet past their start gate: the count
 * alone, under the wait lock the gate sleeps with.  Returns false when
 * the thread has started meanwhile. */
static bool gate_suspend(struct thread *t, DWORD *prev)
{
	bool held;

	wait_lock();
	held = !t->started;
	if (held) {
		*prev = t->suspend_count;
		if (*prev < MAXIMUM_SUSPEND_COUNT)
			t->suspend_count++;
		else
			*prev = (DWORD)-1;
	}
	wait_unlock();
	return held;
}

static bool gate_resume(struct thread *t, DWORD *prev)
{
	bool held;

	wait_lock();
	held = !t->started;
	if (held) {
		*prev = t->suspend_count;
		if (*prev && !--t->suspend_count)
			futex_wake(&t->suspend_count, 1);
	}
	wait_unlock();
	return held;
}

/* Suspend lock held: one more reason for t to stop (the program's count
 * or a context access).  True when the caller must send the signal. */
static bool hold_locked(struct thread *t)
{
	if (t->suspend_count + t->context_holds++)
		return false;
	atomic_store(&t->park, PARK_REQUESTED);
	return true;
}

static void release_locked(struct thread *t)
{
	if (--t->context_holds + t->suspend_count)
		return;
	atomic_store(&t->park, PARK_NONE);
	futex_wake_all(&t->park);
}

DWORD thread_suspend(struct thread *t)
{
	DWORD prev;
	bool signal;

	if (!is_started(t) && gate_suspend(t, &prev)) {
		if (prev == (DWORD)-1)
			SetLastError(ERROR_SIGNAL_REFUSED);
		return prev;
	}
	klock(&suspend_lock);
	if (is_finished(t)) {
		kunlock(&suspend_lock);
		SetLastError(ERROR_ACCESS_DENIED);
		return (DWORD)-1;
	}
	prev = t->suspend_count;
	if (prev >= MAXIMUM_SUSPEND_COUNT) {
		kunlock(&suspend_lock);
		SetLastError(ERROR_SIGNAL_REFUSED);
		return (DWORD)-1;
	}
	/* The count is the program's: a context access in progress holds
	 * the thread without showing in it. */
	signal = hold_locked(t);
	t->context_holds--;
	t->suspend_count++;
	kunlock(&suspend_lock);
	TRACE(thread, "%04x: suspend count was %u\n", t->tid, prev);
	/* Outside the lock: a thread suspending itself parks right here. */
	if (signal)
		send_suspend(t);
	/* On return the thread is stopped, as GetThreadContext expects. */
	if (t != self)
		wait_parked(t);
	return prev;
}

DWORD thread_resume(struct thread *t)
{
	DWORD prev;

	if (!is_started(t) && gate_resume(t, &prev))
		return prev;
	klock(&suspend_lock);
	prev = t->suspend_count;
	if (prev) {
		t->context_holds++;
		t->suspend_count--;
		release_locked(t);
	}
	kunlock(&suspend_lock);
	TRACE(thread, "%04x: suspend count was %u\n", t->tid, prev);
	return prev;
}

/* Runs fn on t's parked ucontext; a thread the program has not
 * suspended is stopped for the while. */
static BOOL with_parked(struct thread *t, void (*fn)(ucontext_t *uc, void *arg), void *arg)
{
	BOOL ok = FALSE;
	bool signal;

	if (t == self) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!is_started(t)) {
		/* Held at its start gate, it has no registers of its own yet:
		 * Windows shows the start routine's stub there. */
		ndrun_error("Get/SetThreadContext on thread %04x, which has not started, is not supported",
			    t->tid);
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	klock(&suspend_lock);
	if (is_finished(t)) {
		kunlock(&suspend_lock);
		SetLastError(ERROR_ACCESS_DENIED);
		return FALSE;
	}
	signal = hold_locked(t);
	kunlock(&suspend_lock);
	if (signal)
		send_suspend(t);
	wait_parked(t);
	/* Parked unless it ended first; it stays parked while we hold it. */
	klock(&suspend_lock);
	if (atomic_load(&t->park) == PARK_PARKED) {
		fn(t->parked_uc, arg);
		ok = TRUE;
	}
	release_locked(t);
	kunlock(&suspend_lock);
	if (!ok)
		SetLastError(ERROR_ACCESS_DENIED);
	return ok;
}

static void read_context(ucontext_t *uc, void *arg)
{
	CONTEXT *ctx = arg;

	context_from_ucontext(uc, ctx, ctx->ContextFlags);
}

static void write_context(ucontext_t *uc, void *arg)
{
	context_to_ucontext(arg, uc);
}

BOOL thread_get_context(struct thread *t, CONTEXT *ctx)
{
	return with_parked(t, read_context, ctx);
}

BOOL thread_set_context(struct thread *t, const CONTEXT *ctx)
{
	return with_parked(t, write_context, (void *)ctx);
}
