/* The wait engine and its objects: events, semaphores, mutexes, named
 * objects, wait-any/all, timeouts, abandonment, APCs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "win32_helper.h"

#define NTHREADS 6

/* Threads queued on h's object (to know waiters are blocked). */
static unsigned int waiters_on(HANDLE h)
{
	struct object *obj = handle_get(h, NULL);
	unsigned int n = 0;
	struct list *cur;

	assert_non_null(obj);
	wait_lock();
	LIST_FOR_EACH(cur, &obj->waiters)
		n++;
	wait_unlock();
	object_unref(obj);
	return n;
}

/* Test-side only: bounded wait for n waiters to be queued. */
static void expect_waiters(HANDLE h, unsigned int n)
{
	for (int i = 0; i < 5000 && waiters_on(h) < n; i++)
		Sleep(1);
	assert_int_equal(waiters_on(h), n);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

struct waiter_ctx {
	HANDLE obj, done;
	DWORD timeout;
	volatile LONG woken;
};

static DWORD WINAPI waiter(void *arg)
{
	struct waiter_ctx *c = arg;
	DWORD r = WaitForSingleObject(c->obj, c->timeout);

	if (r == WAIT_OBJECT_0)
		__atomic_add_fetch(&c->woken, 1, __ATOMIC_SEQ_CST);
	if (c->done)
		ReleaseSemaphore(c->done, 1, NULL);
	return r;
}

static void start_waiters(struct waiter_ctx *c, HANDLE *threads, int n)
{
	for (int i = 0; i < n; i++) {
		threads[i] = CreateThread(NULL, 0, waiter, c, 0, NULL);
		assert_non_null(threads[i]);
	}
}

static void join_all(HANDLE *threads, int n)
{
	assert_int_equal(WaitForMultipleObjects(n, threads, TRUE, 10000), WAIT_OBJECT_0);
	for (int i = 0; i < n; i++)
		CloseHandle(threads[i]);
}

static void test_auto_reset_wakes_exactly_one(void **state)
{
	struct waiter_ctx c = { .timeout = INFINITE };
	HANDLE threads[NTHREADS];

	c.obj = CreateEventA(NULL, FALSE, FALSE, NULL);
	c.done = CreateSemaphoreA(NULL, 0, NTHREADS, NULL);
	start_waiters(&c, threads, NTHREADS);
	expect_waiters(c.obj, NTHREADS);
	for (int i = 1; i <= NTHREADS; i++) {
		assert_true(SetEvent(c.obj));
		assert_int_equal(WaitForSingleObject(c.done, 5000), WAIT_OBJECT_0);
		/* Nobody else got through, and the event was consumed. */
		assert_int_equal(WaitForSingleObject(c.done, 30), WAIT_TIMEOUT);
		assert_int_equal(c.woken, i);
		expect_waiters(c.obj, NTHREADS - i);
	}
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_TIMEOUT);
	join_all(threads, NTHREADS);
	CloseHandle(c.obj);
	CloseHandle(c.done);
}

static void test_manual_reset_wakes_all(void **state)
{
	struct waiter_ctx c = { .timeout = INFINITE };
	HANDLE threads[NTHREADS];

	c.obj = CreateEventA(NULL, TRUE, FALSE, NULL);
	start_waiters(&c, threads, NTHREADS);
	expect_waiters(c.obj, NTHREADS);
	assert_true(SetEvent(c.obj));
	join_all(threads, NTHREADS);
	assert_int_equal(c.woken, NTHREADS);
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_OBJECT_0); /* stays set */
	assert_true(ResetEvent(c.obj));
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_TIMEOUT);
	CloseHandle(c.obj);
}

static void test_pulse_event(void **state)
{
	struct waiter_ctx c = { .timeout = INFINITE };
	HANDLE threads[NTHREADS];

	c.obj = CreateEventA(NULL, TRUE, FALSE, NULL);
	start_waiters(&c, threads, NTHREADS);
	expect_waiters(c.obj, NTHREADS);
	assert_true(PulseEvent(c.obj));
	join_all(threads, NTHREADS);
	assert_int_equal(c.woken, NTHREADS);
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_TIMEOUT);
	/* Nobody waiting: a pulse is lost. */
	assert_true(PulseEvent(c.obj));
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_TIMEOUT);
	CloseHandle(c.obj);
}

static void test_timeouts(void **state)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	HANDLE hs[2] = { ev, CreateSemaphoreA(NULL, 0, 1, NULL) };
	struct timespec t0;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
	assert_true(elapsed_ms(&t0) < 50);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(WaitForSingleObject(ev, 80), WAIT_TIMEOUT);
	ms = elapsed_ms(&t0);
	assert_true(ms >= 79 && ms < 2000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(WaitForMultipleObjects(2, hs, TRUE, 50), WAIT_TIMEOUT);
	assert_true(elapsed_ms(&t0) >= 49);
	assert_int_equal(waiters_on(ev), 0); /* dequeued after the timeout */
	CloseHandle(hs[0]);
	CloseHandle(hs[1]);
}

static void test_wait_any_order_and_consumption(void **state)
{
	HANDLE hs[3] = {
		CreateEventA(NULL, FALSE, FALSE, NULL),
		CreateSemaphoreA(NULL, 2, 5, NULL),
		CreateEventA(NULL, TRUE, TRUE, NULL),
	};
	LONG prev = -1;

	/* The lowest signaled index wins and only it is consumed. */
	assert_int_equal(WaitForMultipleObjects(3, hs, FALSE, 0), WAIT_OBJECT_0 + 1);
	assert_int_equal(WaitForMultipleObjects(3, hs, FALSE, 0), WAIT_OBJECT_0 + 1);
	assert_int_equal(WaitForMultipleObjects(3, hs, FALSE, 0), WAIT_OBJECT_0 + 2);
	assert_true(ReleaseSemaphore(hs[1], 1, &prev));
	assert_int_equal(prev, 0);
	assert_true(SetEvent(hs[0]));
	assert_int_equal(WaitForMultipleObjects(3, hs, FALSE, 0), WAIT_OBJECT_0);
	assert_int_equal(WaitForMultipleObjects(3, hs, FALSE, 0), WAIT_OBJECT_0 + 1);
	for (int i = 0; i < 3; i++)
		CloseHandle(hs[i]);
}

static DWORD WINAPI wait_all_thread(void *arg)
{
	return WaitForMultipleObjects(2, arg, TRUE, INFINITE);
}

static void test_wait_all_is_atomic(void **state)
{
	HANDLE hs[2] = { CreateEventA(NULL, FALSE, FALSE, NULL), CreateSemaphoreA(NULL, 0, 5, NULL) };
	HANDLE t;
	DWORD code;
	LONG prev;

	/* Unsatisfiable: nothing consumed. */
	assert_true(SetEvent(hs[0]));
	assert_int_equal(WaitForMultipleObjects(2, hs, TRUE, 0), WAIT_TIMEOUT);
	assert_int_equal(WaitForSingleObject(hs[0], 0), WAIT_OBJECT_0);

	/* A blocked wait-all does not take the objects one by one. */
	assert_true(SetEvent(hs[0]));
	t = CreateThread(NULL, 0, wait_all_thread, hs, 0, NULL);
	assert_non_null(t);
	expect_waiters(hs[1], 1);
	/* The event stays available to others while the semaphore is 0. */
	assert_int_equal(WaitForSingleObject(hs[0], 0), WAIT_OBJECT_0);
	assert_true(SetEvent(hs[0]));
	assert_true(ReleaseSemaphore(hs[1], 2, &prev));
	assert_int_equal(prev, 0);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, WAIT_OBJECT_0);
	/* Both consumed once: event reset, semaphore 2 -> 1. */
	assert_int_equal(WaitForSingleObject(hs[0], 0), WAIT_TIMEOUT);
	assert_true(ReleaseSemaphore(hs[1], 1, &prev));
	assert_int_equal(prev, 1);
	CloseHandle(t);
	CloseHandle(hs[0]);
	CloseHandle(hs[1]);
}

static void test_invalid_wait_arguments(void **state)
{
	HANDLE hs[MAXIMUM_WAIT_OBJECTS + 1];
	HANDLE ev = CreateEventA(NULL, TRUE, TRUE, NULL), dup;

	for (int i = 0; i <= MAXIMUM_WAIT_OBJECTS; i++)
		hs[i] = ev;
	SetLastError(0);
	assert_int_equal(WaitForMultipleObjects(0, hs, FALSE, 0), WAIT_FAILED);
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_int_equal(WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS + 1, hs, FALSE, 0), WAIT_FAILED);
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	/* 64 is fine for wait-any, even all the same handle. */
	assert_int_equal(WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS, hs, FALSE, 0), WAIT_OBJECT_0);
	/* The same object twice in a wait-all is refused. */
	DuplicateHandle(GetCurrentProcess(), ev, GetCurrentProcess(), &dup, 0, FALSE, DUPLICATE_SAME_ACCESS);
	hs[1] = dup;
	SetLastError(0);
	assert_int_equal(WaitForMultipleObjects(2, hs, TRUE, 0), WAIT_FAILED);
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	/* One bad handle fails the whole wait. */
	hs[1] = (HANDLE)0x7777770;
	SetLastError(0);
	assert_int_equal(WaitForMultipleObjects(2, hs, FALSE, 0), WAIT_FAILED);
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	CloseHandle(dup);
	CloseHandle(ev);
}

static void test_semaphore_counts(void **state)
{
	HANDLE s = CreateSemaphoreA(NULL, 2, 3, NULL);
	LONG prev = -1;

	assert_int_equal(WaitForSingleObject(s, 0), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(s, 0), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(s, 0), WAIT_TIMEOUT);
	assert_true(ReleaseSemaphore(s, 3, &prev));
	assert_int_equal(prev, 0);
	SetLastError(0);
	prev = -5;
	assert_false(ReleaseSemaphore(s, 1, &prev));
	assert_int_equal(GetLastError(), ERROR_TOO_MANY_POSTS);
	assert_int_equal(prev, -5); /* untouched on failure */
	SetLastError(0);
	assert_false(ReleaseSemaphore(s, 0, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	assert_int_equal(WaitForSingleObject(s, 0), WAIT_OBJECT_0);
	assert_true(ReleaseSemaphore(s, 1, &prev));
	assert_int_equal(prev, 2);
	CloseHandle(s);

	SetLastError(0);
	assert_null(CreateSemaphoreA(NULL, 2, 1, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_null(CreateSemaphoreA(NULL, 0, 0, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
	SetLastError(0);
	assert_null(CreateSemaphoreA(NULL, -1, 1, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);
}

static void test_semaphore_wakes_as_many_as_released(void **state)
{
	struct waiter_ctx c = { .timeout = INFINITE };
	HANDLE threads[NTHREADS];

	c.obj = CreateSemaphoreA(NULL, 0, NTHREADS, NULL);
	c.done = CreateSemaphoreA(NULL, 0, NTHREADS, NULL);
	start_waiters(&c, threads, NTHREADS);
	expect_waiters(c.obj, NTHREADS);
	assert_true(ReleaseSemaphore(c.obj, 2, NULL));
	assert_int_equal(WaitForSingleObject(c.done, 5000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(c.done, 5000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(c.done, 30), WAIT_TIMEOUT);
	assert_int_equal(c.woken, 2);
	assert_true(ReleaseSemaphore(c.obj, NTHREADS - 2, NULL));
	join_all(threads, NTHREADS);
	assert_int_equal(c.woken, NTHREADS);
	assert_int_equal(WaitForSingleObject(c.obj, 0), WAIT_TIMEOUT);
	CloseHandle(c.obj);
	CloseHandle(c.done);
}

static DWORD WINAPI release_mutex_thread(void *arg)
{
	SetLastError(0);
	if (ReleaseMutex(arg))
		return 1;
	return GetLastError();
}

static void test_mutex_recursion_and_owner(void **state)
{
	HANDLE m = CreateMutexA(NULL, TRUE, NULL), t;
	DWORD code;

	assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0); /* recursion 2 */
	assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0); /* 3 */
	/* Another thread neither gets it nor may release it. */
	t = CreateThread(NULL, 0, release_mutex_thread, m, 0, NULL);
	WaitForSingleObject(t, INFINITE);
	GetExitCodeThread(t, &code);
	assert_int_equal(code, ERROR_NOT_OWNER);
	CloseHandle(t);
	{
		struct waiter_ctx c = { .obj = m, .timeout = 0 };

		t = CreateThread(NULL, 0, waiter, &c, 0, NULL);
		WaitForSingleObject(t, INFINITE);
		GetExitCodeThread(t, &code);
		assert_int_equal(code, WAIT_TIMEOUT);
		CloseHandle(t);
	}
	assert_true(ReleaseMutex(m));
	assert_true(ReleaseMutex(m));
	assert_true(ReleaseMutex(m));
	SetLastError(0);
	assert_false(ReleaseMutex(m));
	assert_int_equal(GetLastError(), ERROR_NOT_OWNER);
	CloseHandle(m);
}

static DWORD WINAPI take_and_exit(void *arg)
{
	HANDLE *hs = arg;

	WaitForSingleObject(hs[0], INFINITE);
	WaitForSingleObject(hs[0], INFINITE); /* recursion 2, then exit holding it */
	return 7;
}

static void test_mutex_abandoned(void **state)
{
	HANDLE m = CreateMutexA(NULL, FALSE, NULL);
	HANDLE hs[2] = { CreateEventA(NULL, TRUE, FALSE, NULL), m };
	HANDLE t = CreateThread(NULL, 0, take_and_exit, &hs[1], 0, NULL);

	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	/* Abandonment is reported once, to the next owner, with its index. */
	assert_int_equal(WaitForMultipleObjects(2, hs, FALSE, 0), WAIT_ABANDONED_0 + 1);
	assert_true(ReleaseMutex(m));
	assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0);
	assert_true(ReleaseMutex(m));
	SetLastError(0);
	assert_false(ReleaseMutex(m));
	assert_int_equal(GetLastError(), ERROR_NOT_OWNER);

	/* A waiter blocked when the owner exits gets WAIT_ABANDONED. */
	{
		struct waiter_ctx c = { .obj = m, .timeout = INFINITE };
		HANDLE w;
		DWORD code;

		assert_int_equal(WaitForSingleObject(m, 0), WAIT_OBJECT_0);
		w = CreateThread(NULL, 0, waiter, &c, 0, NULL);
		expect_waiters(m, 1);
		CloseHandle(t);
		t = CreateThread(NULL, 0, take_and_exit, &hs[1], 0, NULL);
		expect_waiters(m, 2);
		assert_true(ReleaseMutex(m)); /* FIFO: the waiter, then take_and_exit */
		assert_int_equal(WaitForSingleObject(w, 5000), WAIT_OBJECT_0);
		GetExitCodeThread(w, &code);
		assert_int_equal(code, WAIT_OBJECT_0);
		/* w exited holding it, then take_and_exit took it (seeing
		 * that abandonment) and exited holding it too. */
		assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
		assert_int_equal(WaitForSingleObject(m, 0), WAIT_ABANDONED_0);
		assert_true(ReleaseMutex(m));
		CloseHandle(w);
	}
	CloseHandle(t);
	CloseHandle(hs[0]);
	CloseHandle(m);
}

static void test_named_objects(void **state)
{
	HANDLE a, b, c, s;

	a = CreateEventA(NULL, TRUE, FALSE, "ndshim-test-ev");
	assert_non_null(a);
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	b = CreateEventW(NULL, FALSE, TRUE, u"ndshim-test-ev");
	assert_non_null(b);
	assert_int_equal(GetLastError(), ERROR_ALREADY_EXISTS);
	assert_ptr_not_equal(a, b);
	/* Same object (manual-reset, unsignaled: b's arguments ignored). */
	assert_int_equal(WaitForSingleObject(b, 0), WAIT_TIMEOUT);
	assert_true(SetEvent(a));
	assert_int_equal(WaitForSingleObject(b, 0), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(b, 0), WAIT_OBJECT_0);
	/* Another type under that name: refused. */
	SetLastError(0);
	s = CreateSemaphoreA(NULL, 0, 1, "ndshim-test-ev");
	assert_null(s);
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	CloseHandle(a);
	CloseHandle(b);
	/* Gone with its last handle: a new object. */
	c = CreateEventA(NULL, FALSE, FALSE, "ndshim-test-ev");
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	assert_int_equal(WaitForSingleObject(c, 0), WAIT_TIMEOUT);
	s = CreateMutexA(NULL, FALSE, "ndshim-test-mtx");
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	CloseHandle(s);
	CloseHandle(c);
	/* Unnamed objects never collide. */
	a = CreateEventA(NULL, FALSE, FALSE, NULL);
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	b = CreateEventA(NULL, FALSE, FALSE, "");
	assert_int_equal(GetLastError(), ERROR_SUCCESS);
	CloseHandle(a);
	CloseHandle(b);
}

static volatile DWORD apc_thread, apc_sum;

static void WINAPI apc_fn(ULONG_PTR data)
{
	apc_thread = GetCurrentThreadId();
	apc_sum += (DWORD)data;
}

static void test_apc_self(void **state)
{
	apc_sum = 0;
	assert_true(QueueUserAPC(apc_fn, GetCurrentThread(), 5));
	assert_true(QueueUserAPC(apc_fn, GetCurrentThread(), 7));
	assert_int_equal(SleepEx(0, FALSE), 0);
	assert_int_equal(apc_sum, 0); /* not alertable: not run */
	{
		/* A signaled object wins over pending APCs. */
		HANDLE ev = CreateEventA(NULL, TRUE, TRUE, NULL);

		assert_int_equal(WaitForSingleObjectEx(ev, 0, TRUE), WAIT_OBJECT_0);
		assert_int_equal(apc_sum, 0);
		CloseHandle(ev);
	}
	assert_int_equal(SleepEx(INFINITE, TRUE), WAIT_IO_COMPLETION);
	assert_int_equal(apc_sum, 12); /* both, in one alertable wait */
	assert_int_equal(apc_thread, GetCurrentThreadId());
	assert_int_equal(SleepEx(0, TRUE), 0);
}

static DWORD WINAPI alertable_waiter(void *arg)
{
	return WaitForSingleObjectEx(arg, INFINITE, TRUE);
}

static DWORD WINAPI nonalertable_waiter(void *arg)
{
	return WaitForSingleObjectEx(arg, 100, FALSE);
}

static void test_apc_interrupts_alertable_wait(void **state)
{
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	DWORD tid, code;
	HANDLE t = CreateThread(NULL, 0, alertable_waiter, ev, 0, &tid);

	apc_sum = 0;
	expect_waiters(ev, 1);
	assert_true(QueueUserAPC(apc_fn, t, 3));
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_true(GetExitCodeThread(t, &code));
	assert_int_equal(code, WAIT_IO_COMPLETION);
	assert_int_equal(apc_sum, 3);
	assert_int_equal(apc_thread, tid); /* ran on the target thread */
	CloseHandle(t);

	/* A non-alertable wait ignores it. */
	t = CreateThread(NULL, 0, nonalertable_waiter, ev, 0, NULL);
	expect_waiters(ev, 1);
	assert_true(QueueUserAPC(apc_fn, t, 100));
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	GetExitCodeThread(t, &code);
	assert_int_equal(code, WAIT_TIMEOUT);
	assert_int_equal(apc_sum, 3);
	/* ...and an ended thread takes no more. */
	SetLastError(0);
	assert_false(QueueUserAPC(apc_fn, t, 1));
	CloseHandle(t);
	CloseHandle(ev);
}

static void test_signal_object_and_wait(void **state)
{
	HANDLE a = CreateEventA(NULL, FALSE, FALSE, NULL), s = CreateSemaphoreA(NULL, 0, 1, NULL);

	assert_int_equal(SignalObjectAndWait(s, s, 0, FALSE), WAIT_OBJECT_0);
	assert_int_equal(SignalObjectAndWait(a, a, 0, FALSE), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(a, 0), WAIT_TIMEOUT);
	CloseHandle(a);
	CloseHandle(s);
}

static void test_internal_event_api(void **state)
{
	struct object *ev = event_create(false, false);
	HANDLE h = handle_create(ev, GENERIC_ALL, 0);

	assert_int_equal(wait_for_objects(1, &ev, false, 0, false), WAIT_TIMEOUT);
	assert_true(event_set_handle(h));
	assert_int_equal(WaitForSingleObject(h, 0), WAIT_OBJECT_0);
	event_set(ev);
	assert_int_equal(wait_for_objects(1, &ev, false, 0, false), WAIT_OBJECT_0);
	assert_int_equal(wait_for_objects(1, &ev, false, 0, false), WAIT_TIMEOUT);
	SetLastError(0);
	assert_false(event_set_handle((HANDLE)0x4444440));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	CloseHandle(h);
	object_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_reset_wakes_exactly_one),
		cmocka_unit_test(test_manual_reset_wakes_all),
		cmocka_unit_test(test_pulse_event),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_wait_any_order_and_consumption),
		cmocka_unit_test(test_wait_all_is_atomic),
		cmocka_unit_test(test_invalid_wait_arguments),
		cmocka_unit_test(test_semaphore_counts),
		cmocka_unit_test(test_semaphore_wakes_as_many_as_released),
		cmocka_unit_test(test_mutex_recursion_and_owner),
		cmocka_unit_test(test_mutex_abandoned),
		cmocka_unit_test(test_named_objects),
		cmocka_unit_test(test_apc_self),
		cmocka_unit_test(test_apc_interrupts_alertable_wait),
		cmocka_unit_test(test_signal_object_and_wait),
		cmocka_unit_test(test_internal_event_api),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}
