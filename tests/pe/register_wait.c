/* RegisterWaitForSingleObject and UnregisterWait(Ex): the callback runs
 * for each signal of an auto-reset event (TimerOrWaitFired FALSE), for
 * the timeout (TRUE) and only once with WT_EXECUTEONLYONCE;
 * UnregisterWaitEx with INVALID_HANDLE_VALUE returns once no callback
 * runs and none runs after it; with an event, the event is signaled; a
 * callback may unregister its own wait, which UnregisterWait reports as
 * ERROR_IO_PENDING (a callback, its own, has not completed). */
#include "test.h"

static HANDLE fired;
static volatile LONG calls, timeouts;
static HANDLE self_wait;
static volatile LONG self_unregistered = -1;
static volatile DWORD self_error;

static void CALLBACK on_wait(void *ctx, BOOLEAN timed_out)
{
	ok(ctx == (void *)0x1234, "context %p\n", ctx);
	InterlockedIncrement(&calls);
	if (timed_out)
		InterlockedIncrement(&timeouts);
	SetEvent(fired);
}

static void CALLBACK unregister_self(void *ctx, BOOLEAN timed_out)
{
	(void)ctx;
	(void)timed_out;
	SetLastError(0xdeadbeef);
	self_unregistered = UnregisterWait(self_wait);
	self_error = GetLastError();
	SetEvent(fired);
}

int main(void)
{
	HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL), never = CreateEventW(NULL, TRUE, FALSE, NULL);
	HANDLE done = CreateEventW(NULL, TRUE, FALSE, NULL), w;
	LONG before;

	fired = CreateEventW(NULL, FALSE, FALSE, NULL);
	ok(RegisterWaitForSingleObject(&w, ev, on_wait, (void *)0x1234, INFINITE, WT_EXECUTEDEFAULT), "register: %lu\n",
	   GetLastError());
	for (int i = 0; i < 3; i++) {
		SetEvent(ev);
		ok(WaitForSingleObject(fired, 10000) == WAIT_OBJECT_0, "signal %d: no callback\n", i);
	}
	ok(calls == 3 && timeouts == 0, "%ld calls, %ld timeouts\n", calls, timeouts);
	ok(UnregisterWaitEx(w, INVALID_HANDLE_VALUE), "UnregisterWaitEx: %lu\n", GetLastError());
	before = calls;
	SetEvent(ev);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "the event was taken after unregistering\n");
	ok(calls == before, "a callback ran after UnregisterWaitEx\n");

	/* The timeout, once. */
	calls = timeouts = 0;
	ok(RegisterWaitForSingleObject(&w, never, on_wait, (void *)0x1234, 10, WT_EXECUTEONLYONCE), "register: %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(fired, 10000) == WAIT_OBJECT_0, "no timeout callback\n");
	ok(calls == 1 && timeouts == 1, "%ld calls, %ld timeouts\n", calls, timeouts);
	/* Wine 8 returns FALSE (error 0) for a wait whose callback is over. */
	ok_todo_wine(UnregisterWaitEx(w, done), "UnregisterWaitEx with an event: %lu\n", GetLastError());
	ok(WaitForSingleObject(done, 10000) == WAIT_OBJECT_0, "the completion event was not signaled\n");
	ok(calls == 1, "%ld calls with WT_EXECUTEONLYONCE\n", calls);

	/* A callback that unregisters its own wait. */
	ok(RegisterWaitForSingleObject(&self_wait, ev, unregister_self, NULL, INFINITE, WT_EXECUTEONLYONCE),
	   "register: %lu\n", GetLastError());
	SetEvent(ev);
	ok(WaitForSingleObject(fired, 10000) == WAIT_OBJECT_0, "no callback\n");
	ok(self_unregistered == FALSE && self_error == ERROR_IO_PENDING, "UnregisterWait from the callback: %ld, %lu\n",
	   self_unregistered, self_error);
	return test_summary();
}
