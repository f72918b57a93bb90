/* Waitable timers: relative and absolute due times, periods,
 * notification vs synchronization timers, the completion-routine APC,
 * cancellation, names and access rights. */
#include "test.h"

static volatile LONG apc_calls;
static volatile ULONGLONG apc_time;
static void *apc_arg;

static void CALLBACK timer_routine(void *arg, DWORD low, DWORD high)
{
	apc_arg = arg;
	apc_time = ((ULONGLONG)high << 32) | low;
	InterlockedIncrement(&apc_calls);
}

static LARGE_INTEGER relative_ms(LONGLONG ms)
{
	LARGE_INTEGER li;

	li.QuadPart = -ms * 10000;
	return li;
}

static void test_relative(void)
{
	HANDLE t = CreateWaitableTimerW(NULL, TRUE, NULL);
	LARGE_INTEGER due = relative_ms(100);
	DWORD start, elapsed, r;

	ok(t != NULL, "CreateWaitableTimerW failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(t, 0) == WAIT_TIMEOUT, "a new timer is signaled\n");
	start = GetTickCount();
	ok(SetWaitableTimer(t, &due, 0, NULL, NULL, FALSE), "SetWaitableTimer: %lu\n", GetLastError());
	r = WaitForSingleObject(t, 0);
	ok(r == WAIT_TIMEOUT, "signaled before its time: %lu\n", r);
	r = WaitForSingleObject(t, 5000);
	elapsed = GetTickCount() - start;
	ok(r == WAIT_OBJECT_0, "wait returned %lu\n", r);
	ok(elapsed >= 80 && elapsed < 5000, "fired after %lu ms, set for 100\n", elapsed);
	/* A notification timer stays signaled. */
	ok(WaitForSingleObject(t, 0) == WAIT_OBJECT_0, "manual-reset timer not still signaled\n");
	/* Setting it again resets it. */
	due = relative_ms(5000);
	SetWaitableTimer(t, &due, 0, NULL, NULL, FALSE);
	ok(WaitForSingleObject(t, 0) == WAIT_TIMEOUT, "Set did not reset the state\n");
	ok(CancelWaitableTimer(t), "CancelWaitableTimer: %lu\n", GetLastError());
	ok(WaitForSingleObject(t, 100) == WAIT_TIMEOUT, "cancelled timer fired\n");
	CloseHandle(t);
}

static void test_absolute_and_sync(void)
{
	HANDLE t = CreateWaitableTimerExW(NULL, NULL, 0, TIMER_ALL_ACCESS);
	LARGE_INTEGER due;
	FILETIME now;
	DWORD start = GetTickCount(), elapsed, r;

	ok(t != NULL, "CreateWaitableTimerExW failed: %lu\n", GetLastError());
	GetSystemTimeAsFileTime(&now);
	due.LowPart = now.dwLowDateTime;
	due.HighPart = now.dwHighDateTime;
	due.QuadPart += 150 * 10000; /* 150 ms from now, as a UTC FILETIME */
	ok(SetWaitableTimer(t, &due, 0, NULL, NULL, FALSE), "absolute: %lu\n", GetLastError());
	r = WaitForSingleObject(t, 5000);
	elapsed = GetTickCount() - start;
	ok(r == WAIT_OBJECT_0 && elapsed >= 120 && elapsed < 5000, "absolute: %lu after %lu ms\n", r,
	   elapsed);
	/* A synchronization timer is consumed by the wait. */
	ok(WaitForSingleObject(t, 0) == WAIT_TIMEOUT, "synchronization timer still signaled\n");
	/* An absolute time in the past fires at once. */
	due.QuadPart = 1;
	SetWaitableTimer(t, &due, 0, NULL, NULL, FALSE);
	ok(WaitForSingleObject(t, 1000) == WAIT_OBJECT_0, "past due time did not fire\n");
	CloseHandle(t);
}

static void test_periodic(void)
{
	HANDLE t = CreateWaitableTimerA(NULL, FALSE, NULL);
	LARGE_INTEGER due = relative_ms(20);
	DWORD start = GetTickCount(), elapsed;
	int fired = 0;

	ok(SetWaitableTimer(t, &due, 30, NULL, NULL, FALSE), "periodic: %lu\n", GetLastError());
	while (fired < 5 && WaitForSingleObject(t, 1000) == WAIT_OBJECT_0)
		fired++;
	elapsed = GetTickCount() - start;
	ok(fired == 5, "fired %d times\n", fired);
	/* 20 + 4 * 30 = 140 ms at the earliest. */
	ok(elapsed >= 120 && elapsed < 5000, "5 expiries in %lu ms\n", elapsed);
	CancelWaitableTimer(t);
	ok(WaitForSingleObject(t, 100) == WAIT_TIMEOUT, "periodic timer still firing after cancel\n");
	/* "If lPeriod is less than zero, the function fails" (docs); Wine
	 * accepts it. */
	SetLastError(0xdeadbeef);
	ok_todo_wine(!SetWaitableTimer(t, &due, -1, NULL, NULL, FALSE) &&
		     GetLastError() == ERROR_INVALID_PARAMETER,
	   "negative period: error %lu\n", GetLastError());
	CloseHandle(t);
}

static void test_apc(void)
{
	HANDLE t = CreateWaitableTimerW(NULL, FALSE, NULL);
	LARGE_INTEGER due = relative_ms(50);
	FILETIME before, after;
	DWORD r;

	GetSystemTimeAsFileTime(&before);
	apc_calls = 0;
	ok(SetWaitableTimer(t, &due, 0, timer_routine, (void *)&apc_calls, FALSE), "with APC: %lu\n",
	   GetLastError());
	/* The routine runs only in an alertable wait of the setting thread. */
	Sleep(150);
	ok(apc_calls == 0, "APC ran outside an alertable wait\n");
	r = SleepEx(1000, TRUE);
	GetSystemTimeAsFileTime(&after);
	ok(r == WAIT_IO_COMPLETION, "SleepEx returned %lu\n", r);
	ok(apc_calls == 1, "APC ran %ld times\n", apc_calls);
	ok(apc_arg == (void *)&apc_calls, "argument %p\n", apc_arg);
	/* The routine gets the UTC FILETIME of the expiry (docs); Wine
	 * passes another value. */
	ok_todo_wine(apc_time >= (((ULONGLONG)before.dwHighDateTime << 32) | before.dwLowDateTime) &&
	   apc_time <= (((ULONGLONG)after.dwHighDateTime << 32) | after.dwLowDateTime),
	   "APC time %llu outside [before, after]\n", apc_time);

	/* Cancel drops a queued APC. */
	apc_calls = 0;
	due = relative_ms(10);
	SetWaitableTimer(t, &due, 0, timer_routine, NULL, FALSE);
	Sleep(100);
	CancelWaitableTimer(t);
	r = SleepEx(50, TRUE);
	ok(r == 0 && apc_calls == 0, "after cancel: SleepEx %lu, %ld APCs\n", r, apc_calls);

	/* A periodic timer with an APC: one call per alertable wait, since a
	 * timer has at most one APC queued (Windows inserts the timer's one
	 * APC object; Wine queues one per expiry, so a wait may run two). */
	apc_calls = 0;
	due = relative_ms(10);
	SetWaitableTimer(t, &due, 20, timer_routine, NULL, FALSE);
	for (int i = 0; i < 3; i++)
		SleepEx(1000, TRUE);
	CancelWaitableTimer(t);
	ok_todo_wine(apc_calls == 3, "periodic APC ran %ld times in 3 alertable waits\n", apc_calls);
	CloseHandle(t);
}

static void test_names(void)
{
	HANDLE t = CreateWaitableTimerW(NULL, TRUE, L"pe_waitable_timer"), h;
	LARGE_INTEGER due = relative_ms(10);

	ok(t != NULL && GetLastError() == ERROR_SUCCESS, "named: %lu\n", GetLastError());
	h = CreateWaitableTimerW(NULL, TRUE, L"pe_waitable_timer");
	ok(h != NULL && GetLastError() == ERROR_ALREADY_EXISTS, "again: %lu\n", GetLastError());
	CloseHandle(h);
	h = OpenWaitableTimerW(TIMER_MODIFY_STATE, FALSE, L"pe_waitable_timer");
	ok(h != NULL, "OpenWaitableTimerW: %lu\n", GetLastError());
	ok(SetWaitableTimer(h, &due, 0, NULL, NULL, FALSE), "Set through opened handle: %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(t, 1000) == WAIT_OBJECT_0, "the opened handle is the same timer\n");
	SetLastError(0xdeadbeef);
	ok(WaitForSingleObject(h, 0) == WAIT_FAILED && GetLastError() == ERROR_ACCESS_DENIED,
	   "wait without SYNCHRONIZE: error %lu\n", GetLastError());
	CloseHandle(h);
	h = OpenWaitableTimerA(SYNCHRONIZE, FALSE, "pe_waitable_timer");
	ok(h != NULL, "OpenWaitableTimerA: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!SetWaitableTimer(h, &due, 0, NULL, NULL, FALSE) && GetLastError() == ERROR_ACCESS_DENIED,
	   "Set without TIMER_MODIFY_STATE: error %lu\n", GetLastError());
	ok(!CancelWaitableTimer(h) && GetLastError() == ERROR_ACCESS_DENIED,
	   "Cancel without TIMER_MODIFY_STATE: error %lu\n", GetLastError());
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = OpenWaitableTimerW(TIMER_ALL_ACCESS, FALSE, L"pe_waitable_nothing");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "no such timer: %lu\n", GetLastError());
	h = CreateEventW(NULL, FALSE, FALSE, NULL);
	SetLastError(0xdeadbeef);
	ok(!SetWaitableTimer(h, &due, 0, NULL, NULL, FALSE) && GetLastError() == ERROR_INVALID_HANDLE,
	   "event handle: error %lu\n", GetLastError());
	CloseHandle(h);
	CloseHandle(t);
}

int main(void)
{
	test_relative();
	test_absolute_and_sync();
	test_periodic();
	test_apc();
	test_names();
	return test_summary();
}
