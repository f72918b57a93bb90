#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/iocp.h"
#include "core/klock.h"
#include "core/thread.h"
#include "core/wait.h"

struct packet {
	struct packet *next;
	ULONG_PTR key;
	OVERLAPPED *ov;
	ULONG_PTR info;
	NTSTATUS status;
};

/* A blocked GetQueuedCompletionStatus, on the waiter's stack.  state is
 * the futex word.  Every change of state, and every read of it but the
 * futex syscall's own, happens under the port lock: whoever ends the wait
 * (a poster handing packets, Close, an APC queuer, the waiter itself on
 * timeout) moves it away from BLOCKED and wakes the waiter before
 * unlocking, so the waiter, which takes the lock after waking, never
 * leaves while someone still touches its stack. */
enum { BLOCKED, GOT, ALERTED, CLOSED, TIMED_OUT };

struct port_waiter {
	struct list entry; /* in port->waiters while listed; port lock */
	_Atomic uint32_t state;
	struct iocp *port;
	OVERLAPPED_ENTRY *entries;
	ULONG max, got;
};

#define PACKET_CACHE_MAX 1024

struct iocp {
	struct object obj;
	pthread_mutex_t lock;
	struct packet *head, *tail; /* FIFO; port lock */
	unsigned int queued;
	struct packet *cache; /* spare packets, so a steady flow allocates nothing */
	unsigned int cached;
	struct list waiters; /* head: the most recently blocked (LIFO release) */
	unsigned int active, concurrency;
	bool closed; /* the last handle is gone */
};

static struct iocp *to_iocp(struct object *obj) { return container_of(obj, struct iocp, obj); }

/* The port the calling thread is active on (holding a reference), and
 * whether it is currently blocked in another wait and so not counted. */
static __thread struct iocp *my_port;
static __thread bool my_port_paused;

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
	my_port = port;
	pthread_once(&exit_key_once, exit_key_init);
	if (!pthread_getspecific(exit_key))
		pthread_setspecific(exit_key, port);
}

/* Port lock held. */
static ULONG take_locked(struct iocp *port, OVERLAPPED_ENTRY *e, ULONG max)
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
		if (port->cached < PACKET_CACHE_MAX) {
			p->next = port->cache;
			port->cache = p;
			port->cached++;
		} else {
			free(p);
		}
	}
	return n;
}

static uint32_t state_of(struct port_waiter *w)
{
	return atomic_load_explicit(&w->state, memory_order_relaxed);
}

/* Port lock held: ends w's wait with state. */
static void end_wait_locked(struct port_waiter *w, uint32_t state)
{
	atomic_store_explicit(&w->state, state, memory_order_relaxed);
	futex_wake(&w->state, 1);
}

/* Port lock held.  The most recent waiter still blocked, unlisted; NULL
 * if none.  Waiters an APC already ended are dropped. */
static struct port_waiter *claim_waiter_locked(struct iocp *port)
{
	while (!list_empty(&port->waiters)) {
		struct port_waiter *w = LIST_ENTRY(port->waiters.next, struct port_waiter, entry);

		list_remove(&w->entry);
		if (state_of(w) == BLOCKED)
			return w;
	}
	return NULL;
}

/* Port lock held.  Hands queued packets to waiters while the concurrency
 * limit allows. */
static void release_locked(struct iocp *port)
{
	struct port_waiter *w;

	while (port->head && port->active < port->concurrency && (w = claim_waiter_locked(port))) {
		w->got = take_locked(port, w->entries, w->max);
		port->active++;
		end_wait_locked(w, GOT);
	}
}

/* The calling thread stops being active on port (whose reference it
 * held); a waiter may take its place. */
static void deactivate(struct iocp *port, bool counted)
{
	klock(&port->lock);
	if (counted)
		port->active--;
	release_locked(port);
	kunlock(&port->lock);
	object_unref(&port->obj);
}

void iocp_thread_block(void)
{
	if (!my_port || my_port_paused)
		return;
	my_port_paused = true;
	object_ref(&my_port->obj);
	deactivate(my_port, true);
}

void iocp_thread_unblock(void)
{
	if (!my_port || !my_port_paused)
		return;
	klock(&my_port->lock);
	my_port->active++;
	kunlock(&my_port->lock);
	my_port_paused = false;
}

void iocp_thread_exit(void)
{
	struct iocp *port = my_port;

	if (!port)
		return;
	my_port = NULL;
	deactivate(port, !my_port_paused);
	my_port_paused = false;
}

void iocp_alert_locked(struct port_waiter *w)
{
	klock(&w->port->lock);
	if (state_of(w) == BLOCKED)
		end_wait_locked(w, ALERTED);
	kunlock(&w->port->lock);
}

bool iocp_post(struct object *obj, ULONG_PTR key, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info)
{
	struct iocp *port = to_iocp(obj);
	struct port_waiter *w;
	struct packet *p;

	klock(&port->lock);
	if (port->closed) {
		/* Nobody can ever dequeue it. */
		kunlock(&port->lock);
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
		end_wait_locked(w, GOT);
		kunlock(&port->lock);
		return true;
	}
	if (port->cache) {
		p = port->cache;
		port->cache = p->next;
		port->cached--;
	} else if (!(p = malloc(sizeof(*p)))) {
		kunlock(&port->lock);
		return false;
	}
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
	/* Waiters held back by the limit stay so: the queue only grew. */
	kunlock(&port->lock);
	return true;
}

DWORD iocp_remove(struct object *obj, OVERLAPPED_ENTRY *entries, ULONG max, ULONG *removed,
		  DWORD timeout, bool alertable)
{
	struct iocp *port = to_iocp(obj);
	struct thread *self = alertable ? thread_current() : NULL;
	struct iocp *dropped = NULL;
	struct timespec deadline;
	struct port_waiter w;
	DWORD result;
	uint32_t s;

	*removed = 0;
	/* Calling in again ends the thread's activity on its last port. */
	if (my_port && my_port != port) {
		struct iocp *old = my_port;

		my_port = NULL;
		deactivate(old, true);
	}
	if (timeout != INFINITE)
		deadline_after_ms(&deadline, timeout);

	/* An APC queuer must see either our pending APC check or our
	 * listed alertable wait: both under the wait lock. */
	if (self)
		wait_lock();
	klock(&port->lock);
	if (my_port == port) {
		port->active--;
		dropped = port;
		my_port = NULL;
	}
	if (port->head && port->active < port->concurrency) {
		*removed = take_locked(port, entries, max);
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
	list_add_head(&port->waiters, &w.entry);
	if (self)
		self->alertable_port_wait = &w;
	kunlock(&port->lock);
	if (self)
		wait_unlock();
	if (dropped)
		object_unref(&dropped->obj);

	for (;;) {
		int err = futex_wait(&w.state, BLOCKED, timeout == INFINITE ? NULL : &deadline);

		klock(&port->lock);
		s = state_of(&w);
		if (s != BLOCKED)
			break;
		/* Not ended by anyone by the deadline: our own timeout. */
		if (err == ETIMEDOUT) {
			atomic_store_explicit(&w.state, TIMED_OUT, memory_order_relaxed);
			s = TIMED_OUT;
			break;
		}
		kunlock(&port->lock);
	}
	/* Still listed after an alert or a timeout. */
	list_remove(&w.entry);
	kunlock(&port->lock);
	if (self) {
		wait_lock();
		self->alertable_port_wait = NULL;
		wait_unlock();
	}
	switch (s) {
	case GOT:
		*removed = w.got;
		activate(to_iocp(object_ref(&port->obj)));
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
	goto out;

unlock:
	kunlock(&port->lock);
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

	if (handles_left)
		return;
	/* Every waiter fails with ERROR_ABANDONED_WAIT_0. */
	klock(&port->lock);
	port->closed = true;
	while (!list_empty(&port->waiters)) {
		struct port_waiter *w = LIST_ENTRY(port->waiters.next, struct port_waiter, entry);

		list_remove(&w->entry);
		if (state_of(w) == BLOCKED)
			end_wait_locked(w, CLOSED);
	}
	kunlock(&port->lock);
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
	pthread_mutex_destroy(&port->lock);
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
	pthread_mutex_init(&port->lock, NULL);
	list_init(&port->waiters);
	if (!concurrency) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		concurrency = n > 0 ? (DWORD)n : 1;
	}
	port->concurrency = concurrency;
	TRACE(iocp, "port %p, concurrency %u\n", (void *)port, concurrency);
	return &port->obj;
}

void iocp_get_counts(struct object *obj, unsigned int *waiters, unsigned int *active,
		     unsigned int *queued)
{
	struct iocp *port = to_iocp(obj);
	struct list *cur;
	unsigned int n = 0;

	klock(&port->lock);
	LIST_FOR_EACH(cur, &port->waiters)
		n++;
	if (waiters)
		*waiters = n;
	if (active)
		*active = port->active;
	if (queued)
		*queued = port->queued;
	kunlock(&port->lock);
}
