/* WaitOnAddress/WakeByAddressSingle/WakeByAddressAll, imported through
 * the API set api-ms-win-core-synch-l1-2-0.dll as MSVC and Rust programs
 * import them: a wait on a value that already differs returns at once, a
 * wait times out with ERROR_TIMEOUT, a single wake releases one waiter,
 * a wake-all every waiter on that address, values of 1, 2, 4 and 8
 * bytes, and the size check. */
#include <windows.h>
#include <synchapi.h>

#include "test.h"

static volatile LONG64 value64;
static volatile LONG value32;
static volatile LONG woken, started;

static DWORD WINAPI waiter(void *arg)
{
	LONG expect = 0;

	(void)arg;

	InterlockedIncrement(&started);
	while (value32 == 0) {
		if (!WaitOnAddress(&value32, &expect, sizeof(expect), 5000))
			return 1;
	}
	InterlockedIncrement(&woken);
	return 0;
}

static void wait_started(LONG n)
{
	for (int i = 0; i < 500 && started < n; i++)
		Sleep(2);
	Sleep(50); /* let them reach WaitOnAddress */
}

static void test_basics(void)
{
	BYTE b = 1, cb = 2;
	USHORT s = 1, cs = 1;
	LONG64 c64 = 5;
	DWORD start;

	value64 = 7;
	ok(WaitOnAddress(&value64, &c64, 8, INFINITE), "different value: must return at once\n");
	ok(WaitOnAddress(&b, &cb, 1, 1000), "different byte: must return at once\n");
	start = GetTickCount();
	SetLastError(0xdeadbeef);
	ok(!WaitOnAddress(&s, &cs, 2, 100), "equal value: must time out\n");
	ok(GetLastError() == ERROR_TIMEOUT, "error %lu\n", GetLastError());
	/* GetTickCount moves in timer ticks (15.6 ms on Windows). */
	ok(GetTickCount() - start >= 75, "timed out after %lu ms\n", GetTickCount() - start);
	SetLastError(0xdeadbeef);
	ok(!WaitOnAddress(&s, &cs, 3, 0), "size 3 accepted\n");
	ok(GetLastError() == ERROR_INVALID_PARAMETER, "error %lu\n", GetLastError());
	/* Waking an address nobody waits on is harmless. */
	WakeByAddressSingle((void *)&value64);
	WakeByAddressAll((void *)&value64);
}

static void test_wake(void)
{
	HANDLE t[3];
	DWORD code;

	value32 = 0;
	woken = started = 0;
	t[0] = CreateThread(NULL, 0, waiter, NULL, 0, NULL);
	wait_started(1);
	value32 = 1;
	WakeByAddressSingle((void *)&value32);
	ok(WaitForSingleObject(t[0], 5000) == WAIT_OBJECT_0, "single waiter not woken\n");
	GetExitCodeThread(t[0], &code);
	ok(code == 0 && woken == 1, "waiter: exit %lu, woken %ld\n", code, woken);
	CloseHandle(t[0]);

	value32 = 0;
	woken = started = 0;
	for (int i = 0; i < 3; i++)
		t[i] = CreateThread(NULL, 0, waiter, NULL, 0, NULL);
	wait_started(3);
	value32 = 1;
	WakeByAddressAll((void *)&value32);
	ok(WaitForMultipleObjects(3, t, TRUE, 5000) == WAIT_OBJECT_0, "not every waiter woken\n");
	ok(woken == 3, "woken %ld of 3\n", woken);
	for (int i = 0; i < 3; i++)
		CloseHandle(t[i]);
}

int main(void)
{
	test_basics();
	test_wake();
	return test_summary();
}
