/* RegisterWaitForSingleObject and UnregisterWait(Ex) (winbase.h): each
 * registration has a wait thread of its own (a Windows thread, made with
 * CreateThread) that waits for the object or the timeout and calls the
 * callback there, TRUE for a timeout, FALSE for the object, again and
 * again until unregistered, or once with WT_EXECUTEONLYONCE.  A
 * manual-reset object that stays signaled is reported on every turn, as
 * Windows does.  The other WT_* flags choose among Windows' pool threads
 * and do not change what the callback sees.
 *
 * UnregisterWaitEx: with INVALID_HANDLE_VALUE it waits for a running
 * callback to return (not when called from that callback, which would
 * never return); with an event it signals the event once no callback
 * runs; with NULL (UnregisterWait) it fails with ERROR_IO_PENDING when a
 * callback is running at that moment (the caller's own, too), the
 * registration going away all the same. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/debug.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"

struct reg_wait {
	HANDLE object;
	WAITORTIMERCALLBACK callback;
	void *ctx;
	DWORD timeout;
	ULONG flags;
	HANDLE cancel;        /* set by UnregisterWaitEx */
	HANDLE done_event;    /* UnregisterWaitEx's event, signaled when the thread ends */
	DWORD thread_id;
	/* Held from the check of cancel through the callback: once
	 * UnregisterWaitEx has set cancel and taken it, no callback runs. */
	pthread_mutex_t lock;
	atomic_int refs;      /* the registration's and the thread's */
};

static void put_wait(struct reg_wait *w)
{
	if (atomic_fetch_sub(&w->refs, 1) == 1) {
		CloseHandle(w->cancel);
		pthread_mutex_destroy(&w->lock);
		free(w);
	}
}

static DWORD WINAPI wait_thread(void *arg)
{
	struct reg_wait *w = arg;
	HANDLE objs[2] = { w->cancel, w->object };

	for (;;) {
		DWORD r = WaitForMultipleObjects(2, objs, FALSE, w->timeout);

		if (r != WAIT_OBJECT_0 + 1 && r != WAIT_TIMEOUT)
			break; /* unregistered, or the object went away */
		pthread_mutex_lock(&w->lock);
		if (WaitForSingleObject(w->cancel, 0) == WAIT_OBJECT_0) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		PE_CALL2(w->callback, w->ctx, r == WAIT_TIMEOUT);
		pthread_mutex_unlock(&w->lock);
		if (w->flags & WT_EXECUTEONLYONCE)
			break;
	}
	/* done_event is only read once cancel is set (UnregisterWaitEx sets
	 * it first). */
	if (WaitForSingleObject(w->cancel, INFINITE) == WAIT_OBJECT_0 && w->done_event &&
	    w->done_event != INVALID_HANDLE_VALUE)
		SetEvent(w->done_event);
	put_wait(w);
	return 0;
}

BOOL WINAPI RegisterWaitForSingleObject(PHANDLE out, HANDLE object, WAITORTIMERCALLBACK callback, PVOID ctx,
					ULONG timeout, ULONG flags)
{
	struct reg_wait *w;
	HANDLE thread;

	TRACE(sync, "(%p, %p, %p, %lu, 0x%lx)\n", object, (void *)callback, ctx, (unsigned long)timeout,
	      (unsigned long)flags);
	if (!out || !callback) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	w->object = object;
	w->callback = callback;
	w->ctx = ctx;
	w->timeout = timeout;
	w->flags = flags;
	atomic_init(&w->refs, 2);
	pthread_mutex_init(&w->lock, NULL);
	w->cancel = CreateEventW(NULL, TRUE, FALSE, NULL);
	if (!w->cancel) {
		pthread_mutex_destroy(&w->lock);
		free(w);
		return FALSE;
	}
	thread = CreateThread(NULL, 0, wait_thread, w, CREATE_SUSPENDED, &w->thread_id);
	if (!thread) {
		CloseHandle(w->cancel);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return FALSE;
	}
	ResumeThread(thread);
	CloseHandle(thread);
	*out = (HANDLE)w;
	return TRUE;
}

BOOL WINAPI UnregisterWaitEx(HANDLE handle, HANDLE completion)
{
	struct reg_wait *w = handle;
	bool from_callback, running;

	if (!w) {
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	from_callback = GetCurrentThreadId() == w->thread_id;
	w->done_event = completion;
	SetEvent(w->cancel);
	if (from_callback) {
		running = true; /* this very callback */
	} else if (completion == INVALID_HANDLE_VALUE) {
		/* A callback that started before cancel was set ends first. */
		pthread_mutex_lock(&w->lock);
		pthread_mutex_unlock(&w->lock);
		running = false;
	} else {
		running = pthread_mutex_trylock(&w->lock) != 0;
		if (!running)
			pthread_mutex_unlock(&w->lock);
	}
	put_wait(w);
	if (!completion && running) {
		SetLastError(ERROR_IO_PENDING);
		return FALSE;
	}
	return TRUE;
}

BOOL WINAPI UnregisterWait(HANDLE handle)
{
	return UnregisterWaitEx(handle, NULL);
}
