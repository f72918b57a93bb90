/* Which object an overlapped completion signals, on a handle associated
 * with a completion port.  Microsoft's "Synchronization and Overlapped
 * Input and Output": the OVERLAPPED's event is set when the operation
 * completes; "if an event is not used, each completed I/O operation will
 * signal the file, named pipe, or communications device".  So a request
 * with an explicit hEvent signals only that event, never the handle; a
 * request without one signals the handle; issuing either resets the
 * handle.  Checked on a named pipe (ReadFile; pending and immediate
 * completions), a socket (WSARecv) and a disk file, and
 * with FILE_SKIP_SET_EVENT_ON_HANDLE, which keeps the handle out of it
 * even without an event. */
#include <winsock2.h>
#include <windows.h>

#include "test.h"

#define PIPE_NAME "\\\\.\\pipe\\ndshim_overlapped_event_rule"

static HANDLE port;

static int signaled(HANDLE h)
{
	DWORD r = WaitForSingleObject(h, 0);

	ok(r == WAIT_OBJECT_0 || r == WAIT_TIMEOUT, "wait returned %lu (%lu)\n", r, GetLastError());
	return r == WAIT_OBJECT_0;
}

static void take_packet(const OVERLAPPED *want, const char *what)
{
	OVERLAPPED *got = NULL;
	ULONG_PTR key;
	DWORD bytes;

	ok(GetQueuedCompletionStatus(port, &bytes, &key, &got, 5000) && got == want, "%s: packet %p (%lu)\n",
	   what, (void *)got, GetLastError());
}

struct stream_ops {
	/* TRUE: done at once; FALSE with ERROR_IO_PENDING: pending. */
	BOOL (*read)(HANDLE h, OVERLAPPED *ov);
	/* Sends 4 bytes to h from its peer, without blocking. */
	void (*write)(HANDLE peer);
};

/* h reads what writing to peer sends. */
static void check_reads(HANDLE h, const struct stream_ops *ops, HANDLE peer, const char *what)
{
	HANDLE ev = CreateEventA(NULL, TRUE, TRUE, NULL);
	OVERLAPPED ov;
	BOOL r;

	/* Without an event: the handle is reset while pending, then set. */
	memset(&ov, 0, sizeof(ov));
	r = ops->read(h, &ov);
	ok(!r && GetLastError() == ERROR_IO_PENDING, "%s: read %d %lu\n", what, r, GetLastError());
	ok(!signaled(h), "%s: handle signaled while its read is pending\n", what);
	ops->write(peer);
	take_packet(&ov, what);
	ok(signaled(h), "%s: handle not signaled after a read without an event\n", what);

	/* With an event: the event is reset then set, the handle is reset by
	 * the request and stays so. */
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = ev;
	r = ops->read(h, &ov);
	ok(!r && GetLastError() == ERROR_IO_PENDING, "%s: read %d %lu\n", what, r, GetLastError());
	ok(!signaled(ev), "%s: event signaled while pending\n", what);
	ok(!signaled(h), "%s: handle signaled while pending\n", what);
	ops->write(peer);
	take_packet(&ov, what);
	ok(signaled(ev), "%s: event not signaled\n", what);
	ok(!signaled(h), "%s: the handle was signaled for a read with an event\n", what);

	/* An immediate completion follows the same rule. */
	ops->write(peer);
	Sleep(50);
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = ev;
	r = ops->read(h, &ov);
	ok(r, "%s: immediate read failed: %lu\n", what, GetLastError());
	take_packet(&ov, what);
	ok(signaled(ev), "%s: event not signaled\n", what);
	ok(!signaled(h), "%s: the handle was signaled for an immediate read with an event\n", what);

	/* FILE_SKIP_SET_EVENT_ON_HANDLE: not even a request without an event
	 * signals the handle; GetOverlappedResult still works (on the OVERLAPPED). */
	ok(SetFileCompletionNotificationModes(h, FILE_SKIP_SET_EVENT_ON_HANDLE), "%s: modes %lu\n", what,
	   GetLastError());
	memset(&ov, 0, sizeof(ov));
	r = ops->read(h, &ov);
	ok(!r && GetLastError() == ERROR_IO_PENDING, "%s: read %d %lu\n", what, r, GetLastError());
	ops->write(peer);
	take_packet(&ov, what);
	ok(!signaled(h), "%s: handle signaled despite FILE_SKIP_SET_EVENT_ON_HANDLE\n", what);
	CloseHandle(ev);
}

static char buf[4];

static BOOL read_file(HANDLE h, OVERLAPPED *ov)
{
	return ReadFile(h, buf, sizeof(buf), NULL, ov);
}

static void write_pipe(HANDLE peer)
{
	OVERLAPPED ov = { 0 };
	DWORD n;

	ov.hEvent = CreateEventA(NULL, TRUE, FALSE, NULL);
	ok(WriteFile(peer, "abcd", 4, &n, &ov) || (GetLastError() == ERROR_IO_PENDING &&
						    GetOverlappedResult(peer, &ov, &n, TRUE)),
	   "pipe write failed: %lu\n", GetLastError());
	CloseHandle(ov.hEvent);
}

static void test_pipe(void)
{
	HANDLE s, c;

	s = CreateNamedPipeA(PIPE_NAME, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED, PIPE_TYPE_BYTE, 1, 4096, 4096,
			     0, NULL);
	ok(s != INVALID_HANDLE_VALUE, "CreateNamedPipe failed: %lu\n", GetLastError());
	c = CreateFileA(PIPE_NAME, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, FILE_FLAG_OVERLAPPED,
			NULL);
	ok(c != INVALID_HANDLE_VALUE, "CreateFile failed: %lu\n", GetLastError());
	ok(CreateIoCompletionPort(s, port, 1, 0) == port, "associate: %lu\n", GetLastError());
	static const struct stream_ops ops = { read_file, write_pipe };

	check_reads(s, &ops, c, "pipe");
	CloseHandle(c);
	CloseHandle(s);
}

static BOOL read_socket(HANDLE h, OVERLAPPED *ov)
{
	WSABUF wb = { sizeof(buf), buf };
	DWORD flags = 0, bytes;

	if (!WSARecv((SOCKET)h, &wb, 1, &bytes, &flags, ov, NULL))
		return TRUE;
	SetLastError(WSAGetLastError());
	return FALSE;
}

static void write_socket(HANDLE peer)
{
	ok(send((SOCKET)peer, "abcd", 4, 0) == 4, "send failed: %d\n", WSAGetLastError());
}

static void test_socket(void)
{
	struct sockaddr_in addr = { 0 };
	int len = sizeof(addr);
	SOCKET l, c, a;
	WSADATA wsa;

	ok(!WSAStartup(MAKEWORD(2, 2), &wsa), "WSAStartup\n");
	l = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	c = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok(!bind(l, (struct sockaddr *)&addr, sizeof(addr)) && !listen(l, 1), "listen: %d\n", WSAGetLastError());
	getsockname(l, (struct sockaddr *)&addr, &len);
	ok(!connect(c, (struct sockaddr *)&addr, sizeof(addr)), "connect: %d\n", WSAGetLastError());
	a = accept(l, NULL, NULL);
	ok(a != INVALID_SOCKET, "accept: %d\n", WSAGetLastError());
	ok(CreateIoCompletionPort((HANDLE)a, port, 2, 0) == port, "associate: %lu\n", GetLastError());
	static const struct stream_ops ops = { read_socket, write_socket };

	check_reads((HANDLE)a, &ops, (HANDLE)c, "socket");
	closesocket(a);
	closesocket(c);
	closesocket(l);
	WSACleanup();
}

/* A disk file: reads finish at once, so only the immediate case. */
static void test_file(void)
{
	char path[MAX_PATH];
	HANDLE f, ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	OVERLAPPED ov = { 0 };
	DWORD n;

	GetTempPathA(sizeof(path), path);
	lstrcatA(path, "ndshim_event_rule.tmp");
	f = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			FILE_FLAG_OVERLAPPED | FILE_FLAG_DELETE_ON_CLOSE, NULL);
	ok(f != INVALID_HANDLE_VALUE, "CreateFile: %lu\n", GetLastError());
	ok(CreateIoCompletionPort(f, port, 3, 0) == port, "associate: %lu\n", GetLastError());
	ok(WriteFile(f, "abcd", 4, NULL, &ov) || (GetLastError() == ERROR_IO_PENDING &&
						  GetOverlappedResult(f, &ov, &n, TRUE)),
	   "write: %lu\n", GetLastError());
	take_packet(&ov, "file write");
	ok(signaled(f), "file: handle not signaled after a write without an event\n");
	memset(&ov, 0, sizeof(ov));
	ov.hEvent = ev;
	ok(ReadFile(f, buf, 4, NULL, &ov) || (GetLastError() == ERROR_IO_PENDING &&
					      GetOverlappedResult(f, &ov, &n, TRUE)),
	   "read: %lu\n", GetLastError());
	take_packet(&ov, "file read");
	ok(signaled(ev), "file: event not signaled\n");
	/* Wine keeps a disk file's handle signaled whatever happens. */
	ok_todo_wine(!signaled(f), "file: the handle was signaled for a read with an event\n");
	CloseHandle(f);
	CloseHandle(ev);
}

int main(void)
{
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	ok(port != NULL, "CreateIoCompletionPort: %lu\n", GetLastError());
	test_pipe();
	test_socket();
	test_file();
	CloseHandle(port);
	return test_summary();
}
