/* wsock32: Winsock 1.1 on ws2_32: a TCP connection over loopback through
 * wsock32's own imports, its inet_addr/inet_ntoa/ioctlsocket ordinals,
 * and setsockopt/getsockopt with Winsock 1.1's IP option numbers (IP_TTL
 * is 7 there, 4 in Winsock 2). */
#include <winsock.h>

#include "test.h"

#define IP_TTL_V1 7

int main(void)
{
	struct sockaddr_in addr;
	WSADATA wsa;
	SOCKET l, c, a;
	int len = sizeof(addr), ttl = 0, n;
	u_long avail = 0;
	char buf[8];

	ok(WSAStartup(MAKEWORD(1, 1), &wsa) == 0, "WSAStartup\n");
	ok(inet_addr("127.0.0.1") == htonl(INADDR_LOOPBACK), "inet_addr\n");
	addr.sin_addr.s_addr = htonl(0x0a000102);
	ok(!strcmp(inet_ntoa(addr.sin_addr), "10.0.1.2"), "inet_ntoa %s\n", inet_ntoa(addr.sin_addr));

	l = socket(AF_INET, SOCK_STREAM, 0);
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok(bind(l, (struct sockaddr *)&addr, sizeof(addr)) == 0 && listen(l, 1) == 0, "bind/listen %d\n",
	   WSAGetLastError());
	getsockname(l, (struct sockaddr *)&addr, &len);
	c = socket(AF_INET, SOCK_STREAM, 0);
	ok(connect(c, (struct sockaddr *)&addr, sizeof(addr)) == 0, "connect %d\n", WSAGetLastError());
	a = accept(l, NULL, NULL);
	ok(a != INVALID_SOCKET, "accept %d\n", WSAGetLastError());
	ok(send(c, "ping", 4, 0) == 4, "send\n");
	Sleep(50);
	ok(ioctlsocket(a, FIONREAD, &avail) == 0 && avail == 4, "FIONREAD %lu\n", avail);
	n = recv(a, buf, sizeof(buf), 0);
	ok(n == 4 && !memcmp(buf, "ping", 4), "recv %d\n", n);

	/* Winsock 1.1's IP_TTL. */
	ttl = 33;
	ok(setsockopt(c, IPPROTO_IP, IP_TTL_V1, (char *)&ttl, sizeof(ttl)) == 0, "setsockopt IP_TTL %d\n",
	   WSAGetLastError());
	ttl = 0;
	len = sizeof(ttl);
	ok(getsockopt(c, IPPROTO_IP, IP_TTL_V1, (char *)&ttl, &len) == 0 && ttl == 33, "getsockopt IP_TTL %d\n",
	   ttl);
	closesocket(a);
	closesocket(c);
	closesocket(l);
	ok(WSACleanup() == 0, "WSACleanup\n");
	return test_summary();
}
