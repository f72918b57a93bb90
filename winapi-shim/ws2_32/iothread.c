/* The one I/O thread: epoll over the sockets that have pending
 * overlapped requests or a WSAEventSelect, plus a netlink socket for
 * address changes (SIO_ADDRESS_LIST_CHANGE).
 *
 * A socket the thread may look at sits in a slot of a table, which holds
 * a reference on it; epoll carries slot and generation, so an event for
 * a socket that has left its slot meanwhile is dropped.  Lock order: a
 * socket's lock, then io_lock; the thread never holds io_lock while it
 * takes a socket lock. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "ws2_32/ws2_32_private.h"

#include "core/debug.h"
#include "core/errors.h"
#include "core/klock.h"

#define NETLINK_TAG UINT64_MAX

static pthread_once_t io_once = PTHREAD_ONCE_INIT;
static bool io_ok;
static int epfd = -1, nlfd = -1;
static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot {
	struct ws_socket *s;
	uint32_t gen;
} *slots;
static unsigned int nslots;
static struct list addr_waiters = LIST_INIT(addr_waiters); /* io_lock */

static void handle_socket(struct ws_socket *s, uint32_t ev);
static void handle_netlink(void);

static void *io_thread(void *arg)
{
	struct epoll_event evs[64];

	for (;;) {
		int n = epoll_wait(epfd, evs, 64, -1);

		for (int i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;
			struct ws_socket *s = NULL;

			if (tag == NETLINK_TAG) {
				handle_netlink();
				continue;
			}
			klock(&io_lock);
			if ((uint32_t)tag < nslots && slots[(uint32_t)tag].s &&
			    slots[(uint32_t)tag].gen == (uint32_t)(tag >> 32)) {
				s = slots[(uint32_t)tag].s;
				object_ref(&s->obj);
			}
			kunlock(&io_lock);
			if (s) {
				handle_socket(s, evs[i].events);
				object_unref(&s->obj);
			}
		}
	}
	return NULL;
}

static void io_init(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK,
				  .nl_groups = RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR };
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = NETLINK_TAG };
	sigset_t all, old;
	pthread_t t;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		return;
	/* Without netlink (a sandbox) address changes are never reported. */
	nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nlfd >= 0 && (bind(nlfd, (struct sockaddr *)&nl, sizeof(nl)) < 0 ||
			  epoll_ctl(epfd, EPOLL_CTL_ADD, nlfd, &ev) < 0)) {
		TRACE(winsock, "netlink: %s\n", strerror(errno));
		close(nlfd);
		nlfd = -1;
	}
	/* Signals belong to the program's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	io_ok = !pthread_create(&t, NULL, io_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (io_ok)
		pthread_detach(t);
}

bool ws_io_start(void)
{
	pthread_once(&io_once, io_init);
	if (!io_ok)
		SetLastError(WSASYSNOTREADY);
	return io_ok;
}

/* Socket lock held. */
static uint32_t interest(struct ws_socket *s)
{
	LONG want = s->event ? s->event_mask & s->enabled : 0;
	uint32_t ev = 0;

	if (!list_empty(&s->reads))
		ev |= EPOLLIN;
	if (!list_empty(&s->writes))
		ev |= EPOLLOUT;
	if (s->connecting && (want & FD_CONNECT))
		ev |= EPOLLOUT;
	if (s->listening && (want & FD_ACCEPT))
		ev |= EPOLLIN;
	if ((s->connected || s->type == WS_SOCK_DGRAM) && !s->listening) {
		if ((want & (FD_READ | FD_OOB)) && !s->eof)
			ev |= EPOLLIN | ((want & FD_OOB) ? EPOLLPRI : 0);
		if (want & FD_CLOSE)
			ev |= EPOLLRDHUP;
		if (want & FD_WRITE)
			ev |= EPOLLOUT;
	}
	return ev;
}

int ws_io_update_locked(struct ws_socket *s)
{
	uint32_t want;
	struct epoll_event ev;

	if (s->closed)
		return 0;
	want = interest(s);
	if (want && s->io_slot < 0) {
		unsigned int i;

		if (!ws_io_start())
			return WSASYSNOTREADY;
		klock(&io_lock);
		for (i = 0; i < nslots && slots[i].s; i++)
			;
		if (i == nslots) {
			struct slot *n = realloc(slots, (nslots * 2 + 16) * sizeof(*n));

			if (!n) {
				kunlock(&io_lock);
				return WSAENOBUFS;
			}
			memset(n + nslots, 0, (nslots + 16) * sizeof(*n));
			slots = n;
			nslots = nslots * 2 + 16;
		}
		slots[i].s = s;
		slots[i].gen++;
		object_ref(&s->obj);
		s->io_slot = i;
		kunlock(&io_lock);
	}
	if (want == s->io_interest && (s->in_epoll || !want))
		return 0;
	ev.events = want;
	if (s->io_slot >= 0) {
		klock(&io_lock);
		ev.data.u64 = (uint64_t)slots[s->io_slot].gen << 32 | (uint32_t)s->io_slot;
		kunlock(&io_lock);
	}
	/* Interest 0 leaves epoll entirely: it would still report HUP. */
	if (!want) {
		if (s->in_epoll)
			epoll_ctl(epfd, EPOLL_CTL_DEL, s->fd, NULL);
		s->in_epoll = false;
	} else if (s->in_epoll) {
		if (epoll_ctl(epfd, EPOLL_CTL_MOD, s->fd, &ev) < 0)
			return wsa_error_from_errno(errno);
	} else {
		if (epoll_ctl(epfd, EPOLL_CTL_ADD, s->fd, &ev) < 0)
			return wsa_error_from_errno(errno);
		s->in_epoll = true;
	}
	s->io_interest = want;
	return 0;
}

void ws_io_forget(struct ws_socket *s)
{
	int slot;

	klock(&s->lock);
	slot = s->io_slot;
	s->io_slot = -1;
	if (s->in_epoll)
		epoll_ctl(epfd, EPOLL_CTL_DEL, s->fd, NULL);
	s->in_epoll = false;
	s->io_interest = 0;
	kunlock(&s->lock);
	if (slot < 0)
		return;
	klock(&io_lock);
	slots[slot].s = NULL;
	kunlock(&io_lock);
	object_unref(&s->obj);
}

static int socket_error(struct ws_socket *s)
{
	int e = 0;
	socklen_t l = sizeof(e);

	if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &e, &l) < 0)
		e = errno;
	return e;
}

static void handle_socket(struct ws_socket *s, uint32_t ev)
{
	struct list done;
	int n;

	list_init(&done);
	klock(&s->lock);
	if (s->closed) {
		kunlock(&s->lock);
		return;
	}
	if (ev & (EPOLLIN | EPOLLPRI | EPOLLHUP | EPOLLERR | EPOLLRDHUP))
		ws_process_queue_locked(s, &s->reads, &done);
	if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR))
		ws_process_queue_locked(s, &s->writes, &done);
	if (s->connecting && (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR))) {
		int e = socket_error(s);

		s->connecting = false;
		s->connected = !e;
		ws_record_events_locked(s, FD_CONNECT, wsa_error_from_errno(e));
	}
	if (s->listening && (ev & EPOLLIN)) {
		ws_record_events_locked(s, FD_ACCEPT, 0);
	} else if (s->connected || s->type == WS_SOCK_DGRAM) {
		if ((ev & EPOLLIN) && !ioctl(s->fd, FIONREAD, &n) && n > 0)
			ws_record_events_locked(s, FD_READ, 0);
		if (ev & EPOLLPRI)
			ws_record_events_locked(s, FD_OOB, 0);
		if (ev & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
			int e = socket_error(s);

			if (!(ev & EPOLLIN) || ioctl(s->fd, FIONREAD, &n) || n == 0)
				s->eof = true;
			ws_record_events_locked(s, FD_CLOSE, e ? wsa_error_from_errno(e) : 0);
		}
		if (ev & EPOLLOUT)
			ws_record_events_locked(s, FD_WRITE, 0);
	}
	ws_io_update_locked(s);
	kunlock(&s->lock);
	ws_complete_list(&done);
}

/* ---- address changes ---------------------------------------------------- */
int ws_io_queue_addr_change(struct ws_request *r)
{
	if (!ws_io_start())
		return WSASYSNOTREADY;
	klock(&io_lock);
	list_add_tail(&addr_waiters, &r->entry);
	kunlock(&io_lock);
	return 0;
}

void ws_io_cancel_addr_change(struct ws_socket *s)
{
	struct list cancelled, *cur, *next;

	list_init(&cancelled);
	klock(&io_lock);
	LIST_FOR_EACH_SAFE(cur, next, &addr_waiters) {
		struct ws_request *r = LIST_ENTRY(cur, struct ws_request, entry);

		if (r->target == s) {
			list_remove(cur);
			list_add_tail(&cancelled, cur);
		}
	}
	kunlock(&io_lock);
	while (!list_empty(&cancelled)) {
		struct ws_request *r = LIST_ENTRY(cancelled.next, struct ws_request, entry);

		list_remove(&r->entry);
		ws_request_complete(r, WSA_OPERATION_ABORTED, 0, false);
	}
}

static void handle_netlink(void)
{
	char buf[8192];
	bool changed = false;
	struct list done;
	ssize_t n;

	while ((n = recv(nlfd, buf, sizeof(buf), 0)) > 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n))
			if (h->nlmsg_type == RTM_NEWADDR || h->nlmsg_type == RTM_DELADDR)
				changed = true;
	}
	if (!changed)
		return;
	TRACE(winsock, "address list changed\n");
	list_init(&done);
	klock(&io_lock);
	ws_list_move(&done, &addr_waiters);
	kunlock(&io_lock);
	while (!list_empty(&done)) {
		struct ws_request *r = LIST_ENTRY(done.next, struct ws_request, entry);

		list_remove(&r->entry);
		ws_request_complete(r, 0, 0, false);
	}
}
