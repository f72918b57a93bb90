/* Overlapped sockets without completion ports: AcceptEx and ConnectEx
 * through SIO_GET_EXTENSION_FUNCTION_POINTER, WSASend/WSARecv with
 * events and WSAGetOverlappedResult, a receive that completes at once,
 * completion routines run by an alertable wait, DisconnectEx. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mswsock.h>
#include <windows.h>

#include "test.h"

static LPFN_ACCEPTEX pAcceptEx;
static LPFN_CONNECTEX pConnectEx;
static LPFN_GETACCEPTEXSOCKADDRS pGetAcceptExSockaddrs;
static LPFN_DISCONNECTEX pDisconnectEx;

static void *extension(SOCKET s, GUID id)
{
	void *fn = NULL;
	DWORD bytes = 0;

	ok(!WSAIoctl(s, SIO_GET_EXTENSION_FUNCTION_POINTER, &id, sizeof(id), &fn, sizeof(fn), &bytes,
		     NULL, NULL) && fn && bytes == sizeof(fn), "extension: %d\n", WSAGetLastError());
	return fn;
}

static int routine_calls;
static DWORD routine_bytes, routine_error;

static void CALLBACK on_done(DWORD error, DWORD bytes, LPWSAOVERLAPPED ov, DWORD flags)
{
	(void)ov;
	(void)flags;
	routine_calls++;
	routine_bytes = bytes;
	routine_error = error;
}

int main(void)
{
	GUID acceptex = WSAID_ACCEPTEX, connectex = WSAID_CONNECTEX,
	     sockaddrs = WSAID_GETACCEPTEXSOCKADDRS, disconnectex = WSAID_DISCONNECTEX,
	     bogus = { 1, 2, 3, { 4 } };
	struct sockaddr_in addr = { 0 }, any = { 0 };
	struct sockaddr *local, *remote;
	WSAOVERLAPPED aov = { 0 }, cov = { 0 }, rov = { 0 }, sov = { 0 };
	char abuf[2 * (sizeof(struct sockaddr_in) + 16)], rbuf[64];
	WSABUF wb;
	DWORD bytes, flags, sent;
	int len = sizeof(addr), llen, rlen;
	void *fn;
	WSADATA wsa;
	SOCKET l, a, c;
	BOOL r;

	ok(WSAStartup(MAKEWORD(2, 2), &wsa) == 0, "WSAStartup\n");
	l = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	a = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	c = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	pAcceptEx = extension(l, acceptex);
	pConnectEx = extension(l, connectex);
	pGetAcceptExSockaddrs = extension(l, sockaddrs);
	pDisconnectEx = extension(l, disconnectex);
	fn = NULL;
	ok(WSAIoctl(l, SIO_GET_EXTENSION_FUNCTION_POINTER, &bogus, sizeof(bogus), &fn, sizeof(fn),
		    &bytes, NULL, NULL) == SOCKET_ERROR && WSAGetLastError() == WSAEINVAL,
	   "unknown extension: %d\n", WSAGetLastError());
	if (!pAcceptEx || !pConnectEx || !pGetAcceptExSockaddrs || !pDisconnectEx)
		return test_summary();

	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(l, (struct sockaddr *)&addr, sizeof(addr));
	listen(l, 4);
	getsockname(l, (struct sockaddr *)&addr, &len);

	/* AcceptEx pends until ConnectEx connects. */
	aov.hEvent = WSACreateEvent();
	r = pAcceptEx(l, a, abuf, 0, sizeof(struct sockaddr_in) + 16, sizeof(struct sockaddr_in) + 16,
		      &bytes, &aov);
	ok(!r && WSAGetLastError() == ERROR_IO_PENDING, "AcceptEx: %d %d\n", r, WSAGetLastError());
	ok(!WSAGetOverlappedResult(l, &aov, &bytes, FALSE, &flags) &&
	   WSAGetLastError() == WSA_IO_INCOMPLETE, "still pending: %d\n", WSAGetLastError());

	ok(!pConnectEx(c, (struct sockaddr *)&addr, sizeof(addr), NULL, 0, &sent, &cov) &&
	   WSAGetLastError() == WSAEINVAL, "ConnectEx unbound: %d\n", WSAGetLastError());
	any.sin_family = AF_INET;
	bind(c, (struct sockaddr *)&any, sizeof(any));
	cov.hEvent = WSACreateEvent();
	r = pConnectEx(c, (struct sockaddr *)&addr, sizeof(addr), "hello", 5, &sent, &cov);
	ok(r || WSAGetLastError() == ERROR_IO_PENDING, "ConnectEx: %d\n", WSAGetLastError());
	ok(WSAWaitForMultipleEvents(1, &cov.hEvent, TRUE, 5000, FALSE) == WSA_WAIT_EVENT_0,
	   "ConnectEx event\n");
	ok(WSAGetOverlappedResult(c, &cov, &bytes, TRUE, &flags) && bytes == 5, "ConnectEx: %lu\n",
	   bytes);
	ok(WSAWaitForMultipleEvents(1, &aov.hEvent, TRUE, 5000, FALSE) == WSA_WAIT_EVENT_0,
	   "AcceptEx event\n");
	ok(WSAGetOverlappedResult(l, &aov, &bytes, TRUE, &flags) && bytes == 0, "AcceptEx: %lu\n",
	   bytes);
	ok(!setsockopt(a, SOL_SOCKET, SO_UPDATE_ACCEPT_CONTEXT, (char *)&l, sizeof(l)),
	   "SO_UPDATE_ACCEPT_CONTEXT: %d\n", WSAGetLastError());
	pGetAcceptExSockaddrs(abuf, 0, sizeof(struct sockaddr_in) + 16,
			      sizeof(struct sockaddr_in) + 16, &local, &llen, &remote, &rlen);
	ok(llen == sizeof(struct sockaddr_in) && local->sa_family == AF_INET &&
	   ((struct sockaddr_in *)local)->sin_port == addr.sin_port, "local address\n");
	ok(rlen == sizeof(struct sockaddr_in) && remote->sa_family == AF_INET &&
	   ((struct sockaddr_in *)remote)->sin_addr.s_addr == htonl(INADDR_LOOPBACK),
	   "remote address\n");

	/* The ConnectEx data is already there: the receive completes at once
	 * and still signals its event. */
	Sleep(50);
	wb.buf = rbuf;
	wb.len = sizeof(rbuf);
	flags = 0;
	rov.hEvent = WSACreateEvent();
	ok(!WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) && bytes == 5 && !memcmp(rbuf, "hello", 5),
	   "immediate WSARecv: %d %lu\n", WSAGetLastError(), bytes);
	ok(WaitForSingleObject(rov.hEvent, 0) == WAIT_OBJECT_0, "event of an immediate receive\n");

	/* A receive that waits for data. */
	WSAResetEvent(rov.hEvent);
	flags = 0;
	ok(WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "pending WSARecv: %d\n", WSAGetLastError());
	wb.buf = "0123456789";
	wb.len = 10;
	ok(!WSASend(c, &wb, 1, &sent, 0, &sov, NULL) && sent == 10, "WSASend: %d\n",
	   WSAGetLastError());
	ok(WSAGetOverlappedResult(a, &rov, &bytes, TRUE, &flags) && bytes == 10 &&
	   !memcmp(rbuf, "0123456789", 10), "pending receive done: %lu\n", bytes);

	/* Completion routines run in an alertable wait of the issuing thread. */
	wb.buf = rbuf;
	wb.len = sizeof(rbuf);
	flags = 0;
	memset(&rov, 0, sizeof(rov));
	ok(WSARecv(a, &wb, 1, &bytes, &flags, &rov, on_done) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "WSARecv with a routine: %d\n", WSAGetLastError());
	send(c, "xyz", 3, 0);
	Sleep(100);
	ok(routine_calls == 0, "routine ran outside an alertable wait\n");
	ok(SleepEx(5000, TRUE) == WAIT_IO_COMPLETION, "SleepEx\n");
	ok(routine_calls == 1 && routine_bytes == 3 && routine_error == 0, "routine %d %lu %lu\n",
	   routine_calls, routine_bytes, routine_error);

	/* Closing the socket aborts what is pending on it. */
	memset(&rov, 0, sizeof(rov));
	rov.hEvent = WSACreateEvent();
	flags = 0;
	ok(WSARecv(c, &wb, 1, &bytes, &flags, &rov, NULL) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "pending WSARecv on c: %d\n", WSAGetLastError());
	ok(pDisconnectEx(a, NULL, 0, 0), "DisconnectEx: %d\n", WSAGetLastError());
	ok(WSAWaitForMultipleEvents(1, &rov.hEvent, TRUE, 5000, FALSE) == WSA_WAIT_EVENT_0,
	   "receive ended by the disconnect\n");
	ok(WSAGetOverlappedResult(c, &rov, &bytes, FALSE, &flags) && bytes == 0, "EOF: %d\n",
	   WSAGetLastError());
	memset(&rov, 0, sizeof(rov));
	rov.hEvent = WSACreateEvent();
	closesocket(l);
	l = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	bind(l, (struct sockaddr *)&any, sizeof(any));
	listen(l, 1);
	a = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	ok(!pAcceptEx(l, a, abuf, 0, sizeof(struct sockaddr_in) + 16, sizeof(struct sockaddr_in) + 16,
		      &bytes, &rov) && WSAGetLastError() == ERROR_IO_PENDING, "AcceptEx 2\n");
	closesocket(l);
	ok(WSAWaitForMultipleEvents(1, &rov.hEvent, TRUE, 5000, FALSE) == WSA_WAIT_EVENT_0,
	   "aborted AcceptEx signals\n");
	ok(!WSAGetOverlappedResult(l, &rov, &bytes, FALSE, &flags), "closed socket\n");
	ok(!WSAGetOverlappedResult(a, &rov, &bytes, FALSE, &flags) &&
	   WSAGetLastError() == WSA_OPERATION_ABORTED, "aborted: %d\n", WSAGetLastError());
	closesocket(a);
	closesocket(c);
	WSACleanup();
	return test_summary();
}
