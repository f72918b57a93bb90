/* Socket objects and the blocking core of Winsock: socket, WSASocketW,
 * closesocket, bind, listen, accept, connect, shutdown, the names. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/syncio.h"

int ws_fail(DWORD err)
{
	SetLastError(err);
	return SOCKET_ERROR;
}

int ws_fail_errno(int err)
{
	return ws_fail(wsa_error_from_errno(err));
}

static void ws_socket_close_handle(struct object *obj, unsigned int handles_left)
{
	struct ws_socket *s = to_ws_socket(obj);
	struct list cancelled;

	if (handles_left)
		return;
	list_init(&cancelled);
	klock(&s->lock);
	s->closed = true;
	/* Wakes threads blocked in ws_wait on this socket (they hold
	 * references, so the fd stays open until they return).  Not for a
	 * socket shared by WSADuplicateSocket: the connection is the other
	 * SOCKETs' too, and ends with the last close (a thread blocked on
	 * this one then waits for data or the peer). */
	if (s->fd >= 0 && !s->shared)
		shutdown(s->fd, SHUT_RDWR);
	ws_list_move(&cancelled, &s->reads);
	ws_list_move(&cancelled, &s->writes);
	if (s->event) {
		object_unref(s->event);
		s->event = NULL;
	}
	s->event_mask = 0;
	kunlock(&s->lock);
	ws_io_forget(s);
	ws_io_cancel_addr_change(s);
	while (!list_empty(&cancelled)) {
		struct ws_request *r = LIST_ENTRY(cancelled.next, struct ws_request, entry);

		list_remove(&r->entry);
		ws_request_complete(r, WSA_OPERATION_ABORTED, 0, false);
	}
}

static void ws_socket_destroy(struct object *obj)
{
	struct ws_socket *s = to_ws_socket(obj);

	TRACE(winsock, "fd %d\n", s->fd);
	if (s->fd >= 0)
		close(s->fd);
	if (s->event)
		object_unref(s->event);
	io_target_destroy(&s->io);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* A socket handle is a file handle: waitable, signaled when one of its
 * overlapped requests completes (unless FILE_SKIP_SET_EVENT_ON_HANDLE). */
static bool ws_socket_signaled(struct object *obj, unsigned int tid)
{
	return io_target_signaled(&to_ws_socket(obj)->io);
}

static bool ws_socket_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

static struct io_target *ws_socket_io_target(struct object *obj)
{
	return &to_ws_socket(obj)->io;
}

const struct object_ops ws_socket_ops = {
	.type_name = "socket",
	.signaled = ws_socket_signaled,
	.satisfied = ws_socket_satisfied,
	.close_handle = ws_socket_close_handle,
	.io_target = ws_socket_io_target,
	.destroy = ws_socket_destroy,
};

struct ws_socket *ws_socket_get(SOCKET sock)
{
	struct object *obj;

	if (sock == INVALID_SOCKET || !sock) {
		SetLastError(WSAENOTSOCK);
		return NULL;
	}
	obj = handle_get((HANDLE)sock, &ws_socket_ops);
	if (obj && (to_ws_socket(obj)->wsa_flags & WS_FLAG_NOTIFY_ONLY)) {
		object_unref(obj);
		obj = NULL;
	}
	if (!obj) {
		SetLastError(WSAENOTSOCK);
		return NULL;
	}
	return to_ws_socket(obj);
}

SOCKET ws_socket_create(int fd, int family, int type, int protocol, DWORD wsa_flags,
			struct ws_socket **out)
{
	struct ws_socket *s;
	HANDLE h;
	int fl = fd >= 0 ? fcntl(fd, F_GETFL) : 0;

	if ((fd >= 0 && (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
			 fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)) || !(s = calloc(1, sizeof(*s)))) {
		if (fd >= 0)
			close(fd);
		SetLastError(WSAENOBUFS);
		return INVALID_SOCKET;
	}
	object_init(&s->obj, &ws_socket_ops);
	s->fd = fd;
	s->family = family;
	s->type = type;
	s->protocol = protocol;
	s->wsa_flags = wsa_flags;
	pthread_mutex_init(&s->lock, NULL);
	list_init(&s->reads);
	list_init(&s->writes);
	s->enabled = WS_FD_ALL_EVENTS;
	s->io_slot = -1;
	io_target_init(&s->io, &s->obj, NULL);
	s->io.cancel = ws_cancel_requests;
	h = handle_create(&s->obj, GENERIC_READ | GENERIC_WRITE, 0);
	object_unref(&s->obj);
	if (!h) {
		SetLastError(WSAENOBUFS);
		return INVALID_SOCKET;
	}
	if (out)
		*out = s;
	TRACE(winsock, "fd %d -> socket %p\n", fd, h);
	return (SOCKET)h;
}

int ws_wait(struct ws_socket *s, short events, DWORD timeout)
{
	struct pollfd pfd = { .fd = s->fd, .events = events };
	int r;

	/* CancelSynchronousIo ends the wait with WSAEINTR, as Winsock ends
	 * a cancelled blocking call; poll consumes nothing. */
	syncio_begin_fd();
	do {
		if (syncio_cancelled()) {
			r = -1;
			errno = ECANCELED;
			break;
		}
		r = poll(&pfd, 1, timeout ? (int)timeout : -1);
	} while (r < 0 && errno == EINTR);
	syncio_end();
	if (r < 0)
		return errno == ECANCELED ? WSAEINTR : wsa_error_from_errno(errno);
	if (!r)
		return WSAETIMEDOUT;
	klock(&s->lock);
	r = s->closed;
	kunlock(&s->lock);
	return r ? WSAEINTR : 0;
}

/* ---- creation ------------------------------------------------------------ */
static SOCKET ws_create(int family, int type, int protocol, DWORD flags)
{
	int ufamily, utype, uproto, fd;

	if (!atomic_load(&ws_started)) {
		SetLastError(WSANOTINITIALISED);
		return INVALID_SOCKET;
	}
	ufamily = ws_family_to_unix(family);
	if (ufamily < 0) {
		SetLastError(WSAEAFNOSUPPORT);
		return INVALID_SOCKET;
	}
	switch (type) {
	case WS_SOCK_STREAM: utype = SOCK_STREAM; break;
	case WS_SOCK_DGRAM: utype = SOCK_DGRAM; break;
	default:
		SetLastError(WSAESOCKTNOSUPPORT);
		return INVALID_SOCKET;
	}
	switch (protocol) {
	case 0: uproto = 0; break;
	case WS_IPPROTO_TCP: uproto = IPPROTO_TCP; break;
	case WS_IPPROTO_UDP: uproto = IPPROTO_UDP; break;
	default:
		SetLastError(WSAEPROTONOSUPPORT);
		return INVALID_SOCKET;
	}
	if ((utype == SOCK_STREAM && uproto == IPPROTO_UDP) ||
	    (utype == SOCK_DGRAM && uproto == IPPROTO_TCP)) {
		SetLastError(WSAEPROTONOSUPPORT);
		return INVALID_SOCKET;
	}
	fd = socket(ufamily, utype | SOCK_NONBLOCK | SOCK_CLOEXEC, uproto);
	if (fd < 0) {
		ws_fail_errno(errno);
		return INVALID_SOCKET;
	}
	if (!protocol)
		protocol = type == WS_SOCK_STREAM ? WS_IPPROTO_TCP : WS_IPPROTO_UDP;
	return ws_socket_create(fd, family, type, protocol, flags, NULL);
}

SOCKET WINAPI WSASocketW(int family, int type, int protocol, LPWSAPROTOCOL_INFOW info,
			 GROUP g, DWORD flags)
{
	TRACE(winsock, "%d %d %d %p %#x\n", family, type, protocol, info, (unsigned)flags);
	/* From WSADuplicateSocket: that socket, not a new one. */
	if (info && info->dwProviderReserved)
		return ws_socket_from_info(info->dwProviderReserved, flags);
	if (info) {
		if (family == FROM_PROTOCOL_INFO)
			family = info->iAddressFamily;
		if (type == FROM_PROTOCOL_INFO)
			type = info->iSocketType;
		if (protocol == FROM_PROTOCOL_INFO)
			protocol = info->iProtocol;
	}
	return ws_create(family, type, protocol, flags);
}

SOCKET WINAPI WSASocketA(int family, int type, int protocol, LPWSAPROTOCOL_INFOA info,
			 GROUP g, DWORD flags)
{
	if (info && info->dwProviderReserved)
		return ws_socket_from_info(info->dwProviderReserved, flags);
	if (info) {
		if (family == FROM_PROTOCOL_INFO)
			family = info->iAddressFamily;
		if (type == FROM_PROTOCOL_INFO)
			type = info->iSocketType;
		if (protocol == FROM_PROTOCOL_INFO)
			protocol = info->iProtocol;
	}
	return ws_create(family, type, protocol, flags);
}

/* socket() sockets are overlapped-capable on Windows. */
SOCKET WINAPI WS_socket(int family, int type, int protocol)
{
	return ws_create(family, type, protocol, WSA_FLAG_OVERLAPPED);
}

int WINAPI WS_closesocket(SOCKET sock)
{
	struct ws_socket *s = ws_socket_get(sock);

	if (!s)
		return SOCKET_ERROR;
	object_unref(&s->obj);
	if (!CloseHandle((HANDLE)sock))
		return ws_fail(WSAENOTSOCK);
	return 0;
}

/* ---- addresses ------------------------------------------------------------ */
int WINAPI WS_bind(SOCKET sock, const struct WS_sockaddr *addr, int len)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct sockaddr_storage ss;
	socklen_t sl;
	int err, r = 0;

	if (!s)
		return SOCKET_ERROR;
	err = ws_sockaddr_to_unix(addr, len, &ss, &sl);
	if (!err && ws_family_to_unix(s->family) != ss.ss_family)
		err = WSAEFAULT; /* what Windows reports for a foreign family */
	if (!err && bind(s->fd, (struct sockaddr *)&ss, sl) < 0)
		err = errno == EINVAL ? WSAEINVAL : wsa_error_from_errno(errno);
	if (err)
		r = ws_fail(err);
	object_unref(&s->obj);
	return r;
}

static int ws_name(SOCKET sock, struct WS_sockaddr *addr, int *len, bool peer)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int err = 0, r;

	if (!s)
		return SOCKET_ERROR;
	r = peer ? getpeername(s->fd, (struct sockaddr *)&ss, &sl)
		 : getsockname(s->fd, (struct sockaddr *)&ss, &sl);
	if (r < 0)
		err = wsa_error_from_errno(errno);
	else if (!peer && ss.ss_family == AF_INET &&
		 !((struct sockaddr_in *)&ss)->sin_port && !s->listening)
		err = WSAEINVAL; /* not bound yet */
	else if (!peer && ss.ss_family == AF_INET6 &&
		 !((struct sockaddr_in6 *)&ss)->sin6_port && !s->listening)
		err = WSAEINVAL;
	else if (!addr || !len)
		err = WSAEFAULT;
	else
		err = ws_sockaddr_from_unix((struct sockaddr *)&ss, sl, addr, len);
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

int WINAPI WS_getsockname(SOCKET sock, struct WS_sockaddr *addr, int *len)
{
	return ws_name(sock, addr, len, false);
}

int WINAPI WS_getpeername(SOCKET sock, struct WS_sockaddr *addr, int *len)
{
	return ws_name(sock, addr, len, true);
}

/* ---- connections ------------------------------------------------------------ */
int WINAPI WS_listen(SOCKET sock, int backlog)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err = 0;

	if (!s)
		return SOCKET_ERROR;
	if (s->type != WS_SOCK_STREAM)
		err = WSAEOPNOTSUPP;
	else if (listen(s->fd, backlog < 0 ? 0 : backlog) < 0)
		err = wsa_error_from_errno(errno);
	if (!err) {
		klock(&s->lock);
		s->listening = true;
		err = ws_io_update_locked(s);
		kunlock(&s->lock);
	}
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

SOCKET WINAPI WS_accept(SOCKET sock, struct WS_sockaddr *addr, int *len)
{
	struct ws_socket *s = ws_socket_get(sock), *n;
	struct sockaddr_storage ss;
	socklen_t sl;
	SOCKET ret = INVALID_SOCKET;
	int fd, err = 0;

	if (!s)
		return INVALID_SOCKET;
	if (!s->listening) {
		err = WSAEINVAL;
		goto out;
	}
	if (addr && (!len || *len < ws_sockaddr_size(s->family))) {
		err = WSAEFAULT;
		goto out;
	}
	for (;;) {
		sl = sizeof(ss);
		fd = accept4(s->fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR) {
			err = wsa_error_from_errno(errno);
			break;
		}
		klock(&s->lock);
		ws_reenable_locked(s, FD_ACCEPT);
		kunlock(&s->lock);
		if (s->nonblocking) {
			err = WSAEWOULDBLOCK;
			break;
		}
		err = ws_wait(s, POLLIN, 0);
		if (err)
			break;
	}
	if (err)
		goto out;
	klock(&s->lock);
	ws_reenable_locked(s, FD_ACCEPT);
	kunlock(&s->lock);
	ret = ws_socket_create(fd, s->family, s->type, s->protocol, s->wsa_flags, &n);
	if (ret == INVALID_SOCKET)
		goto out_noerr;
	n->connected = true;
	if (addr)
		ws_sockaddr_from_unix((struct sockaddr *)&ss, sl, addr, len);
	/* The accepted socket shares the listener's WSAEventSelect. */
	klock(&s->lock);
	if (s->event) {
		struct object *ev = object_ref(s->event);
		LONG mask = s->event_mask;

		kunlock(&s->lock);
		klock(&n->lock);
		n->event = ev;
		n->event_mask = mask;
		n->nonblocking = true;
		ws_io_update_locked(n);
		kunlock(&n->lock);
	} else {
		kunlock(&s->lock);
	}
out:
	if (err)
		ws_fail(err);
out_noerr:
	object_unref(&s->obj);
	return ret;
}

int WINAPI WS_connect(SOCKET sock, const struct WS_sockaddr *addr, int len)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct sockaddr_storage ss;
	socklen_t sl;
	int err, so_err;

	if (!s)
		return SOCKET_ERROR;
	err = ws_sockaddr_to_unix(addr, len, &ss, &sl);
	if (err)
		goto out;
	if (connect(s->fd, (struct sockaddr *)&ss, sl) == 0) {
		s->connected = s->type == WS_SOCK_STREAM;
		goto out;
	}
	if (errno != EINPROGRESS) {
		err = wsa_error_from_errno(errno);
		goto out;
	}
	if (s->nonblocking) {
		klock(&s->lock);
		s->connecting = true;
		ws_io_update_locked(s);
		kunlock(&s->lock);
		err = WSAEWOULDBLOCK;
		goto out;
	}
	err = ws_wait(s, POLLOUT, 0);
	if (!err) {
		sl = sizeof(so_err);
		if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &so_err, &sl) < 0)
			so_err = errno;
		err = wsa_error_from_errno(so_err);
		if (!err)
			s->connected = true;
	}
out:
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

int WINAPI WS_shutdown(SOCKET sock, int how)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err = 0;

	if (!s)
		return SOCKET_ERROR;
	if (how < SD_RECEIVE || how > SD_BOTH)
		err = WSAEINVAL;
	else if (shutdown(s->fd, how) < 0) /* SD_* == SHUT_* */
		err = wsa_error_from_errno(errno);
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}

/* ---- ioctlsocket ------------------------------------------------------------ */
int WINAPI WS_ioctlsocket(SOCKET sock, LONG cmd, WS_u_long *arg)
{
	struct ws_socket *s = ws_socket_get(sock);
	int err = 0, n;

	if (!s)
		return SOCKET_ERROR;
	TRACE(winsock, "%#lx %#x\n", (unsigned long)sock, (unsigned)cmd);
	if (!arg) {
		err = WSAEFAULT;
		goto out;
	}
	switch ((ULONG)cmd) {
	case WS_FIONBIO:
		klock(&s->lock);
		if (!*arg && s->event_mask)
			err = WSAEINVAL; /* WSAEventSelect keeps it non-blocking */
		else
			s->nonblocking = *arg != 0;
		kunlock(&s->lock);
		break;
	case WS_FIONREAD:
		if (s->listening) {
			*arg = 0;
		} else if (ioctl(s->fd, FIONREAD, &n) < 0) {
			err = wsa_error_from_errno(errno);
		} else {
			*arg = n;
		}
		break;
	case WS_SIOCATMARK:
		if (ioctl(s->fd, SIOCATMARK, &n) < 0)
			err = wsa_error_from_errno(errno);
		else
			*arg = n ? TRUE : FALSE;
		break;
	default:
		err = WSAEINVAL;
	}
out:
	object_unref(&s->obj);
	return err ? ws_fail(err) : 0;
}
