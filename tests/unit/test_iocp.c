/* Completion ports (core/iocp.c) and the overlapped-completion path
 * (core/overlapped.c), driven through their internal API with counts
 * read from the port: packet queue, LIFO hand-off, the concurrency count
 * and the wait-engine hooks, alerts, close; io_complete's rules. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define WIN32_NO_STATUS
#include "core/file.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/overlapped.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "win32_helper.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static void counts(struct object *port, unsigned int *w, unsigned int *a, unsigned int *q)
{
	iocp_get_counts(port, w, a, q);
}

/* Test-side only: bounded wait until the port has n waiters. */
static void expect_waiters(struct object *port, unsigned int n)
{
	unsigned int w = 0;

	for (int i = 0; i < 5000; i++) {
		counts(port, &w, NULL, NULL);
		if (w == n)
			break;
		Sleep(1);
	}
	assert_int_equal(w, n);
}

static void test_queue(void **state)
{
	struct object *port = iocp_create(0);
	OVERLAPPED_ENTRY e[4];
	unsigned int q, a;
	ULONG n;

	assert_non_null(port);
	for (int i = 0; i < 3; i++)
		assert_true(iocp_post(port, i, (OVERLAPPED *)(uintptr_t)(0x10 * (i + 1)),
				      i == 1 ? STATUS_CANCELLED : STATUS_SUCCESS, 100 + i));
	counts(port, NULL, &a, &q);
	assert_int_equal(q, 3);
	assert_int_equal(a, 0);
	assert_int_equal(iocp_remove(port, e, 4, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(n, 3);
	assert_int_equal(e[1].lpCompletionKey, 1);
	assert_int_equal((uintptr_t)e[1].lpOverlapped, 0x20);
	assert_int_equal(e[1].Internal, (ULONG)STATUS_CANCELLED);
	assert_int_equal(e[2].dwNumberOfBytesTransferred, 102);
	/* The dequeuing thread is now active on the port. */
	counts(port, NULL, &a, &q);
	assert_int_equal(a, 1);
	assert_int_equal(q, 0);
	assert_int_equal(iocp_remove(port, e, 4, &n, 0, false), WAIT_TIMEOUT);
	counts(port, NULL, &a, NULL);
	assert_int_equal(a, 0);
	object_unref(port);
}

struct waiter {
	struct object *port;
	DWORD result;
	ULONG_PTR key;
	DWORD timeout;
	bool alertable;
	int order;
	volatile LONG *next;
};

static DWORD WINAPI waiter_main(void *arg)
{
	struct waiter *w = arg;
	OVERLAPPED_ENTRY e;
	ULONG n;

	w->result = iocp_remove(w->port, &e, 1, &n, w->timeout, w->alertable);
	if (w->result == WAIT_OBJECT_0) {
		w->key = e.lpCompletionKey;
		if (w->next)
			w->order = InterlockedIncrement(w->next);
	}
	return 0;
}

static HANDLE start_waiter(struct waiter *w)
{
	HANDLE t = CreateThread(NULL, 0, waiter_main, w, 0, NULL);

	assert_non_null(t);
	return t;
}

/* The most recent waiter gets the packet. */
static void test_lifo(void **state)
{
	struct object *port = iocp_create(8);
	struct waiter w[3];
	volatile LONG next = 0;
	HANDLE t[3];

	for (int i = 0; i < 3; i++) {
		w[i] = (struct waiter){ .port = port, .timeout = 10000, .next = &next };
		t[i] = start_waiter(&w[i]);
		expect_waiters(port, i + 1);
	}
	for (int i = 0; i < 3; i++) {
		iocp_post(port, 100 + i, NULL, 0, 0);
		expect_waiters(port, 2 - i);
	}
	assert_int_equal(WaitForMultipleObjects(3, t, TRUE, 10000), WAIT_OBJECT_0);
	assert_int_equal(w[2].key, 100);
	assert_int_equal(w[1].key, 101);
	assert_int_equal(w[0].key, 102);
	for (int i = 0; i < 3; i++)
		CloseHandle(t[i]);
	object_unref(port);
}

/* Concurrency 1: the main thread is active on the port; a waiter gets
 * nothing until the main thread blocks elsewhere (the wait-engine hook)
 * or calls in again. */
static void test_concurrency_and_hooks(void **state)
{
	struct object *port = iocp_create(1), *ev = event_create(true, false);
	struct waiter w = { .port = port, .timeout = 10000 };
	OVERLAPPED_ENTRY e;
	unsigned int a, q;
	HANDLE t;
	ULONG n;

	iocp_post(port, 1, NULL, 0, 0);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_OBJECT_0);
	t = start_waiter(&w);
	expect_waiters(port, 1);
	iocp_post(port, 2, NULL, 0, 0);
	counts(port, NULL, &a, &q);
	assert_int_equal(a, 1);
	assert_int_equal(q, 1); /* held back by the limit */

	/* Blocking in the wait engine releases the waiter. */
	assert_int_equal(wait_for_objects(1, &ev, false, 200, false), WAIT_TIMEOUT);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_OBJECT_0);
	assert_int_equal(w.key, 2);
	CloseHandle(t);
	/* The waiter thread exited: it no longer counts; we count again. */
	counts(port, NULL, &a, &q);
	assert_int_equal(a, 1);

	/* Sleep is a wait too. */
	w = (struct waiter){ .port = port, .timeout = 10000 };
	t = start_waiter(&w);
	expect_waiters(port, 1);
	iocp_post(port, 3, NULL, 0, 0);
	Sleep(100);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(w.key, 3);
	CloseHandle(t);

	/* Calling in again: the caller takes the packet itself. */
	w = (struct waiter){ .port = port, .timeout = 300 };
	t = start_waiter(&w);
	expect_waiters(port, 1);
	iocp_post(port, 4, NULL, 0, 0);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(e.lpCompletionKey, 4);
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_TIMEOUT);
	CloseHandle(t);

	/* Leave the port. */
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_TIMEOUT);
	counts(port, NULL, &a, NULL);
	assert_int_equal(a, 0);
	object_unref(ev);
	object_unref(port);
}

static void CALLBACK apc_fn(ULONG_PTR data)
{
	*(int *)data += 1;
}

static void test_alert_and_close(void **state)
{
	struct object *port = iocp_create(0);
	struct waiter w = { .port = port, .timeout = 10000, .alertable = true };
	struct waiter w2 = { .port = port, .timeout = 10000 };
	int ran = 0;
	HANDLE h, t, t2;

	t = start_waiter(&w);
	expect_waiters(port, 1);
	assert_true(QueueUserAPC(apc_fn, t, (ULONG_PTR)&ran));
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_IO_COMPLETION);
	assert_int_equal(ran, 1);
	CloseHandle(t);
	expect_waiters(port, 0);

	/* A post after an alert goes to the remaining waiter. */
	h = handle_create(port, 0, 0);
	w = (struct waiter){ .port = port, .timeout = 10000 };
	t = start_waiter(&w);
	t2 = start_waiter(&w2);
	expect_waiters(port, 2);
	assert_true(CloseHandle(h));
	assert_int_equal(WaitForSingleObject(t, 5000), WAIT_OBJECT_0);
	assert_int_equal(WaitForSingleObject(t2, 5000), WAIT_OBJECT_0);
	assert_int_equal(w.result, WAIT_ABANDONED_0);
	assert_int_equal(w2.result, WAIT_ABANDONED_0);
	CloseHandle(t);
	CloseHandle(t2);
	object_unref(port);
}

/* io_complete's rules on a file object's io target. */
static void test_completion_rules(void **state)
{
	struct file *f = file_create(-1, GENERIC_READ, FILE_FLAG_OVERLAPPED, false);
	struct object *port = iocp_create(0), *ev = event_create(true, false);
	HANDLE evh = handle_create(ev, EVENT_ALL_ACCESS, 0);
	OVERLAPPED ov = { 0 };
	OVERLAPPED_ENTRY e;
	unsigned int q;
	ULONG n;

	assert_true(io_target_associate(&f->io, port, 9));
	assert_false(io_target_associate(&f->io, port, 10));
	assert_int_equal(GetLastError(), ERROR_INVALID_PARAMETER);

	ov.hEvent = evh;
	io_begin(&f->io, &ov);
	assert_int_equal(ov.Internal, STATUS_PENDING);
	io_complete(&f->io, &ov, STATUS_SUCCESS, 5, true); /* sync success: packet (no flag) */
	assert_int_equal(ov.InternalHigh, 5);
	assert_int_equal(WaitForSingleObject(evh, 0), WAIT_OBJECT_0);
	counts(port, NULL, NULL, &q);
	assert_int_equal(q, 1);
	assert_true(io_target_signaled(&f->io));

	io_begin(&f->io, &ov); /* resets the event and the object's state */
	assert_int_equal(WaitForSingleObject(evh, 0), WAIT_TIMEOUT);
	assert_false(io_target_signaled(&f->io));
	io_complete(&f->io, &ov, STATUS_END_OF_FILE, 0, true); /* sync failure: nothing */
	assert_int_equal(ov.Internal, (ULONG)STATUS_END_OF_FILE);
	assert_int_equal(WaitForSingleObject(evh, 0), WAIT_TIMEOUT);
	counts(port, NULL, NULL, &q);
	assert_int_equal(q, 1);

	io_target_add_modes(&f->io, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE);
	io_begin(&f->io, &ov);
	io_complete(&f->io, &ov, STATUS_SUCCESS, 1, true); /* skipped */
	counts(port, NULL, NULL, &q);
	assert_int_equal(q, 1);
	assert_int_equal(WaitForSingleObject(evh, 0), WAIT_OBJECT_0); /* hEvent still set */
	assert_false(io_target_signaled(&f->io));
	io_begin(&f->io, &ov);
	io_complete(&f->io, &ov, STATUS_BUFFER_OVERFLOW, 1, true); /* a warning is not a success */
	io_complete(&f->io, &ov, STATUS_SUCCESS, 2, false);         /* async: always */
	ov.hEvent = (HANDLE)((ULONG_PTR)evh | 1);
	io_complete(&f->io, &ov, STATUS_SUCCESS, 3, false); /* low bit: never */
	counts(port, NULL, NULL, &q);
	assert_int_equal(q, 3);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(e.dwNumberOfBytesTransferred, 5);
	assert_int_equal(e.lpCompletionKey, 9);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(e.Internal, (ULONG)STATUS_BUFFER_OVERFLOW);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(e.dwNumberOfBytesTransferred, 2);
	assert_int_equal(iocp_remove(port, &e, 1, &n, 0, false), WAIT_TIMEOUT);

	handle_close(evh);
	object_unref(ev);
	file_release(f);
	object_unref(port);
}

static bool match_all(struct io_request *req, void *ctx)
{
	return true;
}

static void test_pending_and_cancel(void **state)
{
	struct file *f = file_create(-1, GENERIC_READ, FILE_FLAG_OVERLAPPED, false);
	struct object *port = iocp_create(0);
	OVERLAPPED ov[3] = { { 0 } };
	OVERLAPPED_ENTRY e[3];
	ULONG n;

	io_target_associate(&f->io, port, 1);
	for (int i = 0; i < 3; i++) {
		io_begin(&f->io, &ov[i]);
		pthread_mutex_lock(f->io.lock);
		assert_non_null(io_request_add_locked(&f->io, &ov[i], 1, 0, 0));
		pthread_mutex_unlock(f->io.lock);
	}
	assert_true(io_finish(&f->io, &ov[1], STATUS_SUCCESS, 7));
	assert_false(io_finish(&f->io, &ov[1], STATUS_SUCCESS, 7));
	assert_int_equal(io_cancel(&f->io, match_all, NULL, STATUS_CANCELLED), 2);
	assert_int_equal(io_cancel(&f->io, match_all, NULL, STATUS_CANCELLED), 0);
	assert_int_equal(iocp_remove(port, e, 3, &n, 0, false), WAIT_OBJECT_0);
	assert_int_equal(n, 3);
	assert_ptr_equal(e[0].lpOverlapped, &ov[1]);
	assert_ptr_equal(e[1].lpOverlapped, &ov[0]); /* cancelled in issue order */
	assert_ptr_equal(e[2].lpOverlapped, &ov[2]);
	assert_int_equal(e[2].Internal, (ULONG)STATUS_CANCELLED);
	assert_int_equal(RtlNtStatusToDosError(STATUS_CANCELLED), ERROR_OPERATION_ABORTED);
	assert_int_equal(RtlNtStatusToDosError(0xc0070000 | ERROR_DISK_FULL), ERROR_DISK_FULL);
	assert_int_equal(RtlNtStatusToDosError(0xc0ffee00), ERROR_MR_MID_NOT_FOUND);
	iocp_remove(port, e, 1, &n, 0, false); /* leave the port */
	file_release(f);
	object_unref(port);
}

/* The port a thread is active on is found through a per-thread cache of
 * its handle: closing that handle, and another port taking the same
 * handle value, must both be seen at once. */
static void test_active_port_handle_cache(void **state)
{
	HANDLE a = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1), b;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	assert_non_null(a);
	for (ULONG_PTR i = 1; i <= 3; i++) {
		assert_true(PostQueuedCompletionStatus(a, 0, i, NULL));
		assert_true(GetQueuedCompletionStatus(a, &bytes, &key, &ov, 0));
		assert_int_equal(key, i);
	}
	/* Active on a (which its activity keeps alive), a's handle closed. */
	assert_true(CloseHandle(a));
	SetLastError(0);
	assert_false(PostQueuedCompletionStatus(a, 0, 4, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(GetQueuedCompletionStatus(a, &bytes, &key, &ov, 0));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	/* The freed slot goes to the next handle: the same value, another
	 * port. */
	b = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	assert_ptr_equal(b, a);
	SetLastError(0);
	assert_false(GetQueuedCompletionStatus(b, &bytes, &key, &ov, 0));
	assert_int_equal(GetLastError(), WAIT_TIMEOUT);
	assert_true(PostQueuedCompletionStatus(b, 0, 5, NULL));
	assert_true(GetQueuedCompletionStatus(b, &bytes, &key, &ov, 0));
	assert_int_equal(key, 5);
	assert_true(PostQueuedCompletionStatus(b, 0, 6, NULL));
	assert_true(GetQueuedCompletionStatus(b, &bytes, &key, &ov, 0));
	assert_int_equal(key, 6);
	assert_true(CloseHandle(b));
	iocp_thread_exit(); /* leave b */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_lifo),
		cmocka_unit_test(test_concurrency_and_hooks),
		cmocka_unit_test(test_alert_and_close),
		cmocka_unit_test(test_completion_rules),
		cmocka_unit_test(test_pending_and_cancel),
		cmocka_unit_test(test_active_port_handle_cache),
	};

	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}
