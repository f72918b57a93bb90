/* Addresses: Windows <-> Linux sockaddrs, byte order, and the text forms
 * (inet_pton/ntop, inet_addr/ntoa, WSAStringToAddress,
 * WSAAddressToString).  sockaddr_in and sockaddr_in6 have the same
 * layout on both sides; only the family numbers differ (AF_INET6 is 23
 * on Windows, 10 on Linux). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/wstr.h"

_Static_assert(sizeof(struct WS_sockaddr_in) == sizeof(struct sockaddr_in), "sockaddr_in");
_Static_assert(sizeof(struct WS_sockaddr_in6) == sizeof(struct sockaddr_in6), "sockaddr_in6");
_Static_assert(offsetof(struct WS_sockaddr_in6, sin6_scope_id) ==
	       offsetof(struct sockaddr_in6, sin6_scope_id), "sin6_scope_id");

int ws_family_to_unix(int family)
{
	switch (family) {
	case WS_AF_UNSPEC: return AF_UNSPEC;
	case WS_AF_INET: return AF_INET;
	case WS_AF_INET6: return AF_INET6;
	}
	return -1;
}

int ws_family_from_unix(int family)
{
	switch (family) {
	case AF_UNSPEC: return WS_AF_UNSPEC;
	case AF_INET: return WS_AF_INET;
	case AF_INET6: return WS_AF_INET6;
	}
	return -1;
}

int ws_sockaddr_size(int ws_family)
{
	switch (ws_family) {
	case WS_AF_INET: return sizeof(struct WS_sockaddr_in);
	case WS_AF_INET6: return sizeof(struct WS_sockaddr_in6);
	}
	return 0;
}

int ws_sockaddr_to_unix(const struct WS_sockaddr *wsa, int len, struct sockaddr_storage *out,
			socklen_t *out_len)
{
	int size;

	if (!wsa || len < (int)sizeof(struct WS_sockaddr))
		return WSAEFAULT;
	size = ws_sockaddr_size(wsa->sa_family);
	if (!size)
		return WSAEAFNOSUPPORT;
	if (len < size)
		return WSAEFAULT;
	memset(out, 0, sizeof(*out));
	memcpy(out, wsa, size);
	out->ss_family = ws_family_to_unix(wsa->sa_family);
	*out_len = size;
	return 0;
}

int ws_sockaddr_from_unix(const struct sockaddr *sa, socklen_t sa_len, struct WS_sockaddr *buf,
			  int *len)
{
	int family = ws_family_from_unix(sa->sa_family);
	int size = ws_sockaddr_size(family);

	if (!size)
		return WSAEAFNOSUPPORT;
	if (*len < size) {
		*len = size;
		return WSAEFAULT;
	}
	memset(buf, 0, size);
	memcpy(buf, sa, sa_len < (socklen_t)size ? sa_len : (socklen_t)size);
	buf->sa_family = family;
	*len = size;
	return 0;
}

/* ---- byte order ------------------------------------------------------------- */
WS_u_long WINAPI WS_htonl(WS_u_long v) { return htonl(v); }
WS_u_short WINAPI WS_htons(WS_u_short v) { return htons(v); }
WS_u_long WINAPI WS_ntohl(WS_u_long v) { return ntohl(v); }
WS_u_short WINAPI WS_ntohs(WS_u_short v) { return ntohs(v); }

/* ---- IPv4 legacy forms ------------------------------------------------------ */
WS_u_long WINAPI WS_inet_addr(const char *cp)
{
	struct in_addr a;

	/* inet_aton takes the same forms as Windows (a, a.b, a.b.c with
	 * octal and hex parts). */
	if (!cp || !inet_aton(cp, &a))
		return WS_INADDR_NONE;
	return a.s_addr;
}

char *WINAPI WS_inet_ntoa(struct WS_in_addr in)
{
	static __thread char buf[16];
	const unsigned char *b = (const unsigned char *)&in;

	snprintf(buf, sizeof(buf), "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}

/* ---- inet_pton / inet_ntop -------------------------------------------------- */
int WINAPI WS_inet_pton(INT family, PCSTR src, PVOID dst)
{
	int uf = ws_family_to_unix(family);

	if (uf != AF_INET && uf != AF_INET6) {
		SetLastError(WSAEAFNOSUPPORT);
		return -1;
	}
	if (!src || !dst) {
		SetLastError(WSAEFAULT);
		return -1;
	}
	return inet_pton(uf, src, dst) == 1 ? 1 : 0;
}

int WINAPI InetPtonW(INT family, PCWSTR src, PVOID dst)
{
	char buf[64];
	size_t i;

	if (!src)
		return WS_inet_pton(family, NULL, dst);
	for (i = 0; src[i] && i < sizeof(buf) - 1; i++) {
		if (src[i] > 0x7f)
			return ws_family_to_unix(family) < 0 ? WS_inet_pton(family, "", dst) : 0;
		buf[i] = (char)src[i];
	}
	if (src[i])
		return WS_inet_pton(family, "", dst); /* too long to be an address */
	buf[i] = 0;
	return WS_inet_pton(family, buf, dst);
}

PCSTR WINAPI WS_inet_ntop(INT family, PVOID addr, PSTR buf, SIZE_T len)
{
	int uf = ws_family_to_unix(family);

	if (uf != AF_INET && uf != AF_INET6) {
		SetLastError(WSAEAFNOSUPPORT);
		return NULL;
	}
	if (!addr || !buf || !len) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!inet_ntop(uf, addr, buf, len > 0x7fffffff ? 0x7fffffff : (socklen_t)len)) {
		SetLastError(ERROR_INVALID_PARAMETER); /* buffer too small */
		return NULL;
	}
	return buf;
}

PCWSTR WINAPI InetNtopW(INT family, PVOID addr, PWSTR buf, SIZE_T len)
{
	char tmp[INET6_ADDRSTRLEN];
	size_t n;

	if (!buf || !len) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!WS_inet_ntop(family, addr, tmp, sizeof(tmp)))
		return NULL;
	n = strlen(tmp);
	if (n + 1 > len) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	for (size_t i = 0; i <= n; i++)
		buf[i] = (unsigned char)tmp[i];
	return buf;
}

/* ---- WSAStringToAddress ------------------------------------------------------ */
static bool parse_port(const char *s, unsigned short *port)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > 65535)
		return false;
	*port = (unsigned short)v;
	return true;
}

static bool parse_scope(const char *s, ULONG *scope)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > 0xffffffffu)
		return false;
	*scope = v;
	return true;
}

/* "a.b.c.d[:port]" or "v6[%scope]" or "[v6[%scope]][:port]". */
static int string_to_address(const char *str, int family, struct WS_sockaddr *addr, int *len)
{
	char buf[128], *p;
	int need = ws_sockaddr_size(family);

	if (!str || !len)
		return WSAEINVAL;
	if (!need)
		return WSAEINVAL;
	if (strlen(str) >= sizeof(buf))
		return WSAEINVAL;
	strcpy(buf, str);
	if (family == WS_AF_INET) {
		struct WS_sockaddr_in sin = { .sin_family = WS_AF_INET };
		unsigned short port = 0;
		struct in_addr a;

		p = strchr(buf, ':');
		if (p) {
			*p = 0;
			if (!parse_port(p + 1, &port))
				return WSAEINVAL;
		}
		if (!inet_aton(buf, &a))
			return WSAEINVAL;
		if (*len < need) {
			*len = need;
			return WSAEFAULT;
		}
		if (!addr)
			return WSAEFAULT;
		sin.sin_port = htons(port);
		memcpy(&sin.sin_addr, &a, 4);
		memcpy(addr, &sin, sizeof(sin));
		*len = need;
		return 0;
	} else {
		struct WS_sockaddr_in6 sin6 = { .sin6_family = WS_AF_INET6 };
		unsigned short port = 0;
		ULONG scope = 0;
		char *host = buf;

		if (*host == '[') {
			p = strchr(host, ']');
			if (!p)
				return WSAEINVAL;
			*p++ = 0;
			host++;
			if (*p == ':') {
				if (!parse_port(p + 1, &port))
					return WSAEINVAL;
			} else if (*p) {
				return WSAEINVAL;
			}
		}
		p = strchr(host, '%');
		if (p) {
			*p = 0;
			if (!parse_scope(p + 1, &scope))
				return WSAEINVAL;
		}
		if (inet_pton(AF_INET6, host, &sin6.sin6_addr) != 1)
			return WSAEINVAL;
		if (*len < need) {
			*len = need;
			return WSAEFAULT;
		}
		if (!addr)
			return WSAEFAULT;
		sin6.sin6_port = htons(port);
		sin6.sin6_scope_id = scope;
		memcpy(addr, &sin6, sizeof(sin6));
		*len = need;
		return 0;
	}
}

INT WINAPI WSAStringToAddressA(LPSTR str, INT family, LPWSAPROTOCOL_INFOA info, LPSOCKADDR addr,
			       LPINT len)
{
	int err;

	if (info)
		family = info->iAddressFamily;
	err = string_to_address(str, family, (struct WS_sockaddr *)addr, len);
	return err ? ws_fail(err) : 0;
}

INT WINAPI WSAStringToAddressW(LPWSTR str, INT family, LPWSAPROTOCOL_INFOW info, LPSOCKADDR addr,
			       LPINT len)
{
	char buf[128];
	size_t i;
	int err;

	if (info)
		family = info->iAddressFamily;
	if (!str)
		return ws_fail(WSAEINVAL);
	for (i = 0; str[i]; i++) {
		if (str[i] > 0x7f || i == sizeof(buf) - 1)
			return ws_fail(WSAEINVAL);
		buf[i] = (char)str[i];
	}
	buf[i] = 0;
	err = string_to_address(buf, family, (struct WS_sockaddr *)addr, len);
	return err ? ws_fail(err) : 0;
}

/* ---- WSAAddressToString ------------------------------------------------------ */
static int address_to_string(const struct WS_sockaddr *addr, DWORD len, char *out, size_t out_size)
{
	char host[INET6_ADDRSTRLEN];

	if (!addr || len < sizeof(struct WS_sockaddr))
		return WSAEFAULT;
	if (addr->sa_family == WS_AF_INET) {
		const struct WS_sockaddr_in *sin = (const void *)addr;

		if (len < sizeof(*sin))
			return WSAEFAULT;
		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof(host));
		if (sin->sin_port)
			snprintf(out, out_size, "%s:%u", host, ntohs(sin->sin_port));
		else
			snprintf(out, out_size, "%s", host);
		return 0;
	}
	if (addr->sa_family == WS_AF_INET6) {
		const struct WS_sockaddr_in6 *sin6 = (const void *)addr;
		char scope[16] = "";

		if (len < sizeof(*sin6))
			return WSAEFAULT;
		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof(host));
		if (sin6->sin6_scope_id)
			snprintf(scope, sizeof(scope), "%%%u", (unsigned)sin6->sin6_scope_id);
		if (sin6->sin6_port)
			snprintf(out, out_size, "[%s%s]:%u", host, scope, ntohs(sin6->sin6_port));
		else
			snprintf(out, out_size, "%s%s", host, scope);
		return 0;
	}
	return WSAEINVAL;
}

INT WINAPI WSAAddressToStringA(LPSOCKADDR addr, DWORD len, LPWSAPROTOCOL_INFOA info, LPSTR str,
			       LPDWORD str_len)
{
	char buf[80];
	DWORD need;
	int err;

	if (!str_len)
		return ws_fail(WSAEFAULT);
	err = address_to_string((const struct WS_sockaddr *)addr, len, buf, sizeof(buf));
	if (err)
		return ws_fail(err);
	need = strlen(buf) + 1;
	if (!str || *str_len < need) {
		*str_len = need;
		return ws_fail(WSAEFAULT);
	}
	memcpy(str, buf, need);
	*str_len = need;
	return 0;
}

INT WINAPI WSAAddressToStringW(LPSOCKADDR addr, DWORD len, LPWSAPROTOCOL_INFOW info, LPWSTR str,
			       LPDWORD str_len)
{
	char buf[80];
	DWORD need;
	int err;

	if (!str_len)
		return ws_fail(WSAEFAULT);
	err = address_to_string((const struct WS_sockaddr *)addr, len, buf, sizeof(buf));
	if (err)
		return ws_fail(err);
	need = strlen(buf) + 1;
	if (!str || *str_len < need) {
		*str_len = need;
		return ws_fail(WSAEFAULT);
	}
	for (DWORD i = 0; i < need; i++)
		str[i] = (unsigned char)buf[i];
	*str_len = need;
	return 0;
}
