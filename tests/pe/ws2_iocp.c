/* Overlapped sockets on a completion port: AcceptEx/ConnectEx packets
 * with their keys, a pending WSARecv completed by the peer's send, and
 * FILE_SKIP_COMPLETION_PORT_ON_SUCCESS: a receive that finds data
 * already buffered queues a packet unless the socket has the mode;
 * SO_UPDATE_CONNECT_CONTEXT (no value) after ConnectEx. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mswsock.h>
#include <windows.h>

#include "test.h"

static void *extension(SOCKET s, GUID id)
{
	void *fn = NULL;
	DWORD bytes;

	WSAIoctl(s, SIO_GET_EXTENSION_FUNCTION_POINTER, &id, sizeof(id), &fn, sizeof(fn), &bytes,
		 NULL, NULL);
	return fn;
}

static int get_packet(HANDLE port, DWORD timeout, DWORD *bytes, ULONG_PTR *key, OVERLAPPED **ov)
{
	*ov = NULL;
	return GetQueuedCompletionStatus(port, bytes, key, ov, timeout) || *ov;
}

int main(void)
{
	GUID acceptex = WSAID_ACCEPTEX, connectex = WSAID_CONNECTEX;
	LPFN_ACCEPTEX pAcceptEx;
	LPFN_CONNECTEX pConnectEx;
	struct sockaddr_in addr = { 0 }, any = { 0 }, peer;
	WSAOVERLAPPED aov = { 0 }, cov = { 0 }, rov = { 0 };
	char abuf[64], rbuf[64];
	OVERLAPPED *ov;
	ULONG_PTR key;
	DWORD bytes, flags;
	int len = sizeof(addr);
	WSABUF wb = { sizeof(rbuf), rbuf };
	WSADATA wsa;
	HANDLE port;
	SOCKET l, a, c;

	ok(WSAStartup(MAKEWORD(2, 2), &wsa) == 0, "WSAStartup\n");
	port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 0);
	l = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	a = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	c = WSASocketW(AF_INET, SOCK_STREAM, 0, NULL, 0, WSA_FLAG_OVERLAPPED);
	pAcceptEx = extension(l, acceptex);
	pConnectEx = extension(l, connectex);
	ok(CreateIoCompletionPort((HANDLE)l, port, 10, 0) == port, "associate l\n");
	ok(CreateIoCompletionPort((HANDLE)a, port, 11, 0) == port, "associate a\n");
	ok(CreateIoCompletionPort((HANDLE)c, port, 12, 0) == port, "associate c\n");

	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(l, (struct sockaddr *)&addr, sizeof(addr));
	listen(l, 4);
	getsockname(l, (struct sockaddr *)&addr, &len);
	any.sin_family = AF_INET;
	bind(c, (struct sockaddr *)&any, sizeof(any));

	ok(!pAcceptEx(l, a, abuf, 0, sizeof(addr) + 16, sizeof(addr) + 16, &bytes, &aov) &&
	   WSAGetLastError() == ERROR_IO_PENDING, "AcceptEx %d\n", WSAGetLastError());
	ok(pConnectEx(c, (struct sockaddr *)&addr, sizeof(addr), NULL, 0, &bytes, &cov) ||
	   WSAGetLastError() == ERROR_IO_PENDING, "ConnectEx %d\n", WSAGetLastError());
	for (int i = 0; i < 2; i++) {
		ok(get_packet(port, 5000, &bytes, &key, &ov), "packet %d: %lu\n", i, GetLastError());
		ok((ov == &aov && key == 10) || (ov == &cov && key == 12), "packet %p key %lu\n", ov,
		   (unsigned long)key);
	}

	/* What MSDN's ConnectEx asks for before getpeername/shutdown: the
	 * option takes no value (NULL, 0). */
	ok(!setsockopt(c, SOL_SOCKET, SO_UPDATE_CONNECT_CONTEXT, NULL, 0), "SO_UPDATE_CONNECT_CONTEXT: %d\n",
	   WSAGetLastError());
	len = sizeof(peer);
	ok(!getpeername(c, (struct sockaddr *)&peer, &len) && peer.sin_port == addr.sin_port,
	   "getpeername: %d\n", WSAGetLastError());

	/* Pending receive, completed by the peer. */
	flags = 0;
	ok(WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "pending WSARecv %d\n", WSAGetLastError());
	send(c, "abc", 3, 0);
	ok(get_packet(port, 5000, &bytes, &key, &ov) && ov == &rov && key == 11 && bytes == 3,
	   "receive packet: ov %p key %lu bytes %lu\n", ov, (unsigned long)key, bytes);

	/* Data already there, no mode: success and a packet. */
	send(c, "def", 3, 0);
	Sleep(100);
	flags = 0;
	ok(!WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) && bytes == 3, "immediate WSARecv %d\n",
	   WSAGetLastError());
	ok(get_packet(port, 1000, &bytes, &key, &ov) && ov == &rov && bytes == 3,
	   "packet for an immediate success\n");

	/* With FILE_SKIP_COMPLETION_PORT_ON_SUCCESS: no packet. */
	ok(SetFileCompletionNotificationModes((HANDLE)a, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS),
	   "SetFileCompletionNotificationModes %lu\n", GetLastError());
	send(c, "ghi", 3, 0);
	Sleep(100);
	flags = 0;
	ok(!WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) && bytes == 3, "immediate WSARecv 2 %d\n",
	   WSAGetLastError());
	ok(!get_packet(port, 200, &bytes, &key, &ov) && GetLastError() == WAIT_TIMEOUT,
	   "skip-on-success queued a packet: %p\n", ov);
	/* ... but a request that pends still completes through the port. */
	flags = 0;
	ok(WSARecv(a, &wb, 1, &bytes, &flags, &rov, NULL) == SOCKET_ERROR &&
	   WSAGetLastError() == WSA_IO_PENDING, "pending WSARecv 2 %d\n", WSAGetLastError());
	send(c, "jk", 2, 0);
	ok(get_packet(port, 5000, &bytes, &key, &ov) && ov == &rov && bytes == 2,
	   "pending request with skip mode\n");

	closesocket(a);
	closesocket(c);
	closesocket(l);
	CloseHandle(port);
	WSACleanup();
	return test_summary();
}
