/* Completion ports with several threads.
 *
 * Windows rules checked (Microsoft's "I/O Completion Ports" article and
 * the GetQueuedCompletionStatus(Ex) / CreateIoCompletionPort docs):
 *  - threads blocked on a port are released last-in first-out;
 *  - NumberOfConcurrentThreads: while that many threads that dequeued
 *    from the port are running, queued packets are not handed to other
 *    waiting threads; a running thread that calls
 *    GetQueuedCompletionStatus again takes the next packet itself;
 *  - a thread that dequeued and then blocks in another wait
 *    (WaitForSingleObject) no longer counts, so a waiting thread gets the
 *    next packet;
 *  - an alertable GetQueuedCompletionStatusEx returns FALSE with
 *    WAIT_IO_COMPLETION once an APC queued to its thread has run; a
 *    non-alertable one leaves the APC queued;
 *  - closing the port's handle while threads wait on it makes them
 *    return FALSE with ERROR_ABANDONED_WAIT_0 and *lpOverlapped NULL.
 *
 * Wine deviations (checked with ok_todo_wine): Wine releases waiters in
 * FIFO order, does not enforce the concurrency limit, and leaves threads
 * waiting on a port whose handle was closed until their timeout.
 *
 * The program waits for threads to be blocked with short sleeps: Win32
 * offers no way to ask whether a thread waits on a port. */
#include "test.h"

#define QUIT_KEY 0xdead

struct lifo_ctx {
	HANDLE port;
	int index;
	volatile LONG *order_pos;
	int *order;
};

static DWORD WINAPI lifo_thread(void *arg)
{
	struct lifo_ctx *c = arg;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	if (GetQueuedCompletionStatus(c->port, &bytes, &key, &ov, 10000))
		c->order[InterlockedIncrement(c->order_pos) - 1] = c->index;
	return 0;
}

static void test_lifo(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 4);
	struct lifo_ctx ctx[3];
	HANDLE threads[3];
	volatile LONG pos = 0;
	int order[3] = { -1, -1, -1 };
	int i;

	for (i = 0; i < 3; i++) {
		ctx[i].port = port;
		ctx[i].index = i;
		ctx[i].order_pos = &pos;
		ctx[i].order = order;
		threads[i] = CreateThread(NULL, 0, lifo_thread, &ctx[i], 0, NULL);
		Sleep(150); /* let it block before the next one comes */
	}
	for (i = 0; i < 3; i++) {
		LONG want = i + 1;

		PostQueuedCompletionStatus(port, 0, 1, NULL);
		for (int spin = 0; spin < 500 && pos < want; spin++)
			Sleep(10);
	}
	WaitForMultipleObjects(3, threads, TRUE, 10000);
	ok_todo_wine(order[0] == 2 && order[1] == 1 && order[2] == 0, "release order %d %d %d, want 2 1 0\n",
	   order[0], order[1], order[2]);
	for (i = 0; i < 3; i++)
		CloseHandle(threads[i]);
	CloseHandle(port);
}

/* ---- concurrency ------------------------------------------------------ */

struct conc_ctx {
	HANDLE port, event;
	volatile LONG got[2];     /* packets each worker dequeued */
	volatile LONG release;    /* the busy worker may go on */
	volatile LONG busy_index; /* which worker holds the first packet */
	int block_in_wait;        /* the busy worker waits on event instead of spinning */
};

struct worker_arg {
	struct conc_ctx *c;
	int index;
};

static DWORD WINAPI conc_worker(void *arg)
{
	struct worker_arg *w = arg;
	struct conc_ctx *c = w->c;
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes;

	for (;;) {
		if (!GetQueuedCompletionStatus(c->port, &bytes, &key, &ov, 10000) || key == QUIT_KEY)
			return 0;
		InterlockedIncrement(&c->got[w->index]);
		if (key == 1) {
			/* The first packet: keep running (or block) for a while. */
			InterlockedExchange(&c->busy_index, w->index);
			if (c->block_in_wait) {
				WaitForSingleObject(c->event, 10000);
			} else {
				while (!c->release)
					YieldProcessor();
			}
		}
	}
}

static void run_concurrency(int block_in_wait)
{
	struct conc_ctx c = { 0 };
	struct worker_arg args[2];
	HANDLE threads[2];
	int i, busy, other;

	c.port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	c.event = CreateEventA(NULL, TRUE, FALSE, NULL);
	c.busy_index = -1;
	c.block_in_wait = block_in_wait;
	for (i = 0; i < 2; i++) {
		args[i].c = &c;
		args[i].index = i;
		threads[i] = CreateThread(NULL, 0, conc_worker, &args[i], 0, NULL);
	}
	Sleep(200);
	PostQueuedCompletionStatus(c.port, 0, 1, NULL);
	for (i = 0; i < 200 && c.busy_index < 0; i++)
		Sleep(10);
	ok(c.busy_index >= 0, "nobody took the first packet\n");
	busy = c.busy_index;
	other = !busy;
	PostQueuedCompletionStatus(c.port, 0, 2, NULL);
	Sleep(300);
	if (block_in_wait) {
		ok(c.got[other] == 1, "the idle worker got %ld packets while the first one waited\n",
		   c.got[other]);
		SetEvent(c.event);
	} else {
		ok_todo_wine(c.got[other] == 0, "the limit of 1 was exceeded: the idle worker got %ld packets\n",
		   c.got[other]);
		InterlockedExchange(&c.release, 1);
		/* The running worker calls in again and takes it itself. */
		for (i = 0; i < 200 && c.got[busy] < 2; i++)
			Sleep(10);
		ok_todo_wine(c.got[busy] == 2 && c.got[other] == 0, "busy worker got %ld, idle worker got %ld\n",
		   c.got[busy], c.got[other]);
	}
	PostQueuedCompletionStatus(c.port, 0, QUIT_KEY, NULL);
	PostQueuedCompletionStatus(c.port, 0, QUIT_KEY, NULL);
	ok(WaitForMultipleObjects(2, threads, TRUE, 10000) == WAIT_OBJECT_0, "workers did not end\n");
	for (i = 0; i < 2; i++)
		CloseHandle(threads[i]);
	CloseHandle(c.event);
	CloseHandle(c.port);
}

/* ---- alertable removal ------------------------------------------------ */

static volatile LONG apc_ran;

static void CALLBACK apc(ULONG_PTR data)
{
	InterlockedAdd(&apc_ran, (LONG)data);
}

struct alert_ctx {
	HANDLE port;
	BOOL ret;
	DWORD error;
	ULONG removed;
	LONG apcs_seen;
};

static DWORD WINAPI alertable_thread(void *arg)
{
	struct alert_ctx *c = arg;
	OVERLAPPED_ENTRY e[2];

	c->removed = 77;
	SetLastError(0xdeadbeef);
	c->ret = GetQueuedCompletionStatusEx(c->port, e, 2, &c->removed, 10000, TRUE);
	c->error = GetLastError();
	c->apcs_seen = apc_ran;
	return 0;
}

static DWORD WINAPI nonalertable_thread(void *arg)
{
	struct alert_ctx *c = arg;
	OVERLAPPED_ENTRY e[2];

	SetLastError(0xdeadbeef);
	c->ret = GetQueuedCompletionStatusEx(c->port, e, 2, &c->removed, 400, FALSE);
	c->error = GetLastError();
	c->apcs_seen = apc_ran;
	/* Now alertable with the APC pending: it runs at once. */
	SleepEx(0, TRUE);
	return 0;
}

static void test_alertable(void)
{
	struct alert_ctx c = { 0 };
	HANDLE t;

	c.port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	apc_ran = 0;
	t = CreateThread(NULL, 0, alertable_thread, &c, 0, NULL);
	Sleep(200);
	ok(QueueUserAPC(apc, t, 5), "QueueUserAPC failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(t, 5000) == WAIT_OBJECT_0, "the alertable wait did not end\n");
	ok(!c.ret && c.error == WAIT_IO_COMPLETION, "got %d, error %lu\n", c.ret, c.error);
	ok(c.apcs_seen == 5, "the APC had not run (%ld)\n", c.apcs_seen);
	CloseHandle(t);

	apc_ran = 0;
	t = CreateThread(NULL, 0, nonalertable_thread, &c, 0, NULL);
	Sleep(100);
	QueueUserAPC(apc, t, 3);
	ok(WaitForSingleObject(t, 5000) == WAIT_OBJECT_0, "thread did not end\n");
	ok(!c.ret && c.error == WAIT_TIMEOUT, "got %d, error %lu\n", c.ret, c.error);
	ok(c.apcs_seen == 0, "an APC ran in a non-alertable removal\n");
	ok(apc_ran == 3, "the APC did not run later (%ld)\n", apc_ran);
	CloseHandle(t);
	CloseHandle(c.port);
}

/* ---- closing a port with waiters ---------------------------------------- */

struct close_ctx {
	HANDLE port;
	BOOL ret;
	DWORD error;
	OVERLAPPED *ov;
};

static DWORD WINAPI close_waiter(void *arg)
{
	struct close_ctx *c = arg;
	ULONG_PTR key;
	DWORD bytes;

	c->ov = (OVERLAPPED *)0x1234;
	SetLastError(0xdeadbeef);
	c->ret = GetQueuedCompletionStatus(c->port, &bytes, &key, &c->ov, 2000);
	c->error = GetLastError();
	return 0;
}

static void test_close_with_waiters(void)
{
	struct close_ctx c[2];
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0), t[2];
	int i;

	for (i = 0; i < 2; i++) {
		c[i].port = port;
		t[i] = CreateThread(NULL, 0, close_waiter, &c[i], 0, NULL);
	}
	Sleep(200);
	ok(CloseHandle(port), "CloseHandle failed\n");
	ok_todo_wine(WaitForMultipleObjects(2, t, TRUE, 1000) == WAIT_OBJECT_0,
		     "waiters were not released\n");
	WaitForMultipleObjects(2, t, TRUE, 5000);
	for (i = 0; i < 2; i++) {
		ok_todo_wine(!c[i].ret && c[i].error == ERROR_ABANDONED_WAIT_0,
			     "waiter %d: got %d, error %lu\n", i, c[i].ret, c[i].error);
		ok(c[i].ov == NULL, "waiter %d: ov %p\n", i, (void *)c[i].ov);
		CloseHandle(t[i]);
	}
}

int main(void)
{
	test_lifo();
	run_concurrency(0);
	run_concurrency(1);
	test_alertable();
	test_close_with_waiters();
	return test_summary();
}
