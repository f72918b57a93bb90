/* OpenEvent, OpenMutex, OpenSemaphore: named objects opened again, the
 * access the handle was opened with enforced, the documented errors. */
#include "test.h"

static void test_event(void)
{
	HANDLE ev = CreateEventW(NULL, TRUE, FALSE, L"pe_sync_open_event"), h;
	DWORD r;

	ok(ev != NULL, "CreateEventW failed: %lu\n", GetLastError());
	h = OpenEventW(EVENT_ALL_ACCESS, FALSE, L"pe_sync_open_event");
	ok(h != NULL && h != ev, "OpenEventW: %p, error %lu\n", h, GetLastError());
	ok(SetEvent(h), "SetEvent through the opened handle: %lu\n", GetLastError());
	r = WaitForSingleObject(ev, 0);
	ok(r == WAIT_OBJECT_0, "the same object: wait returned %lu\n", r);
	ResetEvent(ev);
	CloseHandle(h);

	h = OpenEventA(EVENT_ALL_ACCESS, FALSE, "pe_sync_open_event");
	ok(h != NULL, "OpenEventA: error %lu\n", GetLastError());
	CloseHandle(h);

	/* SYNCHRONIZE only: waits work, SetEvent does not. */
	h = OpenEventW(SYNCHRONIZE, FALSE, L"pe_sync_open_event");
	ok(h != NULL, "OpenEventW(SYNCHRONIZE): %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!SetEvent(h) && GetLastError() == ERROR_ACCESS_DENIED, "SetEvent: error %lu\n",
	   GetLastError());
	r = WaitForSingleObject(h, 0);
	ok(r == WAIT_TIMEOUT, "wait returned %lu\n", r);
	CloseHandle(h);

	/* EVENT_MODIFY_STATE only: SetEvent works, waits do not. */
	h = OpenEventW(EVENT_MODIFY_STATE, FALSE, L"pe_sync_open_event");
	ok(h != NULL, "OpenEventW(EVENT_MODIFY_STATE): %lu\n", GetLastError());
	ok(SetEvent(h), "SetEvent: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForSingleObject(h, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_ACCESS_DENIED, "wait: %lu, error %lu\n", r,
	   GetLastError());
	CloseHandle(h);

	/* GENERIC_WRITE maps to EVENT_MODIFY_STATE. */
	h = OpenEventW(GENERIC_WRITE, FALSE, L"pe_sync_open_event");
	ok(h != NULL && ResetEvent(h), "GENERIC_WRITE: %lu\n", GetLastError());
	CloseHandle(h);

	/* Names are case-sensitive. */
	SetLastError(0xdeadbeef);
	h = OpenEventW(EVENT_ALL_ACCESS, FALSE, L"PE_SYNC_OPEN_EVENT");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "other case: %p, error %lu\n", h,
	   GetLastError());
	SetLastError(0xdeadbeef);
	h = OpenEventW(EVENT_ALL_ACCESS, FALSE, L"pe_sync_open_nothing");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "no such name: %p, error %lu\n", h,
	   GetLastError());
	SetLastError(0xdeadbeef);
	h = OpenEventW(EVENT_ALL_ACCESS, FALSE, NULL);
	ok(!h && GetLastError() == ERROR_INVALID_PARAMETER, "NULL name: %p, error %lu\n", h,
	   GetLastError());

	/* An object of another type under the name. */
	SetLastError(0xdeadbeef);
	h = OpenMutexW(SYNCHRONIZE, FALSE, L"pe_sync_open_event");
	ok(!h && GetLastError() == ERROR_INVALID_HANDLE, "mutex by an event's name: %p, error %lu\n",
	   h, GetLastError());

	/* Gone with its last handle. */
	CloseHandle(ev);
	SetLastError(0xdeadbeef);
	h = OpenEventW(EVENT_ALL_ACCESS, FALSE, L"pe_sync_open_event");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "after close: %p, error %lu\n", h,
	   GetLastError());
}

static void test_mutex(void)
{
	HANDLE m = CreateMutexA(NULL, FALSE, "pe_sync_open_mutex"), h;
	DWORD r;

	ok(m != NULL, "CreateMutexA failed\n");
	h = OpenMutexA(SYNCHRONIZE, FALSE, "pe_sync_open_mutex");
	ok(h != NULL, "OpenMutexA: %lu\n", GetLastError());
	r = WaitForSingleObject(h, 0);
	ok(r == WAIT_OBJECT_0, "wait returned %lu\n", r);
	ok(ReleaseMutex(m), "ReleaseMutex: %lu\n", GetLastError());
	CloseHandle(h);
	h = OpenMutexW(MUTEX_ALL_ACCESS, TRUE, L"pe_sync_open_mutex");
	ok(h != NULL, "OpenMutexW: %lu\n", GetLastError());
	{
		DWORD flags = 0;

		ok(GetHandleInformation(h, &flags) && (flags & HANDLE_FLAG_INHERIT),
		   "inherit flag not set: %#lx\n", flags);
	}
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = OpenMutexW(SYNCHRONIZE, FALSE, L"pe_sync_open_nomutex");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "no such name: %lu\n", GetLastError());
	CloseHandle(m);
}

static void test_semaphore(void)
{
	HANDLE s = CreateSemaphoreW(NULL, 0, 5, L"pe_sync_open_sem"), h;
	LONG prev = -1;

	ok(s != NULL, "CreateSemaphoreW failed\n");
	h = OpenSemaphoreW(SEMAPHORE_MODIFY_STATE, FALSE, L"pe_sync_open_sem");
	ok(h != NULL, "OpenSemaphoreW: %lu\n", GetLastError());
	ok(ReleaseSemaphore(h, 2, &prev) && prev == 0, "ReleaseSemaphore: prev %ld, error %lu\n", prev,
	   GetLastError());
	ok(WaitForSingleObject(s, 0) == WAIT_OBJECT_0, "count not shared\n");
	CloseHandle(h);
	h = OpenSemaphoreW(SYNCHRONIZE, FALSE, L"pe_sync_open_sem");
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h, 1, NULL) && GetLastError() == ERROR_ACCESS_DENIED,
	   "ReleaseSemaphore without SEMAPHORE_MODIFY_STATE: error %lu\n", GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0, "wait through SYNCHRONIZE handle\n");
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = OpenSemaphoreW(SYNCHRONIZE, FALSE, L"pe_sync_open_event");
	ok(!h && GetLastError() == ERROR_FILE_NOT_FOUND, "no such name: %lu\n", GetLastError());
	CloseHandle(s);
}

/* The Create*Ex functions give the handle the access asked for. */
static void test_create_ex_access(void)
{
	HANDLE h;
	LONG prev;

	h = CreateEventExW(NULL, NULL, 0, SYNCHRONIZE);
	ok(h != NULL, "CreateEventExW: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!SetEvent(h) && GetLastError() == ERROR_ACCESS_DENIED, "SetEvent without the right: %lu\n",
	   GetLastError());
	ok(WaitForSingleObject(h, 0) == WAIT_TIMEOUT, "wait with SYNCHRONIZE\n");
	CloseHandle(h);
	h = CreateEventExA(NULL, NULL, CREATE_EVENT_INITIAL_SET, EVENT_MODIFY_STATE);
	SetLastError(0xdeadbeef);
	ok(WaitForSingleObject(h, 0) == WAIT_FAILED && GetLastError() == ERROR_ACCESS_DENIED,
	   "wait without SYNCHRONIZE: %lu\n", GetLastError());
	ok(ResetEvent(h), "ResetEvent: %lu\n", GetLastError());
	CloseHandle(h);
	h = CreateEventExW(NULL, NULL, 0, GENERIC_ALL);
	ok(SetEvent(h) && WaitForSingleObject(h, 0) == WAIT_OBJECT_0, "GENERIC_ALL\n");
	CloseHandle(h);
	h = CreateSemaphoreExW(NULL, 1, 2, NULL, 0, SYNCHRONIZE);
	SetLastError(0xdeadbeef);
	ok(!ReleaseSemaphore(h, 1, &prev) && GetLastError() == ERROR_ACCESS_DENIED,
	   "ReleaseSemaphore without the right: %lu\n", GetLastError());
	CloseHandle(h);
	h = CreateMutexExW(NULL, NULL, 0, MUTEX_ALL_ACCESS);
	ok(WaitForSingleObject(h, 0) == WAIT_OBJECT_0 && ReleaseMutex(h), "mutex: %lu\n", GetLastError());
	CloseHandle(h);
	h = CreateWaitableTimerExW(NULL, NULL, 0, SYNCHRONIZE);
	{
		LARGE_INTEGER due;

		due.QuadPart = -10000;
		SetLastError(0xdeadbeef);
		ok(!SetWaitableTimer(h, &due, 0, NULL, NULL, FALSE) && GetLastError() == ERROR_ACCESS_DENIED,
		   "SetWaitableTimer without TIMER_MODIFY_STATE: %lu\n", GetLastError());
	}
	CloseHandle(h);
}

int main(void)
{
	test_create_ex_access();
	test_event();
	test_mutex();
	test_semaphore();
	return test_summary();
}
