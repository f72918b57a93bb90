#include <pthread.h>
#include <stdatomic.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/klock.h"
#include "core/shsync.h"
#include "core/thread.h"
#include "core/wait.h"

struct wait_entry {
	struct list entry; /* in obj->waiters */
	struct wait_block *block;
};

/* One per blocked wait, on the waiter's stack.  state is the futex word:
 * WB_WAITING while listed on its objects; WB_SLEEPING the same, once the
 * waiter announced (itself, without the lock) that it sleeps or is about
 * to, so that whoever ends the wait knows a wake is needed; WB_DONE once
 * a thread holding the wait lock (a signaler, an APC queuer, the waiter
 * on its timeout) ended it: result stored, every entry unlisted.  So the
 * waiter, woken, reads its result and leaves without retaking the lock
 * its waker just dropped. */
enum { WB_WAITING, WB_SLEEPING, WB_DONE, WB_RETRY };

/* A wait's result that is none of Windows': an object it waits on was
 * promoted to a shared one (core/promote.c), and it must start again. */
#define WAIT_RESTART 0xfffffffeu

struct wait_block {
	_Atomic uint32_t state;
	DWORD result;
	DWORD tid;
	DWORD count;
	bool wait_all;
	/* Some object is shared with other processes: only the waiter
	 * itself satisfies this wait (block_shared); a local signal sets
	 * WB_RETRY to make it look again. */
	bool shared;
	struct thread *alertable; /* whose alertable_wait points here; NULL if none */
	struct object *const *objs;
	struct wait_entry entries[MAXIMUM_WAIT_OBJECTS];
};

static pthread_mutex_t the_wait_lock = PTHREAD_MUTEX_INITIALIZER;

/* Wakes the calling thread decided while holding the wait lock. */
static __thread struct futex_wakes deferred;

void wait_lock(void)
{
	klock(&the_wait_lock);
}

void wait_unlock(void)
{
	kunlock_wake(&the_wait_lock, &deferred);
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

/* Wait lock held: stores wb's result and takes wb off every list that
 * leads to it. */
static void unlist(struct wait_block *wb, DWORD result)
{
	DWORD i;

	wb->result = result;
	for (i = 0; i < wb->count; i++)
		list_remove(&wb->entries[i].entry);
	if (wb->alertable)
		wb->alertable->alertable_wait = NULL;
}

/* Wait lock held: ends wb's wait with result.  The block may be gone as
 * soon as WB_DONE is visible, so nothing touches it after the exchange;
 * the wake, only if the waiter sleeps, waits for wait_unlock. */
static void complete(struct wait_block *wb, DWORD result)
{
	unlist(wb, result);
	if (atomic_exchange_explicit(&wb->state, WB_DONE, memory_order_release) == WB_SLEEPING)
		futex_wake_later(&deferred, &wb->state);
}

void wait_wake_object(struct object *obj)
{
	struct list *cur = obj->waiters.next;
	DWORD result;

	/* Listed blocks are all still waiting. */
	while (cur != &obj->waiters) {
		struct wait_block *wb = LIST_ENTRY(cur, struct wait_entry, entry)->block;

		cur = cur->next;
		if (wb->shared) {
			if (atomic_exchange_explicit(&wb->state, WB_RETRY, memory_order_release) == WB_SLEEPING)
				futex_wake_later(&deferred, &wb->state);
			continue;
		}
		if (!try_satisfy(wb->objs, wb->count, wb->wait_all, wb->tid, &result))
			continue;
		/* complete() unlists all of wb's entries: a wait-any may hold
		 * this object twice, the next entry included. */
		while (cur != &obj->waiters && LIST_ENTRY(cur, struct wait_entry, entry)->block == wb)
			cur = cur->next;
		complete(wb, result);
	}
}

void wait_restart_waiters_locked(struct object *obj)
{
	struct list *cur = obj->waiters.next;

	while (cur != &obj->waiters) {
		struct wait_block *wb = LIST_ENTRY(cur, struct wait_entry, entry)->block;

		cur = cur->next;
		/* A wait on shared objects already looks again by itself,
		 * and then takes this one's futex words too. */
		if (wb->shared) {
			if (atomic_exchange_explicit(&wb->state, WB_RETRY, memory_order_release) == WB_SLEEPING)
				futex_wake_later(&deferred, &wb->state);
			continue;
		}
		while (cur != &obj->waiters && LIST_ENTRY(cur, struct wait_entry, entry)->block == wb)
			cur = cur->next;
		TRACE(sync, "%04x: its wait starts again on shared %s %p\n", wb->tid, obj->ops->type_name, (void *)obj);
		complete(wb, WAIT_RESTART);
	}
}

void wait_alert_locked(struct thread *t)
{
	/* Set only while the wait is listed (complete() clears it). */
	if (t->alertable_wait)
		complete(t->alertable_wait, WAIT_IO_COMPLETION);
	if (t->alertable_port_wait)
		iocp_alert_locked(t->alertable_port_wait);
}

/* Wait lock held on entry, dropped on return. */
static DWORD block(struct wait_block *wb, struct thread *self, DWORD timeout, bool alertable)
{
	struct timespec deadline;
	uint32_t s;
	DWORD i;

	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);
	atomic_init(&wb->state, WB_WAITING);
	for (i = 0; i < wb->count; i++) {
		wb->entries[i].block = wb;
		list_add_tail(&wb->objs[i]->waiters, &wb->entries[i].entry);
	}
	wb->alertable = alertable ? self : NULL;
	if (alertable)
		self->alertable_wait = wb;
	/* A thread blocked here stops counting against its completion
	 * port's concurrency limit. */
	iocp_thread_block();
	wait_unlock();

	for (;;) {
		int err;

		s = WB_WAITING;
		if (!atomic_compare_exchange_strong_explicit(&wb->state, &s, WB_SLEEPING,
							     memory_order_acquire, memory_order_acquire) &&
		    s == WB_DONE)
			break;
		err = futex_wait(&wb->state, WB_SLEEPING, timeout == INFINITE ? NULL : &deadline);
		if (atomic_load_explicit(&wb->state, memory_order_acquire) == WB_DONE)
			break;
		if (err == ETIMEDOUT) {
			/* Not ended by anyone by the deadline: our own timeout,
			 * under the lock so nobody can satisfy us now. */
			wait_lock();
			if (atomic_load_explicit(&wb->state, memory_order_relaxed) != WB_DONE) {
				unlist(wb, WAIT_TIMEOUT);
				atomic_store_explicit(&wb->state, WB_DONE, memory_order_relaxed);
			}
			wait_unlock();
			break;
		}
	}
	iocp_thread_unblock();
	return wb->result;
}

/* Wait lock held: try_satisfy under the shared lock too. */
static bool try_satisfy_shared(struct wait_block *wb, DWORD *result)
{
	bool done;

	shsync_lock();
	done = try_satisfy(wb->objs, wb->count, wb->wait_all, wb->tid, result);
	shsync_unlock();
	return done;
}

/* FUTEX_WAITV, where the kernel has it (Linux 5.16; not valgrind):
 * else the block's own word with a 1 ms limit, so that changes of the
 * shared words are seen within that, the one place ndshim polls. */
static int futex_waitv(struct futex_waitv *wv, unsigned int n, const struct timespec *deadline)
{
	static _Atomic bool no_waitv;
	struct timespec soon;
	bool last = false;

	if (!atomic_load_explicit(&no_waitv, memory_order_relaxed)) {
		if (syscall(SYS_futex_waitv, wv, n, 0, deadline, CLOCK_MONOTONIC) >= 0)
			return 0;
		if (errno != ENOSYS)
			return errno;
		atomic_store(&no_waitv, true);
		TRACE(sync, "no FUTEX_WAITV: waits on shared objects look again every millisecond\n");
	}
	deadline_after_ms(&soon, 1);
	if (deadline && (deadline->tv_sec < soon.tv_sec ||
			 (deadline->tv_sec == soon.tv_sec && deadline->tv_nsec < soon.tv_nsec))) {
		soon = *deadline;
		last = true;
	}
	/* wv[0] is the wait block's own (private) word. */
	if (futex_wait((void *)(uintptr_t)wv[0].uaddr, (uint32_t)wv[0].val, &soon) == ETIMEDOUT && last)
		return ETIMEDOUT;
	return 0;
}

/* block() for a wait on shared objects.  Other processes change their
 * state without this process's wait lock, so the waiter sleeps on its
 * block's word and on every shared object's futex words at once
 * (FUTEX_WAITV), and whenever one changes looks again itself, under
 * both locks: it takes a shared mutex in its own thread, as the
 * mutex's robust lock requires.  A wait on in-process objects only
 * never comes here. */
static DWORD block_shared(struct wait_block *wb, struct thread *self, DWORD timeout, bool alertable)
{
	struct futex_waitv wv[FUTEX_WAITV_MAX];
	struct timespec deadline;
	DWORD i, result;

	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);
	atomic_init(&wb->state, WB_WAITING);
	for (i = 0; i < wb->count; i++) {
		wb->entries[i].block = wb;
		list_add_tail(&wb->objs[i]->waiters, &wb->entries[i].entry);
	}
	wb->alertable = alertable ? self : NULL;
	if (alertable)
		self->alertable_wait = wb;
	iocp_thread_block();

	for (;;) {
		unsigned int n = 0;
		uint32_t s;
		int err;

		/* Wait lock held.  An APC may have ended the wait. */
		if (atomic_load_explicit(&wb->state, memory_order_acquire) == WB_DONE) {
			wait_unlock();
			break;
		}
		atomic_store_explicit(&wb->state, WB_WAITING, memory_order_relaxed);
		wv[n++] = (struct futex_waitv){
			.val = WB_SLEEPING, .uaddr = (uintptr_t)&wb->state, .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG,
		};
		shsync_lock();
		if (try_satisfy(wb->objs, wb->count, wb->wait_all, wb->tid, &result)) {
			shsync_unlock();
			unlist(wb, result);
			atomic_store_explicit(&wb->state, WB_DONE, memory_order_relaxed);
			wait_unlock();
			break;
		}
		/* The words' values are taken under the shared lock, so any
		 * later change that could satisfy us wakes the wait. */
		for (i = 0; i < wb->count; i++)
			if (wb->objs[i]->ops->cross_process)
				n += shsync_wait_words(wb->objs[i], wb->tid, wv + n, FUTEX_WAITV_MAX - n);
		shsync_unlock();
		wait_unlock();

		s = WB_WAITING;
		if (!atomic_compare_exchange_strong_explicit(&wb->state, &s, WB_SLEEPING, memory_order_acquire,
							     memory_order_acquire)) {
			if (s == WB_DONE)
				break;
			wait_lock(); /* WB_RETRY */
			continue;
		}
		err = futex_waitv(wv, n, timeout == INFINITE ? NULL : &deadline);
		if (atomic_load_explicit(&wb->state, memory_order_acquire) == WB_DONE)
			break;
		wait_lock();
		if (err == ETIMEDOUT && atomic_load_explicit(&wb->state, memory_order_relaxed) != WB_DONE) {
			/* A last look: what changed just before the deadline
			 * still counts. */
			shsync_lock();
			if (!try_satisfy(wb->objs, wb->count, wb->wait_all, wb->tid, &result))
				result = WAIT_TIMEOUT;
			shsync_unlock();
			unlist(wb, result);
			atomic_store_explicit(&wb->state, WB_DONE, memory_order_relaxed);
			wait_unlock();
			break;
		}
	}
	iocp_thread_unblock();
	return wb->result;
}

static bool any_shared(struct object *const *objs, DWORD count)
{
	for (DWORD i = 0; i < count; i++)
		if (objs[i]->ops->cross_process)
			return true;
	return false;
}

/* What is left of timeout (ms) until deadline. */
static DWORD remaining_ms(const struct timespec *deadline)
{
	struct timespec now;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000 + (deadline->tv_nsec - now.tv_nsec);
	return ns <= 0 ? 0 : (DWORD)((ns + 999999) / 1000000);
}

DWORD wait_for_objects(DWORD count, struct object *const *objs, bool wait_all, DWORD timeout,
		       bool alertable)
{
	struct thread *self = thread_current();
	struct timespec deadline;
	bool restarted = false;
	struct wait_block wb;
	DWORD result;

	/* Threads without a thread object cannot receive APCs. */
	if (!self)
		alertable = false;
	wb.tid = thread_current_id();
	wb.count = count;
	wb.wait_all = wait_all;
	wb.objs = objs;
	for (;;) {
		wait_lock();
		/* Under the lock: promotion (core/promote.c) changes ops
		 * under it. */
		wb.shared = any_shared(objs, count);
		/* As on Windows, signaled objects win over queued APCs. */
		if (count && (wb.shared ? try_satisfy_shared(&wb, &result)
					: try_satisfy(objs, count, wait_all, wb.tid, &result)))
			break;
		if (alertable && apc_pending_locked(self)) {
			result = WAIT_IO_COMPLETION;
			break;
		}
		if (timeout == 0) {
			result = WAIT_TIMEOUT;
			break;
		}
		/* Only a wait that blocks reads the clock for this. */
		if (timeout != INFINITE && !restarted)
			deadline_after_ms(&deadline, timeout);
		result = wb.shared ? block_shared(&wb, self, timeout, alertable) : block(&wb, self, timeout, alertable);
		if (result != WAIT_RESTART)
			goto done;
		/* An object became shared while we slept: again, as a wait on
		 * shared objects, for what is left of the time. */
		restarted = true;
		if (timeout != INFINITE)
			timeout = remaining_ms(&deadline);
	}
	wait_unlock();
done:
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
