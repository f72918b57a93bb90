/* gethostbyname: IPv4 addresses of a host name, in a hostent that belongs
 * to the calling thread and is replaced by its next call (Windows keeps
 * one per thread).  NULL or "" names the local host.  Resolved with
 * getaddrinfo, so it answers what GetAddrInfo answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "ws2_32/ws2_32_private.h"

#define MAX_ADDRS 32

static __thread struct {
	struct WS_hostent h;
	char name[256];
	char *aliases[1];
	char *addr_list[MAX_ADDRS + 1];
	struct WS_in_addr addrs[MAX_ADDRS];
} tls_host;

struct WS_hostent *WINAPI WS_gethostbyname(const char *name)
{
	struct WS_addrinfo hints = { 0 }, *res, *ai;
	char local[256];
	int n = 0, err;

	TRACE(winsock, "%s\n", name ? name : "(null)");
	if (!name || !*name) {
		if (WS_gethostname(local, sizeof(local)))
			return NULL;
		name = local;
	}
	hints.ai_family = WS_AF_INET;
	hints.ai_socktype = WS_SOCK_STREAM;
	hints.ai_flags = WS_AI_CANONNAME;
	if ((err = WS_getaddrinfo(name, NULL, &hints, &res))) {
		/* WS_getaddrinfo set the error (WSAHOST_NOT_FOUND, ...). */
		return NULL;
	}
	memset(&tls_host, 0, sizeof(tls_host));
	snprintf(tls_host.name, sizeof(tls_host.name), "%s", res->ai_canonname ? res->ai_canonname : name);
	for (ai = res; ai && n < MAX_ADDRS; ai = ai->ai_next) {
		tls_host.addrs[n] = ((struct WS_sockaddr_in *)ai->ai_addr)->sin_addr;
		tls_host.addr_list[n] = (char *)&tls_host.addrs[n];
		n++;
	}
	WS_freeaddrinfo(res);
	tls_host.h.h_name = tls_host.name;
	tls_host.h.h_aliases = tls_host.aliases;
	tls_host.h.h_addrtype = WS_AF_INET;
	tls_host.h.h_length = sizeof(struct WS_in_addr);
	tls_host.h.h_addr_list = tls_host.addr_list;
	return &tls_host.h;
}
