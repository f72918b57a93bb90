/* A CQ as a wake source of ndrun's completion port (unix_call.h,
 * nd_unix_host.wake_attach; ndrun's core/iocp.h, "Wake sources").
 *
 * A blocking client arms the CQ with Notify and sleeps in
 * GetQueuedCompletionStatus.  Through the event thread, each message
 * costs two wake-ups: the kernel wakes the event thread on the
 * completion channel, which completes the Notify into the port and
 * wakes the client.  Attached to the port, the CQ lets a client thread
 * that blocks there alone poll the channel itself and run the event
 * thread's handler on its own stack: one wake-up, as with
 * ibv_get_cq_event.
 *
 * The waiter sleeps in epoll_wait() on the port's epoll, which holds the
 * channel with EPOLLEXCLUSIVE; its first claim moves the event thread's
 * watch of the channel behind that one, also exclusive.  The kernel
 * then wakes the sleeping waiter alone for an event, and the event
 * thread whenever no waiter sleeps there: no system call per wait
 * hands the channel back and forth.  Both run the same handler under
 * nd_ev_lock with a non-blocking channel, so an event that both saw is
 * read once and the other finds nothing.  nd_ev_lock is also what makes
 * the handler safe against cq_destroy (ibv_destroy_cq waits for every
 * read event to be acknowledged; it runs under that lock and marks src
 * dead).
 *
 * Lifetime: wake_refs counts the CQ's own reference (dropped by
 * cq_destroy), the port's while attached and a polling waiter's; the
 * last one hands the memory to nd_ev_defer_free, as cq_destroy did
 * before. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nd_unix.h"

/* wake_att once the CQ will never attach (destroyed, or turned off). */
static char never;

static bool wake_claim(void *ctx)
{
	struct nd_cq *cq = ctx;
	bool ok;

	pthread_mutex_lock(&nd_ev_lock);
	ok = !cq->src.dead;
	/* Once per CQ: the port's epoll holds the channel by now.  Should it
	 * fail, both are woken for each event: one wake-up too many, still
	 * read once. */
	if (ok && !cq->wake_behind) {
		if (nd_ev_watch_behind(&cq->src))
			nd_log("epoll_ctl: errno %d: a CQ's events wake the event thread too", errno);
		cq->wake_behind = true;
	}
	pthread_mutex_unlock(&nd_ev_lock);
	return ok;
}

/* The event thread's handler, on the waiter's thread. */
static bool wake_drain(void *ctx)
{
	struct nd_cq *cq = ctx;
	bool live;

	pthread_mutex_lock(&nd_ev_lock);
	live = !cq->src.dead;
	if (live)
		cq->src.handler(&cq->src);
	pthread_mutex_unlock(&nd_ev_lock);
	return live;
}

static void wake_hold(void *ctx)
{
	struct nd_cq *cq = ctx;

	__atomic_fetch_add(&cq->wake_refs, 1, __ATOMIC_RELAXED);
}

static void wake_release(void *ctx)
{
	struct nd_cq *cq = ctx;

	if (__atomic_fetch_sub(&cq->wake_refs, 1, __ATOMIC_ACQ_REL) == 1)
		nd_ev_defer_free(cq);
}

static const struct nd_unix_wake_ops wake_ops = {
	.claim = wake_claim,
	.unclaim = NULL,	/* the event thread never stopped watching */
	.drain = wake_drain,
	.hold = wake_hold,
	.release = wake_release,
};

/* NDSHIM_ND_DIRECT_WAIT=0 leaves every CQ event to the event thread
 * (for comparing the two paths); read once. */
static bool direct_wait_enabled(void)
{
	static int enabled = -1;
	int e = __atomic_load_n(&enabled, __ATOMIC_RELAXED);

	if (e < 0) {
		const char *v = getenv("NDSHIM_ND_DIRECT_WAIT");

		e = !(v && strcmp(v, "0") == 0);
		__atomic_store_n(&enabled, e, __ATOMIC_RELAXED);
	}
	return e;
}

void nd_cq_wake_attach(struct nd_cq *cq, const struct nd_unix_ov *ov)
{
	if (!direct_wait_enabled()) {
		cq->wake_att = &never;
		return;
	}
	/* NULL while the file has no port: the next Notify tries again. */
	cq->wake_att = nd_wake_attach(ov->file, cq->channel->fd, &wake_ops, cq);
}

void nd_cq_wake_detach(struct nd_cq *cq)
{
	void *att;

	pthread_mutex_lock(&cq->lock);
	att = cq->wake_att;
	cq->wake_att = &never;
	pthread_mutex_unlock(&cq->lock);
	if (att && att != &never)
		nd_wake_detach(att);
}

void nd_cq_wake_put(struct nd_cq *cq)
{
	nd_cq_wake_detach(cq);
	wake_release(cq);
}
