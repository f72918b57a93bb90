/* The one event thread per process: epoll over the rdma_cm channel, each
 * CQ's completion channel, each adapter's async-event fd and an eventfd for
 * internal wake-ups.  Handlers run with nd_ev_lock held; object locks are
 * taken after it, never before. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "nd_unix.h"

pthread_mutex_t nd_ev_lock = PTHREAD_MUTEX_INITIALIZER;
static int epfd = -1;
static struct nd_ev_source wake_src;
static struct rdma_event_channel *cm_channel;
static struct nd_ev_source cm_src;

struct deferred {
	struct deferred *next;
	void *p;
};
static struct deferred *deferred;	/* under nd_ev_lock */

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int nd_ev_add(struct nd_ev_source *src)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = src };

	src->dead = false;
	if (set_nonblock(src->fd))
		return -1;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, src->fd, &e);
}

void nd_ev_remove(struct nd_ev_source *src)
{
	epoll_ctl(epfd, EPOLL_CTL_DEL, src->fd, NULL);
	src->dead = true;
}

int nd_ev_watch_behind(struct nd_ev_source *src)
{
	struct epoll_event e = { .events = EPOLLIN | EPOLLEXCLUSIVE, .data.ptr = src };

	/* The fd's wait queue wakes exclusive watchers in the order they
	 * were added, so ours goes to the end: DEL and ADD (EPOLL_CTL_MOD
	 * cannot set EPOLLEXCLUSIVE).  ADD checks the fd's readiness, so an
	 * event that came in between is not missed. */
	if (epoll_ctl(epfd, EPOLL_CTL_DEL, src->fd, NULL))
		return -1;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, src->fd, &e) == 0)
		return 0;
	e.events = EPOLLIN;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, src->fd, &e))
		nd_log("epoll_ctl: errno %d: the event thread no longer watches a CQ", errno);
	return -1;
}

void nd_ev_defer_free(void *p)
{
	struct deferred *d = malloc(sizeof(*d));
	uint64_t one = 1;

	if (!d) {
		/* Leaking is safer than freeing under the event thread's feet. */
		nd_log("out of memory: leaking %p", p);
		return;
	}
	d->p = p;
	pthread_mutex_lock(&nd_ev_lock);
	d->next = deferred;
	deferred = d;
	pthread_mutex_unlock(&nd_ev_lock);
	if (write(wake_src.fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		nd_log("eventfd write: errno %d", errno);
}

static void wake_handler(struct nd_ev_source *src)
{
	uint64_t v;

	while (read(src->fd, &v, sizeof(v)) > 0)
		;
}

static void cm_handler(struct nd_ev_source *src)
{
	struct rdma_cm_event *ev;

	while (rdma_get_cm_event(cm_channel, &ev) == 0) {
		struct nd_obj *o = ev->id->context;

		/* For a connection request, id is the new id and context the
		 * listener's (inherited). */
		if (o && o->kind == ND_KIND_CONNECTOR)
			nd_connector_cm_event((struct nd_connector *)o, ev);
		else if (o && o->kind == ND_KIND_LISTENER)
			nd_listener_cm_event((struct nd_listener *)o, ev);
		else
			rdma_ack_cm_event(ev);
	}
}

/* Lock-free once created: callers may hold nd_ev_lock. */
struct rdma_event_channel *nd_cm_channel(void)
{
	struct rdma_event_channel *ch = __atomic_load_n(&cm_channel, __ATOMIC_ACQUIRE);

	if (ch)
		return ch;
	pthread_mutex_lock(&nd_ev_lock);
	if (!cm_channel) {
		ch = rdma_create_event_channel();
		if (ch) {
			cm_src.fd = ch->fd;
			cm_src.handler = cm_handler;
			if (nd_ev_add(&cm_src)) {
				rdma_destroy_event_channel(ch);
				ch = NULL;
			}
		}
		__atomic_store_n(&cm_channel, ch, __ATOMIC_RELEASE);
	}
	ch = cm_channel;
	pthread_mutex_unlock(&nd_ev_lock);
	return ch;
}

static void *ev_thread(void *arg)
{
	struct epoll_event evs[16];

	for (;;) {
		int i, n = epoll_wait(epfd, evs, 16, -1);

		if (n < 0 && errno != EINTR) {
			nd_log("epoll_wait: errno %d; event thread stops", errno);
			return NULL;
		}
		pthread_mutex_lock(&nd_ev_lock);
		for (i = 0; i < n; i++) {
			struct nd_ev_source *src = evs[i].data.ptr;
			if (!src->dead)
				src->handler(src);
		}
		/* No event of this batch can point at these any more. */
		while (deferred) {
			struct deferred *d = deferred;
			deferred = d->next;
			free(d->p);
			free(d);
		}
		pthread_mutex_unlock(&nd_ev_lock);
	}
}

int nd_ev_start(void)
{
	pthread_t t;
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		return -1;
	wake_src.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	wake_src.handler = wake_handler;
	if (wake_src.fd < 0 || nd_ev_add(&wake_src))
		return -1;
	/* The thread takes no signals: the PE program's handlers expect its
	 * own threads only. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &attr, ev_thread, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc ? -1 : 0;
}
