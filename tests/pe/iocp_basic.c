/* Completion ports, single-threaded rules.
 *
 * Windows rules checked (Microsoft's CreateIoCompletionPort,
 * GetQueuedCompletionStatus(Ex), PostQueuedCompletionStatus docs):
 *  - CreateIoCompletionPort(INVALID_HANDLE_VALUE, port, ...) with an
 *    existing port fails with ERROR_INVALID_PARAMETER;
 *  - posted packets come back first-in first-out with their byte count,
 *    key and OVERLAPPED pointer, and GetQueuedCompletionStatus returns TRUE;
 *  - an empty port times out: FALSE, WAIT_TIMEOUT, *lpOverlapped NULL;
 *  - GetQueuedCompletionStatusEx removes up to ulCount packets at once;
 *    the entries' Internal field is documented as reserved: it holds the
 *    packet's 32-bit NTSTATUS (Windows and Wine write only those 32 bits,
 *    so only they are compared);
 *  - a handle can be associated with one port only: the second
 *    association fails with ERROR_INVALID_PARAMETER;
 *  - a packet whose status is an error makes GetQueuedCompletionStatus
 *    return FALSE with the error as last error and *lpOverlapped, key and
 *    byte count filled in, while GetQueuedCompletionStatusEx returns TRUE
 *    with the NTSTATUS in the entry's Internal field;
 *  - a port handle is not a file: associating it fails. */
#include "test.h"

#define STATUS_CANCELLED_VALUE 0xC0000120

static void test_create(void)
{
	HANDLE port, port2;

	SetLastError(0xdeadbeef);
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
	ok(port != NULL, "CreateIoCompletionPort failed: %lu\n", GetLastError());
	SetLastError(0xdeadbeef);
	port2 = CreateIoCompletionPort(INVALID_HANDLE_VALUE, port, 1, 1);
	ok(port2 == NULL, "got %p\n", port2);
	ok(GetLastError() == ERROR_INVALID_PARAMETER, "got error %lu\n", GetLastError());
	CloseHandle(port);
}

static void test_fifo_and_timeout(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	OVERLAPPED ov[3], *got;
	ULONG_PTR key;
	DWORD bytes;
	BOOL ret;
	int i;

	for (i = 0; i < 3; i++)
		ok(PostQueuedCompletionStatus(port, 100 + i, 10 + i, &ov[i]), "post %d failed\n", i);
	for (i = 0; i < 3; i++) {
		ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, 0);
		ok(ret, "packet %d: failed %lu\n", i, GetLastError());
		ok(bytes == 100u + i && key == 10u + i && got == &ov[i],
		   "packet %d: bytes %lu key %llu ov %p\n", i, bytes, key, (void *)got);
	}
	got = (OVERLAPPED *)0x1234;
	SetLastError(0xdeadbeef);
	ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, 0);
	ok(!ret && GetLastError() == WAIT_TIMEOUT, "got %d, error %lu\n", ret, GetLastError());
	ok(got == NULL, "got ov %p\n", (void *)got);

	DWORD t0 = GetTickCount();
	SetLastError(0xdeadbeef);
	ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, 100);
	ok(!ret && GetLastError() == WAIT_TIMEOUT, "got %d, error %lu\n", ret, GetLastError());
	ok(GetTickCount() - t0 >= 80, "returned after %lu ms\n", GetTickCount() - t0);

	/* NULL overlapped pointers are fine in posted packets. */
	ok(PostQueuedCompletionStatus(port, 0, 0, NULL), "post failed\n");
	got = (OVERLAPPED *)0x1234;
	ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, 0);
	ok(ret && got == NULL && key == 0 && bytes == 0, "got %d %p %llu %lu\n", ret, (void *)got, key,
	   bytes);
	CloseHandle(port);
}

static void test_batch(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	OVERLAPPED_ENTRY e[4];
	ULONG n = 99;
	BOOL ret;
	int i;

	for (i = 0; i < 5; i++)
		PostQueuedCompletionStatus(port, i, 0x100 + i, (OVERLAPPED *)(ULONG_PTR)(0x1000 + 0x10 * i));
	ret = GetQueuedCompletionStatusEx(port, e, 3, &n, 0, FALSE);
	ok(ret && n == 3, "got %d, %lu entries\n", ret, n);
	for (i = 0; i < 3; i++)
		ok(e[i].lpCompletionKey == 0x100u + i && e[i].dwNumberOfBytesTransferred == (DWORD)i &&
			   e[i].lpOverlapped == (OVERLAPPED *)(ULONG_PTR)(0x1000 + 0x10 * i) &&
			   (DWORD)e[i].Internal == 0,
		   "entry %d: key %llu bytes %lu ov %p internal %llx\n", i, e[i].lpCompletionKey,
		   e[i].dwNumberOfBytesTransferred, (void *)e[i].lpOverlapped, e[i].Internal);
	ret = GetQueuedCompletionStatusEx(port, e, 4, &n, 0, FALSE);
	ok(ret && n == 2 && e[0].lpCompletionKey == 0x103 && e[1].lpCompletionKey == 0x104,
	   "got %d, %lu entries, first key %llu\n", ret, n, e[0].lpCompletionKey);
	n = 99;
	SetLastError(0xdeadbeef);
	ret = GetQueuedCompletionStatusEx(port, e, 4, &n, 0, FALSE);
	ok(!ret && GetLastError() == WAIT_TIMEOUT, "got %d, error %lu\n", ret, GetLastError());
	CloseHandle(port);
}

/* An overlapped pipe pair: server end and client end. */
static void make_pipe(const char *name, HANDLE *server, HANDLE *client)
{
	*server = CreateNamedPipeA(name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
				   PIPE_TYPE_BYTE | PIPE_READMODE_BYTE, 1, 4096, 4096, 0, NULL);
	ok(*server != INVALID_HANDLE_VALUE, "CreateNamedPipe failed: %lu\n", GetLastError());
	*client = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
			      FILE_FLAG_OVERLAPPED, NULL);
	ok(*client != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
}

static void test_association_and_error_packets(void)
{
	HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0), port2, server, client;
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL), h;
	OVERLAPPED ov = { 0 }, *got;
	OVERLAPPED_ENTRY e;
	ULONG_PTR key;
	DWORD bytes;
	char buf[16];
	ULONG n;
	BOOL ret;

	make_pipe("\\\\.\\pipe\\ndshim_iocp_basic", &server, &client);
	h = CreateIoCompletionPort(server, port, 0x55, 0);
	ok(h == port, "association returned %p, not %p (error %lu)\n", h, port, GetLastError());
	SetLastError(0xdeadbeef);
	port2 = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	h = CreateIoCompletionPort(server, port2, 0x66, 0);
	ok(h == NULL && GetLastError() == ERROR_INVALID_PARAMETER, "second association: %p, error %lu\n",
	   h, GetLastError());
	CloseHandle(port2);

	SetLastError(0xdeadbeef);
	h = CreateIoCompletionPort(ev, port, 0, 0);
	ok(h == NULL, "associating an event returned %p\n", h);
	h = CreateIoCompletionPort(port, port, 0, 0);
	ok(h == NULL, "associating a port returned %p\n", h);

	/* A pending read, cancelled: an error packet. */
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(CancelIoEx(server, &ov), "CancelIoEx failed: %lu\n", GetLastError());
	got = NULL;
	bytes = 0xdead;
	key = 0;
	SetLastError(0xdeadbeef);
	ret = GetQueuedCompletionStatus(port, &bytes, &key, &got, 1000);
	ok(!ret, "an error packet returned TRUE\n");
	ok(GetLastError() == ERROR_OPERATION_ABORTED, "got error %lu\n", GetLastError());
	ok(got == &ov && key == 0x55 && bytes == 0, "got ov %p key %llu bytes %lu\n", (void *)got, key,
	   bytes);
	ok(ov.Internal == STATUS_CANCELLED_VALUE, "Internal %llx\n", ov.Internal);

	/* The same through the Ex call: TRUE, status in Internal. */
	ret = ReadFile(server, buf, sizeof(buf), NULL, &ov);
	ok(!ret && GetLastError() == ERROR_IO_PENDING, "got %d, error %lu\n", ret, GetLastError());
	ok(CancelIoEx(server, &ov), "CancelIoEx failed: %lu\n", GetLastError());
	ret = GetQueuedCompletionStatusEx(port, &e, 1, &n, 1000, FALSE);
	ok(ret && n == 1, "got %d, n %lu, error %lu\n", ret, n, GetLastError());
	ok(e.lpOverlapped == &ov && e.lpCompletionKey == 0x55 && (DWORD)e.Internal == STATUS_CANCELLED_VALUE,
	   "got ov %p key %llu internal %llx\n", (void *)e.lpOverlapped, e.lpCompletionKey, e.Internal);

	CloseHandle(client);
	CloseHandle(server);
	CloseHandle(ev);
	CloseHandle(port);
}

int main(void)
{
	test_create();
	test_fifo_and_timeout();
	test_batch();
	test_association_and_error_packets();
	return test_summary();
}
