/* Timer queues: one-shot and periodic timers on a queue of one's own and
 * on the default queue, WT_EXECUTEONLYONCE, WT_EXECUTEINTIMERTHREAD (one
 * timer thread for all), ChangeTimerQueueTimer (from outside and from a
 * callback; a fired one-shot timer is not re-armed), and the deletion
 * protocol: INVALID_HANDLE_VALUE waits for a running callback, NULL
 * returns ERROR_IO_PENDING while one runs, an event is set once the
 * callbacks are done; DeleteTimerQueueEx likewise for a whole queue. */
#include <windows.h>

#include "test.h"
#include "timer_probe.h"

struct ctx {
	volatile LONG count;
	volatile LONG finished;
	volatile BOOLEAN fired;
	volatile DWORD tid;
	DWORD sleep_ms;
	HANDLE started;  /* set as the callback starts (optional) */
	HANDLE timer;    /* for callbacks that act on their own timer */
	HANDLE queue;
	volatile DWORD self_delete_error;
	volatile BOOL self_delete_ok;
};

static void CALLBACK count_cb(PVOID param, BOOLEAN fired)
{
	struct ctx *c = param;

	c->fired = fired;
	c->tid = GetCurrentThreadId();
	probe_run(&c->count, &c->finished, c->started, c->sleep_ms);
}

static void init(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
}

static void test_one_shot_and_periodic(void)
{
	struct ctx once, periodic, only_once;
	HANDLE q, t1, t2, t3;
	LONG n;

	init(&once);
	init(&periodic);
	init(&only_once);
	q = CreateTimerQueue();
	ok(q != NULL, "CreateTimerQueue: error %lu\n", GetLastError());
	ok(CreateTimerQueueTimer(&t1, q, count_cb, &once, 100, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(CreateTimerQueueTimer(&t2, q, count_cb, &periodic, 10, 20, WT_EXECUTEDEFAULT), "error %lu\n",
	   GetLastError());
	ok(CreateTimerQueueTimer(&t3, q, count_cb, &only_once, 10, 10, WT_EXECUTEONLYONCE), "error %lu\n",
	   GetLastError());
	ok(once.count == 0, "one-shot fired at once\n");
	wait_count(&once.count, 1, 5000);
	wait_count(&periodic.count, 5, 5000);
	wait_count(&only_once.count, 1, 5000);
	Sleep(100);
	ok(once.count == 1, "one-shot fired %ld times\n", once.count);
	ok(once.fired == TRUE, "TimerOrWaitFired %d\n", once.fired);
	ok(once.tid && once.tid != GetCurrentThreadId(), "callback ran on the caller's thread\n");
	ok(periodic.count >= 5, "periodic fired %ld times\n", periodic.count);
	/* The documentation says the period must be 0 with WT_EXECUTEONLYONCE;
	 * ndrun ignores one given, Wine keeps firing. */
	ok_todo_wine(only_once.count == 1, "WT_EXECUTEONLYONCE fired %ld times\n", only_once.count);

	ok(DeleteTimerQueueTimer(q, t2, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	n = periodic.count;
	Sleep(100);
	ok(periodic.count == n, "deleted timer fired %ld more times\n", periodic.count - n);

	/* A one-shot timer that fired is not re-armed by a change. */
	ok(ChangeTimerQueueTimer(q, t1, 10, 0), "error %lu\n", GetLastError());
	Sleep(100);
	ok(once.count == 1, "changed one-shot fired %ld times\n", once.count);
	ok(DeleteTimerQueueTimer(q, t1, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	ok(DeleteTimerQueueTimer(q, t3, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	ok(DeleteTimerQueueEx(q, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
}

static void test_change(void)
{
	struct ctx c;
	HANDLE t;
	LONG n;

	init(&c);
	/* On the default queue. */
	ok(CreateTimerQueueTimer(&t, NULL, count_cb, &c, 100000, 0, WT_EXECUTEDEFAULT), "error %lu\n",
	   GetLastError());
	Sleep(50);
	ok(c.count == 0, "fired early\n");
	ok(ChangeTimerQueueTimer(NULL, t, 10, 15), "error %lu\n", GetLastError());
	wait_count(&c.count, 4, 5000);
	ok(c.count >= 4, "changed to periodic: %ld callbacks\n", c.count);
	ok(ChangeTimerQueueTimer(NULL, t, 100000, 0), "error %lu\n", GetLastError());
	Sleep(200); /* a callback queued before the change may still run */
	n = c.count;
	Sleep(100);
	ok(c.count == n, "pushed back, fired %ld more times\n", c.count - n);
	ok(DeleteTimerQueueTimer(NULL, t, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
}

static void CALLBACK thread_cb(PVOID param, BOOLEAN fired __attribute__((unused)))
{
	struct ctx *c = param;

	c->tid = GetCurrentThreadId();
	InterlockedIncrement(&c->count);
}

static void test_timer_thread(void)
{
	struct ctx a, b;
	HANDLE q = CreateTimerQueue(), ta, tb;

	init(&a);
	init(&b);
	ok(CreateTimerQueueTimer(&ta, q, thread_cb, &a, 10, 0, WT_EXECUTEINTIMERTHREAD), "error %lu\n",
	   GetLastError());
	ok(CreateTimerQueueTimer(&tb, q, thread_cb, &b, 20, 0, WT_EXECUTEINTIMERTHREAD), "error %lu\n",
	   GetLastError());
	wait_count(&a.count, 1, 5000);
	wait_count(&b.count, 1, 5000);
	Sleep(50);
	ok(a.count == 1 && b.count == 1, "callbacks %ld, %ld\n", a.count, b.count);
	ok(a.tid && a.tid == b.tid, "timer threads %lu and %lu\n", a.tid, b.tid);
	ok(a.tid != GetCurrentThreadId(), "ran on the caller's thread\n");
	ok(DeleteTimerQueueTimer(q, tb, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	ok(DeleteTimerQueueEx(q, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
}

static void test_delete_running(void)
{
	struct ctx c;
	HANDLE q = CreateTimerQueue(), t, ev;
	DWORD err;
	BOOL r;

	/* INVALID_HANDLE_VALUE waits for the running callback. */
	init(&c);
	c.started = CreateEventA(NULL, TRUE, FALSE, NULL);
	c.sleep_ms = 500;
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 0, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	ok(DeleteTimerQueueTimer(q, t, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	ok(c.finished == 1, "returned before the callback finished\n");

	/* NULL: ERROR_IO_PENDING while it runs; it still runs to the end. */
	ResetEvent(c.started);
	c.finished = 0;
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 0, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	SetLastError(0xdeadbeef);
	r = DeleteTimerQueueTimer(q, t, NULL);
	err = GetLastError();
	ok(!r && err == ERROR_IO_PENDING, "NULL while running: %d, error %lu\n", r, err);
	ok(c.finished == 0, "callback cut short\n");
	ok(wait_count(&c.finished, 1, 5000) == 1, "callback did not finish\n");

	/* An event: set once the callback is done. */
	ResetEvent(c.started);
	c.finished = 0;
	ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 0, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	SetLastError(0xdeadbeef);
	r = DeleteTimerQueueTimer(q, t, ev);
	err = GetLastError();
	ok(r || err == ERROR_IO_PENDING, "event while running: %d, error %lu\n", r, err);
	ok(WaitForSingleObject(ev, 0) == WAIT_TIMEOUT, "event set while the callback runs\n");
	ok(WaitForSingleObject(ev, 5000) == WAIT_OBJECT_0, "event never set\n");
	ok(c.finished == 1, "event set before the callback finished\n");

	/* Nothing running: done at once, the event set. */
	ResetEvent(ev);
	init(&c);
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 100000, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(DeleteTimerQueueTimer(q, t, ev), "idle timer: error %lu\n", GetLastError());
	ok(WaitForSingleObject(ev, 1000) == WAIT_OBJECT_0, "event not set\n");
	ok(c.count == 0, "deleted timer fired\n");

	/* A whole queue, with the event. */
	ResetEvent(ev);
	init(&c);
	c.started = CreateEventA(NULL, TRUE, FALSE, NULL);
	c.sleep_ms = 500;
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 0, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 100000, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	SetLastError(0xdeadbeef);
	r = DeleteTimerQueueEx(q, ev);
	err = GetLastError();
	ok(r || err == ERROR_IO_PENDING, "queue with an event: %d, error %lu\n", r, err);
	ok(WaitForSingleObject(ev, 5000) == WAIT_OBJECT_0, "queue's event never set\n");
	ok(c.finished == 1 && c.count == 1, "finished %ld, count %ld\n", c.finished, c.count);
	CloseHandle(ev);

	/* A whole queue, waiting. */
	q = CreateTimerQueue();
	init(&c);
	c.started = CreateEventA(NULL, TRUE, FALSE, NULL);
	c.sleep_ms = 500;
	ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 0, 0, WT_EXECUTEDEFAULT), "error %lu\n", GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	ok(DeleteTimerQueueEx(q, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	ok(c.finished == 1, "returned before the callback finished\n");
	CloseHandle(c.started);
}

static void CALLBACK self_cb(PVOID param, BOOLEAN fired __attribute__((unused)))
{
	struct ctx *c = param;

	if (InterlockedIncrement(&c->count) == 1) {
		/* Slow it down from within, then delete it from within. */
		c->self_delete_ok = ChangeTimerQueueTimer(c->queue, c->timer, 1000, 1000);
		SetLastError(0xdeadbeef);
		c->self_delete_ok &= !DeleteTimerQueueTimer(c->queue, c->timer, NULL);
		c->self_delete_error = GetLastError();
		SetEvent(c->started);
	}
}

static void test_delete_from_callback(void)
{
	struct ctx c;

	init(&c);
	c.queue = CreateTimerQueue();
	c.started = CreateEventA(NULL, TRUE, FALSE, NULL);
	ok(CreateTimerQueueTimer(&c.timer, c.queue, self_cb, &c, 10, 10, WT_EXECUTEDEFAULT), "error %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not run\n");
	ok(c.self_delete_ok && c.self_delete_error == ERROR_IO_PENDING, "delete from the callback: %d, error %lu\n",
	   c.self_delete_ok, c.self_delete_error);
	Sleep(100);
	ok(c.count == 1, "deleted from its callback, fired %ld times\n", c.count);
	ok(DeleteTimerQueueEx(c.queue, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
	CloseHandle(c.started);
}

static void test_legacy_and_errors(void)
{
	struct ctx c;
	HANDLE q = CreateTimerQueue(), t;
	BOOL r;

	init(&c);
	if (test_on_wine()) {
		/* Wine aborts in both. */
		printf("timer_queue: SetTimerQueueTimer and CancelTimerQueueTimer not checked: Wine lacks them\n");
	} else {
		t = SetTimerQueueTimer(q, count_cb, &c, 10, 0, FALSE);
		ok(t != NULL, "SetTimerQueueTimer: error %lu\n", GetLastError());
		wait_count(&c.count, 1, 5000);
		Sleep(50);
		ok(c.count == 1, "SetTimerQueueTimer fired %ld times\n", c.count);
		ok(CancelTimerQueueTimer(q, t), "error %lu\n", GetLastError());
	}
	/* Wine's fails, even for a queue with nothing to wait for. */
	ok_todo_wine(DeleteTimerQueue(q), "error %lu\n", GetLastError());

	/* The default queue is not to be deleted. */
	SetLastError(0xdeadbeef);
	r = DeleteTimerQueueEx(NULL, NULL);
	ok(!r, "deleted the default queue\n");

	/* Handles that are no timer or queue (a deleted one, a made-up
	 * one): Windows and Wine follow the pointer and may crash, ndrun
	 * looks them up. */
	if (!test_on_wine()) {
		q = CreateTimerQueue();
		ok(CreateTimerQueueTimer(&t, q, count_cb, &c, 100000, 0, WT_EXECUTEDEFAULT), "error %lu\n",
		   GetLastError());
		ok(DeleteTimerQueueTimer(q, t, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
		SetLastError(0xdeadbeef);
		r = ChangeTimerQueueTimer(q, t, 10, 0);
		ok(!r && GetLastError() == ERROR_INVALID_HANDLE, "deleted timer: %d, error %lu\n", r, GetLastError());
		SetLastError(0xdeadbeef);
		r = DeleteTimerQueueTimer(q, (HANDLE)(ULONG_PTR)0x1234, NULL);
		ok(!r && GetLastError() == ERROR_INVALID_HANDLE, "made-up timer: %d, error %lu\n", r, GetLastError());
		ok(DeleteTimerQueueEx(q, INVALID_HANDLE_VALUE), "error %lu\n", GetLastError());
		SetLastError(0xdeadbeef);
		r = CreateTimerQueueTimer(&t, q, count_cb, &c, 10, 0, WT_EXECUTEDEFAULT);
		ok(!r && GetLastError() == ERROR_INVALID_HANDLE, "deleted queue: %d, error %lu\n", r, GetLastError());
	}
}

int main(void)
{
	test_one_shot_and_periodic();
	test_change();
	test_timer_thread();
	test_delete_running();
	test_delete_from_callback();
	test_legacy_and_errors();
	return test_summary();
}
