#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/handle.h"
#include "core/iocp.h"
#include "core/iocp_fast.h"
#include "core/iocp_remote.h"
#include "core/klock.h"
#include "core/thread.h"
#include "core/wait.h"

/* A blocked GetQueuedCompletionStatus, on the waiter's stack.  state is
 * the futex word: BLOCKED while listed on the port; SLEEPING the same,
 * once the waiter announced (itself, without the lock) that it sleeps or
 * is about to; then GOT, ALERTED, CLOSED or TIMED_OUT, set under the port
 * lock by whoever ends the wait (a poster handing packets, Close, an APC
 * queuer, the waiter itself on timeout), which unlists the waiter first.
 * The ender touches nothing of the waiter after that exchange and wakes
 * it (only if it sleeps) after dropping the port lock; the waiter, woken,
 * finds its packets and leaves without retaking the lock.  POLLING is
 * SLEEPING for a waiter in epoll_wait() on the port's wake sources (see
 * iocp.h): its ender writes the port's wake eventfd instead. */
enum { BLOCKED, SLEEPING, POLLING, GOT, ALERTED, CLOSED, TIMED_OUT };

struct port_waiter {
	struct list entry; /* in port->waiters while listed; port lock */
	_Atomic uint32_t state;
	struct iocp *port;
	OVERLAPPED_ENTRY *entries;
	ULONG max, got;
};

struct iocp_source {
	struct list entry; /* in port->sources; port lock */
	struct iocp *port; /* referenced */
	int fd;
	bool in_ep; /* fd is in port->ep_fd; port lock */
	const struct iocp_source_ops *ops;
	void *ctx;
};

static struct iocp *to_iocp(struct object *obj) { return container_of(obj, struct iocp, obj); }

__thread struct iocp_self iocp_self;

/* Threads ndshim did not create (an ND provider's event thread, test
 * threads) leave their port through this key's destructor. */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void exit_key_destructor(void *value)
{
	iocp_thread_exit();
}

static void exit_key_init(void)
{
	pthread_key_create(&exit_key, exit_key_destructor);
}

/* The calling thread becomes active on port (whose reference it owns). */
static void activate(struct iocp *port)
{
	iocp_self.port = port;
	if (iocp_self.exit_key_set)
		return;
	pthread_once(&exit_key_once, exit_key_init);
	pthread_setspecific(exit_key, port);
	iocp_self.exit_key_set = true;
}

void __attribute__((ms_abi, noinline)) iocp_free_packet(struct packet *p)
{
	free(p);
}

static bool still_waiting(uint32_t state)
{
	return state == BLOCKED || state == SLEEPING || state == POLLING;
}

/* Port lock held: wakes the port's polling waiter.  Done at once, not
 * after the lock as futex wakes are (struct futex_wakes holds futex
 * words only); ND ports only. */
static void poke_locked(struct iocp *port)
{
	uint64_t one = 1;

	if (write(port->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		TRACE(iocp, "port %p: wake eventfd write: errno %d\n", (void *)port, errno);
}

/* Port lock held, w unlisted: ends w's wait with state.  Its wake, if it
 * sleeps, goes to wakes, for after the port lock is dropped. */
static void end_wait_locked(struct port_waiter *w, uint32_t state, struct futex_wakes *wakes)
{
	uint32_t old = atomic_exchange_explicit(&w->state, state, memory_order_release);

	if (old == SLEEPING)
		futex_wake_later(wakes, &w->state);
	else if (__builtin_expect(old == POLLING, 0))
		poke_locked(w->port);
}

/* Port lock held.  The most recent waiter, unlisted; NULL if none.
 * Listed waiters are all still waiting. */
static struct port_waiter *claim_waiter_locked(struct iocp *port)
{
	struct port_waiter *w;

	if (list_empty(&port->waiters))
		return NULL;
	w = LIST_ENTRY(port->waiters.next, struct port_waiter, entry);
	list_remove(&w->entry);
	return w;
}

/* Port lock held.  Hands queued packets to waiters while the concurrency
 * limit allows. */
static void release_locked(struct iocp *port, struct futex_wakes *wakes)
{
	struct port_waiter *w;

	while (port->head && port->active < port->concurrency && (w = claim_waiter_locked(port))) {
		w->got = iocp_take_locked(port, w->entries, w->max);
		port->active++;
		end_wait_locked(w, GOT, wakes);
	}
}

/* The calling thread stops being active on port (whose reference it
 * held); a waiter may take its place. */
static void deactivate(struct iocp *port, bool counted)
{
	struct futex_wakes wakes = { .n = 0 };

	kblock(&port->lock);
	if (counted)
		port->active--;
	release_locked(port, &wakes);
	kbunlock_wake(&port->lock, &wakes);
	object_unref(&port->obj);
}

void iocp_thread_block(void)
{
	if (!iocp_self.port || iocp_self.paused)
		return;
	iocp_self.paused = true;
	object_ref(&iocp_self.port->obj);
	deactivate(iocp_self.port, true);
}

void iocp_thread_unblock(void)
{
	if (!iocp_self.port || !iocp_self.paused)
		return;
	kblock(&iocp_self.port->lock);
	iocp_self.port->active++;
	kbunlock(&iocp_self.port->lock);
	iocp_self.paused = false;
}

void iocp_thread_exit(void)
{
	struct iocp *port = iocp_self.port;

	if (!port)
		return;
	iocp_self.port = NULL;
	deactivate(port, !iocp_self.paused);
	iocp_self.paused = false;
}

struct object *iocp_get(HANDLE h, bool *borrowed)
{
	unsigned long closes = atomic_load_explicit(&handle_closes, memory_order_acquire);
	struct iocp *port = iocp_own_port(h);
	struct object *obj;

	if (port) {
		*borrowed = true;
		return &port->obj;
	}
	*borrowed = false;
	obj = handle_get(h, &iocp_ops);
	if (obj && to_iocp(obj) == iocp_self.port) {
		iocp_self.handle = h;
		iocp_self.handle_port = iocp_self.port;
		iocp_self.handle_closes = closes;
	}
	return obj;
}

void iocp_put(struct object *port, bool borrowed)
{
	if (!borrowed)
		object_unref(port);
}

void iocp_alert_locked(struct port_waiter *w)
{
	struct futex_wakes wakes = { .n = 0 };

	/* w stays valid: its owner clears alertable_port_wait under the
	 * wait lock, which we hold, before it leaves. */
	kblock(&w->port->lock);
	if (still_waiting(atomic_load_explicit(&w->state, memory_order_relaxed))) {
		list_remove(&w->entry);
		end_wait_locked(w, ALERTED, &wakes);
	}
	kbunlock_wake(&w->port->lock, &wakes);
}

bool iocp_post(struct object *obj, ULONG_PTR key, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info)
{
	struct iocp *port = to_iocp(obj);
	struct futex_wakes wakes = { .n = 0 };
	struct port_waiter *w;
	struct packet *p;

	kblock(&port->lock);
	if (port->closed) {
		/* Nobody can ever dequeue it. */
		kbunlock(&port->lock);
		return true;
	}
	/* Straight to the most recent waiter when the queue is empty. */
	if (!port->head && port->active < port->concurrency && (w = claim_waiter_locked(port))) {
		w->entries[0].lpCompletionKey = key;
		w->entries[0].lpOverlapped = ov;
		w->entries[0].Internal = (ULONG_PTR)(ULONG)status;
		w->entries[0].dwNumberOfBytesTransferred = (DWORD)info;
		w->got = 1;
		port->active++;
		end_wait_locked(w, GOT, &wakes);
		kbunlock_wake(&port->lock, &wakes);
		return true;
	}
	if (port->cache) {
		p = port->cache;
		port->cache = p->next;
		port->cached--;
	} else if (!(p = malloc(sizeof(*p)))) {
		kbunlock(&port->lock);
		return false;
	}
	iocp_queue_locked(port, p, key, ov, status, info);
	/* Waiters held back by the limit stay so: the queue only grew. */
	kbunlock(&port->lock);
	return true;
}

/* The waiter's own timeout: not ended by anyone by the deadline, so
 * under the lock nobody can end it now.  Returns the final state. */
static uint32_t time_out(struct iocp *port, struct port_waiter *w)
{
	uint32_t s;

	kblock(&port->lock);
	s = atomic_load_explicit(&w->state, memory_order_relaxed);
	if (still_waiting(s)) {
		list_remove(&w->entry);
		/* So that an APC queuer, which may still find w, leaves it
		 * alone. */
		s = TIMED_OUT;
		atomic_store_explicit(&w->state, s, memory_order_relaxed);
	}
	kbunlock(&port->lock);
	return s;
}

/* Sleeps on w's futex until its wait ends; the final state. */
static uint32_t wait_futex(struct iocp *port, struct port_waiter *w, const struct timespec *deadline)
{
	uint32_t s;

	for (;;) {
		int err;

		s = BLOCKED;
		if (!atomic_compare_exchange_strong_explicit(&w->state, &s, SLEEPING, memory_order_acquire,
							     memory_order_acquire) &&
		    !still_waiting(s))
			return s;
		err = futex_wait(&w->state, SLEEPING, deadline);
		s = atomic_load_explicit(&w->state, memory_order_acquire);
		if (!still_waiting(s))
			return s;
		if (err == ETIMEDOUT)
			return time_out(port, w);
	}
}

/* What a polling waiter took from the port's sources (see iocp.h). */
struct polled {
	unsigned int n;
	const struct iocp_source_ops *ops[IOCP_SOURCES_MAX];
	void *ctx[IOCP_SOURCES_MAX];
	bool claimed[IOCP_SOURCES_MAX];
	bool live[IOCP_SOURCES_MAX]; /* still drained when epoll reports it */
};

/* Port lock held: puts src's fd in the port's epoll, once per source.
 * EPOLLEXCLUSIVE: the fd's wake-up goes to the first exclusive watcher
 * with a thread asleep in it, so to this port's waiter while it sleeps
 * there, to the source's own reader (whose watch the claim moves behind
 * this one) otherwise. */
static bool source_in_ep_locked(struct iocp *port, struct iocp_source *src)
{
	struct epoll_event e = { .events = EPOLLIN | EPOLLEXCLUSIVE, .data.ptr = src->ctx };

	if (!src->in_ep && epoll_ctl(port->ep_fd, EPOLL_CTL_ADD, src->fd, &e) == 0)
		src->in_ep = true;
	return src->in_ep;
}

/* Port lock held, w about to be listed: whether w may poll the port's
 * sources, and if so takes them (a reference on each) into pl.  Only a
 * lone waiter polls: with several, packets go to the most recent one,
 * which a poller's drain reaches through the port as usual. */
static bool take_sources_locked(struct iocp *port, struct polled *pl)
{
	struct list *cur;

	if (port->polled || port->n_sources > IOCP_SOURCES_MAX || !list_empty(&port->waiters) ||
	    port->ep_fd < 0)
		return false;
	LIST_FOR_EACH(cur, &port->sources) {
		if (!source_in_ep_locked(port, LIST_ENTRY(cur, struct iocp_source, entry)))
			return false; /* the futex then; the reader serves it */
	}
	port->polled = true;
	pl->n = 0;
	LIST_FOR_EACH(cur, &port->sources) {
		struct iocp_source *src = LIST_ENTRY(cur, struct iocp_source, entry);

		src->ops->hold(src->ctx);
		pl->ops[pl->n] = src->ops;
		pl->ctx[pl->n] = src->ctx;
		pl->claimed[pl->n] = false;
		pl->live[pl->n] = false;
		pl->n++;
	}
	return true;
}

/* Milliseconds until deadline for epoll_wait(), rounded up; -1 for none. */
static int poll_timeout(const struct timespec *deadline)
{
	struct timespec now;
	long long ns;

	if (!deadline)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (deadline->tv_sec - now.tv_sec) * 1000000000LL + (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	return ns / 1000000 >= INT_MAX ? INT_MAX : (int)((ns + 999999) / 1000000);
}

/* Sleeps in epoll_wait() on the port's epoll (its wake eventfd and the
 * sources' fds) until w's wait ends, draining a source that becomes
 * readable; the final state.
 *
 * Why nothing is lost: the sources' fds are in the port's epoll with
 * EPOLLEXCLUSIVE ahead of their reader's (claim sees to that), so the
 * kernel hands a readiness to this thread alone while it sleeps in
 * epoll_wait(), and to the reader whenever it does not (the reader
 * then completes into the port, which ends w's wait like any post:
 * POLLING → the eventfd).  So whatever epoll_wait() reports is drained
 * here, even when w's wait ended meanwhile: the reader was not told.  w
 * goes back to BLOCKED before it drains, so its own posts need no
 * eventfd write, and to POLLING before it sleeps, so an ender either
 * sees POLLING and writes, or ended the wait before and the
 * compare-exchange fails.  No system call claims or gives back a
 * source per wait: the kernel's choice of whom to wake does it. */
static __attribute__((noinline)) uint32_t wait_polling(struct iocp *port, struct port_waiter *w,
							struct polled *pl, const struct timespec *deadline)
{
	struct epoll_event evs[1 + IOCP_SOURCES_MAX];
	unsigned int i;
	uint32_t s;

	for (i = 0; i < pl->n; i++)
		pl->live[i] = pl->claimed[i] = pl->ops[i]->claim(pl->ctx[i]);
	for (;;) {
		bool ended;
		int n, k, tmo;

		s = BLOCKED;
		if (!atomic_compare_exchange_strong_explicit(&w->state, &s, POLLING, memory_order_acquire,
							     memory_order_acquire) &&
		    !still_waiting(s))
			break;
		tmo = poll_timeout(deadline);
		n = tmo ? epoll_wait(port->ep_fd, evs, 1 + IOCP_SOURCES_MAX, tmo) : 0;
		s = POLLING;
		ended = !atomic_compare_exchange_strong_explicit(&w->state, &s, BLOCKED, memory_order_acquire,
								 memory_order_acquire);
		for (k = 0; k < n; k++) {
			uint64_t v;

			if (evs[k].data.ptr == port) {
				/* A stale write (for an earlier waiter) only
				 * costs a turn of this loop. */
				if (read(port->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
					TRACE(iocp, "port %p: wake eventfd read: errno %d\n", (void *)port, errno);
				continue;
			}
			for (i = 0; i < pl->n && pl->ctx[i] != evs[k].data.ptr; i++)
				;
			if (i == pl->n || !pl->live[i])
				continue;
			TRACE(iocp, "port %p: draining source %p on the waiter's thread\n", (void *)port, pl->ctx[i]);
			/* Gone, or an fd in error, which would report at once
			 * forever: no longer ours to drain (a gone source is
			 * detached, which takes its fd out of the epoll). */
			if (!pl->ops[i]->drain(pl->ctx[i]) || (evs[k].events & (EPOLLERR | EPOLLHUP)))
				pl->live[i] = false;
		}
		if (ended)
			break; /* s is final */
		if (!tmo) {
			s = time_out(port, w);
			if (!still_waiting(s))
				break;
		}
	}
	for (i = 0; i < pl->n; i++) {
		if (pl->claimed[i] && pl->ops[i]->unclaim)
			pl->ops[i]->unclaim(pl->ctx[i]);
		pl->ops[i]->release(pl->ctx[i]);
	}
	kblock(&port->lock);
	port->polled = false;
	kbunlock(&port->lock);
	return s;
}

DWORD iocp_remove(struct object *obj, OVERLAPPED_ENTRY *entries, ULONG max, ULONG *removed,
		  DWORD timeout, bool alertable)
{
	struct iocp *port = to_iocp(obj);
	struct thread *self = alertable ? thread_current() : NULL;
	struct iocp *dropped = NULL;
	struct timespec deadline;
	struct port_waiter w;
	struct polled pl;
	bool polling;
	DWORD result;
	uint32_t s;

	*removed = 0;
	/* Calling in again ends the thread's activity on its last port. */
	if (iocp_self.port && iocp_self.port != port) {
		struct iocp *old = iocp_self.port;

		iocp_self.port = NULL;
		deactivate(old, true);
	}
	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);

	/* An APC queuer must see either our pending APC check or our
	 * listed alertable wait: both under the wait lock. */
	if (self)
		wait_lock();
	kblock(&port->lock);
	if (iocp_self.port == port) {
		port->active--;
		dropped = port;
		iocp_self.port = NULL;
	}
	if (port->head && port->active < port->concurrency) {
		*removed = iocp_take_locked(port, entries, max);
		port->active++;
		if (dropped) {
			activate(dropped); /* keeps its reference */
			dropped = NULL;
		} else {
			activate(to_iocp(object_ref(&port->obj)));
		}
		result = WAIT_OBJECT_0;
		goto unlock;
	}
	if (port->closed) {
		result = WAIT_ABANDONED_0;
		goto unlock;
	}
	if (self && apc_pending_locked(self)) {
		result = WAIT_IO_COMPLETION;
		goto unlock;
	}
	if (!timeout) {
		result = WAIT_TIMEOUT;
		goto unlock;
	}
	w.port = port;
	w.entries = entries;
	w.max = max;
	w.got = 0;
	atomic_init(&w.state, BLOCKED);
	polling = __builtin_expect(port->n_sources != 0, 0) && take_sources_locked(port, &pl);
	list_add_head(&port->waiters, &w.entry);
	if (self)
		self->alertable_port_wait = &w;
	kbunlock(&port->lock);
	if (self)
		wait_unlock();

	if (__builtin_expect(polling, 0))
		s = wait_polling(port, &w, &pl, timeout == INFINITE ? NULL : &deadline);
	else
		s = wait_futex(port, &w, timeout == INFINITE ? NULL : &deadline);
	/* An APC queuer may still look at w until this is cleared. */
	if (self) {
		wait_lock();
		self->alertable_port_wait = NULL;
		wait_unlock();
	}
	switch (s) {
	case GOT:
		*removed = w.got;
		/* The reference we dropped activity with, or a new one. */
		activate(dropped ? dropped : to_iocp(object_ref(&port->obj)));
		dropped = NULL;
		result = WAIT_OBJECT_0;
		break;
	case ALERTED:
		result = WAIT_IO_COMPLETION;
		break;
	case CLOSED:
		result = WAIT_ABANDONED_0;
		break;
	default:
		result = WAIT_TIMEOUT;
		break;
	}
	if (dropped)
		object_unref(&dropped->obj);
	goto out;

unlock:
	kbunlock(&port->lock);
	if (self)
		wait_unlock();
	if (dropped)
		object_unref(&dropped->obj);
out:
	if (result == WAIT_IO_COMPLETION)
		apc_run_pending(self);
	return result;
}

static void iocp_close_handle(struct object *obj, unsigned int handles_left)
{
	struct iocp *port = to_iocp(obj);
	struct futex_wakes wakes = { .n = 0 };
	struct iocp_channel *ch;
	struct port_waiter *w;

	if (handles_left)
		return;
	/* Every waiter fails with ERROR_ABANDONED_WAIT_0. */
	kblock(&port->lock);
	port->closed = true;
	while ((w = claim_waiter_locked(port)))
		end_wait_locked(w, CLOSED, &wakes);
	ch = port->channel;
	kbunlock_wake(&port->lock, &wakes);
	/* Its reader leaves and drops the reference it held. */
	if (ch)
		iocp_channel_stop(ch);
	TRACE(iocp, "port %p closed, %u packets dropped\n", (void *)port, port->queued);
}

static void iocp_destroy(struct object *obj)
{
	struct iocp *port = to_iocp(obj);
	struct packet *p, *next;

	for (p = port->head; p; p = next) {
		next = p->next;
		free(p);
	}
	for (p = port->cache; p; p = next) {
		next = p->next;
		free(p);
	}
	if (port->ep_fd >= 0)
		close(port->ep_fd);
	if (port->wake_fd >= 0)
		close(port->wake_fd);
	if (port->channel)
		iocp_channel_free(port->channel);
	free(port);
}

const struct object_ops iocp_ops = {
	.type_name = "iocp",
	.close_handle = iocp_close_handle,
	.destroy = iocp_destroy,
};

struct object *iocp_create(DWORD concurrency)
{
	struct iocp *port = calloc(1, sizeof(*port));

	if (!port) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&port->obj, &iocp_ops);
	bias_lock_init(&port->lock);
	list_init(&port->waiters);
	list_init(&port->sources);
	port->wake_fd = port->ep_fd = -1;
	if (!concurrency) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		concurrency = n > 0 ? (DWORD)n : 1;
	}
	port->concurrency = concurrency;
	TRACE(iocp, "port %p, concurrency %u\n", (void *)port, concurrency);
	return &port->obj;
}

bool iocp_channel_peek(struct object *obj, struct iocp_channel **ch)
{
	struct iocp *port = to_iocp(obj);
	bool open;

	kblock(&port->lock);
	open = !port->closed;
	*ch = port->channel;
	kbunlock(&port->lock);
	if (!open)
		SetLastError(ERROR_INVALID_HANDLE);
	return open;
}

bool iocp_channel_set(struct object *obj, struct iocp_channel *ch)
{
	struct iocp *port = to_iocp(obj);
	bool open;

	kblock(&port->lock);
	open = !port->closed && !port->channel;
	if (open)
		port->channel = ch;
	kbunlock(&port->lock);
	if (!open)
		SetLastError(ERROR_INVALID_HANDLE);
	return open;
}

void iocp_get_counts(struct object *obj, unsigned int *waiters, unsigned int *active,
		     unsigned int *queued)
{
	struct iocp *port = to_iocp(obj);
	struct list *cur;
	unsigned int n = 0;

	kblock(&port->lock);
	LIST_FOR_EACH(cur, &port->waiters)
		n++;
	if (waiters)
		*waiters = n;
	if (active)
		*active = port->active;
	if (queued)
		*queued = port->queued;
	kbunlock(&port->lock);
}

/* Port lock held: the wake eventfd and the epoll a polling waiter
 * sleeps in, once per port.  The port itself marks the eventfd's
 * events (a source's are its ctx, which may be anything, NULL too). */
static bool make_ep_locked(struct iocp *port)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = port };

	if (port->wake_fd < 0)
		port->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (port->wake_fd < 0)
		return false;
	port->ep_fd = epoll_create1(EPOLL_CLOEXEC);
	if (port->ep_fd >= 0 && epoll_ctl(port->ep_fd, EPOLL_CTL_ADD, port->wake_fd, &e) == 0)
		return true;
	if (port->ep_fd >= 0)
		close(port->ep_fd);
	port->ep_fd = -1;
	return false;
}

struct iocp_source *iocp_source_attach(struct object *obj, int fd, const struct iocp_source_ops *ops, void *ctx)
{
	struct iocp *port = to_iocp(obj);
	struct iocp_source *src = malloc(sizeof(*src));

	if (!src)
		return NULL;
	src->fd = fd;
	src->in_ep = false;
	src->ops = ops;
	src->ctx = ctx;
	kblock(&port->lock);
	if (port->closed || (port->ep_fd < 0 && !make_ep_locked(port))) {
		kbunlock(&port->lock);
		free(src);
		return NULL;
	}
	src->port = to_iocp(object_ref(&port->obj));
	ops->hold(ctx);
	list_add_tail(&port->sources, &src->entry);
	port->n_sources++;
	kbunlock(&port->lock);
	TRACE(iocp, "port %p: source %p (fd %d), %u attached\n", (void *)port, ctx, fd, port->n_sources);
	return src;
}

void iocp_source_detach(struct iocp_source *src)
{
	struct iocp *port = src->port;

	kblock(&port->lock);
	list_remove(&src->entry);
	port->n_sources--;
	/* Its owner closes fd after this, not before (iocp.h): the fd
	 * still names the source's file here. */
	if (src->in_ep && epoll_ctl(port->ep_fd, EPOLL_CTL_DEL, src->fd, NULL))
		TRACE(iocp, "port %p: epoll_ctl DEL fd %d: errno %d\n", (void *)port, src->fd, errno);
	kbunlock(&port->lock);
	src->ops->release(src->ctx);
	object_unref(&port->obj);
	free(src);
}
