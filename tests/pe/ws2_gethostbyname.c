/* gethostbyname (what every MS-MPI MPI_Init calls): localhost and a
 * numeric address resolve to IPv4 entries of 4 bytes, the local host name
 * (and NULL, its stand-in) resolves, the result is per thread and
 * replaced by the next call, and an unknown name fails with
 * WSAHOST_NOT_FOUND. */
#include <winsock2.h>

#include "test.h"

int main(void)
{
	WSADATA wsa;
	struct hostent *h;
	char name[256];

	ok(!WSAStartup(MAKEWORD(2, 2), &wsa), "WSAStartup\n");
	h = gethostbyname("localhost");
	ok(h != NULL, "localhost: %d\n", WSAGetLastError());
	if (h) {
		ok(h->h_addrtype == AF_INET && h->h_length == 4, "type %d length %d\n", h->h_addrtype, h->h_length);
		ok(h->h_addr_list[0] && !memcmp(h->h_addr_list[0], "\x7f\x00\x00\x01", 4), "not 127.0.0.1\n");
		ok(h->h_name && *h->h_name, "no name\n");
		ok(h->h_aliases != NULL, "no alias list\n");
	}
	h = gethostbyname("10.1.2.3");
	ok(h && h->h_addr_list[0] && !memcmp(h->h_addr_list[0], "\x0a\x01\x02\x03", 4) && !h->h_addr_list[1],
	   "a numeric address\n");
	ok(!gethostname(name, sizeof(name)), "gethostname\n");
	h = gethostbyname(name);
	ok(h && h->h_addr_list[0], "the local host %s: %d\n", name, WSAGetLastError());
	h = gethostbyname(NULL);
	ok(h && h->h_addr_list[0], "NULL: %d\n", WSAGetLastError());
	WSASetLastError(0);
	h = gethostbyname("no-such-host.invalid");
	ok(!h && WSAGetLastError() == WSAHOST_NOT_FOUND, "unknown host: %p %d\n", (void *)h, WSAGetLastError());
	WSACleanup();
	return test_summary();
}
