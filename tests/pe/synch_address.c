/* WaitOnAddress / WakeByAddressSingle / WakeByAddressAll, imported the way
 * MSVC and Rust programs import them: from api-ms-win-core-synch-l1-2-0.dll
 * (mingw-w64's libsynchronization.a).  A differing value returns at once;
 * an equal one sleeps until a wake or the timeout (ERROR_TIMEOUT); single
 * wakes one waiter, all wakes every waiter; sizes 1, 2, 4 and 8. */
#include <windows.h>

#include "test.h"

static volatile LONG value32;
static volatile LONG64 value64;
static volatile LONG woken;

static DWORD WINAPI waiter32(void *arg)
{
	LONG undesired = 0;

	(void)arg;
	while (value32 == undesired)
		WaitOnAddress(&value32, &undesired, sizeof(value32), INFINITE);
	InterlockedIncrement(&woken);
	return 0;
}

static DWORD WINAPI waiter64(void *arg)
{
	LONG64 undesired = 0;

	(void)arg;
	while (value64 == undesired)
		WaitOnAddress(&value64, &undesired, sizeof(value64), INFINITE);
	InterlockedIncrement(&woken);
	return 0;
}

static void wait_for_count(LONG n)
{
	for (int i = 0; i < 500 && woken < n; i++)
		Sleep(10);
}

int main(void)
{
	volatile BYTE b = 5;
	volatile SHORT s = 7;
	BYTE b_cmp = 6;
	SHORT s_cmp = 7;
	LONG cmp = 1;
	HANDLE t[3];
	DWORD start, elapsed;

	/* Rule: a value that differs from the comparand returns TRUE at once */
	ok(WaitOnAddress(&b, &b_cmp, 1, INFINITE), "1-byte differing value\n");
	ok(WaitOnAddress(&value32, &cmp, 4, INFINITE), "4-byte differing value\n");
	/* Rule: an equal value times out with ERROR_TIMEOUT */
	SetLastError(0xdeadbeef);
	ok(!WaitOnAddress(&s, &s_cmp, 2, 0), "timeout 0 returned TRUE\n");
	ok(GetLastError() == ERROR_TIMEOUT, "error %lu\n", GetLastError());
	start = GetTickCount();
	ok(!WaitOnAddress(&s, &s_cmp, 2, 100), "timeout 100 returned TRUE\n");
	elapsed = GetTickCount() - start;
	ok(elapsed >= 80 && elapsed < 5000, "waited %lu ms\n", elapsed);

	/* Rule: WakeByAddressSingle wakes a waiter on that address */
	t[0] = CreateThread(NULL, 0, waiter32, NULL, 0, NULL);
	Sleep(50);
	ok(woken == 0, "the waiter did not wait\n");
	InterlockedExchange(&value32, 1);
	WakeByAddressSingle((void *)&value32);
	wait_for_count(1);
	ok(woken == 1, "woken %ld\n", woken);
	ok(WaitForSingleObject(t[0], 5000) == WAIT_OBJECT_0, "waiter did not end\n");
	CloseHandle(t[0]);

	/* Rule: WakeByAddressAll wakes every waiter on that address */
	woken = 0;
	for (int i = 0; i < 3; i++)
		t[i] = CreateThread(NULL, 0, waiter64, NULL, 0, NULL);
	Sleep(50);
	WakeByAddressAll((void *)&value32); /* another address: wakes nobody */
	Sleep(50);
	ok(woken == 0, "a wake on another address woke %ld\n", woken);
	InterlockedExchange64(&value64, 1);
	WakeByAddressAll((void *)&value64);
	wait_for_count(3);
	ok(woken == 3, "woken %ld\n", woken);
	ok(WaitForMultipleObjects(3, t, TRUE, 5000) == WAIT_OBJECT_0, "waiters did not end\n");
	for (int i = 0; i < 3; i++)
		CloseHandle(t[i]);

	SetLastError(0xdeadbeef);
	ok(!WaitOnAddress(&value32, &cmp, 3, 0) && GetLastError() == ERROR_INVALID_PARAMETER, "size 3: %lu\n",
	   GetLastError());
	return test_summary();
}
