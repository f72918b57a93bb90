/* The old Winsock name services and getnameinfo: gethostbyname (MS-MPI
 * calls it in every MPI_Init) for "localhost", a dotted address and this
 * computer; gethostbyaddr; getservbyname/getservbyport (x86-64 Windows'
 * servent puts s_proto before s_port); getprotobyname/getprotobynumber;
 * getnameinfo and GetNameInfoW with Windows' NI_* flags; GetHostNameW.
 * Before WSAStartup they fail with WSANOTINITIALISED. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "test.h"

int main(void)
{
	WSADATA wsa;
	struct hostent *h;
	struct servent *se;
	struct protoent *pe;
	struct sockaddr_in sin = { 0 };
	char host[NI_MAXHOST], serv[NI_MAXSERV], self[256];
	WCHAR whost[NI_MAXHOST], wserv[NI_MAXSERV], wself[256];
	u_long lo = htonl(INADDR_LOOPBACK);
	int err;

	WSASetLastError(0);
	ok(gethostbyname("localhost") == NULL && WSAGetLastError() == WSANOTINITIALISED,
	   "before WSAStartup: error %d\n", WSAGetLastError());
	ok(!WSAStartup(MAKEWORD(2, 2), &wsa), "WSAStartup failed\n");

	h = gethostbyname("localhost");
	ok(h != NULL, "localhost: error %d\n", WSAGetLastError());
	if (h) {
		ok(h->h_addrtype == AF_INET && h->h_length == 4, "type %d, length %d\n", h->h_addrtype, h->h_length);
		ok(h->h_addr_list[0] && !memcmp(h->h_addr_list[0], &lo, 4), "localhost is not 127.0.0.1\n");
		ok(h->h_aliases != NULL, "no alias list\n");
	}
	h = gethostbyname("10.1.2.3");
	ok(h && h->h_addr_list[0] && (BYTE)h->h_addr_list[0][0] == 10 && (BYTE)h->h_addr_list[0][3] == 3 &&
		   !h->h_addr_list[1],
	   "a dotted address does not resolve to itself\n");
	ok(gethostname(self, sizeof(self)) == 0, "gethostname failed\n");
	h = gethostbyname(NULL);
	ok(h != NULL && h->h_addr_list[0] != NULL, "this computer: error %d\n", WSAGetLastError());
	WSASetLastError(0);
	h = gethostbyname("ndshim-no-such-host.invalid");
	ok(!h && (WSAGetLastError() == WSAHOST_NOT_FOUND || WSAGetLastError() == WSANO_DATA),
	   "a name that does not exist: error %d\n", WSAGetLastError());
	h = gethostbyaddr((const char *)&lo, 4, AF_INET);
	ok(h && h->h_name && h->h_name[0], "gethostbyaddr(127.0.0.1): error %d\n", WSAGetLastError());

	se = getservbyname("http", "tcp");
	ok(se && ntohs(se->s_port) == 80 && !strcmp(se->s_proto, "tcp") && !strcmp(se->s_name, "http"),
	   "http/tcp: %p\n", (void *)se);
	se = getservbyport(htons(22), "tcp");
	ok(se && !strcmp(se->s_name, "ssh"), "port 22/tcp: %s\n", se ? se->s_name : "(none)");
	WSASetLastError(0);
	ok(getservbyname("ndshim-no-such-service", "tcp") == NULL, "an unknown service was found\n");
	pe = getprotobyname("tcp");
	ok(pe && pe->p_proto == IPPROTO_TCP, "tcp: %d\n", pe ? pe->p_proto : -1);
	pe = getprotobynumber(IPPROTO_UDP);
	ok(pe && !_stricmp(pe->p_name, "udp"), "17: %s\n", pe ? pe->p_name : "(none)");

	sin.sin_family = AF_INET;
	sin.sin_port = htons(80);
	sin.sin_addr.s_addr = lo;
	err = getnameinfo((struct sockaddr *)&sin, sizeof(sin), host, sizeof(host), serv, sizeof(serv),
			  NI_NUMERICHOST | NI_NUMERICSERV);
	ok(!err && !strcmp(host, "127.0.0.1") && !strcmp(serv, "80"), "numeric: %d, %s, %s\n", err, host, serv);
	err = getnameinfo((struct sockaddr *)&sin, sizeof(sin), NULL, 0, serv, sizeof(serv), 0);
	ok(!err && !strcmp(serv, "http"), "service name: %d, %s\n", err, serv);
	err = getnameinfo((struct sockaddr *)&sin, sizeof(sin), host, 2, NULL, 0, NI_NUMERICHOST);
	/* Documented: WSAEFAULT; Wine 8 passes on Linux's EAI_OVERFLOW (-12). */
	ok_todo_wine(err == WSAEFAULT, "a host buffer too small: %d\n", err);
	err = GetNameInfoW((struct sockaddr *)&sin, sizeof(sin), whost, NI_MAXHOST, wserv, NI_MAXSERV,
			   NI_NUMERICHOST | NI_NUMERICSERV);
	ok(!err && !lstrcmpW(whost, L"127.0.0.1") && !lstrcmpW(wserv, L"80"), "GetNameInfoW: %d\n", err);

	ok(GetHostNameW(wself, 256) == 0, "GetHostNameW failed: %d\n", WSAGetLastError());
	MultiByteToWideChar(CP_ACP, 0, self, -1, whost, NI_MAXHOST);
	ok(!lstrcmpW(wself, whost), "GetHostNameW and gethostname differ\n");
	WSASetLastError(0);
	ok(GetHostNameW(wself, 1) == SOCKET_ERROR && WSAGetLastError() == WSAEFAULT, "a buffer of 1: error %d\n",
	   WSAGetLastError());
	WSACleanup();
	return test_summary();
}
