#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/klock.h"
#include "core/thread.h"
#include "core/wait.h"
#include "loader.h"

#define MIN_STACK_SIZE (1u << 20)

static __thread struct thread *current;
static __thread DWORD current_tid;

static struct list live_threads = LIST_INIT(live_threads);
static pthread_mutex_t live_threads_lock = PTHREAD_MUTEX_INITIALIZER;

struct thread *thread_current(void)
{
	return current;
}

DWORD thread_current_id(void)
{
	if (!current_tid)
		current_tid = (DWORD)syscall(SYS_gettid);
	return current_tid;
}

void thread_list_lock(void)
{
	klock(&live_threads_lock);
}

void thread_list_unlock(void)
{
	kunlock(&live_threads_lock);
}

void thread_for_each(void (*fn)(struct thread *t, void *ctx), void *ctx)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &live_threads)
		fn(LIST_ENTRY(cur, struct thread, entry), ctx);
}

void thread_for_each_teb(void (*fn)(TEB *teb, void *ctx), void *ctx)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &live_threads) {
		struct thread *t = LIST_ENTRY(cur, struct thread, entry);

		if (t->teb)
			fn(t->teb, ctx);
	}
}

static bool thread_signaled(struct object *obj, unsigned int tid)
{
	return to_thread(obj)->finished;
}

static bool thread_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

static void thread_destroy(struct object *obj)
{
	struct thread *t = to_thread(obj);

	free(t->fls);
	free(t);
}

const struct object_ops thread_ops = {
	.type_name = "thread",
	.signaled = thread_signaled,
	.satisfied = thread_satisfied,
	.destroy = thread_destroy,
};

static struct object *current_thread_object(void)
{
	return current ? object_ref(&current->obj) : NULL;
}

static struct thread *thread_alloc(void)
{
	struct thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	object_init(&t->obj, &thread_ops);
	t->exit_code = STILL_ACTIVE;
	list_init(&t->apcs);
	list_init(&t->entry);
	return t;
}

/* The calling thread becomes t: its id in the TEB, listed as live. */
static void thread_attach_self(struct thread *t, TEB *teb)
{
	current = t;
	t->teb = teb;
	if (teb) {
		teb->ClientId.UniqueThread = (HANDLE)(ULONG_PTR)t->tid;
		teb->ClientId.UniqueProcess = (HANDLE)(ULONG_PTR)getpid();
	}
	thread_list_lock();
	list_add_tail(&live_threads, &t->entry);
	thread_list_unlock();
}

void thread_init_main(void)
{
	struct thread *t;

	if (current)
		return;
	t = thread_alloc();
	if (!t) {
		ndrun_error("out of memory creating the main thread");
		abort();
	}
	t->tid = thread_current_id();
	t->started = true;
	suspend_thread_attach(t);
	/* The main thread's object lives as long as the process. */
	thread_attach_self(t, loader_current_teb());
	handle_current_thread_object = current_thread_object;
	TRACE(thread, "main thread %04x\n", t->tid);
}

void thread_fini_main(void)
{
	struct thread *t = current;

	if (!t)
		return;
	thread_list_lock();
	if (t->teb) {
		free(t->teb->TlsExpansionSlots);
		t->teb->TlsExpansionSlots = NULL;
	}
	t->teb = NULL;
	list_remove(&t->entry);
	thread_list_unlock();
}

DWORD thread_run(LPTHREAD_START_ROUTINE fn, void *arg)
{
	struct thread *t = current;

	if (sigsetjmp(t->exit_point, 0)) {
		t->has_exit_point = false;
		return t->pending_exit_code;
	}
	t->has_exit_point = true;
	t->pending_exit_code = (DWORD)loader_call_pe((void *)fn, (uintptr_t)arg, 0, 0);
	t->has_exit_point = false;
	return t->pending_exit_code;
}

void thread_exit(DWORD code)
{
	struct thread *t = current;

	TRACE(thread, "%04x exits with %u\n", thread_current_id(), code);
	if (t && t->has_exit_point) {
		t->pending_exit_code = code;
		siglongjmp(t->exit_point, 1);
	}
	/* Only the main thread runs PE code without an exit point; leaving
	 * it would leave the process too. */
	loader_exit_process(code);
}

static void free_tls_expansion(TEB *teb, void *ctx)
{
	if (teb == ctx) {
		free(teb->TlsExpansionSlots);
		teb->TlsExpansionSlots = NULL;
	}
}

static ULONGLONG now_filetime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (ULONGLONG)ts.tv_sec * 10000000ull + ts.tv_nsec / 100 + 116444736000000000ull;
}

/* The thread's CPU times as it ends, for GetThreadTimes afterwards. */
static void record_exit_times(struct thread *t)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_THREAD, &ru)) {
		t->user_time = (ULONGLONG)ru.ru_utime.tv_sec * 10000000ull + ru.ru_utime.tv_usec * 10ull;
		t->kernel_time = (ULONGLONG)ru.ru_stime.tv_sec * 10000000ull + ru.ru_stime.tv_usec * 10ull;
	}
	t->exited_time = now_filetime();
}

static void thread_finish(struct thread *t, DWORD code)
{
	record_exit_times(t);
	iocp_thread_exit();
	loader_thread_detach();
	fls_thread_exit(t);
	mutex_abandon_owned(t->tid);
	thread_list_lock();
	free_tls_expansion(t->teb, t->teb);
	list_remove(&t->entry);
	thread_list_unlock();
	loader_thread_exit();
	t->teb = NULL;

	wait_lock();
	t->exit_code = code;
	t->finished = true;
	apc_discard(t);
	wait_wake_object(&t->obj);
	wait_unlock();
	TRACE(thread, "%04x finished with %u\n", t->tid, code);
	suspend_thread_detach();
	current = NULL;
	object_unref(&t->obj);
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	pthread_attr_t attr;
	size_t size = 0;
	void *addr = NULL;
	TEB *teb;

	suspend_thread_attach(t);
	t->created_time = now_filetime();
	/* CREATE_SUSPENDED: held here until ResumeThread. */
	wait_lock();
	t->tid = thread_current_id();
	futex_wake(&t->tid, 1);
	while (t->suspend_count) {
		DWORD n = t->suspend_count;

		wait_unlock();
		futex_wait(&t->suspend_count, n, NULL);
		wait_lock();
	}
	t->started = true;
	wait_unlock();

	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
	}
	teb = loader_thread_init((char *)addr + size, addr);
	if (!teb) {
		ndrun_error("thread %04x: cannot set up its TEB", t->tid);
		abort();
	}
	thread_attach_self(t, teb);
	loader_thread_attach();
	thread_finish(t, thread_run(t->start, t->arg));
	return NULL;
}

struct thread *thread_create(SIZE_T stack_size, LPTHREAD_START_ROUTINE start, void *arg,
			     DWORD flags, DWORD *tid)
{
	long page = sysconf(_SC_PAGESIZE);
	pthread_attr_t attr;
	pthread_t pt;
	struct thread *t;
	int err;

	t = thread_alloc();
	if (!t) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	t->start = start;
	t->arg = arg;
	t->suspend_count = (flags & CREATE_SUSPENDED) ? 1 : 0;
	if (stack_size < MIN_STACK_SIZE)
		stack_size = MIN_STACK_SIZE;
	stack_size = (stack_size + page - 1) & ~(SIZE_T)(page - 1);

	/* The running thread holds its own reference until it finishes. */
	object_ref(&t->obj);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_attr_setstacksize(&attr, stack_size);
	if (!err)
		err = pthread_create(&pt, &attr, thread_main, t);
	pthread_attr_destroy(&attr);
	if (err) {
		TRACE(thread, "pthread_create: %s\n", strerror(err));
		object_unref(&t->obj);
		object_unref(&t->obj);
		SetLastError(err == EAGAIN ? ERROR_NOT_ENOUGH_MEMORY : ERROR_INVALID_PARAMETER);
		return NULL;
	}
	/* CreateThread returns the id, which only the new thread knows. */
	wait_lock();
	while (!t->tid) {
		wait_unlock();
		futex_wait(&t->tid, 0, NULL);
		wait_lock();
	}
	wait_unlock();
	if (tid)
		*tid = t->tid;
	TRACE(thread, "%04x: start %p(%p), stack %zu, flags %#x\n", t->tid, (void *)start, arg,
	      (size_t)stack_size, flags);
	return t;
}
