/* Misusing I/O calls from PE code: bad buffers, bad handles, NULL
 * out-pointers, a completion port closed under its waiters.
 *
 * Windows rules checked (Microsoft's ReadFile, WriteFile,
 * GetQueuedCompletionStatus, CloseHandle docs, and the kernel's probing of
 * user buffers, which turns a bad buffer into STATUS_ACCESS_VIOLATION,
 * that is ERROR_NOACCESS, instead of a crash):
 *  - ReadFile/WriteFile on a closed or made-up handle: FALSE,
 *    ERROR_INVALID_HANDLE;
 *  - ReadFile into NULL, into a freed page or into a read-only page:
 *    FALSE, ERROR_NOACCESS; WriteFile from NULL or from a freed page:
 *    FALSE, ERROR_INVALID_USER_BUFFER, nothing written (what Windows
 *    returns and Wine's own tests check); the program goes on; a
 *    zero-length transfer with a NULL buffer succeeds and moves nothing;
 *  - ReadFile/WriteFile with a made-up lpNumberOfBytes pointer: the program
 *    sees EXCEPTION_ACCESS_VIOLATION (a write fault at that address);
 *  - GetQueuedCompletionStatus on a closed port: FALSE,
 *    ERROR_INVALID_HANDLE; with a NULL lpNumberOfBytesTransferred (and a
 *    packet to remove) or a NULL lpOverlapped the function writes through
 *    it anyway: the program sees a catchable EXCEPTION_ACCESS_VIOLATION
 *    (a write fault at address 0), not a dead process, and goes on; a
 *    NULL lpCompletionKey fails the removal: FALSE, ERROR_NOACCESS;
 *  - a port closed while threads wait in GetQueuedCompletionStatus wakes
 *    them: FALSE, ERROR_ABANDONED_WAIT_0, *lpOverlapped NULL (documented
 *    under GetQueuedCompletionStatus; Wine keeps the port alive while a
 *    thread waits on it, so there the waiters time out: todo_wine);
 *  - PostQueuedCompletionStatus to a closed port: ERROR_INVALID_HANDLE;
 *  - GetOverlappedResult with a NULL OVERLAPPED (read fault) or, for a
 *    finished request, a NULL or read-only byte count (write fault): a
 *    catchable EXCEPTION_ACCESS_VIOLATION at that address. */
#include <stdint.h>

#include "test.h"
#include "catch_av.h"

#define BOGUS_HANDLE ((HANDLE)(ULONG_PTR)0x7ff0)

static char tmp_path[MAX_PATH];

static HANDLE open_tmp(void)
{
	char dir[MAX_PATH];

	if (!tmp_path[0]) {
		GetTempPathA(sizeof(dir), dir);
		snprintf(tmp_path, sizeof(tmp_path), "%smisuse_io_%lu.tmp", dir, GetCurrentProcessId());
	}
	return CreateFileA(tmp_path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
}

static void test_bad_handles(void)
{
	HANDLE f = open_tmp();
	char buf[16];
	DWORD n = 77;

	ok(f != INVALID_HANDLE_VALUE, "CreateFile: %lu\n", GetLastError());
	CloseHandle(f);
	SetLastError(0xdeadbeef);
	ok(!ReadFile(f, buf, sizeof(buf), &n, NULL) && GetLastError() == ERROR_INVALID_HANDLE,
	   "ReadFile on a closed handle: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!WriteFile(BOGUS_HANDLE, buf, sizeof(buf), &n, NULL) && GetLastError() == ERROR_INVALID_HANDLE,
	   "WriteFile on a made-up handle: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!ReadFile(NULL, buf, sizeof(buf), &n, NULL) && GetLastError() == ERROR_INVALID_HANDLE,
	   "ReadFile on NULL: error %lu\n", GetLastError());
}

static HANDLE count_file;

static void read_bad_count(void *arg)
{
	char buf[4];

	(void)arg;
	ReadFile(count_file, buf, sizeof(buf), (DWORD *)(ULONG_PTR)8, NULL);
}

static void write_bad_count(void *arg)
{
	(void)arg;
	WriteFile(count_file, "abcd", 4, (DWORD *)(ULONG_PTR)8, NULL);
}

/* A made-up count pointer faults in the caller.  (Whether the data moved
 * first differs: Wine writes the count after the transfer.) */
static void test_bad_count_pointer(void)
{
	count_file = open_tmp();
	ok(catch_av(read_bad_count, NULL) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == 8,
	   "ReadFile count at 8: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	ok(catch_av(write_bad_count, NULL) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == 8,
	   "WriteFile count at 8: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	CloseHandle(count_file);
	DeleteFileA(tmp_path);
}

static void test_bad_buffers(void)
{
	HANDLE f = open_tmp();
	char data[4096];
	char *freed = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	char *ro = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READONLY);
	DWORD n, got;
	BOOL r;

	memset(data, 'x', sizeof(data));
	ok(WriteFile(f, data, sizeof(data), &n, NULL) && n == sizeof(data), "WriteFile: %lu\n", GetLastError());
	VirtualFree(freed, 0, MEM_RELEASE);

	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	n = 77;
	SetLastError(0xdeadbeef);
	r = ReadFile(f, NULL, 16, &n, NULL);
	ok(!r && GetLastError() == ERROR_NOACCESS, "ReadFile into NULL: %d, error %lu\n", r, GetLastError());
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	SetLastError(0xdeadbeef);
	r = ReadFile(f, freed, 16, &n, NULL);
	ok(!r && GetLastError() == ERROR_NOACCESS, "ReadFile into a freed page: %d, error %lu\n", r, GetLastError());
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	SetLastError(0xdeadbeef);
	r = ReadFile(f, ro, 16, &n, NULL);
	ok(!r && GetLastError() == ERROR_NOACCESS, "ReadFile into a read-only page: %d, error %lu\n", r,
	   GetLastError());
	ok(ro[0] == 0, "the read-only page was written\n");

	n = 77;
	SetLastError(0xdeadbeef);
	r = WriteFile(f, NULL, 16, &n, NULL);
	ok(!r && GetLastError() == ERROR_INVALID_USER_BUFFER && n == 0, "WriteFile from NULL: %d, error %lu, n %lu\n",
	   r, GetLastError(), n);
	n = 77;
	SetLastError(0xdeadbeef);
	r = WriteFile(f, freed, 16, &n, NULL);
	ok(!r && GetLastError() == ERROR_INVALID_USER_BUFFER && n == 0,
	   "WriteFile from a freed page: %d, error %lu, n %lu\n", r, GetLastError(), n);
	ok(GetFileSize(f, NULL) == sizeof(data), "file size %lu\n", GetFileSize(f, NULL));

	/* Nothing to move, nothing to check. */
	n = 77;
	ok(ReadFile(f, NULL, 0, &n, NULL) && n == 0, "zero-length ReadFile: error %lu, n %lu\n", GetLastError(), n);
	n = 77;
	ok(WriteFile(f, NULL, 0, &n, NULL) && n == 0, "zero-length WriteFile: error %lu, n %lu\n", GetLastError(), n);

	/* The file is intact and still usable. */
	SetFilePointer(f, 0, NULL, FILE_BEGIN);
	memset(data, 0, sizeof(data));
	ok(ReadFile(f, data, sizeof(data), &got, NULL) && got == sizeof(data) && data[0] == 'x' &&
		   data[sizeof(data) - 1] == 'x',
	   "read back: %lu bytes, error %lu\n", got, GetLastError());
	VirtualFree(ro, 0, MEM_RELEASE);
	CloseHandle(f);
	DeleteFileA(tmp_path);
}

enum null_arg { NULL_BYTES, NULL_KEY, NULL_OVERLAPPED };

struct gqcs_call {
	HANDLE port;
	enum null_arg which;
	BOOL ret;
	DWORD err;
};

/* GetQueuedCompletionStatus with one out-pointer NULL. */
static void gqcs_null_call(void *arg)
{
	struct gqcs_call *c = arg;
	ULONG_PTR key;
	OVERLAPPED *ov;
	DWORD n;

	SetLastError(0xdeadbeef);
	c->ret = GetQueuedCompletionStatus(c->port, c->which == NULL_BYTES ? NULL : &n,
					   c->which == NULL_KEY ? NULL : &key, c->which == NULL_OVERLAPPED ? NULL : &ov, 0);
	c->err = GetLastError();
}

static void gqcs_null(HANDLE port, enum null_arg which, volatile BOOL *ret, volatile DWORD *err)
{
	struct gqcs_call c = { port, which, 99, 0 };

	catch_av(gqcs_null_call, &c);
	*ret = c.ret;
	*err = c.err;
}

struct gor_call {
	HANDLE file;
	OVERLAPPED *ov;
	DWORD *bytes;
};

static void gor_call(void *arg)
{
	struct gor_call *c = arg;

	GetOverlappedResult(c->file, c->ov, c->bytes, FALSE);
}

/* GetOverlappedResult reads the OVERLAPPED and writes the count. */
static void test_overlapped_result(void)
{
	HANDLE ev = CreateEventA(NULL, TRUE, TRUE, NULL);
	OVERLAPPED ov = { .hEvent = ev };
	struct gor_call c = { ev, NULL, NULL };
	DWORD n = 77;

	ov.Internal = 0; /* STATUS_SUCCESS: a finished request */
	ov.InternalHigh = 12;
	ok(catch_av(gor_call, &c) && caught_info[0] == EXCEPTION_READ_FAULT && caught_info[1] == 0,
	   "NULL OVERLAPPED: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	c.ov = &ov;
	ok(catch_av(gor_call, &c) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == 0,
	   "NULL byte count: caught %d, fault %lu at %#lx\n", caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	c.bytes = VirtualAlloc(NULL, 4096, MEM_COMMIT | MEM_RESERVE, PAGE_READONLY);
	ok(catch_av(gor_call, &c) && caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == (ULONG_PTR)c.bytes,
	   "read-only byte count %p: caught %d, fault %lu at %#lx\n", c.bytes, caught, (unsigned long)caught_info[0],
	   (unsigned long)caught_info[1]);
	VirtualFree(c.bytes, 0, MEM_RELEASE);
	c.bytes = &n;
	ok(!catch_av(gor_call, &c) && n == 12, "good pointers: caught %d, n %lu\n", caught, n);
	CloseHandle(ev);
}

static void test_gqcs(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	OVERLAPPED *ov = (OVERLAPPED *)1;
	volatile BOOL r;
	volatile DWORD err;
	ULONG_PTR key;
	DWORD n;

	ok(PostQueuedCompletionStatus(port, 5, 6, NULL), "post: %lu\n", GetLastError());
	gqcs_null(port, NULL_BYTES, &r, &err);
	ok(caught && caught_code == EXCEPTION_ACCESS_VIOLATION, "NULL byte count: caught %d, code %#lx\n", caught,
	   caught_code);
	ok(caught_info[0] == EXCEPTION_WRITE_FAULT && caught_info[1] == 0, "NULL byte count: fault %lu at %#lx\n",
	   (unsigned long)caught_info[0], (unsigned long)caught_info[1]);

	gqcs_null(port, NULL_OVERLAPPED, &r, &err);
	ok(caught && caught_code == EXCEPTION_ACCESS_VIOLATION, "NULL lpOverlapped: caught %d, code %#lx\n", caught,
	   caught_code);

	ok(PostQueuedCompletionStatus(port, 5, 6, NULL), "post: %lu\n", GetLastError());
	gqcs_null(port, NULL_KEY, &r, &err);
	ok(!caught && !r && err == ERROR_NOACCESS, "NULL key: caught %d, returned %d, error %lu\n", caught, r, err);

	/* The port still works after all that. */
	ok(PostQueuedCompletionStatus(port, 7, 8, NULL), "post: %lu\n", GetLastError());
	while (GetQueuedCompletionStatus(port, &n, &key, &ov, 0) && n != 7)
		;
	ok(n == 7 && key == 8, "after the faults: %lu bytes, key %lu\n", n, (unsigned long)key);

	CloseHandle(port);
	SetLastError(0xdeadbeef);
	ok(!GetQueuedCompletionStatus(port, &n, &key, &ov, 0) && GetLastError() == ERROR_INVALID_HANDLE,
	   "closed port: error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!PostQueuedCompletionStatus(port, 1, 2, NULL) && GetLastError() == ERROR_INVALID_HANDLE,
	   "post to a closed port: error %lu\n", GetLastError());
}

struct waiter {
	HANDLE port, started;
	BOOL ret;
	DWORD err;
	OVERLAPPED *ov;
};

static DWORD WINAPI waiter_thread(void *arg)
{
	struct waiter *w = arg;
	ULONG_PTR key;
	DWORD n;

	w->ov = (OVERLAPPED *)1;
	SetEvent(w->started);
	w->ret = GetQueuedCompletionStatus(w->port, &n, &key, &w->ov, 3000);
	w->err = GetLastError();
	return 0;
}

static void test_port_closed_under_waiters(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 2);
	struct waiter w[3];
	HANDLE th[3];
	DWORD r;

	for (int i = 0; i < 3; i++) {
		w[i].port = port;
		w[i].started = CreateEventA(NULL, TRUE, FALSE, NULL);
		th[i] = CreateThread(NULL, 0, waiter_thread, &w[i], 0, NULL);
		WaitForSingleObject(w[i].started, 5000);
	}
	/* Each thread has reached the port or is about to; give the last
	 * one time to block. */
	Sleep(200);
	ok(CloseHandle(port), "close: %lu\n", GetLastError());
	r = WaitForMultipleObjects(3, th, TRUE, 1500);
	ok_todo_wine(r == WAIT_OBJECT_0, "the waiters did not wake: %lu\n", r);
	r = WaitForMultipleObjects(3, th, TRUE, 10000);
	ok(r == WAIT_OBJECT_0, "the waiters never returned: %lu\n", r);
	for (int i = 0; i < 3; i++) {
		ok(!w[i].ret, "waiter %d returned TRUE\n", i);
		ok_todo_wine(w[i].err == ERROR_ABANDONED_WAIT_0, "waiter %d: error %lu\n", i, w[i].err);
		ok(w[i].ov == NULL, "waiter %d: overlapped %p\n", i, w[i].ov);
		CloseHandle(th[i]);
		CloseHandle(w[i].started);
	}
}

int main(void)
{
	test_bad_handles();
	test_bad_buffers();
	test_bad_count_pointer();
	test_gqcs();
	test_overlapped_result();
	test_port_closed_under_waiters();
	return test_summary();
}
