/* Data transfer on blocking and non-blocking sockets: send, recv,
 * sendto, recvfrom, and the recvmsg/sendmsg helpers the overlapped
 * requests share. */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"

/* MSG_OOB, MSG_PEEK and MSG_DONTROUTE have the same values on both
 * sides; MSG_PUSH_IMMEDIATE and MSG_PARTIAL are hints Linux has no use
 * for. */
int ws_msg_flags_to_unix(DWORD flags, int *out)
{
	int u = 0;

	if (flags & ~(WS_MSG_OOB | WS_MSG_PEEK | WS_MSG_DONTROUTE | WS_MSG_WAITALL |
		      0x20 /* MSG_PUSH_IMMEDIATE */ | WS_MSG_PARTIAL))
		return WSAEOPNOTSUPP;
	u |= flags & (WS_MSG_OOB | WS_MSG_PEEK | WS_MSG_DONTROUTE);
	if (flags & WS_MSG_WAITALL)
		u |= MSG_WAITALL;
	*out = u;
	return 0;
}

ssize_t ws_do_recv(struct ws_socket *s, const WSABUF *bufs, unsigned int n, DWORD *flags,
		   struct sockaddr_storage *from, socklen_t *from_len)
{
	struct iovec iov[WS_MAX_BUFS];
	struct msghdr msg = { 0 };
	int uflags, err;
	ssize_t r;

	err = ws_msg_flags_to_unix(*flags, &uflags);
	if (err) {
		errno = EOPNOTSUPP;
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		iov[i].iov_base = bufs[i].buf;
		iov[i].iov_len = bufs[i].len;
	}
	msg.msg_iov = iov;
	msg.msg_iovlen = n;
	msg.msg_name = from;
	msg.msg_namelen = from ? sizeof(*from) : 0;
	/* The fd is non-blocking: MSG_WAITALL is done by the callers. */
	r = recvmsg(s->fd, &msg, (uflags & ~MSG_WAITALL) | MSG_DONTWAIT);
	if (r < 0)
		return -1;
	if (from_len)
		*from_len = msg.msg_namelen;
	*flags = 0;
	if ((msg.msg_flags & MSG_TRUNC) && s->type == WS_SOCK_DGRAM) {
		errno = EMSGSIZE;
		return -1;
	}
	return r;
}

ssize_t ws_do_send(struct ws_socket *s, const WSABUF *bufs, unsigned int n, DWORD flags,
		   const struct sockaddr_storage *to, socklen_t to_len)
{
	struct iovec iov[WS_MAX_BUFS];
	struct msghdr msg = { 0 };
	int uflags;

	if (ws_msg_flags_to_unix(flags, &uflags)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		iov[i].iov_base = bufs[i].buf;
		iov[i].iov_len = bufs[i].len;
	}
	msg.msg_iov = iov;
	msg.msg_iovlen = n;
	msg.msg_name = (void *)to;
	msg.msg_namelen = to ? to_len : 0;
	return sendmsg(s->fd, &msg, (uflags & ~MSG_WAITALL) | MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* A blocking (or non-blocking) receive into one buffer: bytes, or
 * SOCKET_ERROR with the last error set.  MSG_WAITALL on a stream socket
 * fills the buffer unless the connection ends. */
static int ws_recv_common(struct ws_socket *s, char *buf, int len, int flags,
			  struct WS_sockaddr *from, int *from_len)
{
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	int total = 0, err = 0;
	DWORD f;
	ssize_t r;

	if (len < 0 || (len && !buf))
		return ws_fail(WSAEFAULT);
	if (from && (!from_len || *from_len < ws_sockaddr_size(s->family)))
		return ws_fail(WSAEFAULT);
	for (;;) {
		WSABUF b = { .len = len - total, .buf = buf + total };

		f = flags;
		r = ws_do_recv(s, &b, 1, &f, from ? &ss : NULL, from ? &sl : NULL);
		klock(&s->lock);
		ws_reenable_locked(s, FD_READ | FD_OOB);
		kunlock(&s->lock);
		if (r >= 0) {
			total += r;
			if (!(flags & WS_MSG_WAITALL) || !r || total == len || s->type != WS_SOCK_STREAM)
				break;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			err = wsa_error_from_errno(errno);
			break;
		}
		if (s->nonblocking) {
			err = WSAEWOULDBLOCK;
			break;
		}
		err = ws_wait(s, (flags & WS_MSG_OOB) ? POLLPRI : POLLIN, s->rcvtimeo);
		if (err)
			break;
	}
	if (err && !(err == WSAEMSGSIZE && s->type == WS_SOCK_DGRAM))
		return ws_fail(err);
	if (from && sl)
		ws_sockaddr_from_unix((struct sockaddr *)&ss, sl, from, from_len);
	if (err)
		return ws_fail(err);
	return total;
}

static int ws_send_common(struct ws_socket *s, const char *buf, int len, int flags,
			  const struct WS_sockaddr *to, int to_len)
{
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	int total = 0, err = 0;
	ssize_t r;

	if (len < 0 || (len && !buf))
		return ws_fail(WSAEFAULT);
	if (to) {
		err = ws_sockaddr_to_unix(to, to_len, &ss, &sl);
		if (err)
			return ws_fail(err);
	}
	do {
		WSABUF b = { .len = len - total, .buf = (char *)buf + total };

		r = ws_do_send(s, &b, 1, flags, to ? &ss : NULL, sl);
		if (r >= 0) {
			total += r;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			err = wsa_error_from_errno(errno);
			break;
		}
		klock(&s->lock);
		ws_reenable_locked(s, FD_WRITE);
		kunlock(&s->lock);
		if (s->nonblocking) {
			/* Windows accepts what fits and reports it; nothing
			 * fitted at all is WSAEWOULDBLOCK. */
			if (!total)
				err = WSAEWOULDBLOCK;
			break;
		}
		err = ws_wait(s, POLLOUT, s->sndtimeo);
		if (err)
			break;
	} while (total < len);
	if (err && !total)
		return ws_fail(err);
	return total;
}

int WINAPI WS_recv(SOCKET sock, char *buf, int len, int flags)
{
	struct ws_socket *s = ws_socket_get(sock);
	int r;

	if (!s)
		return SOCKET_ERROR;
	r = ws_recv_common(s, buf, len, flags, NULL, NULL);
	object_unref(&s->obj);
	return r;
}

int WINAPI WS_recvfrom(SOCKET sock, char *buf, int len, int flags, struct WS_sockaddr *from,
		       int *from_len)
{
	struct ws_socket *s = ws_socket_get(sock);
	int r;

	if (!s)
		return SOCKET_ERROR;
	r = ws_recv_common(s, buf, len, flags, from, from_len);
	object_unref(&s->obj);
	return r;
}

int WINAPI WS_send(SOCKET sock, const char *buf, int len, int flags)
{
	struct ws_socket *s = ws_socket_get(sock);
	int r;

	if (!s)
		return SOCKET_ERROR;
	r = ws_send_common(s, buf, len, flags, NULL, 0);
	object_unref(&s->obj);
	return r;
}

int WINAPI WS_sendto(SOCKET sock, const char *buf, int len, int flags,
		     const struct WS_sockaddr *to, int to_len)
{
	struct ws_socket *s = ws_socket_get(sock);
	int r;

	if (!s)
		return SOCKET_ERROR;
	r = ws_send_common(s, buf, len, flags, to, to_len);
	object_unref(&s->obj);
	return r;
}
