/* The overlapped-completion rules, exercised through named pipes.
 *
 * Windows rules checked (Microsoft's docs of ReadFile, GetOverlappedResult,
 * SetFileCompletionNotificationModes, CancelIo/CancelIoEx, GetQueued-
 * CompletionStatus, ConnectNamedPipe):
 *  - an overlapped request that cannot finish at once returns FALSE with
 *    ERROR_IO_PENDING, Internal is STATUS_PENDING (HasOverlappedIoCompleted
 *    FALSE) until it completes; then Internal/InternalHigh hold the status
 *    and byte count, the event is set and a packet with the handle's key
 *    and the OVERLAPPED pointer reaches the associated port;
 *  - a request that succeeds at once (data already there) returns TRUE
 *    and still queues a packet and sets the event, unless
 *    FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is set: then no packet, but the
 *    event is still set;
 *  - an OVERLAPPED whose hEvent has its low bit set gets no packet; the
 *    event (low bit masked off) is still set;
 *  - with hEvent NULL, GetOverlappedResult waits on the file handle, which
 *    a completion signals unless FILE_SKIP_SET_EVENT_ON_HANDLE is set;
 *  - GetOverlappedResult(bWait FALSE) on a pending request fails with
 *    ERROR_IO_INCOMPLETE, GetOverlappedResultEx times out with WAIT_TIMEOUT;
 *  - CancelIoEx(h, ov) cancels that request only, CancelIoEx(h, NULL)
 *    every request on the handle, CancelIo only the calling thread's; a
 *    cancelled request completes with ERROR_OPERATION_ABORTED (through the
 *    port as a FALSE GetQueuedCompletionStatus); CancelIoEx with nothing
 *    to cancel fails with ERROR_NOT_FOUND (Wine: TRUE for ov NULL);
 *  - ConnectNamedPipe pends until a client connects; if a client connected
 *    first it fails with ERROR_PIPE_CONNECTED and queues nothing;
 *  - message-mode reads into a small buffer fail with ERROR_MORE_DATA and
 *    leave the rest of the message for the next read; reading from a pipe whose other end
 *    closed gives ERROR_BROKEN_PIPE, writing to it ERROR_NO_DATA. */
#include "test.h"

#define PIPE_NAME "\\\\.\\pipe\\ndshim_overlapped_pipe"

static HANDLE port;

static void make_pair(DWORD type, HANDLE *server, HANDLE *client, ULONG_PTR key)
{
	*server = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
				   type | (type == PIPE_TYPE_MESSAGE ? PIPE_READMODE_MESSAGE : 0), 1, 4096,
				   4096, 0, NULL);
	ok(*server != INVALID_HANDLE_VALUE, "CreateNamedPipe failed: %lu\n", GetLastError());
	*client = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			      FILE_FLAG_OVERLAPPED, NULL);
	ok(*client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	if (key)
		ok(CreateIoCompletionPort(*server, port, key, 0) == port, "association failed: %lu\n",
		   GetLastError());
}

/* Is the next packet (ov, key, bytes)?  Or, with ov NULL, is there none? */
static void expect_packet(int line, OVERLAPPED *want_ov, ULONG_PTR want_key, DWORD want_bytes,
			  BOOL want_ret, DWORD want_error)
{
	OVERLAPPED *got = NULL;
	ULONG_PTR key = 0;
	DWORD bytes = 0;
	BOOL ret;

	SetLastError(0xdeadbeef);
	ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, want_ov ? 2000 : 0);
	if (!want_ov) {
		test_ok(!ret && !got && GetLastError() == WAIT_TIMEOUT, __FILE__, line,
			"unexpected packet: ret %d ov %p key %llu error %lu\n", ret, (void *)got, key,
			GetLastError());
		return;
	}
	test_ok(ret == want_ret && got == want_ov && key == want_key && bytes == want_bytes, __FILE__,
		line, "packet: ret %d ov %p key %llu bytes %lu; want %d %p %llu %lu\n", ret,
		(void *)got, key, bytes, want_ret, (void *)want_ov, want_key, want_bytes);
	if (!want_ret)
		test_ok(GetLastError() == want_error, __FILE__, line, "packet error %lu, want %lu\n",
			GetLastError(), want_error);
}

#define expect_no_packet() expect_packet(__LINE__, NULL, 0, 0, 0, 0)

static void test_connect(void)
{
	HANDLE server, client, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { 0 };
	BOOL ret;

	server = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
				  1, 4096, 4096, 0, NULL);
	CreateIoCompletionPort(server, port, 7, 0);
	ov.hEvent = ev;
	SetLastError(0xdeadbeef);
	ret = ConnectNamedPipe(server, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(!HasOverlappedIoCompleted(&ov), "completed before a client came\n");
	ok(WaitForSingleObject(ev, 0) == WAIT_TIMEOUT, "event set too early\n");
	client = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			     FILE_FLAG_OVERLAPPED, NULL);
	ok(client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(ev, 1000) == WAIT_OBJECT_0, "event not set\n");
	ok(HasOverlappedIoCompleted(&ov) && ov.Internal == 0, "Internal %llx\n", ov.Internal);
	expect_packet(__LINE__, &ov, 7, 0, TRUE, 0);
	CloseHandle(client);
	CloseHandle(server);

	/* A client before ConnectNamedPipe. */
	server = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
				  1, 4096, 4096, 0, NULL);
	CreateIoCompletionPort(server, port, 8, 0);
	client = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			     FILE_FLAG_OVERLAPPED, NULL);
	ok(client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ret = ConnectNamedPipe(server, &ov);
	ok(!ret && GetLastError() == ERROR_PIPE_CONNECTED, "got %d, error %lu\n", ret, GetLastError());
	expect_no_packet();
	SetLastError(0xdeadbeef);
	ok(CreateFileA(PIPE_NAME, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL) ==
		   INVALID_HANDLE_VALUE && GetLastError() == ERROR_PIPE_BUSY,
	   "second client: error %lu\n", GetLastError());
	CloseHandle(client);
	CloseHandle(server);
	CloseHandle(ev);
	SetLastError(0xdeadbeef);
	ok(CreateFileA(PIPE_NAME, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL) ==
		   INVALID_HANDLE_VALUE && GetLastError() == ERROR_FILE_NOT_FOUND,
	   "no pipe: error %lu\n", GetLastError());
}

static void test_pending_read(void)
{
	HANDLE server, client, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { 0 }, wov = { 0 };
	char buf[32];
	DWORD n = 0xdead;
	BOOL ret;

	make_pair(PIPE_TYPE_BYTE, &server, &client, 11);
	ov.hEvent = ev;
	SetEvent(ev); /* a request resets its event when it starts */
	SetLastError(0xdeadbeef);
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(ov.Internal == STATUS_PENDING && !HasOverlappedIoCompleted(&ov), "Internal %llx\n",
	   ov.Internal);
	ok(WaitForSingleObject(ev, 0) == WAIT_TIMEOUT, "the event was not reset\n");
	SetLastError(0xdeadbeef);
	ok(!GetOverlappedResult(server, &ov, &n, FALSE) && GetLastError() == ERROR_IO_INCOMPLETE,
	   "error %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	ok(!GetOverlappedResultEx(server, &ov, &n, 50, FALSE) && GetLastError() == WAIT_TIMEOUT,
	   "error %lu\n", GetLastError());
	expect_no_packet();

	ok(WriteFile(client, "hello", 5, NULL, &wov), "write failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(ev, 1000) == WAIT_OBJECT_0, "event not set\n");
	ok(ov.Internal == 0 && ov.InternalHigh == 5, "Internal %llx InternalHigh %llu\n", ov.Internal,
	   ov.InternalHigh);
	ok(GetOverlappedResult(server, &ov, &n, FALSE) && n == 5, "n %lu, error %lu\n", n,
	   GetLastError());
	ok(!memcmp(buf, "hello", 5), "got %.5s\n", buf);
	expect_packet(__LINE__, &ov, 11, 5, TRUE, 0);
	expect_no_packet();
	CloseHandle(client);
	CloseHandle(server);
	CloseHandle(ev);
}

/* Data already there: the read succeeds at once. */
static void check_immediate_read(BOOL skip)
{
	HANDLE server, client, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { 0 }, wov = { 0 };
	char buf[8];
	DWORD n = 0;
	BOOL ret;

	make_pair(PIPE_TYPE_BYTE, &server, &client, 21);
	if (skip)
		ok(SetFileCompletionNotificationModes(server, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS),
		   "SetFileCompletionNotificationModes failed: %lu\n", GetLastError());
	ok(WriteFile(client, "abc", 3, NULL, &wov), "write failed\n");
	ov.hEvent = ev;
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(ret && n == 3, "skip %d: got %d, n %lu, error %lu\n", skip, ret, n, GetLastError());
	ok(ov.Internal == 0 && ov.InternalHigh == 3, "Internal %llx/%llu\n", ov.Internal,
	   ov.InternalHigh);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "skip %d: the event was not set\n", skip);
	if (skip)
		expect_no_packet();
	else
		expect_packet(__LINE__, &ov, 21, 3, TRUE, 0);
	expect_no_packet();

	/* A request that pends still gets its packet with the flag set. */
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(WriteFile(client, "de", 2, NULL, &wov), "write failed\n");
	expect_packet(__LINE__, &ov, 21, 2, TRUE, 0);

	/* Low bit set on hEvent: no packet, the event is set. */
	ResetEvent(ev);
	ov.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
	ok(WriteFile(client, "f", 1, NULL, &wov), "write failed\n");
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(ret && n == 1, "got %d, n %lu\n", ret, n);
	ok(WaitForSingleObject(ev, 0) == WAIT_OBJECT_0, "low-bit event not set\n");
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(WriteFile(client, "g", 1, NULL, &wov), "write failed\n");
	ok(WaitForSingleObject(ev, 1000) == WAIT_OBJECT_0, "low-bit event not set\n");
	ok(GetOverlappedResult(server, &ov, &n, TRUE) && n == 1, "n %lu\n", n);
	expect_no_packet();
	CloseHandle(client);
	CloseHandle(server);
	CloseHandle(ev);
}

struct delayed_write {
	HANDLE h;
	DWORD delay;
};

static DWORD WINAPI delayed_writer(void *arg)
{
	struct delayed_write *d = arg;
	OVERLAPPED wov = { 0 };

	Sleep(d->delay);
	WriteFile(d->h, "later", 5, NULL, &wov);
	return 0;
}

/* hEvent NULL: the handle itself is the event. */
static void check_handle_event(BOOL skip_set_event)
{
	HANDLE server, client, t;
	OVERLAPPED ov = { 0 }, wov = { 0 };
	struct delayed_write d;
	char buf[8];
	DWORD n = 0;
	BOOL ret;

	make_pair(PIPE_TYPE_BYTE, &server, &client, 0);
	if (skip_set_event)
		ok(SetFileCompletionNotificationModes(server, FILE_SKIP_SET_EVENT_ON_HANDLE),
		   "SetFileCompletionNotificationModes failed: %lu\n", GetLastError());
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(WaitForSingleObject(server, 0) == WAIT_TIMEOUT, "handle signaled while pending\n");
	ok(WriteFile(client, "x", 1, NULL, &wov), "write failed\n");
	ok(HasOverlappedIoCompleted(&ov), "not completed\n");
	if (skip_set_event)
		ok(WaitForSingleObject(server, 0) == WAIT_TIMEOUT, "handle signaled despite the flag\n");
	else
		ok(WaitForSingleObject(server, 0) == WAIT_OBJECT_0, "handle not signaled\n");
	ok(GetOverlappedResult(server, &ov, &n, TRUE) && n == 1, "n %lu\n", n);

	if (!skip_set_event) {
		/* GetOverlappedResult(bWait) waits on the handle for a
		 * completion made by another thread. */
		ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
		ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret,
		   GetLastError());
		d.h = client;
		d.delay = 100;
		t = CreateThread(NULL, 0, delayed_writer, &d, 0, NULL);
		ok(GetOverlappedResult(server, &ov, &n, TRUE) && n == 5, "n %lu, error %lu\n", n,
		   GetLastError());
		WaitForSingleObject(t, INFINITE);
		CloseHandle(t);
	}
	CloseHandle(client);
	CloseHandle(server);
}

struct cancel_ctx {
	HANDLE h;
	BOOL ret;
};

static DWORD WINAPI cancel_from_other_thread(void *arg)
{
	struct cancel_ctx *c = arg;

	c->ret = CancelIo(c->h);
	return 0;
}

static void test_cancel(void)
{
	HANDLE server, client, t;
	OVERLAPPED ov[3] = { { 0 } };
	struct cancel_ctx c;
	char buf[3][8];
	DWORD n;
	int i;

	make_pair(PIPE_TYPE_BYTE, &server, &client, 31);
	for (i = 0; i < 3; i++)
		ok(!ReadFile(server, buf[i], 8, NULL, &ov[i]) && GetLastError() == ERROR_IO_PENDING,
		   "read %d: error %lu\n", i, GetLastError());

	/* One request. */
	ok(CancelIoEx(server, &ov[1]), "CancelIoEx failed: %lu\n", GetLastError());
	expect_packet(__LINE__, &ov[1], 31, 0, FALSE, ERROR_OPERATION_ABORTED);
	expect_no_packet();
	SetLastError(0xdeadbeef);
	ok(!GetOverlappedResult(server, &ov[1], &n, FALSE) && GetLastError() == ERROR_OPERATION_ABORTED,
	   "error %lu\n", GetLastError());
	ok(!HasOverlappedIoCompleted(&ov[0]) && !HasOverlappedIoCompleted(&ov[2]),
	   "the others were cancelled too\n");
	SetLastError(0xdeadbeef);
	ok(!CancelIoEx(server, &ov[1]) && GetLastError() == ERROR_NOT_FOUND, "error %lu\n",
	   GetLastError());

	/* CancelIo from another thread leaves our requests alone. */
	c.h = server;
	t = CreateThread(NULL, 0, cancel_from_other_thread, &c, 0, NULL);
	WaitForSingleObject(t, INFINITE);
	CloseHandle(t);
	ok(c.ret, "CancelIo failed\n");
	ok(!HasOverlappedIoCompleted(&ov[0]) && !HasOverlappedIoCompleted(&ov[2]),
	   "another thread's CancelIo cancelled our requests\n");
	expect_no_packet();

	/* Every request on the handle (in an order Windows does not
	 * document: ndrun and Windows go by issue order, Wine backwards). */
	ok(CancelIoEx(server, NULL), "CancelIoEx failed: %lu\n", GetLastError());
	for (i = 0; i < 2; i++) {
		OVERLAPPED *got = NULL;
		ULONG_PTR key;

		SetLastError(0xdeadbeef);
		ok(!GetQueuedCompletionStatus(port, &n, &key, &got, 1000) &&
			   GetLastError() == ERROR_OPERATION_ABORTED && (got == &ov[0] || got == &ov[2]),
		   "packet %d: ov %p, error %lu\n", i, (void *)got, GetLastError());
	}
	ok(HasOverlappedIoCompleted(&ov[0]) && HasOverlappedIoCompleted(&ov[2]), "not cancelled\n");
	/* Wine returns TRUE when there was nothing to cancel. */
	SetLastError(0xdeadbeef);
	ok_todo_wine(!CancelIoEx(server, NULL) && GetLastError() == ERROR_NOT_FOUND, "error %lu\n",
		     GetLastError());

	/* CancelIo from the issuing thread. */
	ok(!ReadFile(server, buf[0], 8, NULL, &ov[0]) && GetLastError() == ERROR_IO_PENDING,
	   "error %lu\n", GetLastError());
	ok(CancelIo(server), "CancelIo failed\n");
	expect_packet(__LINE__, &ov[0], 31, 0, FALSE, ERROR_OPERATION_ABORTED);
	CloseHandle(client);
	CloseHandle(server);
}

static void test_messages_and_broken(void)
{
	HANDLE server, client;
	OVERLAPPED ov = { 0 }, wov = { 0 };
	char buf[16];
	DWORD n = 0, avail = 0, left = 0;
	BOOL ret;

	make_pair(PIPE_TYPE_MESSAGE, &server, &client, 41);
	ok(WriteFile(client, "0123456789", 10, NULL, &wov), "write failed\n");
	ok(WriteFile(client, "ab", 2, NULL, &wov), "write failed\n");
	ok(PeekNamedPipe(server, buf, 4, &n, &avail, &left) && n == 4 && avail == 12 && left == 6,
	   "peek: n %lu avail %lu left %lu\n", n, avail, left);
	SetLastError(0xdeadbeef);
	/* (The byte count of a failed overlapped ReadFile is not
	 * documented: GetOverlappedResult reports it below.) */
	ret = ReadFile(server, buf, 4, NULL, &ov);
	ok(!ret && GetLastError() == ERROR_MORE_DATA, "got %d, error %lu\n", ret, GetLastError());
	ok(!memcmp(buf, "0123", 4), "got %.4s\n", buf);
	/* A partial message is a warning: its packet is queued, FALSE too. */
	expect_packet(__LINE__, &ov, 41, 4, FALSE, ERROR_MORE_DATA);
	ok(!GetOverlappedResult(server, &ov, &n, FALSE) && GetLastError() == ERROR_MORE_DATA && n == 4,
	   "n %lu error %lu\n", n, GetLastError());
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(ret && n == 6 && !memcmp(buf, "456789", 6), "got %d, n %lu, error %lu\n", ret, n,
	   GetLastError());
	expect_packet(__LINE__, &ov, 41, 6, TRUE, 0);
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(ret && n == 2 && !memcmp(buf, "ab", 2), "got %d, n %lu\n", ret, n);
	expect_packet(__LINE__, &ov, 41, 2, TRUE, 0);

	/* A pending read ends when the other end goes away. */
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	CloseHandle(client);
	expect_packet(__LINE__, &ov, 41, 0, FALSE, ERROR_BROKEN_PIPE);
	SetLastError(0xdeadbeef);
	ret = ReadFile(server, buf, sizeof(buf), &n, &ov);
	ok(!ret && GetLastError() == ERROR_BROKEN_PIPE, "got %d, error %lu\n", ret, GetLastError());
	SetLastError(0xdeadbeef);
	ret = WriteFile(server, "x", 1, &n, &ov);
	ok(!ret && GetLastError() == ERROR_NO_DATA, "got %d, error %lu\n", ret, GetLastError());
	/* Failures at once queue nothing. */
	expect_no_packet();
	CloseHandle(server);
}

static DWORD WINAPI sync_reader(void *arg)
{
	HANDLE h = arg;
	char buf[8];
	DWORD n = 0;

	if (!ReadFile(h, buf, sizeof(buf), &n, NULL))
		return 1000 + GetLastError();
	return n;
}

/* A handle opened without FILE_FLAG_OVERLAPPED blocks in ReadFile. */
static void test_sync_client(void)
{
	HANDLE server, client, t;
	OVERLAPPED ov = { 0 };
	DWORD code = 0;

	server = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE,
				  1, 4096, 4096, 0, NULL);
	client = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
	ok(client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	t = CreateThread(NULL, 0, sync_reader, client, 0, NULL);
	ok(WaitForSingleObject(t, 200) == WAIT_TIMEOUT, "the synchronous read did not block\n");
	ok(WriteFile(server, "xyz", 3, NULL, &ov), "write failed: %lu\n", GetLastError());
	ok(WaitForSingleObject(t, 2000) == WAIT_OBJECT_0, "the synchronous read did not end\n");
	GetExitCodeThread(t, &code);
	ok(code == 3, "reader returned %lu\n", code);
	CloseHandle(t);
	CloseHandle(client);
	CloseHandle(server);
}

int main(void)
{
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	test_connect();
	test_pending_read();
	check_immediate_read(FALSE);
	check_immediate_read(TRUE);
	check_handle_event(FALSE);
	check_handle_event(TRUE);
	test_cancel();
	test_messages_and_broken();
	test_sync_client();
	CloseHandle(port);
	return test_summary();
}
