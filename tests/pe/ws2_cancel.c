/* CancelIo and CancelIoEx on sockets.  Windows rules checked:
 * - CancelIoEx(s, ov) cancels that one pending request; it completes with
 *   STATUS_CANCELLED (ERROR_OPERATION_ABORTED / WSA_OPERATION_ABORTED),
 *   through the completion port like any completion;
 * - CancelIoEx on a request that is no longer pending fails with
 *   ERROR_NOT_FOUND;
 * - CancelIoEx(s, NULL) cancels every pending request on the socket;
 * - CancelIo cancels only the requests the calling thread issued. */
#include <winsock2.h>
#include <mswsock.h>
#include <windows.h>

#include "test.h"

static SOCKET listener, client, server;

static void make_pair(void)
{
	struct sockaddr_in a = { 0 };
	int len = sizeof(a);

	listener = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok(!bind(listener, (struct sockaddr *)&a, sizeof(a)), "bind: %d\n", WSAGetLastError());
	ok(!listen(listener, 1), "listen: %d\n", WSAGetLastError());
	getsockname(listener, (struct sockaddr *)&a, &len);
	client = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	ok(!connect(client, (struct sockaddr *)&a, sizeof(a)), "connect: %d\n", WSAGetLastError());
	server = accept(listener, NULL, NULL);
	ok(server != INVALID_SOCKET, "accept: %d\n", WSAGetLastError());
}

static int recv_pending(SOCKET s, OVERLAPPED *ov, char *buf, int len)
{
	WSABUF wb = { (ULONG)len, buf };
	DWORD flags = 0;

	memset(ov, 0, sizeof(*ov));
	return WSARecv(s, &wb, 1, NULL, &flags, ov, NULL) == SOCKET_ERROR && WSAGetLastError() == WSA_IO_PENDING;
}

struct other_thread {
	SOCKET s;
	OVERLAPPED ov;
	char buf[16];
	HANDLE issued, cancel_done;
};

static DWORD WINAPI issue_and_wait(void *arg)
{
	struct other_thread *o = arg;

	ok(recv_pending(o->s, &o->ov, o->buf, sizeof(o->buf)), "other thread's recv did not pend\n");
	SetEvent(o->issued);
	WaitForSingleObject(o->cancel_done, INFINITE);
	return 0;
}

int main(void)
{
	WSADATA wsa;
	OVERLAPPED ov1, ov2, *got;
	char b1[16], b2[16];
	DWORD bytes, flags;
	ULONG_PTR key;
	HANDLE port, th;
	struct other_thread o;

	ok(!WSAStartup(MAKEWORD(2, 2), &wsa), "WSAStartup\n");
	make_pair();
	port = CreateIoCompletionPort((HANDLE)server, NULL, 7, 0);
	ok(port != NULL, "CreateIoCompletionPort: %lu\n", GetLastError());

	/* One request cancelled: it comes back through the port as aborted. */
	ok(recv_pending(server, &ov1, b1, sizeof(b1)), "recv 1 did not pend: %d\n", WSAGetLastError());
	ok(CancelIoEx((HANDLE)server, &ov1), "CancelIoEx(ov1): %lu\n", GetLastError());
	got = NULL;
	SetLastError(0xdeadbeef);
	ok(!GetQueuedCompletionStatus(port, &bytes, &key, &got, 1000), "cancelled packet returned TRUE\n");
	ok(got == &ov1 && key == 7, "packet ov %p key %llu\n", (void *)got, (unsigned long long)key);
	ok(GetLastError() == ERROR_OPERATION_ABORTED, "packet error %lu\n", GetLastError());
	ok(!WSAGetOverlappedResult(server, &ov1, &bytes, FALSE, &flags), "WSAGetOverlappedResult TRUE\n");
	ok(WSAGetLastError() == WSA_OPERATION_ABORTED, "WSA error %d\n", WSAGetLastError());

	/* Not pending any more. */
	SetLastError(0xdeadbeef);
	ok(!CancelIoEx((HANDLE)server, &ov1), "second CancelIoEx succeeded\n");
	ok(GetLastError() == ERROR_NOT_FOUND, "second CancelIoEx error %lu\n", GetLastError());

	/* CancelIo leaves another thread's request alone... */
	o.s = server;
	o.issued = CreateEventW(NULL, FALSE, FALSE, NULL);
	o.cancel_done = CreateEventW(NULL, FALSE, FALSE, NULL);
	th = CreateThread(NULL, 0, issue_and_wait, &o, 0, NULL);
	WaitForSingleObject(o.issued, INFINITE);
	ok(recv_pending(server, &ov2, b2, sizeof(b2)), "recv 2 did not pend\n");
	ok(CancelIo((HANDLE)server), "CancelIo: %lu\n", GetLastError());
	ok(!GetQueuedCompletionStatus(port, &bytes, &key, &got, 1000) && got == &ov2,
	   "CancelIo: packet for %p (want ov2 %p)\n", (void *)got, (void *)&ov2);
	ok(GetLastError() == ERROR_OPERATION_ABORTED, "CancelIo packet error %lu\n", GetLastError());
	ok(HasOverlappedIoCompleted(&ov2) && !HasOverlappedIoCompleted(&o.ov),
	   "after CancelIo: ov2 %#llx, other thread's %#llx\n", (unsigned long long)ov2.Internal, (unsigned long long)o.ov.Internal);

	/* ...which CancelIoEx(s, NULL) takes, from any thread. */
	ok(CancelIoEx((HANDLE)server, NULL), "CancelIoEx(NULL): %lu\n", GetLastError());
	ok(!GetQueuedCompletionStatus(port, &bytes, &key, &got, 1000) && got == &o.ov,
	   "CancelIoEx(NULL): packet for %p (want %p)\n", (void *)got, (void *)&o.ov);
	SetEvent(o.cancel_done);
	WaitForSingleObject(th, INFINITE);
	CloseHandle(th);

	/* Nothing else arrived. */
	ok(!GetQueuedCompletionStatus(port, &bytes, &key, &got, 0) && !got && GetLastError() == WAIT_TIMEOUT,
	   "extra packet %p (error %lu)\n", (void *)got, GetLastError());

	closesocket(client);
	closesocket(server);
	closesocket(listener);
	CloseHandle(port);
	WSACleanup();
	return test_summary();
}
