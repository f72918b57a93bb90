/* The Vista pool's timers (TP_TIMER): relative, zero and absolute due
 * times, periodic timers, SetThreadpoolTimer(NULL) stopping one,
 * IsThreadpoolTimerSet, WaitForThreadpoolTimerCallbacks waiting for a
 * running callback (and cancelling queued ones), CloseThreadpoolTimer
 * with a callback still running. */
#include <windows.h>

#include "test.h"
#include "timer_probe.h"

struct ctx {
	volatile LONG count, finished;
	PTP_TIMER timer;
	PTP_CALLBACK_INSTANCE instance;
	DWORD sleep_ms;
	HANDLE started;
};

static void CALLBACK timer_cb(PTP_CALLBACK_INSTANCE instance, PVOID param, PTP_TIMER timer)
{
	struct ctx *c = param;

	c->instance = instance;
	c->timer = timer;
	probe_run(&c->count, &c->finished, c->started, c->sleep_ms);
}

static FILETIME relative_ms(LONGLONG ms)
{
	ULARGE_INTEGER u;
	FILETIME ft;

	u.QuadPart = (ULONGLONG)(-ms * 10000);
	ft.dwLowDateTime = u.LowPart;
	ft.dwHighDateTime = u.HighPart;
	return ft;
}

static void test_due_times(void)
{
	struct ctx c;
	PTP_TIMER t;
	FILETIME ft;
	ULARGE_INTEGER u;

	memset(&c, 0, sizeof(c));
	t = CreateThreadpoolTimer(timer_cb, &c, NULL);
	ok(t != NULL, "CreateThreadpoolTimer: error %lu\n", GetLastError());
	ok(!IsThreadpoolTimerSet(t), "set before SetThreadpoolTimer\n");

	ft = relative_ms(300);
	SetThreadpoolTimer(t, &ft, 0, 0);
	ok(IsThreadpoolTimerSet(t), "not set\n");
	ok(c.count == 0, "fired at once\n");
	wait_count(&c.count, 1, 5000);
	Sleep(50);
	ok(c.count == 1, "relative: fired %ld times\n", c.count);
	ok(c.timer == t && c.instance != NULL, "callback got timer %p, instance %p\n", (void *)c.timer,
	   (void *)c.instance);

	/* Zero: due now. */
	ft.dwLowDateTime = ft.dwHighDateTime = 0;
	SetThreadpoolTimer(t, &ft, 0, 0);
	wait_count(&c.count, 2, 5000);
	Sleep(50);
	ok(c.count == 2, "zero: fired %ld times\n", c.count);

	/* Absolute: a UTC time 300 ms from now. */
	GetSystemTimeAsFileTime(&ft);
	u.LowPart = ft.dwLowDateTime;
	u.HighPart = ft.dwHighDateTime;
	u.QuadPart += 300 * 10000;
	ft.dwLowDateTime = u.LowPart;
	ft.dwHighDateTime = u.HighPart;
	SetThreadpoolTimer(t, &ft, 0, 0);
	Sleep(30);
	ok(c.count == 2, "absolute: fired early\n");
	wait_count(&c.count, 3, 5000);
	Sleep(50);
	ok(c.count == 3, "absolute: fired %ld times\n", c.count);

	/* Periodic, then stopped. */
	ft = relative_ms(10);
	SetThreadpoolTimer(t, &ft, 20, 0);
	wait_count(&c.count, 3 + 5, 5000);
	ok(c.count >= 3 + 5, "periodic: %ld callbacks\n", c.count - 3);
	SetThreadpoolTimer(t, NULL, 0, 0);
	ok(!IsThreadpoolTimerSet(t), "still set after NULL\n");
	WaitForThreadpoolTimerCallbacks(t, FALSE);
	{
		LONG n = c.count;

		Sleep(100);
		ok(c.count == n, "stopped timer fired %ld more times\n", c.count - n);
	}
	ok(c.finished == c.count, "finished %ld of %ld\n", c.finished, c.count);
	CloseThreadpoolTimer(t);
}

static void test_wait_and_close(void)
{
	struct ctx c;
	PTP_TIMER t;
	FILETIME ft = { 0, 0 };

	memset(&c, 0, sizeof(c));
	c.sleep_ms = 500;
	c.started = CreateEventA(NULL, TRUE, FALSE, NULL);
	t = CreateThreadpoolTimer(timer_cb, &c, NULL);
	SetThreadpoolTimer(t, &ft, 0, 0);
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	WaitForThreadpoolTimerCallbacks(t, FALSE);
	ok(c.finished == 1, "returned before the callback finished\n");

	/* Closed while its callback runs: that callback still ends. */
	ResetEvent(c.started);
	SetThreadpoolTimer(t, &ft, 0, 0);
	ok(WaitForSingleObject(c.started, 5000) == WAIT_OBJECT_0, "callback did not start\n");
	CloseThreadpoolTimer(t);
	ok(c.finished == 1, "callback cut short\n");
	wait_count(&c.finished, 2, 5000);
	ok(c.finished == 2, "callback did not finish: %ld\n", c.finished);
	CloseHandle(c.started);
}

int main(void)
{
	test_due_times();
	test_wait_and_close();
	return test_summary();
}
