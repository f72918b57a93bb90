/* Completion ports from a thread active on its port: the calls after a
 * thread's first dequeue from a port, which ndrun serves inline
 * (core/iocp_fast.h), must keep every rule of the first call.
 *
 * Windows rules checked (Microsoft's GetQueuedCompletionStatus(Ex),
 * PostQueuedCompletionStatus docs; faults as kernelbase writes the
 * out-pointers in the caller's process):
 *  - posts and dequeues on the same port keep FIFO order with their
 *    byte count, key and OVERLAPPED pointer, one or several queued;
 *  - a byte count that cannot be written is an access violation (write,
 *    at that address) after the packet was removed: the packet is gone,
 *    and the key and *lpOverlapped were written first;
 *  - an lpOverlapped that cannot be written is an access violation
 *    before anything is removed: the packet stays queued;
 *  - a NULL key fails with ERROR_NOACCESS and removes nothing;
 *  - a thread blocked in the port while the active one (concurrency 1)
 *    keeps posting and dequeuing stays blocked; it gets a packet once the
 *    active thread blocks elsewhere;
 *  - a closed port handle fails with ERROR_INVALID_HANDLE, also when it
 *    named the port the thread is active on, and a new port (which may
 *    get the same handle value) works from the first call;
 *  - GetQueuedCompletionStatusEx takes up to ulCount queued packets.
 *
 * Wine deviations (checked with ok_todo_wine): Wine does not enforce the
 * concurrency limit (as iocp_threads shows), so its blocked thread takes
 * a packet the active thread posted; with a NULL key it removes the
 * packet (in wineserver) before it finds it cannot write the key, and
 * the packet is lost, where Windows' NtRemoveIoCompletion checks its
 * out-pointers first. */
#include "test.h"
#include "catch_av.h"

static OVERLAPPED *ov_of(ULONG_PTR v)
{
	return (OVERLAPPED *)(v << 4);
}

/* A dequeue with timeout 0 that must return exactly this packet. */
static void expect(HANDLE port, ULONG_PTR want, int line)
{
	OVERLAPPED *ov = (OVERLAPPED *)1;
	ULONG_PTR key = 0;
	DWORD n = 0;
	BOOL r = GetQueuedCompletionStatus(port, &n, &key, &ov, 0);

	ok(r && key == want && n == (DWORD)want && ov == ov_of(want),
	   "line %d: got %d, key %lu, %lu bytes, ov %p (error %lu), expected %lu\n", line, r,
	   (unsigned long)key, n, (void *)ov, r ? 0 : GetLastError(), (unsigned long)want);
}

static void expect_empty(HANDLE port, int line)
{
	OVERLAPPED *ov = (OVERLAPPED *)1;
	ULONG_PTR key;
	DWORD n;
	BOOL r;

	SetLastError(0xdeadbeef);
	r = GetQueuedCompletionStatus(port, &n, &key, &ov, 0);
	ok(!r && GetLastError() == WAIT_TIMEOUT && !ov, "line %d: got %d, error %lu, ov %p\n", line, r,
	   GetLastError(), (void *)ov);
}

static void post(HANDLE port, ULONG_PTR v)
{
	ok(PostQueuedCompletionStatus(port, (DWORD)v, v, ov_of(v)), "post %lu: error %lu\n", (unsigned long)v,
	   GetLastError());
}

static void test_fifo(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	ULONG_PTR v = 1;
	int bad = 0;

	/* The first dequeue makes this thread active on the port. */
	post(port, v);
	expect(port, v, __LINE__);
	for (int i = 0; i < 2000; i++) {
		OVERLAPPED *ov;
		ULONG_PTR key;
		DWORD n;
		int depth = 1 + i % 4;

		for (int j = 1; j <= depth; j++)
			if (!PostQueuedCompletionStatus(port, (DWORD)(v + j), v + j, ov_of(v + j)))
				bad++;
		for (int j = 1; j <= depth; j++)
			if (!GetQueuedCompletionStatus(port, &n, &key, &ov, 0) || key != v + j || n != (DWORD)(v + j) ||
			    ov != ov_of(v + j))
				bad++;
		v += depth;
	}
	ok(!bad, "%d packets lost, reordered or changed\n", bad);
	expect_empty(port, __LINE__);
	CloseHandle(port);
}

struct gqcs_args {
	HANDLE port;
	DWORD *bytes;
	ULONG_PTR *key;
	OVERLAPPED **ov;
	BOOL ret;
	DWORD err;
};

static void gqcs_call(void *arg)
{
	struct gqcs_args *a = arg;

	SetLastError(0xdeadbeef);
	a->ret = 99;
	a->ret = GetQueuedCompletionStatus(a->port, a->bytes, a->key, a->ov, 0);
	a->err = GetLastError();
}

static void test_misuse(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	char *ro = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READONLY);
	OVERLAPPED *ov = (OVERLAPPED *)1;
	ULONG_PTR key = 0;
	DWORD n = 0;
	struct gqcs_args a = { port, &n, &key, &ov, 0, 0 };

	post(port, 1);
	expect(port, 1, __LINE__);

	/* A read-only byte count: the packet is removed, key and
	 * lpOverlapped written, then the fault. */
	post(port, 2);
	a.bytes = (DWORD *)ro;
	ok(catch_av(gqcs_call, &a) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == (ULONG_PTR)ro,
	   "read-only byte count: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	ok(a.ret == 99, "read-only byte count: the call returned %d\n", a.ret);
	ok(key == 2 && ov == ov_of(2), "read-only byte count: key %lu, ov %p\n", (unsigned long)key, (void *)ov);
	expect_empty(port, __LINE__);

	/* The same with NULL. */
	post(port, 3);
	a.bytes = NULL;
	ok(catch_av(gqcs_call, &a) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == 0,
	   "NULL byte count: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	expect_empty(port, __LINE__);

	/* A read-only lpOverlapped: nothing is removed. */
	post(port, 4);
	a.bytes = &n;
	a.ov = (OVERLAPPED **)ro;
	ok(catch_av(gqcs_call, &a) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == (ULONG_PTR)ro,
	   "read-only lpOverlapped: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	ok(a.ret == 99, "read-only lpOverlapped: the call returned %d\n", a.ret);
	expect(port, 4, __LINE__);

	/* A NULL key: ERROR_NOACCESS, nothing removed, *lpOverlapped NULL. */
	post(port, 5);
	ov = (OVERLAPPED *)1;
	a.ov = &ov;
	a.key = NULL;
	ok(!catch_av(gqcs_call, &a) && !a.ret && a.err == ERROR_NOACCESS && !ov,
	   "NULL key: caught %d, returned %d, error %lu, ov %p\n", caught, a.ret, a.err, (void *)ov);
	if (test_on_wine()) {
		ok_todo_wine(GetQueuedCompletionStatus(port, &n, &key, &ov, 0), "the packet was lost\n");
	} else {
		expect(port, 5, __LINE__);
	}

	/* And good pointers work on after the faults. */
	post(port, 6);
	a.key = &key;
	ok(!catch_av(gqcs_call, &a) && a.ret == TRUE && n == 6 && key == 6 && ov == ov_of(6),
	   "after the faults: caught %d, returned %d, %lu bytes, key %lu, ov %p\n", caught, a.ret, n,
	   (unsigned long)key, (void *)ov);
	VirtualFree(ro, 0, MEM_RELEASE);
	CloseHandle(port);
}

struct blocked {
	HANDLE port, started;
	BOOL ret;
	ULONG_PTR key;
};

static DWORD WINAPI blocked_thread(void *arg)
{
	struct blocked *b = arg;
	OVERLAPPED *ov;
	DWORD n;

	SetEvent(b->started);
	b->ret = GetQueuedCompletionStatus(b->port, &n, &b->key, &ov, 5000);
	return 0;
}

static void test_concurrency(void)
{
	struct blocked b = { CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1),
			     CreateEventA(NULL, TRUE, FALSE, NULL), 99, 0 };
	OVERLAPPED *ov;
	ULONG_PTR key;
	int mine = 0, posted = 0;
	DWORD n;
	HANDLE t;

	post(b.port, 1);
	expect(b.port, 1, __LINE__);
	t = CreateThread(NULL, 0, blocked_thread, &b, 0, NULL);
	WaitForSingleObject(b.started, 5000);
	/* Time for it to block in the port (this thread's waits do not
	 * count against the limit meanwhile, but the queue is empty). */
	Sleep(100);
	/* Awake again, this thread counts: the limit of 1 is reached, so
	 * its posts stay queued for itself. */
	for (ULONG_PTR v = 2; v < 200; v++) {
		post(b.port, v);
		posted++;
		if (GetQueuedCompletionStatus(b.port, &n, &key, &ov, 0) && key == v && n == (DWORD)v)
			mine++;
	}
	ok_todo_wine(mine == posted, "the active thread got %d of the %d packets it posted\n", mine, posted);
	ok_todo_wine(WaitForSingleObject(t, 0) == WAIT_TIMEOUT, "the blocked thread got a packet past the limit\n");
	/* This thread blocks in another wait: the waiter takes the next
	 * packet. */
	post(b.port, 500);
	ok(WaitForSingleObject(t, 5000) == WAIT_OBJECT_0, "the blocked thread did not end\n");
	ok_todo_wine(b.ret == TRUE && b.key == 500, "blocked thread: returned %d, key %lu\n", b.ret,
		     (unsigned long)b.key);
	CloseHandle(t);
	CloseHandle(b.started);
	CloseHandle(b.port);
}

static void test_closed_and_reused(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1), port2;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD n;

	post(port, 1);
	expect(port, 1, __LINE__);
	post(port, 2);
	CloseHandle(port);
	SetLastError(0xdeadbeef);
	ok(!PostQueuedCompletionStatus(port, 1, 2, NULL) && GetLastError() == ERROR_INVALID_HANDLE,
	   "post to the closed port: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetQueuedCompletionStatus(port, &n, &key, &ov, 0) && GetLastError() == ERROR_INVALID_HANDLE,
	   "dequeue from the closed port: error %lu\n", GetLastError());
	/* ndrun reuses the value: the thread's cached handle must not
	 * name the old port. */
	port2 = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	ok(port2 != NULL, "second port: error %lu\n", GetLastError());
	post(port2, 7);
	expect(port2, 7, __LINE__);
	post(port2, 8);
	expect(port2, 8, __LINE__);
	expect_empty(port2, __LINE__);
	CloseHandle(port2);
}

static void test_ex_batches(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	OVERLAPPED_ENTRY e[4];
	ULONG removed = 99;
	BOOL r;

	post(port, 1);
	expect(port, 1, __LINE__);
	for (ULONG_PTR v = 2; v <= 7; v++)
		post(port, v);
	r = GetQueuedCompletionStatusEx(port, e, 4, &removed, 0, FALSE);
	ok(r && removed == 4, "first batch: returned %d, %lu removed\n", r, removed);
	for (ULONG i = 0; r && i < removed; i++)
		ok(e[i].lpCompletionKey == 2 + i && e[i].dwNumberOfBytesTransferred == 2 + i &&
			   e[i].lpOverlapped == ov_of(2 + i),
		   "entry %lu: key %lu\n", i, (unsigned long)e[i].lpCompletionKey);
	r = GetQueuedCompletionStatusEx(port, e, 4, &removed, 0, TRUE);
	ok(r && removed == 2 && e[0].lpCompletionKey == 6 && e[1].lpCompletionKey == 7,
	   "second batch: returned %d, %lu removed\n", r, removed);
	SetLastError(0xdeadbeef);
	r = GetQueuedCompletionStatusEx(port, e, 4, &removed, 0, FALSE);
	ok(!r && GetLastError() == WAIT_TIMEOUT, "empty: returned %d, error %lu\n", r, GetLastError());
	post(port, 9);
	expect(port, 9, __LINE__);
	CloseHandle(port);
}

int main(void)
{
	test_fifo();
	test_misuse();
	test_concurrency();
	test_closed_and_reused();
	test_ex_batches();
	return test_summary();
}
