/* The old name-service calls and getnameinfo, on the Linux resolver and
 * databases (/etc/hosts, DNS, /etc/services, /etc/protocols):
 *
 *   gethostbyname/gethostbyaddr, getservbyname/getservbyport,
 *   getprotobyname/getprotobynumber: one result per thread, in Windows'
 *   layouts, valid until the thread's next call of the same family, as
 *   documented.  IPv4 only for hosts, as on Windows.  MS-MPI calls
 *   gethostbyname in every MPI_Init.
 *   getnameinfo/GetNameInfoW: Windows' NI_* flags mapped to Linux's.
 *   GetHostNameW: gethostname in UTF-16.
 *
 * "localhost" resolves to the loopback address even without an
 * /etc/hosts entry, as Windows' resolver answers it itself. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ws2_32/ws2_32_private.h"

#include "core/codepage.h"
#include "core/wstr.h"

_Static_assert(offsetof(struct WS_servent, s_proto) == 16 && offsetof(struct WS_servent, s_port) == 24,
	       "x86-64 Windows' servent: s_proto before s_port");

#define MAX_ADDRS 32
#define MAX_ALIASES 16

/* One thread's results. */
static __thread struct {
	struct WS_hostent host;
	char host_name[1025];
	char *host_aliases[MAX_ALIASES + 1];
	char *host_addrs[MAX_ADDRS + 1];
	struct in_addr addrs[MAX_ADDRS];
	char alias_buf[MAX_ALIASES][256];
	struct WS_servent serv;
	char serv_name[256], serv_proto[32];
	char *serv_aliases[MAX_ALIASES + 1];
	char serv_alias_buf[MAX_ALIASES][256];
	struct WS_protoent proto;
	char proto_name[64];
	char *proto_aliases[MAX_ALIASES + 1];
	char proto_alias_buf[MAX_ALIASES][256];
} tls;

static bool started(void)
{
	if (atomic_load(&ws_started) > 0)
		return true;
	WSASetLastError(WSANOTINITIALISED);
	return false;
}

static void copy_aliases(char **out, char (*buf)[256], char *const *in)
{
	unsigned int n = 0;

	for (; in && in[n] && n < MAX_ALIASES; n++) {
		snprintf(buf[n], sizeof(buf[n]), "%s", in[n]);
		out[n] = buf[n];
	}
	out[n] = NULL;
}

/* The thread's hostent for name and the IPv4 addresses of a Linux
 * result list. */
static struct WS_hostent *fill_host(const char *name, const struct addrinfo *res)
{
	unsigned int n = 0;

	snprintf(tls.host_name, sizeof(tls.host_name), "%s", name);
	for (const struct addrinfo *ai = res; ai && n < MAX_ADDRS; ai = ai->ai_next) {
		struct in_addr a = ((const struct sockaddr_in *)ai->ai_addr)->sin_addr;
		bool dup = false;

		for (unsigned int i = 0; i < n; i++)
			dup |= tls.addrs[i].s_addr == a.s_addr;
		if (dup)
			continue;
		tls.addrs[n] = a;
		tls.host_addrs[n] = (char *)&tls.addrs[n];
		n++;
	}
	tls.host_addrs[n] = NULL;
	tls.host_aliases[0] = NULL;
	tls.host.h_name = tls.host_name;
	tls.host.h_aliases = tls.host_aliases;
	tls.host.h_addrtype = WS_AF_INET;
	tls.host.h_length = 4;
	tls.host.h_addr_list = tls.host_addrs;
	return &tls.host;
}

struct WS_hostent *WINAPI WS_gethostbyname(const char *name)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_CANONNAME };
	struct addrinfo *res = NULL;
	struct WS_hostent *h;
	char self[256];
	int err;

	if (!started())
		return NULL;
	/* NULL or "": this computer, as gethostname names it. */
	if (!name || !*name) {
		if (gethostname(self, sizeof(self)) < 0) {
			WSASetLastError(WSAHOST_NOT_FOUND);
			return NULL;
		}
		self[sizeof(self) - 1] = 0;
		name = self;
	}
	err = getaddrinfo(name, NULL, &hints, &res);
	if (err && (!strcasecmp(name, "localhost") || !strcasecmp(name, "localhost."))) {
		hints.ai_flags = AI_NUMERICHOST;
		err = getaddrinfo("127.0.0.1", NULL, &hints, &res);
	}
	if (err) {
		WSASetLastError(err == EAI_NONAME || err == EAI_NODATA || err == EAI_ADDRFAMILY ? WSAHOST_NOT_FOUND
												       : ws_eai_to_wsa(err));
		return NULL;
	}
	h = fill_host(res->ai_canonname ? res->ai_canonname : name, res);
	freeaddrinfo(res);
	return h;
}

struct WS_hostent *WINAPI WS_gethostbyaddr(const char *addr, int len, int type)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct addrinfo ai = { .ai_family = AF_INET, .ai_addr = (struct sockaddr *)&sin };
	char name[1025];
	int err;

	if (!started())
		return NULL;
	if (!addr || type != WS_AF_INET || len != 4) {
		WSASetLastError(addr ? WSAEAFNOSUPPORT : WSAEFAULT);
		return NULL;
	}
	memcpy(&sin.sin_addr, addr, 4);
	err = getnameinfo((struct sockaddr *)&sin, sizeof(sin), name, sizeof(name), NULL, 0, NI_NAMEREQD);
	if (err && sin.sin_addr.s_addr == htonl(INADDR_LOOPBACK)) {
		snprintf(name, sizeof(name), "localhost");
		err = 0;
	}
	if (err) {
		WSASetLastError(WSANO_DATA);
		return NULL;
	}
	return fill_host(name, &ai);
}

static struct WS_servent *fill_serv(const struct servent *se)
{
	if (!se) {
		WSASetLastError(WSANO_DATA);
		return NULL;
	}
	snprintf(tls.serv_name, sizeof(tls.serv_name), "%s", se->s_name);
	snprintf(tls.serv_proto, sizeof(tls.serv_proto), "%s", se->s_proto);
	copy_aliases(tls.serv_aliases, tls.serv_alias_buf, se->s_aliases);
	tls.serv.s_name = tls.serv_name;
	tls.serv.s_aliases = tls.serv_aliases;
	tls.serv.s_proto = tls.serv_proto;
	tls.serv.s_port = (short)se->s_port; /* both in network order */
	return &tls.serv;
}

struct WS_servent *WINAPI WS_getservbyname(const char *name, const char *proto)
{
	struct servent se, *r = NULL;
	char buf[4096];

	if (!started())
		return NULL;
	if (!name) {
		WSASetLastError(WSANO_DATA);
		return NULL;
	}
	getservbyname_r(name, proto, &se, buf, sizeof(buf), &r);
	return fill_serv(r);
}

struct WS_servent *WINAPI WS_getservbyport(int port, const char *proto)
{
	struct servent se, *r = NULL;
	char buf[4096];

	if (!started())
		return NULL;
	getservbyport_r(port, proto, &se, buf, sizeof(buf), &r);
	return fill_serv(r);
}

static struct WS_protoent *fill_proto(const struct protoent *pe)
{
	if (!pe) {
		WSASetLastError(WSANO_DATA);
		return NULL;
	}
	snprintf(tls.proto_name, sizeof(tls.proto_name), "%s", pe->p_name);
	copy_aliases(tls.proto_aliases, tls.proto_alias_buf, pe->p_aliases);
	tls.proto.p_name = tls.proto_name;
	tls.proto.p_aliases = tls.proto_aliases;
	tls.proto.p_proto = (short)pe->p_proto;
	return &tls.proto;
}

struct WS_protoent *WINAPI WS_getprotobyname(const char *name)
{
	struct protoent pe, *r = NULL;
	char buf[4096];

	if (!started())
		return NULL;
	if (name)
		getprotobyname_r(name, &pe, buf, sizeof(buf), &r);
	return fill_proto(r);
}

struct WS_protoent *WINAPI WS_getprotobynumber(int number)
{
	struct protoent pe, *r = NULL;
	char buf[4096];

	if (!started())
		return NULL;
	getprotobynumber_r(number, &pe, buf, sizeof(buf), &r);
	return fill_proto(r);
}

/* Windows' NI_* bits as Linux's (the values differ). */
static int ni_flags_to_unix(int flags)
{
	int out = 0;

	if (flags & WS_NI_NOFQDN)
		out |= NI_NOFQDN;
	if (flags & WS_NI_NUMERICHOST)
		out |= NI_NUMERICHOST;
	if (flags & WS_NI_NAMEREQD)
		out |= NI_NAMEREQD;
	if (flags & WS_NI_NUMERICSERV)
		out |= NI_NUMERICSERV;
	if (flags & WS_NI_DGRAM)
		out |= NI_DGRAM;
	return out;
}

int WINAPI WS_getnameinfo(const SOCKADDR *sa, WS_socklen_t salen, PCHAR host, DWORD hostlen, PCHAR serv,
			  DWORD servlen, INT flags)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int err;

	if (!sa || (!host && !serv))
		return WSASetLastError(WSAEFAULT), WSAEFAULT;
	err = ws_sockaddr_to_unix(sa, salen, &ss, &len);
	if (err)
		return WSASetLastError(err), err;
	err = getnameinfo((struct sockaddr *)&ss, len, host, host ? hostlen : 0, serv, serv ? servlen : 0,
			  ni_flags_to_unix(flags));
	/* The loopback address has a name on Windows whatever /etc/hosts says. */
	if (err == EAI_NONAME && host && !(flags & WS_NI_NUMERICHOST) && ss.ss_family == AF_INET &&
	    ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(INADDR_LOOPBACK) && hostlen > 9) {
		strcpy(host, "localhost");
		err = serv ? getnameinfo((struct sockaddr *)&ss, len, NULL, 0, serv, servlen,
					 ni_flags_to_unix(flags) | NI_NUMERICHOST)
			   : 0;
	}
	if (err == EAI_OVERFLOW)
		return WSASetLastError(WSAEFAULT), WSAEFAULT;
	if (err) {
		err = ws_eai_to_wsa(err);
		WSASetLastError(err);
	}
	return err;
}

/* The UTF-8 result of the A form into a UTF-16 buffer of len units. */
static int widen(const char *a, WCHAR *w, DWORD len)
{
	WCHAR *tmp = utf8_to_utf16_dup(a);
	size_t n;

	if (!tmp)
		return WSA_NOT_ENOUGH_MEMORY;
	n = wstr_len(tmp);
	if (n + 1 > len) {
		free(tmp);
		return WSAEFAULT;
	}
	memcpy(w, tmp, (n + 1) * sizeof(WCHAR));
	free(tmp);
	return 0;
}

INT WINAPI GetNameInfoW(const SOCKADDR *sa, WS_socklen_t salen, PWCHAR host, DWORD hostlen, PWCHAR serv,
			DWORD servlen, INT flags)
{
	char h[1025], s[256];
	int err = WS_getnameinfo(sa, salen, host ? h : NULL, sizeof(h), serv ? s : NULL, sizeof(s), flags);

	if (!err && host)
		err = widen(h, host, hostlen);
	if (!err && serv)
		err = widen(s, serv, servlen);
	if (err)
		WSASetLastError(err);
	return err;
}

int WINAPI GetHostNameW(WCHAR *name, int len)
{
	char buf[256];
	int err;

	if (!name)
		return ws_fail(WSAEFAULT);
	if (!started())
		return SOCKET_ERROR;
	if (gethostname(buf, sizeof(buf)) < 0)
		return ws_fail_errno(errno);
	buf[sizeof(buf) - 1] = 0;
	err = len > 0 ? widen(buf, name, (DWORD)len) : WSAEFAULT;
	return err ? ws_fail(err) : 0;
}
