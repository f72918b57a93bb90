/* WSASend, WSARecv, WSASendTo, WSARecvFrom (overlapped or not) and
 * WSAGetOverlappedResult. */
#include <errno.h>
#include <poll.h>
#include <string.h>

#define WIN32_NO_STATUS
#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>


/* The non-overlapped forms: block (or not) like recv/send. */
static int blocking_recv(struct ws_socket *s, WSABUF *bufs, DWORD n, DWORD *bytes, DWORD *flags,
			 struct WS_sockaddr *from, int *from_len)
{
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	DWORD f;
	ssize_t r;
	int err;

	for (;;) {
		f = flags ? *flags : 0;
		r = ws_do_recv(s, bufs, n, &f, from ? &ss : NULL, from ? &sl : NULL);
		klock(&s->lock);
		ws_reenable_locked(s, FD_READ | FD_OOB);
		kunlock(&s->lock);
		if (r >= 0 || errno == EMSGSIZE)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return ws_fail_errno(errno);
		if (s->nonblocking)
			return ws_fail(WSAEWOULDBLOCK);
		err = ws_wait(s, POLLIN, s->rcvtimeo);
		if (err)
			return ws_fail(err);
	}
	if (from && sl)
		ws_sockaddr_from_unix((struct sockaddr *)&ss, sl, from, from_len);
	if (r < 0)
		return ws_fail(WSAEMSGSIZE);
	if (bytes)
		*bytes = r;
	if (flags)
		*flags = f;
	return 0;
}

static int blocking_send(struct ws_socket *s, WSABUF *bufs, DWORD n, DWORD *bytes, DWORD flags,
			 const struct sockaddr_storage *to, socklen_t to_len)
{
	ssize_t r;
	int err;

	for (;;) {
		r = ws_do_send(s, bufs, n, flags, to, to_len);
		if (r >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return ws_fail_errno(errno);
		klock(&s->lock);
		ws_reenable_locked(s, FD_WRITE);
		kunlock(&s->lock);
		if (s->nonblocking)
			return ws_fail(WSAEWOULDBLOCK);
		err = ws_wait(s, POLLOUT, s->sndtimeo);
		if (err)
			return ws_fail(err);
	}
	/* A blocking stream send hands over everything. */
	if (!s->nonblocking && s->type == WS_SOCK_STREAM) {
		DWORD total = 0, sent = r;

		for (DWORD i = 0; i < n; i++)
			total += bufs[i].len;
		while (sent < total) {
			WSABUF rest[WS_MAX_BUFS];
			DWORD skip = sent, k = 0;

			for (DWORD i = 0; i < n; i++) {
				if (skip >= bufs[i].len) {
					skip -= bufs[i].len;
					continue;
				}
				rest[k].buf = bufs[i].buf + skip;
				rest[k++].len = bufs[i].len - skip;
				skip = 0;
			}
			r = ws_do_send(s, rest, k, flags, NULL, 0);
			if (r >= 0) {
				sent += r;
			} else if (errno == EAGAIN) {
				err = ws_wait(s, POLLOUT, s->sndtimeo);
				if (err)
					return ws_fail(err);
			} else if (errno != EINTR) {
				return ws_fail_errno(errno);
			}
		}
		r = sent;
	}
	if (bytes)
		*bytes = r;
	return 0;
}

static int transfer(SOCKET sock, WSABUF *bufs, DWORD n, DWORD *bytes, DWORD *flags_io, DWORD flags,
		    const struct WS_sockaddr *to, int to_len, struct WS_sockaddr *from, int *from_len,
		    WSAOVERLAPPED *ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine, bool recv)
{
	struct ws_socket *s = ws_socket_get(sock);
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	struct ws_request *r;
	int ret, err, uf;

	if (!s)
		return SOCKET_ERROR;
	if ((n && !bufs) || n > WS_MAX_BUFS || (recv && !flags_io)) {
		ret = ws_fail(n > WS_MAX_BUFS ? WSAENOBUFS : WSAEFAULT);
		goto out;
	}
	if (recv)
		flags = *flags_io;
	err = ws_msg_flags_to_unix(flags, &uf);
	if (!err && to)
		err = ws_sockaddr_to_unix(to, to_len, &ss, &sl);
	if (!err && from && (!from_len || *from_len < ws_sockaddr_size(s->family)))
		err = WSAEFAULT;
	if (err) {
		ret = ws_fail(err);
		goto out;
	}
	if (!ov) {
		ret = recv ? blocking_recv(s, bufs, n, bytes, flags_io, from, from_len)
			   : blocking_send(s, bufs, n, bytes, flags, to ? &ss : NULL, sl);
		goto out;
	}
	r = ws_request_new(recv ? WS_REQ_RECV : WS_REQ_SEND, s, ov, routine);
	if (!r) {
		ret = ws_fail(WSAENOBUFS);
		goto out;
	}
	r->nbufs = n;
	memcpy(r->bufs, bufs, n * sizeof(*bufs));
	r->flags = flags;
	r->flags_out = recv ? flags_io : NULL;
	r->addr = from;
	r->addr_len = from_len;
	if (to) {
		r->to = ss;
		r->to_len = sl;
	}
	ret = ws_request_start(s, r, bytes);
out:
	object_unref(&s->obj);
	return ret;
}

int WINAPI WSARecv(SOCKET s, LPWSABUF bufs, DWORD n, LPDWORD bytes, LPDWORD flags,
		   LPWSAOVERLAPPED ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer(s, bufs, n, bytes, flags, 0, NULL, 0, NULL, NULL, ov, routine, true);
}

int WINAPI WSARecvFrom(SOCKET s, LPWSABUF bufs, DWORD n, LPDWORD bytes, LPDWORD flags,
		       struct WS_sockaddr *from, LPINT from_len, LPWSAOVERLAPPED ov,
		       LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer(s, bufs, n, bytes, flags, 0, NULL, 0, from, from_len, ov, routine, true);
}

int WINAPI WSASend(SOCKET s, LPWSABUF bufs, DWORD n, LPDWORD bytes, DWORD flags,
		   LPWSAOVERLAPPED ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer(s, bufs, n, bytes, NULL, flags, NULL, 0, NULL, NULL, ov, routine, false);
}

int WINAPI WSASendTo(SOCKET s, LPWSABUF bufs, DWORD n, LPDWORD bytes, DWORD flags,
		     const struct WS_sockaddr *to, int to_len, LPWSAOVERLAPPED ov,
		     LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	return transfer(s, bufs, n, bytes, NULL, flags, to, to_len, NULL, NULL, ov, routine, false);
}

BOOL WINAPI WSAGetOverlappedResult(SOCKET sock, LPWSAOVERLAPPED ov, LPDWORD bytes, BOOL wait,
				   LPDWORD flags)
{
	struct ws_socket *s = ws_socket_get(sock);
	ULONG_PTR status;

	if (!s)
		return FALSE;
	object_unref(&s->obj);
	if (!ov || !bytes || !flags) {
		SetLastError(WSAEFAULT);
		return FALSE;
	}
	status = __atomic_load_n(&ov->Internal, __ATOMIC_ACQUIRE);
	if (status == (ULONG_PTR)STATUS_PENDING) {
		if (!wait) {
			SetLastError(WSA_IO_INCOMPLETE);
			return FALSE;
		}
		if ((ULONG_PTR)ov->hEvent & ~(ULONG_PTR)1)
			WaitForSingleObject((HANDLE)((ULONG_PTR)ov->hEvent & ~(ULONG_PTR)1), INFINITE);
		io_wait_overlapped(ov);
		status = __atomic_load_n(&ov->Internal, __ATOMIC_ACQUIRE);
	}
	*bytes = ov->InternalHigh;
	*flags = ov->Offset;
	if (status) {
		SetLastError(wsa_from_ntstatus((NTSTATUS)status));
		return FALSE;
	}
	return TRUE;
}
