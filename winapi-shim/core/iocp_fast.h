/* The completion port's common cases, inline, for the ms_abi exports of
 * kernel32/ioapiset.c: a thread that dequeues from and posts to the port
 * it is active on (a worker looping on its port) while a packet is
 * queued, or with nobody waiting for the one it posts.
 *
 * Nothing here calls System V code: the port lock is a bias_lock (no
 * locked instruction at all for a port one thread uses, a futex_lock's
 * one per lock and unlock otherwise: core/biaslock.h) and the suspension
 * bookkeeping inline (core/klock.h); every rarer case
 * (another port, an empty queue, a waiter to hand a packet to, no spare
 * packet) returns "not done" before changing anything, and the caller
 * goes through iocp_get/iocp_remove/iocp_post, which decide it all
 * again.  So an export that inlines these needs no xmm6-xmm15 saves on
 * its common path (core/futexlock.h), and behaves as the slow path does:
 * taking a queued packet ends the thread's activity and starts it again
 * on the same port (net: none), and a post to a port with no waiter
 * only queues.
 *
 * The structures are iocp.c's; nothing else should touch them. */
#ifndef NDSHIM_IOCP_FAST_H
#define NDSHIM_IOCP_FAST_H

#include "core/handle.h"
#include "core/iocp.h"
#include "core/klock.h"

struct packet {
	struct packet *next;
	ULONG_PTR key;
	OVERLAPPED *ov;
	ULONG_PTR info;
	NTSTATUS status;
};

#define PACKET_CACHE_MAX 1024

struct iocp {
	struct object obj;
	struct bias_lock lock; /* biased to the first thread to take it */
	struct packet *head, *tail; /* FIFO; port lock */
	unsigned int queued;
	struct packet *cache; /* spare packets, so a steady flow allocates nothing */
	unsigned int cached;
	struct list waiters; /* head: the most recently blocked (LIFO release) */
	unsigned int active, concurrency;
	bool closed; /* the last handle is gone */
	/* Wake sources (struct iocp_source), port lock.  ep_fd: the epoll
	 * a POLLING waiter sleeps in, holding wake_fd (the eventfd its
	 * enders write) and the sources' fds; both created with the first
	 * source, -1 before.  polled: a waiter uses the sources now. */
	struct list sources;
	unsigned int n_sources;
	int wake_fd, ep_fd;
	bool polled;
	/* Other processes' way in (core/iocp_remote.h), made when the
	 * port first leaves its process; port lock.  No fast path reads
	 * it. */
	struct iocp_channel *channel;
};

/* The calling thread's side of the port rules. */
struct iocp_self {
	/* The port it is active on (holding a reference), and whether it
	 * is blocked in another wait now and so not counted. */
	struct iocp *port;
	bool paused;
	/* Whether its exit_key value is set (it stays set). */
	bool exit_key_set;
	/* The handle iocp_get last resolved to port, and handle_closes
	 * then. */
	HANDLE handle;
	struct iocp *handle_port;
	unsigned long handle_closes;
};

extern __thread struct iocp_self iocp_self;

/* free() for take_locked, out of line (and ms_abi: see above). */
void __attribute__((ms_abi)) iocp_free_packet(struct packet *p);

/* The port h names if it is the one the calling thread is active on,
 * from the cache iocp_get fills, validated by handle_closes (iocp.h);
 * NULL otherwise.  The thread's activity holds the reference. */
static inline __attribute__((always_inline)) struct iocp *iocp_own_port(HANDLE h)
{
	struct iocp *port = iocp_self.port;

	/* No handle closed since h named it: it still does, and its
	 * reference keeps the port alive through the call (a close racing
	 * with it orders after it).  The pointers are only compared, never
	 * followed, unless they match. */
	if (port && h == iocp_self.handle && port == iocp_self.handle_port &&
	    atomic_load_explicit(&handle_closes, memory_order_acquire) == iocp_self.handle_closes)
		return port;
	return NULL;
}

/* Port lock held: up to max queued packets into e; their number. */
static inline __attribute__((always_inline)) ULONG iocp_take_locked(struct iocp *port, OVERLAPPED_ENTRY *e, ULONG max)
{
	ULONG n = 0;

	while (n < max && port->head) {
		struct packet *p = port->head;

		port->head = p->next;
		if (!port->head)
			port->tail = NULL;
		port->queued--;
		e[n].lpCompletionKey = p->key;
		e[n].lpOverlapped = p->ov;
		/* As in an IO_STATUS_BLOCK: the 32-bit status, zero-extended. */
		e[n].Internal = (ULONG_PTR)(ULONG)p->status;
		e[n].dwNumberOfBytesTransferred = (DWORD)p->info;
		n++;
		if (__builtin_expect(port->cached < PACKET_CACHE_MAX, 1)) {
			p->next = port->cache;
			port->cache = p;
			port->cached++;
		} else {
			iocp_free_packet(p);
		}
	}
	return n;
}

/* Port lock held: p (from the cache or malloc) filled and queued. */
static inline __attribute__((always_inline)) void iocp_queue_locked(struct iocp *port, struct packet *p, ULONG_PTR key, OVERLAPPED *ov,
				     NTSTATUS status, ULONG_PTR info)
{
	p->next = NULL;
	p->key = key;
	p->ov = ov;
	p->status = status;
	p->info = info;
	if (port->tail)
		port->tail->next = p;
	else
		port->head = p;
	port->tail = p;
	port->queued++;
}

/* iocp_remove's case of a packet queued on the port h names, the one
 * the calling thread is active on, and the concurrency limit letting it
 * take it: up to max packets into e, their number.  0: nothing done. */
static inline __attribute__((always_inline)) ULONG iocp_fast_remove(HANDLE h, OVERLAPPED_ENTRY *e, ULONG max)
{
	struct iocp *port = iocp_own_port(h);
	ULONG n = 0;

	if (!port || iocp_self.paused)
		return 0;
	kblock(&port->lock);
	/* Our activity ends (active - 1) and, a packet taken, starts again
	 * on the same port: the limit is checked in between. */
	if (port->head && port->active - 1 < port->concurrency)
		n = iocp_take_locked(port, e, max);
	kbunlock(&port->lock);
	return n;
}

/* iocp_post's case of the port h names being the calling thread's own,
 * open, with a spare packet and no waiter the packet would go to: the
 * packet queued, true.  false: nothing done. */
static inline __attribute__((always_inline)) bool iocp_fast_post(HANDLE h, ULONG_PTR key, OVERLAPPED *ov, NTSTATUS status,
				  ULONG_PTR info)
{
	struct iocp *port = iocp_own_port(h);
	struct packet *p;

	if (!port)
		return false;
	kblock(&port->lock);
	p = port->cache;
	if (!p || port->closed ||
	    (!port->head && port->active < port->concurrency && !list_empty(&port->waiters))) {
		kbunlock(&port->lock);
		return false;
	}
	port->cache = p->next;
	port->cached--;
	iocp_queue_locked(port, p, key, ov, status, info);
	/* Waiters held back by the limit stay so: the queue only grew. */
	kbunlock(&port->lock);
	return true;
}

#endif
