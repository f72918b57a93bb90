/* Misusing handles and waits: the calls fail with the documented error
 * instead of crashing or hanging.
 *
 * Windows rules checked (Microsoft's CloseHandle, WaitForSingleObject,
 * WaitForMultipleObjects, CreateEvent, SetEvent, DuplicateHandle docs, and
 * Windows' behaviour without a debugger attached):
 *  - CloseHandle of NULL, of a made-up value and of a handle already
 *    closed: FALSE, ERROR_INVALID_HANDLE; closing INVALID_HANDLE_VALUE
 *    (the current-process pseudo handle) succeeds and changes nothing;
 *  - waiting on a closed or made-up handle: WAIT_FAILED,
 *    ERROR_INVALID_HANDLE; on NULL: WAIT_FAILED, ERROR_INVALID_HANDLE;
 *  - WaitForMultipleObjects with nCount 0 or above MAXIMUM_WAIT_OBJECTS:
 *    WAIT_FAILED, ERROR_INVALID_PARAMETER; with a closed handle in the
 *    array: WAIT_FAILED, ERROR_INVALID_HANDLE, and the other objects are
 *    left alone (an auto-reset event stays signaled); with an array it
 *    cannot read (NULL, a made-up address, a freed page): Windows copies the array in
 *    the caller, so the program sees EXCEPTION_ACCESS_VIOLATION (a read
 *    fault at that address) and goes on;
 *  - ANSI object names are at most MAX_PATH - 1 characters (Windows widens
 *    them into a MAX_PATH buffer): a longer one fails with
 *    ERROR_FILENAME_EXCED_RANGE (events, mutexes and semaphores alike);
 *    a wide name may be longer; a name with a backslash outside a namespace
 *    prefix (Local\, Global\) fails with ERROR_PATH_NOT_FOUND;
 *  - SetEvent/ResetEvent on a semaphore, ReleaseSemaphore on an event,
 *    ReleaseMutex on an event: FALSE, ERROR_INVALID_HANDLE (object type
 *    mismatch); ReleaseSemaphore past the maximum: ERROR_TOO_MANY_POSTS;
 *    ReleaseMutex of a mutex not owned: ERROR_NOT_OWNER;
 *  - DuplicateHandle of a closed or made-up source handle, or with a bad
 *    process handle: FALSE, ERROR_INVALID_HANDLE; the target handle is
 *    left as it was. */
#include "test.h"
#include "catch_av.h"

#define BOGUS_HANDLE ((HANDLE)(ULONG_PTR)0x7ff0)

static void expect_error(BOOL r, DWORD want, const char *what)
{
	DWORD err = GetLastError();

	ok(!r && err == want, "%s: returned %d, error %lu, expected %lu\n", what, r, err, want);
}

static void test_close(void)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);

	ok(ev != NULL, "CreateEvent: %lu\n", GetLastError());
	ok(CloseHandle(ev), "first close: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	expect_error(CloseHandle(ev), ERROR_INVALID_HANDLE, "second close");
	SetLastError(0xdeadbeef);
	expect_error(CloseHandle(NULL), ERROR_INVALID_HANDLE, "close NULL");
	SetLastError(0xdeadbeef);
	expect_error(CloseHandle(BOGUS_HANDLE), ERROR_INVALID_HANDLE, "close made-up");
	ok(CloseHandle(GetCurrentProcess()), "close current-process pseudo handle: %lu\n", GetLastError());
}

static void test_wait_bad_handles(void)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	DWORD r;

	CloseHandle(ev);
	SetLastError(0xdeadbeef);
	r = WaitForSingleObject(ev, 100);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_HANDLE, "wait on closed: %lu, error %lu\n", r,
	   GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForSingleObject(BOGUS_HANDLE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_HANDLE, "wait on made-up: %lu, error %lu\n", r,
	   GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForSingleObject(NULL, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_HANDLE, "wait on NULL: %lu, error %lu\n", r,
	   GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForSingleObjectEx(ev, 0, TRUE);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_HANDLE, "alertable wait on closed: %lu, error %lu\n",
	   r, GetLastError());
}

static void test_wait_multiple(void)
{
	HANDLE hs[MAXIMUM_WAIT_OBJECTS + 1];
	HANDLE dead = CreateEventA(NULL, TRUE, TRUE, NULL);
	DWORD r;

	for (int i = 0; i < MAXIMUM_WAIT_OBJECTS + 1; i++)
		hs[i] = CreateEventA(NULL, FALSE, TRUE, NULL);
	SetLastError(0xdeadbeef);
	r = WaitForMultipleObjects(0, hs, FALSE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_PARAMETER, "count 0: %lu, error %lu\n", r,
	   GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS + 1, hs, FALSE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_PARAMETER, "count 65: %lu, error %lu\n", r,
	   GetLastError());
	SetLastError(0xdeadbeef);
	r = WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS + 1, hs, TRUE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_PARAMETER, "count 65, wait all: %lu, error %lu\n", r,
	   GetLastError());
	r = WaitForMultipleObjects(MAXIMUM_WAIT_OBJECTS, hs, TRUE, 0);
	ok(r == WAIT_OBJECT_0, "64 signaled, wait all: %lu, error %lu\n", r, GetLastError());

	/* A closed handle anywhere in the array fails the whole wait and
	 * consumes nothing. */
	SetEvent(hs[0]);
	CloseHandle(dead);
	hs[1] = dead;
	SetLastError(0xdeadbeef);
	r = WaitForMultipleObjects(2, hs, FALSE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_HANDLE, "closed handle in the array: %lu, error %lu\n",
	   r, GetLastError());
	ok(WaitForSingleObject(hs[0], 0) == WAIT_OBJECT_0, "the auto-reset event was consumed\n");
	for (int i = 0; i < MAXIMUM_WAIT_OBJECTS + 1; i++)
		if (i != 1)
			CloseHandle(hs[i]);
}

struct wfmo_call {
	DWORD count;
	const HANDLE *handles;
};

static void wfmo_call(void *arg)
{
	struct wfmo_call *c = arg;

	WaitForMultipleObjects(c->count, c->handles, FALSE, 0);
}

static void test_wait_bad_array(void)
{
	struct wfmo_call c = { 1, NULL };
	DWORD r;

	ok(catch_av(wfmo_call, &c) && caught_info[0] == EXCEPTION_READ_FAULT && caught_info[1] == 0,
	   "NULL array: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	c.count = 2;
	c.handles = (const HANDLE *)(ULONG_PTR)8;
	ok(catch_av(wfmo_call, &c) && caught_info[0] == EXCEPTION_READ_FAULT && caught_info[1] == 8,
	   "array at 8: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	/* A page that was there once. */
	c.handles = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	VirtualFree((void *)c.handles, 0, MEM_RELEASE);
	ok(catch_av(wfmo_call, &c) && caught_info[0] == EXCEPTION_READ_FAULT && caught_info[1] == (ULONG_PTR)c.handles,
	   "array in a freed page %p: caught %d, fault %lu at %#lx\n", c.handles, caught,
	   (unsigned long)caught_info[0], (unsigned long)caught_info[1]);
	/* A bad count is refused before the array is looked at. */
	SetLastError(0xdeadbeef);
	r = WaitForMultipleObjects(0, NULL, FALSE, 0);
	ok(r == WAIT_FAILED && GetLastError() == ERROR_INVALID_PARAMETER, "count 0, NULL array: %lu, error %lu\n", r,
	   GetLastError());
}

static void test_names(void)
{
	char name[MAX_PATH + 20];
	WCHAR wname[MAX_PATH + 20];
	HANDLE h;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	SetLastError(0xdeadbeef);
	h = CreateEventA(NULL, FALSE, FALSE, name);
	ok(!h && GetLastError() == ERROR_FILENAME_EXCED_RANGE, "long ANSI name: %p, error %lu\n", h, GetLastError());
	for (size_t i = 0; i < ARRAYSIZE(wname) - 1; i++)
		wname[i] = L'w';
	wname[ARRAYSIZE(wname) - 1] = 0;
	SetLastError(0xdeadbeef);
	h = CreateEventW(NULL, FALSE, FALSE, wname);
	ok(h != NULL, "long wide name: error %lu\n", GetLastError());
	CloseHandle(h);
	SetLastError(0xdeadbeef);
	h = CreateMutexA(NULL, FALSE, name);
	ok(!h && GetLastError() == ERROR_FILENAME_EXCED_RANGE, "long mutex name: %p, error %lu\n", h, GetLastError());
	SetLastError(0xdeadbeef);
	h = CreateSemaphoreA(NULL, 0, 1, name);
	ok(!h && GetLastError() == ERROR_FILENAME_EXCED_RANGE, "long semaphore name: %p, error %lu\n", h,
	   GetLastError());
	/* The longest name that fits still works. */
	name[MAX_PATH - 1] = 0;
	h = CreateEventA(NULL, FALSE, FALSE, name);
	ok(h != NULL, "name of MAX_PATH - 1 characters: error %lu\n", GetLastError());
	CloseHandle(h);

	SetLastError(0xdeadbeef);
	h = CreateEventA(NULL, FALSE, FALSE, "no\\such\\namespace");
	ok(!h && GetLastError() == ERROR_PATH_NOT_FOUND, "backslash in name: %p, error %lu\n", h, GetLastError());
	h = CreateEventA(NULL, FALSE, FALSE, "Local\\misuse_sync_event");
	ok(h != NULL, "Local\\ prefix: error %lu\n", GetLastError());
	CloseHandle(h);
}

static void test_type_mismatch(void)
{
	HANDLE sem = CreateSemaphoreA(NULL, 1, 1, NULL);
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	HANDLE mx = CreateMutexA(NULL, FALSE, NULL);
	LONG prev = -1;

	SetLastError(0xdeadbeef);
	expect_error(SetEvent(sem), ERROR_INVALID_HANDLE, "SetEvent on a semaphore");
	SetLastError(0xdeadbeef);
	expect_error(ResetEvent(sem), ERROR_INVALID_HANDLE, "ResetEvent on a semaphore");
	SetLastError(0xdeadbeef);
	expect_error(SetEvent(GetCurrentProcess()), ERROR_INVALID_HANDLE, "SetEvent on the process");
	SetLastError(0xdeadbeef);
	expect_error(ReleaseSemaphore(ev, 1, NULL), ERROR_INVALID_HANDLE, "ReleaseSemaphore on an event");
	SetLastError(0xdeadbeef);
	expect_error(ReleaseMutex(ev), ERROR_INVALID_HANDLE, "ReleaseMutex on an event");
	SetLastError(0xdeadbeef);
	expect_error(ReleaseSemaphore(sem, 1, &prev), ERROR_TOO_MANY_POSTS, "ReleaseSemaphore past the maximum");
	SetLastError(0xdeadbeef);
	expect_error(ReleaseMutex(mx), ERROR_NOT_OWNER, "ReleaseMutex not owned");
	ok(WaitForSingleObject(sem, 0) == WAIT_OBJECT_0, "the semaphore's count changed\n");
	ok(WaitForSingleObject(ev, 0) == WAIT_TIMEOUT, "the event got signaled\n");
	CloseHandle(sem);
	CloseHandle(ev);
	CloseHandle(mx);
}

static void test_duplicate(void)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	HANDLE out;

	CloseHandle(ev);
	out = BOGUS_HANDLE;
	SetLastError(0xdeadbeef);
	expect_error(DuplicateHandle(GetCurrentProcess(), ev, GetCurrentProcess(), &out, 0, FALSE,
				     DUPLICATE_SAME_ACCESS),
		     ERROR_INVALID_HANDLE, "duplicate a closed handle");
	ok(out == BOGUS_HANDLE || out == NULL, "target handle %p\n", out);
	SetLastError(0xdeadbeef);
	expect_error(DuplicateHandle(GetCurrentProcess(), BOGUS_HANDLE, GetCurrentProcess(), &out, 0, FALSE,
				     DUPLICATE_SAME_ACCESS),
		     ERROR_INVALID_HANDLE, "duplicate a made-up handle");

	ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	SetLastError(0xdeadbeef);
	expect_error(DuplicateHandle(BOGUS_HANDLE, ev, GetCurrentProcess(), &out, 0, FALSE, DUPLICATE_SAME_ACCESS),
		     ERROR_INVALID_HANDLE, "bad source process");
	SetLastError(0xdeadbeef);
	expect_error(DuplicateHandle(GetCurrentProcess(), ev, BOGUS_HANDLE, &out, 0, FALSE, DUPLICATE_SAME_ACCESS),
		     ERROR_INVALID_HANDLE, "bad target process");
	/* A failed DUPLICATE_CLOSE_SOURCE on a bad target still leaves the
	 * source open only if it was never reached: ev is still usable. */
	ok(SetEvent(ev), "the event is gone: %lu\n", GetLastError());
	CloseHandle(ev);
}

int main(void)
{
	test_close();
	test_wait_bad_handles();
	test_wait_multiple();
	test_wait_bad_array();
	test_names();
	test_type_mismatch();
	test_duplicate();
	return test_summary();
}
