/* select and __WSAFDIsSet: the fd_sets hold SOCKET handles; poll() on
 * their fds.  A failed non-blocking connect shows in exceptfds, as on
 * Windows. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"

int WINAPI __WSAFDIsSet(SOCKET s, WS_fd_set *set)
{
	for (unsigned int i = 0; i < set->fd_count; i++)
		if (set->fd_array[i] == s)
			return 1;
	return 0;
}

int WINAPI WS_select(int nfds, WS_fd_set *rd, WS_fd_set *wr, WS_fd_set *ex,
		     const struct WS_timeval *tv)
{
	WS_fd_set *sets[3] = { rd, wr, ex };
	unsigned int total = 0, k = 0;
	struct pollfd *pfd;
	struct ws_socket **socks;
	int r, count = 0, timeout;

	for (int i = 0; i < 3; i++) {
		if (sets[i] && sets[i]->fd_count > WS_FD_SETSIZE)
			return ws_fail(WSAEINVAL);
		total += sets[i] ? sets[i]->fd_count : 0;
	}
	if (!total)
		return ws_fail(WSAEINVAL);
	pfd = calloc(total, sizeof(*pfd));
	socks = calloc(total, sizeof(*socks));
	if (!pfd || !socks) {
		free(pfd);
		free(socks);
		return ws_fail(WSAENOBUFS);
	}
	for (int i = 0; i < 3; i++) {
		for (unsigned int j = 0; sets[i] && j < sets[i]->fd_count; j++, k++) {
			socks[k] = ws_socket_get(sets[i]->fd_array[j]);
			if (!socks[k]) {
				r = ws_fail(WSAENOTSOCK);
				goto out;
			}
			pfd[k].fd = socks[k]->fd;
			pfd[k].events = i == 0 ? POLLIN : i == 1 ? POLLOUT : POLLPRI;
		}
	}
	timeout = tv ? (int)(tv->tv_sec * 1000 + (tv->tv_usec + 999) / 1000) : -1;
	do
		r = poll(pfd, total, timeout);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = ws_fail_errno(errno);
		goto out;
	}
	k = 0;
	for (int i = 0; i < 3; i++) {
		unsigned int n = 0;

		for (unsigned int j = 0; sets[i] && j < sets[i]->fd_count; j++, k++) {
			short re = pfd[k].revents;
			bool hit;

			if (i == 0) {
				hit = re & (POLLIN | POLLHUP | POLLERR);
			} else if (i == 1) {
				/* An unconnected stream socket reports POLLOUT|POLLHUP. */
				hit = (re & POLLOUT) && (socks[k]->type != WS_SOCK_STREAM ||
							 !(re & POLLERR)) &&
				      !(socks[k]->type == WS_SOCK_STREAM && !socks[k]->connected &&
					!socks[k]->connecting && (re & POLLHUP));
				if (hit && socks[k]->connecting) {
					klock(&socks[k]->lock);
					socks[k]->connecting = false;
					socks[k]->connected = true;
					kunlock(&socks[k]->lock);
				}
			} else {
				hit = (re & POLLPRI) || (socks[k]->connecting && (re & POLLERR));
			}
			if (hit)
				sets[i]->fd_array[n++] = sets[i]->fd_array[j];
		}
		if (sets[i]) {
			sets[i]->fd_count = n;
			count += n;
		}
	}
	r = count;
out:
	for (unsigned int i = 0; i < total; i++)
		if (socks[i])
			object_unref(&socks[i]->obj);
	free(pfd);
	free(socks);
	return r;
}
