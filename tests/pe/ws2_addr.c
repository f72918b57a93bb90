/* Address conversions and name resolution: inet_pton/ntop, inet_addr,
 * WSAStringToAddress, WSAAddressToString (sizes and bad strings), byte
 * order, getaddrinfo/GetAddrInfoW for localhost. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "test.h"

/* Known Wine deviations from the documented behaviour are checked only
 * under other runners (the docs win; see DESIGN.md). */
static int is_wine(void)
{
	return GetProcAddress(GetModuleHandleA("ntdll.dll"), "wine_get_version") != NULL;
}

static void test_pton_ntop(void)
{
	struct in_addr a4;
	struct in6_addr a6;
	char buf[INET6_ADDRSTRLEN], tiny[4];

	ok(inet_pton(AF_INET, "192.168.1.20", &a4) == 1 && a4.s_addr == htonl(0xc0a80114),
	   "pton v4 %#lx\n", (unsigned long)a4.s_addr);
	ok(inet_pton(AF_INET, "192.168.1", &a4) == 0, "pton short v4\n");
	ok(inet_pton(AF_INET, "1.2.3.256", &a4) == 0, "pton 256\n");
	ok(inet_pton(AF_INET6, "fe80::1:2", &a6) == 1 && a6.s6_addr[0] == 0xfe && a6.s6_addr[15] == 2,
	   "pton v6\n");
	ok(inet_pton(AF_INET6, "fe80:::1", &a6) == 0, "pton bad v6\n");
	ok(inet_pton(12345, "1.2.3.4", &a4) == -1 && WSAGetLastError() == WSAEAFNOSUPPORT,
	   "pton bad family %d\n", WSAGetLastError());
	a4.s_addr = htonl(0x7f000001);
	ok(inet_ntop(AF_INET, &a4, buf, sizeof(buf)) == buf && !strcmp(buf, "127.0.0.1"), "ntop %s\n",
	   buf);
	inet_pton(AF_INET6, "fe80::1:2", &a6);
	ok(inet_ntop(AF_INET6, &a6, buf, sizeof(buf)) && !strcmp(buf, "fe80::1:2"), "ntop v6 %s\n",
	   buf);
	/* Documented: ERROR_INVALID_PARAMETER for a buffer too small (Wine
	 * says WSAEAFNOSUPPORT). */
	ok(!inet_ntop(AF_INET, &a4, tiny, sizeof(tiny)) &&
	   (WSAGetLastError() == ERROR_INVALID_PARAMETER || is_wine()), "ntop small %d\n",
	   WSAGetLastError());
	ok(inet_addr("10.0.0.1") == htonl(0x0a000001), "inet_addr\n");
	ok(inet_addr("10.0.0.x") == INADDR_NONE, "inet_addr bad\n");
	a4.s_addr = htonl(0x01020304);
	ok(!strcmp(inet_ntoa(a4), "1.2.3.4"), "inet_ntoa %s\n", inet_ntoa(a4));
	ok(htons(0x1234) == 0x3412 && ntohl(0x12345678) == 0x78563412, "byte order\n");
}

static void test_string_to_address(void)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	int len;

	len = sizeof(sin);
	ok(!WSAStringToAddressA("10.1.2.3:8080", AF_INET, NULL, (struct sockaddr *)&sin, &len) &&
	   sin.sin_family == AF_INET && sin.sin_port == htons(8080) &&
	   sin.sin_addr.s_addr == htonl(0x0a010203) && len == sizeof(sin), "v4 with port %d\n",
	   WSAGetLastError());
	len = sizeof(sin6);
	ok(!WSAStringToAddressA("[fe80::5%3]:99", AF_INET6, NULL, (struct sockaddr *)&sin6, &len) &&
	   sin6.sin6_family == AF_INET6 && sin6.sin6_port == htons(99) && sin6.sin6_scope_id == 3 &&
	   sin6.sin6_addr.s6_addr[15] == 5, "v6 with port and scope %d\n", WSAGetLastError());
	len = sizeof(sin6);
	ok(!WSAStringToAddressW((WCHAR *)L"::1", AF_INET6, NULL, (struct sockaddr *)&sin6, &len) &&
	   sin6.sin6_port == 0 && sin6.sin6_addr.s6_addr[15] == 1, "W v6 %d\n", WSAGetLastError());
	len = sizeof(sin);
	ok(WSAStringToAddressA("not an address", AF_INET, NULL, (struct sockaddr *)&sin, &len) ==
		   SOCKET_ERROR && WSAGetLastError() == WSAEINVAL, "bad string %d\n", WSAGetLastError());
	len = sizeof(sin);
	ok(WSAStringToAddressA("1.2.3.4:70000", AF_INET, NULL, (struct sockaddr *)&sin, &len) ==
		   SOCKET_ERROR && WSAGetLastError() == WSAEINVAL, "bad port %d\n", WSAGetLastError());
	len = 4;
	ok(WSAStringToAddressA("1.2.3.4", AF_INET, NULL, (struct sockaddr *)&sin, &len) ==
		   SOCKET_ERROR && WSAGetLastError() == WSAEFAULT && len == sizeof(sin),
	   "small buffer %d len %d\n", WSAGetLastError(), len);
}

static void test_address_to_string(void)
{
	struct sockaddr_in sin = { 0 };
	struct sockaddr_in6 sin6 = { 0 };
	char buf[64];
	WCHAR wbuf[64];
	DWORD len;

	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(0xc0000201);
	len = sizeof(buf);
	ok(!WSAAddressToStringA((struct sockaddr *)&sin, sizeof(sin), NULL, buf, &len) &&
	   !strcmp(buf, "192.0.2.1") && len == 10, "no port: %s %lu\n", buf, len);
	sin.sin_port = htons(443);
	len = sizeof(buf);
	ok(!WSAAddressToStringA((struct sockaddr *)&sin, sizeof(sin), NULL, buf, &len) &&
	   !strcmp(buf, "192.0.2.1:443") && len == 14, "with port: %s %lu\n", buf, len);
	len = 5;
	ok(WSAAddressToStringA((struct sockaddr *)&sin, sizeof(sin), NULL, buf, &len) ==
		   SOCKET_ERROR && WSAGetLastError() == WSAEFAULT && len == 14,
	   "small: %d %lu\n", WSAGetLastError(), len);
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr.s6_addr[15] = 1;
	sin6.sin6_port = htons(80);
	len = 64;
	ok(!WSAAddressToStringW((struct sockaddr *)&sin6, sizeof(sin6), NULL, wbuf, &len) &&
	   !lstrcmpW(wbuf, L"[::1]:80") && len == 9, "v6 W: %lu\n", len);
	len = sizeof(buf);
	ok(WSAAddressToStringA((struct sockaddr *)&sin6, 8, NULL, buf, &len) == SOCKET_ERROR &&
	   WSAGetLastError() == WSAEFAULT, "short address: %d\n", WSAGetLastError());
}

static void test_getaddrinfo(void)
{
	struct addrinfo hints = { 0 }, *res = NULL, *ai;
	ADDRINFOW whints = { 0 }, *wres = NULL;
	int found = 0, r;

	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo("localhost", "8080", &hints, &res);
	ok(r == 0 && res, "getaddrinfo localhost: %d\n", r);
	for (ai = res; ai; ai = ai->ai_next) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ai->ai_addr;

		ok(ai->ai_family == AF_INET && ai->ai_addrlen == sizeof(*sin) &&
		   ai->ai_socktype == SOCK_STREAM, "entry family %d len %d\n", ai->ai_family,
		   (int)ai->ai_addrlen);
		if (sin->sin_addr.s_addr == htonl(INADDR_LOOPBACK) && sin->sin_port == htons(8080))
			found = 1;
	}
	ok(found, "127.0.0.1:8080 not in the results\n");
	freeaddrinfo(res);

	hints.ai_flags = AI_NUMERICHOST;
	res = NULL;
	r = getaddrinfo("::1", NULL, &hints, &res);
	ok(r != 0 && !res, "::1 with AF_INET: %d\n", r);
	hints.ai_family = AF_INET6;
	r = getaddrinfo("::1", "7", &hints, &res);
	ok(r == 0 && res && res->ai_family == AF_INET6 &&
	   ((struct sockaddr_in6 *)res->ai_addr)->sin6_port == htons(7), "::1: %d\n", r);
	if (!r)
		freeaddrinfo(res);
	hints.ai_family = AF_INET;
	r = getaddrinfo("300.1.1.1", NULL, &hints, &res);
	ok(r == WSAHOST_NOT_FOUND, "bad numeric host: %d\n", r);

	whints.ai_family = AF_INET;
	r = GetAddrInfoW(L"localhost", NULL, &whints, &wres);
	ok(r == 0 && wres && wres->ai_family == AF_INET, "GetAddrInfoW: %d\n", r);
	if (!r)
		FreeAddrInfoW(wres);
}

int main(void)
{
	WSADATA wsa;

	ok(WSAStartup(MAKEWORD(2, 2), &wsa) == 0, "WSAStartup\n");
	test_pton_ntop();
	test_string_to_address();
	test_address_to_string();
	test_getaddrinfo();
	WSACleanup();
	return test_summary();
}
