/* Thread objects (what CreateThread returns) and per-thread state.
 *
 * A thread object is signaled once the thread has finished; its exit code
 * is STILL_ACTIVE until then.  Threads run PE code between
 * loader_thread_init and loader_thread_exit; ExitThread leaves PE code by
 * siglongjmp to the thread's start wrapper, never by Linux unwinding. */
#ifndef NDSHIM_THREAD_H
#define NDSHIM_THREAD_H

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include "core/object.h"

struct wait_block;
struct port_waiter;

struct thread {
	struct object obj;
	DWORD tid;            /* the Linux tid, also the Windows thread id */
	TEB *teb;             /* NULL until loader_thread_init returned */
	DWORD exit_code;      /* STILL_ACTIVE while running; wait lock */
	bool finished;        /* wait lock */
	int priority;
	DWORD suspend_count;  /* futex: held at start while > 0; wait lock until
			       * started, then core/suspend.c's lock */
	bool started;         /* past the start gate; wait lock */
	DWORD context_holds;  /* Get/SetThreadContext stopping it; suspend lock */
	_Atomic uint32_t park; /* futex: core/suspend.c's PARK_* state */
	void *parked_uc;      /* its ucontext_t while parked */
	LPTHREAD_START_ROUTINE start;
	void *arg;
	SIZE_T stack_size;
	bool has_exit_point;
	DWORD pending_exit_code;
	sigjmp_buf exit_point; /* ExitThread lands here */
	_Atomic unsigned int ideal_processor; /* group << 8 | number: a hint Linux has no use for */
	struct list apcs;     /* struct apc, wait lock */
	struct wait_block *alertable_wait; /* wait lock: the alertable wait in progress */
	struct port_waiter *alertable_port_wait; /* wait lock: alertable GetQueuedCompletionStatusEx */
	struct list entry;    /* in the list of live threads (thread_list_lock) */
	void **fls;           /* FLS values, FLS_MAXIMUM_AVAILABLE, allocated on first set */
	/* GetThreadTimes after the thread is gone (100 ns units; the times
	 * are UTC FILETIMEs, 0 when not recorded): set as it starts and
	 * as it finishes, read once finished is set. */
	ULONGLONG created_time, exited_time, kernel_time, user_time;
};

extern const struct object_ops thread_ops;

static inline struct thread *to_thread(struct object *obj) { return container_of(obj, struct thread, obj); }

/* The calling thread's object, NULL on threads that ndshim did not create
 * (ndrun's own helper threads). */
struct thread *thread_current(void);

/* The calling thread's Windows id (the Linux tid), on any thread. */
DWORD thread_current_id(void);

/* Makes the thread object of the main thread; the loader calls it on
 * the main thread after loader_thread_init. */
void thread_init_main(void);

/* Before loader_thread_exit on the main thread (ndrun ending normally):
 * drops what ndshim keeps in its TEB.  The thread object stays. */
void thread_fini_main(void);

/* Creates a thread running start(arg) (ms_abi) with the Win32 flags
 * (CREATE_SUSPENDED); *tid gets its id.  The thread object with one
 * reference for the caller, or NULL with the last error set. */
struct thread *thread_create(SIZE_T stack_size, LPTHREAD_START_ROUTINE start, void *arg,
			     DWORD flags, DWORD *tid);

/* Ends the calling thread with code; only for threads with an exit point
 * (created by thread_create, or running thread_run). */
void thread_exit(DWORD code) __attribute__((noreturn));

/* Runs fn(arg) on the calling thread (which has a thread object) with an
 * exit point, so ExitThread inside it returns here with its code. */
DWORD thread_run(LPTHREAD_START_ROUTINE fn, void *arg);

/* Call fn for every live thread (thread_for_each_teb: for each TEB); the
 * caller holds the thread list lock (TlsFree clears a slot everywhere). */
void thread_for_each(void (*fn)(struct thread *t, void *ctx), void *ctx);
void thread_for_each_teb(void (*fn)(TEB *teb, void *ctx), void *ctx);
void thread_list_lock(void);
void thread_list_unlock(void);

/* Suspension (core/suspend.c).  thread_suspend/thread_resume: Suspend-
 * and ResumeThread, the previous count or (DWORD)-1 with the last error
 * set; a started thread other than the caller is stopped when
 * thread_suspend returns.  thread_get_context/thread_set_context: the
 * registers of another started thread (suspended for the while if the
 * program has not).  suspend_thread_attach: on t's own thread, before
 * anyone can suspend it; detach when it ends.  Kernel locks
 * (core/klock.h) defer parking until released. */
DWORD thread_suspend(struct thread *t);
DWORD thread_resume(struct thread *t);
BOOL thread_get_context(struct thread *t, CONTEXT *ctx);
BOOL thread_set_context(struct thread *t, const CONTEXT *ctx);
void suspend_thread_attach(struct thread *t);
void suspend_thread_detach(void);

/* APCs (core/apc.c).  apc_queue: QueueUserAPC on t.  apc_run_pending:
 * runs the calling thread's queued APCs, true when it ran any. */
bool apc_queue(struct thread *t, PAPCFUNC fn, ULONG_PTR data);
bool apc_pending_locked(struct thread *t); /* wait lock held */
bool apc_run_pending(struct thread *t);
void apc_discard(struct thread *t); /* wait lock held */
/* Takes a queued APC back before it ran: true when it was still queued. */
bool apc_remove(struct thread *t, PAPCFUNC fn, ULONG_PTR data);

/* Mutexes owned by tid become abandoned (core/mutex.c). */
void mutex_abandon_owned(DWORD tid);

/* FLS callbacks for the exiting thread (kernel32 fiberapi/synchapi). */
void fls_thread_exit(struct thread *t);

#endif
