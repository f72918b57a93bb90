/* Byte-range locks: LockFile/UnlockFile and LockFileEx/UnlockFileEx
 * between two handles of one file, Windows' no-merge rules (an exclusive
 * lock conflicts with its own handle's next request, a range locked
 * shared twice is unlocked twice, unlocks name a range exactly), a
 * blocking request on a synchronous handle, pending requests on an
 * overlapped handle completed through an event and through a completion
 * port, CancelIoEx of a pending lock, locks released by CloseHandle, and
 * locks between two processes ("file_lock child hold PATH" holds one
 * until it is killed).  Every wait is bounded. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static char path[MAX_PATH];

static HANDLE open_file(DWORD flags)
{
	return CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
			   flags, NULL);
}

static DWORD lock_error(HANDLE h, DWORD off, DWORD len)
{
	SetLastError(0xdeadbeef);
	if (LockFile(h, off, 0, len, 0))
		return 0;
	return GetLastError();
}

static DWORD lock_ex_error(HANDLE h, DWORD flags, DWORD off, DWORD len)
{
	OVERLAPPED ov;

	memset(&ov, 0, sizeof(ov));
	ov.Offset = off;
	SetLastError(0xdeadbeef);
	if (LockFileEx(h, flags, 0, len, 0, &ov))
		return 0;
	return GetLastError();
}

static DWORD unlock_error(HANDLE h, DWORD off, DWORD len)
{
	SetLastError(0xdeadbeef);
	if (UnlockFile(h, off, 0, len, 0))
		return 0;
	return GetLastError();
}

#define EXCL_NOW (LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY)

static void test_two_handles(void)
{
	HANDLE h1 = open_file(0), h2 = open_file(0);
	DWORD e;

	ok(h1 != INVALID_HANDLE_VALUE && h2 != INVALID_HANDLE_VALUE, "open: %lu\n", GetLastError());
	e = lock_error(h1, 0, 10);
	ok(!e, "lock: %lu\n", e);
	e = lock_error(h2, 5, 10);
	ok(e == ERROR_LOCK_VIOLATION, "other handle, overlapping: %lu\n", e);
	e = lock_error(h1, 5, 10);
	ok(e == ERROR_LOCK_VIOLATION, "same handle, overlapping: %lu\n", e);
	e = lock_error(h2, 10, 10);
	ok(!e, "other handle, next to it: %lu\n", e);
	/* Wine says ERROR_LOCK_VIOLATION for a range that is not locked. */
	e = unlock_error(h1, 0, 5);
	ok_todo_wine(e == ERROR_NOT_LOCKED, "part of a range: %lu\n", e);
	e = unlock_error(h2, 0, 10);
	ok_todo_wine(e == ERROR_NOT_LOCKED, "another handle's range: %lu\n", e);
	e = unlock_error(h1, 0, 10);
	ok(!e, "unlock: %lu\n", e);
	e = unlock_error(h1, 0, 10);
	ok_todo_wine(e == ERROR_NOT_LOCKED, "unlock twice: %lu\n", e);
	e = lock_error(h2, 0, 10);
	ok(!e, "after the unlock: %lu\n", e);
	e = unlock_error(h2, 0, 10);
	ok(!e, "unlock: %lu\n", e);
	e = unlock_error(h2, 10, 10);
	ok(!e, "unlock: %lu\n", e);

	/* Shared ranges: any number of readers, no writer; no merging. */
	e = lock_ex_error(h1, LOCKFILE_FAIL_IMMEDIATELY, 100, 10);
	ok(!e, "shared: %lu\n", e);
	e = lock_ex_error(h1, LOCKFILE_FAIL_IMMEDIATELY, 100, 10);
	ok(!e, "shared again: %lu\n", e);
	e = lock_ex_error(h2, LOCKFILE_FAIL_IMMEDIATELY, 105, 10);
	ok(!e, "shared, other handle: %lu\n", e);
	e = lock_ex_error(h2, EXCL_NOW, 112, 2);
	ok(e == ERROR_LOCK_VIOLATION, "exclusive in own shared: %lu\n", e);
	e = lock_ex_error(h2, EXCL_NOW, 90, 11);
	ok(e == ERROR_LOCK_VIOLATION, "exclusive over shared: %lu\n", e);
	e = unlock_error(h2, 105, 10);
	ok(!e, "unlock: %lu\n", e);
	e = unlock_error(h1, 100, 10);
	ok(!e, "unlock one of two: %lu\n", e);
	e = lock_ex_error(h2, EXCL_NOW, 100, 1);
	ok(e == ERROR_LOCK_VIOLATION, "still shared once: %lu\n", e);
	e = unlock_error(h1, 100, 10);
	ok(!e, "unlock the other: %lu\n", e);
	e = lock_ex_error(h2, EXCL_NOW, 100, 1);
	ok(!e, "exclusive once free: %lu\n", e);
	e = unlock_error(h2, 100, 1);
	ok(!e, "unlock: %lu\n", e);

	/* Far beyond the end of the file is lockable too. */
	SetLastError(0xdeadbeef);
	ok(LockFile(h1, 0, 1, 0x1000, 0), "beyond 4 GiB: %lu\n", GetLastError());
	/* Windows grants zero-byte ranges (they conflict with nothing);
	 * Wine refuses them. */
	e = lock_error(h2, 0, 0);
	ok_todo_wine(e == 0, "zero bytes: %lu\n", e);
	e = unlock_error(h2, 0, 0);
	ok_todo_wine(!e, "unlock zero bytes: %lu\n", e);

	/* Closing a handle releases what it held. */
	e = lock_error(h1, 200, 10);
	ok(!e, "lock: %lu\n", e);
	CloseHandle(h1);
	e = lock_error(h2, 200, 10);
	ok(!e, "after the holder closed: %lu\n", e);
	SetLastError(0xdeadbeef);
	ok(LockFile(h2, 0, 1, 0x1000, 0), "its range beyond 4 GiB: %lu\n", GetLastError());
	CloseHandle(h2);
}

struct unlocker {
	HANDLE h;
	DWORD off, len, delay;
	volatile LONG done;
};

static DWORD WINAPI unlock_later(void *arg)
{
	struct unlocker *u = arg;

	Sleep(u->delay);
	InterlockedExchange(&u->done, 1);
	UnlockFile(u->h, u->off, 0, u->len, 0);
	return 0;
}

static void test_blocking(void)
{
	HANDLE h1 = open_file(0), h2 = open_file(0), t;
	struct unlocker u = { h1, 0, 10, 200, 0 };
	OVERLAPPED ov;

	ok(!lock_error(h1, 0, 10), "lock\n");
	t = CreateThread(NULL, 0, unlock_later, &u, 0, NULL);
	memset(&ov, 0, sizeof(ov));
	ov.Offset = 5;
	ok(LockFileEx(h2, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ov), "blocking lock: %lu\n", GetLastError());
	ok(u.done, "granted before the holder unlocked\n");
	WaitForSingleObject(t, 5000);
	CloseHandle(t);
	ok(!unlock_error(h2, 5, 1), "unlock\n");
	CloseHandle(h1);
	CloseHandle(h2);
}

/* Wine leaves a lock request on an overlapped handle pending for good
 * once it has to wait (with nothing CancelIoEx could cancel), and queues
 * no packet for a lock granted at once: those checks are todo_wine. */
static void test_overlapped_event(void)
{
	HANDLE h1 = open_file(0), h3 = open_file(FILE_FLAG_OVERLAPPED);
	OVERLAPPED ov;
	DWORD n, e;
	BOOL r;

	/* Pending until the holder lets go. */
	ok(!lock_error(h1, 0, 10), "lock\n");
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = CreateEventA(NULL, TRUE, FALSE, NULL);
	SetLastError(0xdeadbeef);
	r = LockFileEx(h3, LOCKFILE_EXCLUSIVE_LOCK, 0, 10, 0, &ov);
	e = GetLastError();
	ok(!r && e == ERROR_IO_PENDING, "pending lock: %d, error %lu\n", r, e);
	ok(WaitForSingleObject(ov.hEvent, 100) == WAIT_TIMEOUT, "event set while locked\n");
	ok(!unlock_error(h1, 0, 10), "unlock\n");
	ok_todo_wine(WaitForSingleObject(ov.hEvent, 5000) == WAIT_OBJECT_0, "event not set\n");
	r = GetOverlappedResult(h3, &ov, &n, FALSE);
	e = GetLastError();
	ok_todo_wine(r, "result: %lu\n", e);
	e = lock_error(h1, 0, 10);
	ok_todo_wine(e == ERROR_LOCK_VIOLATION, "the pending lock was not taken: %lu\n", e);
	CloseHandle(h1);
	CloseHandle(h3);
	CloseHandle(ov.hEvent);
}

static void test_overlapped_cancel(void)
{
	HANDLE h1 = open_file(0), h3 = open_file(FILE_FLAG_OVERLAPPED);
	OVERLAPPED ov;
	DWORD n, e;
	BOOL r;

	/* Fail at once, overlapped or not. */
	ok(!lock_error(h1, 0, 10), "lock\n");
	e = lock_ex_error(h3, EXCL_NOW, 0, 10);
	ok(e == ERROR_LOCK_VIOLATION, "fail immediately: %lu\n", e);

	/* Cancelled while pending: ERROR_OPERATION_ABORTED, no lock. */
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = CreateEventA(NULL, TRUE, FALSE, NULL);
	r = LockFileEx(h3, LOCKFILE_EXCLUSIVE_LOCK, 0, 10, 0, &ov);
	e = GetLastError();
	ok(!r && e == ERROR_IO_PENDING, "pending lock: %d, error %lu\n", r, e);
	/* Wine has no request to cancel. */
	r = CancelIoEx(h3, &ov);
	e = GetLastError();
	ok_todo_wine(r, "CancelIoEx: %lu\n", e);
	SetLastError(0xdeadbeef);
	r = GetOverlappedResult(h3, &ov, &n, TRUE);
	e = GetLastError();
	ok_todo_wine(!r && e == ERROR_OPERATION_ABORTED, "cancelled: %d, error %lu\n", r, e);
	ok(!unlock_error(h1, 0, 10), "unlock\n");
	Sleep(100);
	e = lock_error(h1, 0, 10);
	ok(e == 0, "the cancelled lock was taken: %lu\n", e);
	CloseHandle(h1);
	CloseHandle(h3);
	CloseHandle(ov.hEvent);
}

static void test_overlapped_port(void)
{
	HANDLE h1 = open_file(0), h3 = open_file(FILE_FLAG_OVERLAPPED), port, t;
	struct unlocker u = { h1, 0, 10, 100, 0 };
	OVERLAPPED ov, ov2, *got;
	ULONG_PTR key;
	DWORD n, e;
	BOOL r;

	port = CreateIoCompletionPort(h3, NULL, 7, 0);
	ok(port != NULL, "port: %lu\n", GetLastError());
	/* Granted at once: TRUE, and a packet as for any completion. */
	memset(&ov, 0, sizeof(ov));
	ov.Offset = 50;
	ok(LockFileEx(h3, LOCKFILE_EXCLUSIVE_LOCK, 0, 10, 0, &ov), "lock at once: %lu\n", GetLastError());
	got = NULL;
	r = GetQueuedCompletionStatus(port, &n, &key, &got, 1000);
	ok_todo_wine(r && key == 7 && got == &ov, "packet: key %lu, %p\n", (unsigned long)key, (void *)got);
	/* Granted later. */
	ok(!lock_error(h1, 0, 10), "lock\n");
	memset(&ov2, 0, sizeof(ov2));
	r = LockFileEx(h3, LOCKFILE_EXCLUSIVE_LOCK, 0, 10, 0, &ov2);
	e = GetLastError();
	ok(!r && e == ERROR_IO_PENDING, "pending lock: %d, error %lu\n", r, e);
	t = CreateThread(NULL, 0, unlock_later, &u, 0, NULL);
	got = NULL;
	r = GetQueuedCompletionStatus(port, &n, &key, &got, 5000);
	ok_todo_wine(r && key == 7 && got == &ov2, "packet: key %lu, %p\n", (unsigned long)key, (void *)got);
	ok(u.done, "granted before the holder unlocked\n");
	WaitForSingleObject(t, 5000);
	CloseHandle(t);
	CloseHandle(h1);
	CloseHandle(h3);
	CloseHandle(port);
}

static void test_two_processes(const char *self)
{
	STARTUPINFOA si;
	PROCESS_INFORMATION pi;
	HANDLE h = open_file(0);
	char line[2 * MAX_PATH];
	DWORD e = 0, i;

	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	snprintf(line, sizeof(line), "\"%s\" child hold \"%s\"", self, path);
	if (!ok(CreateProcessA(NULL, line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi), "CreateProcess: %lu\n",
		GetLastError()))
		return;
	/* The child takes [0, 10) and keeps it. */
	for (i = 0; i < 200 && (e = lock_error(h, 0, 10)) == 0; i++) {
		unlock_error(h, 0, 10);
		Sleep(50);
	}
	ok(e == ERROR_LOCK_VIOLATION, "the child's lock: %lu\n", e);
	e = lock_error(h, 10, 10);
	ok(e == 0, "next to the child's: %lu\n", e);
	ok(!unlock_error(h, 10, 10), "unlock\n");
	/* Its death releases it. */
	TerminateProcess(pi.hProcess, 9);
	ok(WaitForSingleObject(pi.hProcess, 20000) == WAIT_OBJECT_0, "child did not end\n");
	for (i = 0; i < 100 && (e = lock_error(h, 0, 10)) != 0; i++)
		Sleep(20);
	ok(e == 0, "after the child died: %lu\n", e);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	CloseHandle(h);
}

static int child_hold(const char *file)
{
	HANDLE h = CreateFileA(file, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			       OPEN_EXISTING, 0, NULL);
	OVERLAPPED ov;

	memset(&ov, 0, sizeof(ov));
	if (h == INVALID_HANDLE_VALUE || !LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, 10, 0, &ov))
		return 2;
	Sleep(60000);
	return 3;
}

int main(int argc, char **argv)
{
	char dir[MAX_PATH], self[MAX_PATH];
	HANDLE h;
	DWORD n;

	if (argc == 4 && !strcmp(argv[1], "child") && !strcmp(argv[2], "hold"))
		return child_hold(argv[3]);
	GetModuleFileNameA(NULL, self, sizeof(self));
	GetTempPathA(sizeof(dir), dir);
	snprintf(path, sizeof(path), "%sfile_lock_%lu.tmp", dir, GetCurrentProcessId());
	h = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
	ok(h != INVALID_HANDLE_VALUE, "create %s: %lu\n", path, GetLastError());
	WriteFile(h, "0123456789abcdefghij0123456789abcdefghij", 40, &n, NULL);
	CloseHandle(h);

	test_two_handles();
	test_blocking();
	test_overlapped_event();
	test_overlapped_cancel();
	test_overlapped_port();
	test_two_processes(self);
	DeleteFileA(path);
	return test_summary();
}
