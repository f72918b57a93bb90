/* core/promote: an unnamed event, semaphore or mutex made a shared one
 * (what DuplicateHandle into another process does first).  Threads
 * blocked on it when that happens (seen queued on the object, so they
 * are surely blocked) are woken by a signal through the shared twin,
 * the state and a mutex's owner and recursion go along, a timed wait
 * keeps its deadline across the restart, a promoted mutex whose owner
 * thread exits without ever touching it again is abandoned, and a
 * wait-all of an in-process object and a promoted one still takes both
 * at once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "win32_helper.h"

/* Threads queued on obj (bounded wait for n of them). */
static void expect_waiters(struct object *obj, unsigned int n)
{
	unsigned int got = 0;

	for (int i = 0; i < 5000; i++) {
		struct list *cur;

		got = 0;
		wait_lock();
		LIST_FOR_EACH(cur, &obj->waiters)
			got++;
		wait_unlock();
		if (got >= n)
			break;
		Sleep(1);
	}
	assert_int_equal(got, n);
}

struct waiter {
	HANDLE objs[2];
	DWORD count;
	BOOL all;
	DWORD timeout;
	DWORD result;
};

static DWORD WINAPI wait_thread(void *arg)
{
	struct waiter *w = arg;

	w->result = WaitForMultipleObjects(w->count, w->objs, w->all, w->timeout);
	return 0;
}

static struct object *promote(HANDLE h)
{
	struct object *obj = handle_get(h, NULL), *twin;

	assert_non_null(obj);
	assert_true(sync_is_local(obj));
	twin = sync_share(obj);
	assert_non_null(twin);
	assert_true(twin->ops->cross_process);
	assert_ptr_equal(sync_shared_target(obj), twin);
	object_unref(obj);
	return twin;
}

static void test_blocked_waiters_follow(void **state)
{
	HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL), sem = CreateSemaphoreW(NULL, 0, 5, NULL);
	HANDLE local = CreateEventW(NULL, TRUE, FALSE, NULL), t[2];
	struct waiter w1 = { { ev }, 1, FALSE, 10000, ~0u }, w2 = { { local, sem }, 2, FALSE, 10000, ~0u };
	struct object *ev_obj = handle_get(ev, NULL), *sem_obj = handle_get(sem, NULL), *ev_twin, *sem_twin;
	LONG prev = -1;

	t[0] = CreateThread(NULL, 0, wait_thread, &w1, 0, NULL);
	t[1] = CreateThread(NULL, 0, wait_thread, &w2, 0, NULL);
	expect_waiters(ev_obj, 1);
	expect_waiters(sem_obj, 1);
	ev_twin = promote(ev);
	sem_twin = promote(sem);
	/* The handles name the twins now. */
	{
		struct object *o = handle_get(ev, NULL);

		assert_ptr_equal(o, ev_twin);
		object_unref(o);
	}
	/* Signaled the way another process does: on the twin only. */
	shsync_event_set(ev_twin);
	assert_true(shsync_semaphore_release(sem_twin, 1, &prev));
	assert_int_equal(prev, 0);
	assert_int_equal(WaitForMultipleObjects(2, t, TRUE, 10000), WAIT_OBJECT_0);
	assert_int_equal(w1.result, WAIT_OBJECT_0);
	assert_int_equal(w2.result, WAIT_OBJECT_0 + 1);
	/* Each consumed once. */
	assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
	assert_int_equal(WaitForSingleObject(sem, 0), WAIT_TIMEOUT);
	/* The object held from before forwards (a SetEvent in flight). */
	event_set(ev_obj);
	assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
	assert_int_equal(wait_for_objects(1, &ev_obj, false, 0, false), WAIT_TIMEOUT);
	assert_true(semaphore_release(sem_obj, 2, &prev));
	assert_int_equal(wait_for_objects(1, &sem_obj, false, 0, false), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(sem, 0), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(sem, 0), WAIT_TIMEOUT);
	object_unref(ev_twin);
	object_unref(sem_twin);
	object_unref(ev_obj);
	object_unref(sem_obj);
	CloseHandle(t[0]);
	CloseHandle(t[1]);
	CloseHandle(ev);
	CloseHandle(sem);
	CloseHandle(local);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A timed wait restarted by the promotion ends at its first deadline.
 * The bound is not a timing guess: a wait restarted at the promotion
 * would end a whole timeout after it, so ending before then shows the
 * first deadline was kept; the promotion comes well after the wait
 * starts, which leaves a loaded machine 1.5 s to wake the waiter. */
static void test_timeout_kept(void **state)
{
	enum { TIMEOUT = 2000 };
	HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL), t;
	struct waiter w = { { ev }, 1, FALSE, TIMEOUT, ~0u };
	struct object *obj = handle_get(ev, NULL), *twin;
	struct timespec t0;
	long promoted;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	t = CreateThread(NULL, 0, wait_thread, &w, 0, NULL);
	expect_waiters(obj, 1);
	Sleep(1500);
	promoted = elapsed_ms(&t0);	/* no restart can come before this */
	twin = promote(ev);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_TIMEOUT);
	assert_true(elapsed_ms(&t0) >= TIMEOUT - 10);
	assert_true(elapsed_ms(&t0) < promoted + TIMEOUT);
	object_unref(twin);
	object_unref(obj);
	CloseHandle(t);
	CloseHandle(ev);
}

struct owner {
	HANDLE mutex, ready, go;
	DWORD took;
};

static DWORD WINAPI owner_thread(void *arg)
{
	struct owner *o = arg;

	o->took = WaitForSingleObject(o->mutex, 0);
	SetEvent(o->ready);
	WaitForSingleObject(o->go, 10000);
	return 0; /* holding the mutex */
}

static void test_mutex_owner_moves(void **state)
{
	HANDLE mine = CreateMutexW(NULL, TRUE, NULL), theirs = CreateMutexW(NULL, FALSE, NULL), t;
	struct owner o = { theirs, CreateEventW(NULL, FALSE, FALSE, NULL), CreateEventW(NULL, TRUE, FALSE, NULL), ~0u };
	struct object *mine_twin, *theirs_twin;
	struct waiter w = { { theirs }, 1, FALSE, 10000, ~0u };
	HANDLE wt;

	/* Recursion 2 on our own: it goes along. */
	assert_int_equal(WaitForSingleObject(mine, 0), WAIT_OBJECT_0);
	mine_twin = promote(mine);
	assert_true(ReleaseMutex(mine));
	assert_true(ReleaseMutex(mine));
	assert_false(ReleaseMutex(mine));
	assert_int_equal(GetLastError(), ERROR_NOT_OWNER);

	/* Owned by another thread when promoted: a waiter gets it
	 * abandoned once that thread exits holding it. */
	t = CreateThread(NULL, 0, owner_thread, &o, 0, NULL);
	assert_int_equal(WaitForSingleObject(o.ready, 10000), WAIT_OBJECT_0);
	assert_int_equal(o.took, WAIT_OBJECT_0);
	theirs_twin = promote(theirs);
	assert_int_equal(WaitForSingleObject(theirs, 0), WAIT_TIMEOUT);
	wt = CreateThread(NULL, 0, wait_thread, &w, 0, NULL);
	expect_waiters(theirs_twin, 1);
	SetEvent(o.go);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(wt, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_ABANDONED);
	/* That waiter thread exited owning it in turn, through the robust
	 * lock it took: abandoned again, to us. */
	assert_int_equal(WaitForSingleObject(theirs, 10000), WAIT_ABANDONED);
	assert_true(ReleaseMutex(theirs));
	object_unref(mine_twin);
	object_unref(theirs_twin);
	CloseHandle(t);
	CloseHandle(wt);
	CloseHandle(o.ready);
	CloseHandle(o.go);
	CloseHandle(mine);
	CloseHandle(theirs);
}

/* Wait-all over an in-process event and a promoted one. */
static void test_wait_all_mixed(void **state)
{
	HANDLE a = CreateEventW(NULL, FALSE, FALSE, NULL), b = CreateEventW(NULL, FALSE, FALSE, NULL), t;
	struct waiter w = { { a, b }, 2, TRUE, 10000, ~0u };
	struct object *aobj = handle_get(a, NULL), *twin;

	t = CreateThread(NULL, 0, wait_thread, &w, 0, NULL);
	expect_waiters(aobj, 1);
	twin = promote(b);
	shsync_event_set(twin);
	Sleep(50);
	/* Not both yet: b stays signaled, untaken. */
	assert_int_equal(WaitForSingleObject(t, 0), WAIT_TIMEOUT);
	SetEvent(a);
	assert_int_equal(WaitForSingleObject(t, 10000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(a, 0), WAIT_TIMEOUT);
	assert_int_equal(WaitForSingleObject(b, 0), WAIT_TIMEOUT);
	object_unref(twin);
	object_unref(aobj);
	CloseHandle(t);
	CloseHandle(a);
	CloseHandle(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked_waiters_follow),
		cmocka_unit_test(test_timeout_kept),
		cmocka_unit_test(test_mutex_owner_moves),
		cmocka_unit_test(test_wait_all_mixed),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}
