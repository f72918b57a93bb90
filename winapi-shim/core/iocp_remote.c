/* Completion ports seen from another process (core/iocp_remote.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/iocp_remote.h"

/* One posted packet on the wire: the values PostQueuedCompletionStatus
 * was given, carried as numbers (the OVERLAPPED pointer is the
 * poster's value; the owner never follows it). */
struct wire_packet {
	uint64_t key;
	uint64_t ov;
	uint32_t bytes;
	uint32_t pad;
};

/* The owner's side: the socket pair and the reader posting what comes
 * in.  The port owns it (iocp.c frees it when the port is destroyed,
 * which the reader's reference holds off until the reader has left). */
struct iocp_channel {
	int rfd, wfd;
	struct object *port; /* not referenced: the reader holds its own */
	bool reading;        /* the reader started */
};

/* A remote port (in the process holding a duplicate). */
struct iocp_remote {
	struct object obj;
	int fd; /* the write end of the owner's channel */
};

static struct iocp_remote *to_remote(struct object *obj)
{
	return container_of(obj, struct iocp_remote, obj);
}

/* ---- the owner ---- */

static void *reader(void *arg)
{
	struct iocp_channel *ch = arg;
	struct wire_packet m;

	for (;;) {
		ssize_t n = recv(ch->rfd, &m, sizeof(m), 0);

		if (n == (ssize_t)sizeof(m)) {
			if (!iocp_post(ch->port, (ULONG_PTR)m.key, (OVERLAPPED *)(uintptr_t)m.ov, 0, m.bytes))
				TRACE(iocp, "port %p: a packet from another process lost: out of memory\n",
				      (void *)ch->port);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* 0: the port's last handle closed (iocp_channel_stop). */
		if (n != 0)
			TRACE(iocp, "port %p: channel read: %zd, errno %d\n", (void *)ch->port, n, errno);
		break;
	}
	TRACE(iocp, "port %p: channel reader leaves\n", (void *)ch->port);
	object_unref(ch->port);
	return NULL;
}

/* The reader: a plain pthread (no TEB, no Windows thread: Toolhelp and
 * SuspendThread never see it) that takes no signal meant for the
 * program's threads, holding a reference on the port. */
static bool start_reader(struct iocp_channel *ch)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	object_ref(ch->port);
	err = pthread_create(&t, &attr, reader, ch);
	if (err)
		object_unref(ch->port);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return !err;
}

void iocp_channel_stop(struct iocp_channel *ch)
{
	/* The reader's recv returns 0; posters' sends fail with EPIPE. */
	shutdown(ch->rfd, SHUT_RDWR);
}

void iocp_channel_free(struct iocp_channel *ch)
{
	close(ch->rfd);
	close(ch->wfd);
	free(ch);
}

/* Makers of channels take turns: the one that finds none makes it. */
static pthread_mutex_t export_lock = PTHREAD_MUTEX_INITIALIZER;

/* The port's channel, made if it has none; NULL with the last error. */
static struct iocp_channel *channel_of(struct object *port)
{
	struct iocp_channel *ch = NULL;
	int sv[2];

	if (!iocp_channel_peek(port, &ch))
		return NULL;
	if (ch)
		return ch;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		set_last_error_from_errno(errno);
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		close(sv[0]);
		close(sv[1]);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	ch->rfd = sv[0];
	ch->wfd = sv[1];
	ch->port = port;
	/* Nothing ever writes to the read end. */
	shutdown(ch->rfd, SHUT_WR);
	if (!iocp_channel_set(port, ch)) {
		iocp_channel_free(ch);
		return NULL;
	}
	/* From here the port owns ch. */
	ch->reading = start_reader(ch);
	if (!ch->reading)
		iocp_channel_stop(ch);
	TRACE(iocp, "port %p: channel for other processes%s\n", (void *)port,
	      ch->reading ? "" : ": no reader thread");
	return ch;
}

int iocp_remote_export(struct object *obj)
{
	struct iocp_channel *ch;
	int fd = -1;

	if (obj->ops == &iocp_remote_ops) {
		/* Passed on: the same owner's channel. */
		if ((fd = fcntl(to_remote(obj)->fd, F_DUPFD_CLOEXEC, 0)) < 0)
			set_last_error_from_errno(errno);
		return fd;
	}
	pthread_mutex_lock(&export_lock);
	ch = channel_of(obj);
	if (ch && !ch->reading)
		SetLastError(ERROR_NO_SYSTEM_RESOURCES);
	else if (ch && (fd = fcntl(ch->wfd, F_DUPFD_CLOEXEC, 0)) < 0)
		set_last_error_from_errno(errno);
	pthread_mutex_unlock(&export_lock);
	return fd;
}

/* ---- another process ---- */

static void remote_destroy(struct object *obj)
{
	close(to_remote(obj)->fd);
	free(to_remote(obj));
}

/* Not waitable, as a port is not. */
const struct object_ops iocp_remote_ops = {
	.type_name = "remote iocp",
	.destroy = remote_destroy,
};

struct object *iocp_remote_import(int fd)
{
	struct iocp_remote *r = malloc(sizeof(*r));

	if (!r) {
		close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&r->obj, &iocp_remote_ops);
	r->fd = fd;
	return &r->obj;
}

BOOL iocp_remote_post(struct object *obj, ULONG_PTR key, OVERLAPPED *ov, DWORD bytes)
{
	struct wire_packet m = { .key = key, .ov = (uintptr_t)ov, .bytes = bytes };
	ssize_t n;

	do
		n = send(to_remote(obj)->fd, &m, sizeof(m), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(m))
		return TRUE;
	if (n < 0 && (errno == EPIPE || errno == ECONNRESET || errno == ENOTCONN || errno == ECONNREFUSED)) {
		/* The owner has exited (or closed its last handle to the
		 * port).  On Windows the port is a kernel object that this
		 * process's duplicate keeps alive after its creator exits:
		 * the packet is queued on it and the call succeeds.  Here
		 * the queue lived in the owner, and nobody could have
		 * removed the packet from it (a process cannot remove from
		 * a port it did not create, iocp_remote.h): the same
		 * outcome. */
		TRACE(iocp, "remote port %p: its owner is gone, packet (key %#lx) dropped\n", (void *)obj,
		      (unsigned long)key);
		return TRUE;
	}
	if (n >= 0)
		errno = EIO;
	set_last_error_from_errno(errno);
	return FALSE;
}

bool iocp_remote_refuse(HANDLE h, const char *call)
{
	DWORD err = GetLastError();
	struct object *obj = handle_get(h, &iocp_remote_ops);

	if (!obj) {
		SetLastError(err);
		return false;
	}
	object_unref(obj);
	TRACE(iocp, "%s on %p: a port of another process (only PostQueuedCompletionStatus reaches it)\n", call, h);
	SetLastError(ERROR_NOT_SUPPORTED);
	return true;
}
