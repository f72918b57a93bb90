#include <pthread.h>
#include <stdatomic.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/thread.h"
#include "core/wait.h"

struct wait_entry {
	struct list entry; /* in obj->waiters */
	struct wait_block *block;
};

/* One per blocked wait, on the waiter's stack.  state is the futex word:
 * 0 while waiting, 1 once a signaler or an APC queuer completed the wait
 * and stored result; both are written and read under the wait lock. */
struct wait_block {
	_Atomic unsigned int state;
	DWORD result;
	DWORD tid;
	DWORD count;
	bool wait_all;
	struct object *const *objs;
	struct wait_entry entries[MAXIMUM_WAIT_OBJECTS];
};

static pthread_mutex_t the_wait_lock = PTHREAD_MUTEX_INITIALIZER;

void wait_lock(void)
{
	pthread_mutex_lock(&the_wait_lock);
}

void wait_unlock(void)
{
	pthread_mutex_unlock(&the_wait_lock);
}

/* Wait lock held.  Satisfies the wait if it can complete now: result set. */
static bool try_satisfy(struct object *const *objs, DWORD count, bool wait_all, DWORD tid,
			DWORD *result)
{
	DWORD i;

	if (wait_all) {
		DWORD r = WAIT_OBJECT_0;

		for (i = 0; i < count; i++)
			if (!objs[i]->ops->signaled(objs[i], tid))
				return false;
		for (i = 0; i < count; i++)
			if (objs[i]->ops->satisfied(objs[i], tid) && r == WAIT_OBJECT_0)
				r = WAIT_ABANDONED_0 + i;
		*result = r;
		return true;
	}
	for (i = 0; i < count; i++) {
		if (objs[i]->ops->signaled(objs[i], tid)) {
			*result = (objs[i]->ops->satisfied(objs[i], tid) ? WAIT_ABANDONED_0 : WAIT_OBJECT_0) + i;
			return true;
		}
	}
	return false;
}

/* Wait lock held; the block stays valid until we drop the lock, since
 * its owner must take the lock to dequeue it before returning. */
static void complete(struct wait_block *wb, DWORD result)
{
	wb->result = result;
	atomic_store_explicit(&wb->state, 1, memory_order_relaxed);
	futex_wake(&wb->state, 1);
}

void wait_wake_object(struct object *obj)
{
	struct list *cur;
	DWORD result;

	LIST_FOR_EACH(cur, &obj->waiters) {
		struct wait_block *wb = LIST_ENTRY(cur, struct wait_entry, entry)->block;

		if (atomic_load_explicit(&wb->state, memory_order_relaxed))
			continue;
		if (try_satisfy(wb->objs, wb->count, wb->wait_all, wb->tid, &result))
			complete(wb, result);
	}
}

void wait_alert_locked(struct thread *t)
{
	struct wait_block *wb = t->alertable_wait;

	if (wb && !atomic_load_explicit(&wb->state, memory_order_relaxed))
		complete(wb, WAIT_IO_COMPLETION);
	if (t->alertable_port_wait)
		iocp_alert_locked(t->alertable_port_wait);
}

static DWORD block(struct wait_block *wb, struct thread *self, DWORD timeout, bool alertable)
{
	struct timespec deadline;
	DWORD i;

	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);
	atomic_init(&wb->state, 0);
	for (i = 0; i < wb->count; i++) {
		wb->entries[i].block = wb;
		list_add_tail(&wb->objs[i]->waiters, &wb->entries[i].entry);
	}
	if (alertable)
		self->alertable_wait = wb;
	/* A thread blocked here stops counting against its completion
	 * port's concurrency limit. */
	iocp_thread_block();
	wait_unlock();

	/* The state is only read under the lock (the kernel's own compare
	 * aside); the waiter needs the lock afterwards anyway. */
	for (;;) {
		int err = futex_wait(&wb->state, 0, timeout == INFINITE ? NULL : &deadline);

		wait_lock();
		if (atomic_load_explicit(&wb->state, memory_order_relaxed))
			break;
		/* Not completed by a signaler by the deadline: our own
		 * timeout, under the lock so nobody can satisfy us now. */
		if (err == ETIMEDOUT) {
			wb->result = WAIT_TIMEOUT;
			break;
		}
		wait_unlock();
	}

	for (i = 0; i < wb->count; i++)
		list_remove(&wb->entries[i].entry);
	if (alertable)
		self->alertable_wait = NULL;
	iocp_thread_unblock();
	return wb->result;
}

DWORD wait_for_objects(DWORD count, struct object *const *objs, bool wait_all, DWORD timeout,
		       bool alertable)
{
	struct thread *self = thread_current();
	struct wait_block wb;
	DWORD result;

	/* Threads without a thread object cannot receive APCs. */
	if (!self)
		alertable = false;
	wb.tid = thread_current_id();
	wb.count = count;
	wb.wait_all = wait_all;
	wb.objs = objs;

	wait_lock();
	/* As on Windows, signaled objects win over queued APCs. */
	if (count && try_satisfy(objs, count, wait_all, wb.tid, &result))
		goto out;
	if (alertable && apc_pending_locked(self)) {
		result = WAIT_IO_COMPLETION;
		goto out;
	}
	if (timeout == 0) {
		result = WAIT_TIMEOUT;
		goto out;
	}
	result = block(&wb, self, timeout, alertable);
out:
	wait_unlock();
	if (result == WAIT_IO_COMPLETION)
		apc_run_pending(self);
	return result;
}

DWORD wait_for_handles(DWORD count, const HANDLE *handles, bool wait_all, DWORD timeout,
		       bool alertable)
{
	struct object *objs[MAXIMUM_WAIT_OBJECTS];
	DWORD i, j, result = WAIT_FAILED;

	if (!count || count > MAXIMUM_WAIT_OBJECTS) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return WAIT_FAILED;
	}
	for (i = 0; i < count; i++) {
		objs[i] = handle_get(handles[i], NULL);
		if (!objs[i])
			goto out;
		if (objs[i]->ops->wait_access) {
			DWORD needed = objs[i]->ops->wait_access;

			object_unref(objs[i]);
			objs[i] = handle_get_access(handles[i], NULL, needed);
			if (!objs[i])
				goto out;
		}
		if (!objs[i]->ops->signaled) {
			object_unref(objs[i]);
			SetLastError(ERROR_INVALID_HANDLE);
			goto out;
		}
		/* One object twice in a wait-all could never be
		 * satisfied consistently; Windows refuses it too. */
		for (j = 0; wait_all && j < i; j++) {
			if (objs[j] == objs[i]) {
				object_unref(objs[i]);
				SetLastError(ERROR_INVALID_PARAMETER);
				goto out;
			}
		}
	}
	result = wait_for_objects(count, objs, wait_all, timeout, alertable);
out:
	while (i--)
		object_unref(objs[i]);
	TRACE(sync, "%u handles, all=%d, timeout %u -> %#x\n", count, wait_all, timeout, result);
	return result;
}
