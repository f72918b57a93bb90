/* Overlapped socket requests: starting one, trying it, completing it.
 *
 * Completion follows Windows: OVERLAPPED.Internal gets the NTSTATUS,
 * InternalHigh the byte count and Offset the receive flags (Offset and
 * OffsetHigh belong to the provider for sockets); then the completion
 * routine is queued to the issuing thread as an APC, or else the event
 * is set and a packet goes to the socket's completion port unless the
 * event's low bit is set or the request finished synchronously on a
 * socket with FILE_SKIP_COMPLETION_PORT_ON_SUCCESS.  A request that fails
 * at once completes nothing: the caller gets the error. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/pecall.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

struct ws_request *ws_request_new(enum ws_req_type type, struct ws_socket *target,
				  WSAOVERLAPPED *ov, LPWSAOVERLAPPED_COMPLETION_ROUTINE routine)
{
	struct ws_request *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->type = type;
	r->target = target;
	object_ref(&target->obj);
	r->ov = ov;
	r->tid = thread_current_id();
	if (routine) {
		struct thread *t = thread_current();

		r->routine = routine;
		if (t) {
			object_ref(&t->obj);
			r->thread = t;
		}
	}
	return r;
}

void ws_request_free(struct ws_request *r)
{
	object_unref(&r->target->obj);
	if (r->thread)
		object_unref(&r->thread->obj);
	if (r->accept)
		object_unref(&r->accept->obj);
	free(r);
}

struct ws_apc {
	LPWSAOVERLAPPED_COMPLETION_ROUTINE routine;
	DWORD error, bytes, flags;
	WSAOVERLAPPED *ov;
};

static void WINAPI ws_apc_run(ULONG_PTR data)
{
	struct ws_apc a = *(struct ws_apc *)data;

	free((void *)data);
	PE_CALL4(a.routine, a.error, a.bytes, a.ov, a.flags);
}

void ws_request_complete(struct ws_request *r, DWORD error, DWORD bytes, bool sync)
{
	WSAOVERLAPPED *ov = r->ov;
	struct ws_socket *s = r->target;

	TRACE(winsock, "ov %p error %u bytes %u%s\n", ov, (unsigned)error, (unsigned)bytes,
	      sync ? " (sync)" : "");
	/* Offset carries the receive flags; it is written before the status
	 * publishes the result. */
	ov->Offset = r->flags_out ? r->flags : 0;
	if (r->routine) {
		struct ws_apc *a;

		io_publish(ov, ntstatus_from_wsa(error), bytes);
		a = malloc(sizeof(*a));

		if (a && r->thread) {
			*a = (struct ws_apc){ r->routine, error, bytes, ov->Offset, ov };
			if (!apc_queue(r->thread, ws_apc_run, (ULONG_PTR)a))
				free(a);
		} else {
			free(a);
		}
	} else {
		/* Status, event, the socket's own state and the port packet:
		 * the one overlapped-completion path. */
		io_complete(&s->io, ov, ntstatus_from_wsa(error), bytes, sync);
	}
	ws_request_free(r);
}

/* CancelIo/CancelIoEx on a socket (its io target's cancel hook): the
 * matching requests still queued on it end with WSA_OPERATION_ABORTED
 * (STATUS_CANCELLED), reads before writes. */
unsigned int ws_cancel_requests(struct io_target *t, bool (*match)(struct io_request *probe, void *ctx),
				void *ctx, NTSTATUS status)
{
	struct ws_socket *s = container_of(t, struct ws_socket, io);
	struct list done = LIST_INIT(done), *queues[] = { &s->reads, &s->writes }, *cur, *tmp;
	unsigned int n = 0;

	klock(&s->lock);
	for (unsigned int q = 0; q < 2; q++) {
		LIST_FOR_EACH_SAFE(cur, tmp, queues[q]) {
			struct ws_request *r = LIST_ENTRY(cur, struct ws_request, entry);
			struct io_request probe = { .ov = (OVERLAPPED *)r->ov, .tid = r->tid };

			if (!match(&probe, ctx))
				continue;
			list_remove(&r->entry);
			r->result_err = WSA_OPERATION_ABORTED;
			r->result_bytes = 0;
			list_add_tail(&done, &r->entry);
			n++;
		}
	}
	ws_io_update_locked(s);
	kunlock(&s->lock);
	ws_complete_list(&done);
	return n;
}

void ws_complete_list(struct list *done)
{
	while (!list_empty(done)) {
		struct ws_request *r = LIST_ENTRY(done->next, struct ws_request, entry);

		list_remove(&r->entry);
		ws_request_complete(r, r->result_err, r->result_bytes, false);
	}
}

/* The part of r's buffers not sent yet, as at most WS_MAX_BUFS buffers. */
static unsigned int remaining_bufs(const struct ws_request *r, WSABUF *out)
{
	DWORD skip = r->done;
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->nbufs; i++) {
		if (skip >= r->bufs[i].len) {
			skip -= r->bufs[i].len;
			continue;
		}
		out[n].buf = r->bufs[i].buf + skip;
		out[n].len = r->bufs[i].len - skip;
		skip = 0;
		n++;
	}
	return n;
}

static DWORD total_len(const struct ws_request *r)
{
	DWORD t = 0;

	for (unsigned int i = 0; i < r->nbufs; i++)
		t += r->bufs[i].len;
	return t;
}

static int done(struct ws_request *r, DWORD err, DWORD bytes)
{
	r->result_err = err;
	r->result_bytes = bytes;
	return WS_TRY_DONE;
}

/* Puts the connection accepted on s (fd) into r's accept socket and
 * writes the addresses where GetAcceptExSockaddrs finds them: the local
 * one at the start of the local area, the remote one at the start of the
 * remote area (each area is at least 16 bytes more than the sockaddr,
 * as Windows requires). */
static int accept_into(struct ws_socket *s, struct ws_request *r, int fd)
{
	struct ws_socket *acc = r->accept;
	struct sockaddr_storage ss;
	socklen_t sl;
	char *buf = r->bufs[0].buf;
	int len;

	if (dup3(fd, acc->fd, O_CLOEXEC) < 0) {
		close(fd);
		return done(r, wsa_error_from_errno(errno), 0);
	}
	close(fd);
	sl = sizeof(ss);
	if (!getsockname(acc->fd, (struct sockaddr *)&ss, &sl)) {
		len = r->accept_local;
		ws_sockaddr_from_unix((struct sockaddr *)&ss, sl,
				      (struct WS_sockaddr *)(buf + r->accept_data), &len);
	}
	sl = sizeof(ss);
	if (!getpeername(acc->fd, (struct sockaddr *)&ss, &sl)) {
		len = r->accept_remote;
		ws_sockaddr_from_unix((struct sockaddr *)&ss, sl,
				      (struct WS_sockaddr *)(buf + r->accept_data + r->accept_local),
				      &len);
	}
	klock(&acc->lock);
	acc->connected = true;
	if (!r->accept_data) {
		kunlock(&acc->lock);
		return done(r, 0, 0);
	}
	/* AcceptEx with a receive buffer completes with the first data. */
	r->type = WS_REQ_ACCEPT_DATA;
	list_add_tail(&acc->reads, &r->entry);
	ws_io_update_locked(acc);
	kunlock(&acc->lock);
	return WS_TRY_MOVED;
}

int ws_request_try(struct ws_socket *s, struct ws_request *r)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	WSABUF rem[WS_MAX_BUFS];
	DWORD flags;
	ssize_t n;
	int fd, so_err;

	switch (r->type) {
	case WS_REQ_RECV:
	case WS_REQ_ACCEPT_DATA:
		flags = r->type == WS_REQ_RECV ? r->flags : 0;
		if (r->type == WS_REQ_ACCEPT_DATA) {
			WSABUF b = { r->accept_data, r->bufs[0].buf };

			n = ws_do_recv(s, &b, 1, &flags, NULL, NULL);
		} else {
			n = ws_do_recv(s, r->bufs, r->nbufs, &flags, r->addr ? &ss : NULL, &sl);
		}
		ws_reenable_locked(s, FD_READ | FD_OOB);
		if (n < 0 && errno == EAGAIN)
			return WS_TRY_BLOCKED;
		if (n < 0 && errno != EMSGSIZE)
			return done(r, wsa_error_from_errno(errno), 0);
		if (r->addr && r->addr_len) {
			int len = *r->addr_len;

			ws_sockaddr_from_unix((struct sockaddr *)&ss, sl, r->addr, &len);
			*r->addr_len = len;
		}
		r->flags = flags;
		if (n < 0)
			return done(r, WSAEMSGSIZE, total_len(r));
		return done(r, 0, n);
	case WS_REQ_SEND: {
		unsigned int nb = remaining_bufs(r, rem);

		n = ws_do_send(s, rem, nb, r->flags, r->to_len ? &r->to : NULL, r->to_len);
		if (n < 0 && errno == EAGAIN) {
			ws_reenable_locked(s, FD_WRITE);
			return WS_TRY_BLOCKED;
		}
		if (n < 0)
			return done(r, wsa_error_from_errno(errno), r->done);
		r->done += n;
		/* A stream send completes when all of it is in the socket. */
		if (r->done < total_len(r) && s->type == WS_SOCK_STREAM)
			return WS_TRY_BLOCKED;
		return done(r, 0, r->done);
	}
	case WS_REQ_ACCEPT:
		fd = accept4(s->fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		ws_reenable_locked(s, FD_ACCEPT);
		if (fd < 0 && (errno == EAGAIN || errno == EINTR))
			return WS_TRY_BLOCKED;
		if (fd < 0)
			return done(r, wsa_error_from_errno(errno), 0);
		return accept_into(s, r, fd);
	case WS_REQ_CONNECT:
		if (!r->started) {
			r->started = true;
			if (connect(s->fd, (struct sockaddr *)&r->to, r->to_len) < 0) {
				if (errno != EINPROGRESS)
					return done(r, wsa_error_from_errno(errno), 0);
				s->connecting = true;
				return WS_TRY_BLOCKED;
			}
		} else {
			struct pollfd p = { .fd = s->fd, .events = POLLOUT };

			if (poll(&p, 1, 0) <= 0)
				return WS_TRY_BLOCKED;
			sl = sizeof(so_err);
			if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &so_err, &sl) < 0)
				so_err = errno;
			s->connecting = false;
			if (so_err)
				return done(r, wsa_error_from_errno(so_err), 0);
		}
		s->connecting = false;
		s->connected = true;
		if (r->nbufs) {
			n = ws_do_send(s, r->bufs, r->nbufs, 0, NULL, 0);
			return done(r, 0, n > 0 ? n : 0);
		}
		return done(r, 0, 0);
	case WS_REQ_ADDR_CHANGE:
		break;
	}
	return WS_TRY_BLOCKED;
}

void ws_process_queue_locked(struct ws_socket *s, struct list *queue, struct list *done_list)
{
	while (!list_empty(queue)) {
		struct ws_request *r = LIST_ENTRY(queue->next, struct ws_request, entry);
		int st;

		list_remove(&r->entry);
		st = ws_request_try(s, r);
		if (st == WS_TRY_BLOCKED) {
			list_add_head(queue, &r->entry);
			return;
		}
		if (st == WS_TRY_DONE)
			list_add_tail(done_list, &r->entry);
	}
}

int ws_request_start(struct ws_socket *s, struct ws_request *r, DWORD *bytes_out)
{
	struct list *queue = (r->type == WS_REQ_SEND || r->type == WS_REQ_CONNECT) ? &s->writes
										   : &s->reads;
	int st = WS_TRY_BLOCKED, err;

	/* Pending before anything can complete it (AcceptEx may move to
	 * the accepted socket, whose I/O thread work may finish first); the
	 * event and the socket's own state reset, as a Windows request does. */
	io_begin(&s->io, r->ov);
	klock(&s->lock);
	if (s->closed) {
		kunlock(&s->lock);
		ws_request_free(r);
		return ws_fail(WSAENOTSOCK);
	}
	/* Behind queued requests a new one waits its turn (byte order). */
	if (list_empty(queue))
		st = ws_request_try(s, r);
	if (st == WS_TRY_BLOCKED) {
		list_add_tail(queue, &r->entry);
		err = ws_io_update_locked(s);
		kunlock(&s->lock);
		if (err) {
			/* Cannot be watched: take it back and fail the call. */
			klock(&s->lock);
			list_remove(&r->entry);
			kunlock(&s->lock);
			ws_request_free(r);
			return ws_fail(err);
		}
		return ws_fail(WSA_IO_PENDING);
	}
	if (st == WS_TRY_MOVED) {
		kunlock(&s->lock);
		return ws_fail(WSA_IO_PENDING);
	}
	ws_io_update_locked(s);
	kunlock(&s->lock);
	err = r->result_err;
	if (err) {
		ws_request_free(r);
		return ws_fail(err);
	}
	if (bytes_out)
		*bytes_out = r->result_bytes;
	if (r->flags_out)
		*r->flags_out = r->flags;
	ws_request_complete(r, 0, r->result_bytes, true);
	return 0;
}
