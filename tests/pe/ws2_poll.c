/* WSAPoll over a connected loopback TCP pair: writable at once, not
 * readable until data comes, readable then and again at the end of the
 * stream; a negative fd is skipped (revents 0), a handle that is no
 * socket gets POLLNVAL, an event the Microsoft provider does not take
 * (POLLPRI) is WSAEINVAL.  Wine 8 reports POLLNVAL for the negative fd,
 * takes POLLPRI, does not wake for the end of the stream and reports
 * nothing for a closed socket: todo_wine. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "test.h"

int main(void)
{
	WSADATA wsa;
	SOCKET l, c, a;
	struct sockaddr_in sin = { 0 };
	int len = sizeof(sin);
	WSAPOLLFD p[3];
	char buf[8];

	ok(!WSAStartup(MAKEWORD(2, 2), &wsa), "WSAStartup failed\n");
	l = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok(!bind(l, (struct sockaddr *)&sin, sizeof(sin)) && !listen(l, 1), "bind/listen failed\n");
	getsockname(l, (struct sockaddr *)&sin, &len);
	c = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	ok(!connect(c, (struct sockaddr *)&sin, sizeof(sin)), "connect failed: %d\n", WSAGetLastError());
	a = accept(l, NULL, NULL);
	ok(a != INVALID_SOCKET, "accept failed\n");

	p[0].fd = c;
	p[0].events = POLLRDNORM | POLLWRNORM;
	p[1].fd = (SOCKET)-1;
	p[1].events = POLLRDNORM;
	p[2].fd = a;
	p[2].events = POLLRDNORM;
	ok(WSAPoll(p, 3, 1000) >= 1, "writable: none ready\n");
	ok(p[0].revents == POLLWRNORM, "client revents %#x\n", p[0].revents);
	ok_todo_wine(p[1].revents == 0, "negative fd: revents %#x\n", p[1].revents);
	ok(p[2].revents == 0, "server revents %#x\n", p[2].revents);
	ok(send(c, "ping", 4, 0) == 4, "send failed\n");
	p[0].events = POLLRDNORM;
	ok(WSAPoll(p, 3, 5000) == 1 && p[2].revents == POLLRDNORM, "readable: revents %#x\n", p[2].revents);
	ok(recv(a, buf, sizeof(buf), 0) == 4, "recv failed\n");
	ok(WSAPoll(&p[2], 1, 0) == 0 && p[2].revents == 0, "still readable after recv: %#x\n", p[2].revents);

	p[0].events = POLLPRI;
	WSASetLastError(0);
	ok_todo_wine(WSAPoll(p, 1, 0) == SOCKET_ERROR && WSAGetLastError() == WSAEINVAL, "POLLPRI: error %d\n",
		     WSAGetLastError());

	ok(!shutdown(c, SD_SEND), "shutdown failed\n");
	p[2].events = POLLRDNORM;
	/* Wine 8 does not report the end of the stream as readable. */
	ok_todo_wine(WSAPoll(&p[2], 1, 5000) == 1 && (p[2].revents & POLLRDNORM),
		     "at the end of the stream: revents %#x\n", p[2].revents);
	ok(recv(a, buf, sizeof(buf), 0) == 0, "not the end of the stream\n");
	closesocket(c);
	p[0].fd = c; /* closed: no longer a socket */
	p[0].events = POLLRDNORM;
	ok_todo_wine(WSAPoll(p, 1, 0) == 1 && p[0].revents == POLLNVAL, "a closed socket: revents %#x\n", p[0].revents);
	closesocket(a);
	closesocket(l);
	WSACleanup();
	return test_summary();
}
