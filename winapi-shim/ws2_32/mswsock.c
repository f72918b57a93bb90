/* The Microsoft extensions: AcceptEx, ConnectEx, DisconnectEx and
 * GetAcceptExSockaddrs (exported by name from mswsock.dll and ws2_32,
 * reached through SIO_GET_EXTENSION_FUNCTION_POINTER by most programs).
 *
 * AcceptEx's output buffer: the first data (dwReceiveDataLength bytes),
 * then the local address area, then the remote one; each address is
 * stored as a sockaddr at the start of its area, where
 * GetAcceptExSockaddrs finds it. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"

BOOL WINAPI AcceptEx(SOCKET listener, SOCKET accepted, PVOID buf, DWORD data_len, DWORD local_len,
		     DWORD remote_len, LPDWORD bytes, LPOVERLAPPED ov)
{
	struct ws_socket *s = ws_socket_get(listener), *a = NULL;
	struct ws_request *r;
	int err = 0, need;

	TRACE(winsock, "%#lx %#lx %u %u %u %p\n", (unsigned long)listener, (unsigned long)accepted,
	      (unsigned)data_len, (unsigned)local_len, (unsigned)remote_len, ov);
	if (!s)
		return FALSE;
	a = ws_socket_get(accepted);
	if (!a) {
		err = WSAENOTSOCK;
		goto out;
	}
	need = ws_sockaddr_size(s->family) + 16;
	if (!ov || !buf) {
		err = WSAEFAULT;
	} else if (!s->listening || a == s || a->connected || a->listening ||
		   a->family != s->family || a->type != WS_SOCK_STREAM) {
		err = WSAEINVAL;
	} else if ((int)local_len < need || (int)remote_len < need) {
		err = WSAEFAULT;
	}
	if (err)
		goto out;
	r = ws_request_new(WS_REQ_ACCEPT, s, (WSAOVERLAPPED *)ov, NULL);
	if (!r) {
		err = WSAENOBUFS;
		goto out;
	}
	r->nbufs = 1;
	r->bufs[0].buf = buf;
	r->bufs[0].len = data_len + local_len + remote_len;
	r->accept = a;
	a = NULL; /* the request holds that reference now */
	r->accept_data = data_len;
	r->accept_local = local_len;
	r->accept_remote = remote_len;
	if (ws_request_start(s, r, bytes) == SOCKET_ERROR)
		err = GetLastError();
out:
	if (a)
		object_unref(&a->obj);
	object_unref(&s->obj);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	return TRUE;
}

VOID WINAPI GetAcceptExSockaddrs(PVOID buf, DWORD data_len, DWORD local_len, DWORD remote_len,
				 struct WS_sockaddr **local, LPINT local_size,
				 struct WS_sockaddr **remote, LPINT remote_size)
{
	char *p = buf;
	struct WS_sockaddr *l = (struct WS_sockaddr *)(p + data_len);
	struct WS_sockaddr *r = (struct WS_sockaddr *)(p + data_len + local_len);

	if (!buf)
		return;
	if (local)
		*local = l;
	if (local_size)
		*local_size = ws_sockaddr_size(l->sa_family);
	if (remote)
		*remote = r;
	if (remote_size)
		*remote_size = ws_sockaddr_size(r->sa_family);
}

BOOL WINAPI ws_ConnectEx(SOCKET sock, const struct WS_sockaddr *name, int namelen, PVOID buf,
			 DWORD len, DWORD *sent, LPOVERLAPPED ov)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ws_request *r;
	int err;

	if (!s)
		return FALSE;
	err = ws_sockaddr_to_unix(name, namelen, &ss, &sl);
	if (!err && !ov)
		err = WSAEFAULT;
	if (!err && s->type != WS_SOCK_STREAM)
		err = WSAEINVAL;
	if (!err && (s->connected || s->connecting))
		err = s->connected ? WSAEISCONN : WSAEALREADY;
	if (!err) {
		/* ConnectEx wants a bound socket. */
		struct sockaddr_storage b;
		socklen_t bl = sizeof(b);

		if (getsockname(s->fd, (struct sockaddr *)&b, &bl) < 0 ||
		    (b.ss_family == AF_INET && !((struct sockaddr_in *)&b)->sin_port) ||
		    (b.ss_family == AF_INET6 && !((struct sockaddr_in6 *)&b)->sin6_port))
			err = WSAEINVAL;
	}
	if (err) {
		object_unref(&s->obj);
		SetLastError(err);
		return FALSE;
	}
	r = ws_request_new(WS_REQ_CONNECT, s, (WSAOVERLAPPED *)ov, NULL);
	if (!r) {
		object_unref(&s->obj);
		SetLastError(WSAENOBUFS);
		return FALSE;
	}
	sl = ws_sockaddr_size(name->sa_family);
	r->to = ss;
	r->to_len = sl;
	if (buf && len) {
		r->nbufs = 1;
		r->bufs[0].buf = buf;
		r->bufs[0].len = len;
	}
	err = ws_request_start(s, r, sent) == SOCKET_ERROR ? (int)GetLastError() : 0;
	object_unref(&s->obj);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	return TRUE;
}

/* The connection ends; with TF_REUSE_SOCKET the socket becomes a fresh
 * one of the same kind, ready for AcceptEx or ConnectEx again. */
BOOL WINAPI ws_DisconnectEx(SOCKET sock, LPOVERLAPPED ov, DWORD flags, DWORD reserved)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err = 0, fd;

	if (!s)
		return FALSE;
	if (reserved || (flags & ~TF_REUSE_SOCKET)) {
		err = WSAEINVAL;
		goto out;
	}
	klock(&s->lock);
	if (!s->connected) {
		err = WSAENOTCONN;
	} else if (shutdown(s->fd, SHUT_RDWR) < 0 && errno != ENOTCONN) {
		err = wsa_error_from_errno(errno);
	} else if (flags & TF_REUSE_SOCKET) {
		fd = socket(ws_family_to_unix(s->family), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0 || dup3(fd, s->fd, O_CLOEXEC) < 0)
			err = wsa_error_from_errno(errno);
		if (fd >= 0)
			close(fd);
		if (!err) {
			s->connected = false;
			s->eof = false;
		}
	}
	kunlock(&s->lock);
	if (!err && ov) {
		struct ws_request *r = ws_request_new(WS_REQ_SEND, s, (WSAOVERLAPPED *)ov, NULL);

		if (!r)
			err = WSAENOBUFS;
		else
			ws_request_complete(r, 0, 0, true);
	}
out:
	object_unref(&s->obj);
	if (err) {
		SetLastError(err);
		return FALSE;
	}
	return TRUE;
}
