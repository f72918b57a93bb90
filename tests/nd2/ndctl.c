/* The rigs' control connection (ndctl.h). */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "ndcheck.h"
#include "ndctl.h"

SOCKET ctl_connect(const char *ip, const char *peer, USHORT port, int serve, int tries, DWORD recv_ms)
{
	struct sockaddr_in a = addr_of(serve ? ip : peer, port);
	SOCKET so = INVALID_SOCKET;
	int i, one = 1;

	if (serve) {
		SOCKET l = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(l, SOL_SOCKET, SO_REUSEADDR, (const char *)&one, sizeof(one));
		if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1))
			die("control: listen");
		so = accept(l, NULL, NULL);
		closesocket(l);
	} else {
		for (i = 0; i < tries; i++) {
			so = socket(AF_INET, SOCK_STREAM, 0);
			if (!connect(so, (struct sockaddr *)&a, sizeof(a)))
				break;
			closesocket(so);
			so = INVALID_SOCKET;
			Sleep(500);
		}
	}
	if (so == INVALID_SOCKET)
		die("control: connect");
	setsockopt(so, IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof(one));
	setsockopt(so, SOL_SOCKET, SO_RCVTIMEO, (const char *)&recv_ms, sizeof(recv_ms));
	return so;
}

int ctl_read(SOCKET so, void *p, int n)
{
	int got = 0, k;

	while (got < n) {
		k = recv(so, (char *)p + got, n - got, 0);
		if (k <= 0)
			return 0;
		got += k;
	}
	return 1;
}

int ctl_closed(SOCKET so, DWORD ms)
{
	char c;

	setsockopt(so, SOL_SOCKET, SO_RCVTIMEO, (const char *)&ms, sizeof(ms));
	return recv(so, &c, 1, 0) == 0;
}
