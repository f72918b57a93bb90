/* WSAIoctl: the extension function pointers, FIONBIO/FIONREAD, the
 * local address list (and its change notification), the routing
 * interface query. */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <string.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static const struct {
	GUID id;
	const void *fn;
} extensions[] = {
	{ WSAID_ACCEPTEX, (const void *)AcceptEx },
	{ WSAID_CONNECTEX, (const void *)ws_ConnectEx },
	{ WSAID_DISCONNECTEX, (const void *)ws_DisconnectEx },
	{ WSAID_GETACCEPTEXSOCKADDRS, (const void *)GetAcceptExSockaddrs },
};

/* The addresses of the interfaces that are up, of one family, loopback
 * excluded (Windows leaves the loopback pseudo-interface out). */
int ws_address_list(int family, SOCKET_ADDRESS_LIST *buf, DWORD len, DWORD *needed)
{
	struct ifaddrs *ifa, *i;
	int ufamily = ws_family_to_unix(family), count = 0, size = ws_sockaddr_size(family);
	DWORD need;
	char *addr_area;

	if (getifaddrs(&ifa) < 0)
		return wsa_error_from_errno(errno);
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == ufamily && (i->ifa_flags & IFF_UP) &&
		    !(i->ifa_flags & IFF_LOOPBACK))
			count++;
	need = offsetof(SOCKET_ADDRESS_LIST, Address[count]) + count * size;
	*needed = need;
	if (!buf || len < need) {
		freeifaddrs(ifa);
		return WSAEFAULT;
	}
	buf->iAddressCount = count;
	addr_area = (char *)&buf->Address[count];
	count = 0;
	for (i = ifa; i; i = i->ifa_next) {
		int l = size;

		if (!i->ifa_addr || i->ifa_addr->sa_family != ufamily || !(i->ifa_flags & IFF_UP) ||
		    (i->ifa_flags & IFF_LOOPBACK))
			continue;
		ws_sockaddr_from_unix(i->ifa_addr,
				      ufamily == AF_INET ? sizeof(struct sockaddr_in)
							 : sizeof(struct sockaddr_in6),
				      (struct WS_sockaddr *)addr_area, &l);
		buf->Address[count].lpSockaddr = (struct WS_sockaddr *)addr_area;
		buf->Address[count].iSockaddrLength = size;
		addr_area += size;
		count++;
	}
	freeifaddrs(ifa);
	return 0;
}

/* The local address the kernel routes from towards remote: a UDP
 * "connect" picks it without sending anything. */
int ws_routing_query(const struct WS_sockaddr *remote, int len, struct WS_sockaddr *out,
		     DWORD out_len, DWORD *needed)
{
	struct sockaddr_storage ss, local;
	socklen_t sl, ll = sizeof(local);
	int err, fd, l;

	err = ws_sockaddr_to_unix(remote, len, &ss, &sl);
	if (err)
		return err == WSAEAFNOSUPPORT ? WSAEINVAL : err;
	*needed = ws_sockaddr_size(remote->sa_family);
	if (!out || out_len < *needed)
		return WSAEFAULT;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return wsa_error_from_errno(errno);
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    getsockname(fd, (struct sockaddr *)&local, &ll) < 0) {
		err = errno == ENETUNREACH ? WSAENETUNREACH : wsa_error_from_errno(errno);
		close(fd);
		return err;
	}
	close(fd);
	if (local.ss_family == AF_INET)
		((struct sockaddr_in *)&local)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&local)->sin6_port = 0;
	l = out_len;
	return ws_sockaddr_from_unix((struct sockaddr *)&local, ll, out, &l);
}

static int addr_change(struct ws_socket *s, LPWSAOVERLAPPED ov,
		       LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	struct ws_request *r;
	int err;

	if (!ov) {
		/* Blocking form: only non-blocking sockets are refused. */
		if (s->nonblocking)
			return WSAEWOULDBLOCK;
		return WSAEOPNOTSUPP;
	}
	r = ws_request_new(WS_REQ_ADDR_CHANGE, s, ov, routine);
	if (!r)
		return WSAENOBUFS;
	__atomic_store_n(&ov->Internal, (ULONG_PTR)STATUS_PENDING, __ATOMIC_RELEASE);
	ov->InternalHigh = 0;
	err = ws_io_queue_addr_change(r);
	if (err) {
		ws_request_free(r);
		return err;
	}
	return WSA_IO_PENDING;
}

int WINAPI WSAIoctl(SOCKET sock, DWORD code, LPVOID in, DWORD in_len, LPVOID out, DWORD out_len,
		    LPDWORD ret_len, LPWSAOVERLAPPED ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	struct ws_socket *s = ws_socket_get(sock);
	DWORD needed = 0;
	int err = 0;

	TRACE(winsock, "%#lx code %#x in %u out %u ov %p\n", (unsigned long)sock, (unsigned)code,
	      (unsigned)in_len, (unsigned)out_len, ov);
	if (!s)
		return SOCKET_ERROR;
	switch (code) {
	case WS_SIO_GET_EXTENSION_FUNCTION_POINTER:
		err = WSAEINVAL;
		if (!in || in_len < sizeof(GUID)) {
			err = WSAEFAULT;
			break;
		}
		for (size_t i = 0; i < sizeof(extensions) / sizeof(extensions[0]); i++) {
			if (memcmp(in, &extensions[i].id, sizeof(GUID)))
				continue;
			needed = sizeof(void *);
			if (!out || out_len < sizeof(void *)) {
				err = WSAEFAULT;
				break;
			}
			memcpy(out, &extensions[i].fn, sizeof(void *));
			err = 0;
			break;
		}
		break;
	case WS_FIONBIO:
	case WS_FIONREAD:
		if (!(code == WS_FIONBIO ? in : out) ||
		    (code == WS_FIONBIO ? in_len : out_len) < sizeof(WS_u_long)) {
			err = WSAEFAULT;
			break;
		}
		if (WS_ioctlsocket(sock, code, code == WS_FIONBIO ? in : out) == SOCKET_ERROR)
			err = GetLastError();
		else
			needed = code == WS_FIONBIO ? 0 : sizeof(WS_u_long);
		break;
	case WS_SIO_ADDRESS_LIST_QUERY:
		err = ws_address_list(s->family, out, out_len, &needed);
		break;
	case WS_SIO_ADDRESS_LIST_CHANGE:
		err = addr_change(s, ov, routine);
		break;
	case WS_SIO_ROUTING_INTERFACE_QUERY:
		err = ws_routing_query(in, in_len, out, out_len, &needed);
		break;
	default:
		err = WSAEOPNOTSUPP;
	}
	if (ret_len)
		*ret_len = needed;
	object_unref(&s->obj);
	if (err)
		return ws_fail(err);
	/* Synchronous success with an OVERLAPPED completes it like any
	 * other request. */
	if (ov) {
		struct ws_socket *t = ws_socket_get(sock);
		struct ws_request *r = t ? ws_request_new(WS_REQ_SEND, t, ov, routine) : NULL;

		if (r)
			ws_request_complete(r, 0, needed, true);
		if (t)
			object_unref(&t->obj);
	}
	return 0;
}
