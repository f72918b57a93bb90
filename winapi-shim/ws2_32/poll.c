/* WSAPoll: poll(2) over the sockets' Linux descriptors.  Windows' rules:
 * events may only ask for POLLRDNORM, POLLRDBAND (POLLIN is both) and
 * POLLWRNORM (POLLOUT), anything else is WSAEINVAL; a negative fd (an
 * INVALID_SOCKET) is skipped with revents 0; a handle that is no socket
 * gets POLLNVAL; POLLERR and POLLHUP come whether asked for or not.  The
 * result counts the entries whose revents is not 0. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "ws2_32/ws2_32_private.h"

#define WS_ALLOWED (WS_POLLRDNORM | WS_POLLRDBAND | WS_POLLWRNORM)

static short events_to_unix(SHORT ws)
{
	short e = 0;

	if (ws & WS_POLLRDNORM)
		e |= POLLIN | POLLRDNORM;
	if (ws & WS_POLLRDBAND)
		e |= POLLRDBAND | POLLPRI;
	if (ws & WS_POLLWRNORM)
		e |= POLLOUT;
	return e;
}

static SHORT revents_from_unix(short e, SHORT asked)
{
	SHORT ws = 0;

	if (e & (POLLIN | POLLRDNORM))
		ws |= WS_POLLRDNORM;
	if (e & (POLLRDBAND | POLLPRI))
		ws |= WS_POLLRDBAND;
	if (e & POLLOUT)
		ws |= WS_POLLWRNORM;
	ws &= asked;
	if (e & POLLERR)
		ws |= WS_POLLERR;
	if (e & POLLHUP)
		ws |= WS_POLLHUP;
	if (e & POLLNVAL)
		ws |= WS_POLLNVAL;
	return ws;
}

int WINAPI WSAPoll(WSAPOLLFD *fds, ULONG count, int timeout)
{
	struct pollfd *p;
	int n, ready = 0;

	if (atomic_load(&ws_started) <= 0)
		return ws_fail(WSANOTINITIALISED);
	if (!fds || !count)
		return ws_fail(WSAEINVAL);
	for (ULONG i = 0; i < count; i++)
		if (fds[i].events & ~WS_ALLOWED)
			return ws_fail(WSAEINVAL);
	p = calloc(count, sizeof(*p));
	if (!p)
		return ws_fail(WSAENOBUFS);
	/* A descriptor is only looked at, never used after the call: the
	 * socket objects' references are dropped before polling. */
	for (ULONG i = 0; i < count; i++) {
		struct ws_socket *s;

		fds[i].revents = 0;
		p[i].fd = -1;
		if ((SSIZE_T)fds[i].fd < 0)
			continue;
		s = ws_socket_get(fds[i].fd);
		if (!s) {
			fds[i].revents = WS_POLLNVAL;
			continue;
		}
		p[i].fd = s->fd;
		p[i].events = events_to_unix(fds[i].events);
		object_unref(&s->obj);
	}
	for (ULONG i = 0; i < count; i++)
		if (fds[i].revents)
			timeout = 0; /* something to report already */
	n = poll(p, count, timeout < 0 ? -1 : timeout);
	if (n < 0) {
		free(p);
		return ws_fail_errno(errno);
	}
	for (ULONG i = 0; i < count; i++) {
		if (p[i].fd >= 0)
			fds[i].revents = revents_from_unix(p[i].revents, fds[i].events);
		ready += fds[i].revents != 0;
	}
	free(p);
	return ready;
}
