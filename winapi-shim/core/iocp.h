/* I/O completion ports: the object behind CreateIoCompletionPort.
 *
 * A port is a handle-table object (not waitable through WaitFor*) with
 * its own lock, a FIFO of completion packets and a LIFO stack of blocked
 * threads, each sleeping on its own futex word.  A packet posted while a
 * thread waits is handed directly to the most recently blocked one.
 *
 * Concurrency (Windows' rule): a thread that dequeued from a port is
 * "active" on it until it calls GetQueuedCompletionStatus again (on any
 * port) or exits; while it blocks in any other wait (wait engine, Sleep)
 * it does not count, and it counts again when it wakes, even past the
 * limit.  A packet is handed to a waiter only while fewer than
 * `concurrency` threads are active; when an active thread stops counting,
 * the next waiter gets the next queued packet.
 *
 * Lock order: the wait lock (core/wait.h) before a port's lock; a port
 * lock is never held while taking another lock. */
#ifndef NDSHIM_IOCP_H
#define NDSHIM_IOCP_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include "core/object.h"

extern const struct object_ops iocp_ops;

/* A port with one reference (no handle yet); concurrency 0 means the
 * number of processors.  NULL with ERROR_NOT_ENOUGH_MEMORY. */
struct object *iocp_create(DWORD concurrency);

/* Queues a packet (what GetQueuedCompletionStatus returns: key, ov,
 * status in OVERLAPPED_ENTRY.Internal, info as the byte count), or hands
 * it to a waiter.  Callable from any thread, with or without a TEB, with
 * no ndshim lock held.  false only when out of memory (no last error). */
bool iocp_post(struct object *port, ULONG_PTR key, OVERLAPPED *ov, NTSTATUS status,
	       ULONG_PTR info);

/* The port h names, as handle_get(h, &iocp_ops) gives it (NULL and
 * ERROR_INVALID_HANDLE if none); drop it with iocp_put.  A worker that
 * calls GetQueuedCompletionStatus in a loop names the port it is active
 * on: that one comes from a per-thread cache, validated by
 * handle_closes, and borrows the reference the thread's activity holds,
 * without touching the handle table. */
struct object *iocp_get(HANDLE h, bool *borrowed);
void iocp_put(struct object *port, bool borrowed);

/* GetQueuedCompletionStatusEx on the object: removes 1..max packets into
 * entries (*removed = their number) and returns WAIT_OBJECT_0; or
 * WAIT_TIMEOUT; WAIT_IO_COMPLETION (alertable, no packet: the thread's
 * APCs were run); WAIT_ABANDONED_0 (the port's last handle was closed
 * while we waited).  timeout in ms, INFINITE for none. */
DWORD iocp_remove(struct object *port, OVERLAPPED_ENTRY *entries, ULONG max, ULONG *removed,
		  DWORD timeout, bool alertable);

/* Hooks for the concurrency count.  The wait engine calls
 * iocp_thread_block before the calling thread sleeps in any other wait
 * and iocp_thread_unblock when it wakes; thread exit calls
 * iocp_thread_exit.  Cheap no-ops for threads not active on a port. */
void iocp_thread_block(void);
void iocp_thread_unblock(void);
void iocp_thread_exit(void);

/* Wait lock held: an APC was queued to the thread owning this alertable
 * port wait (struct thread.alertable_port_wait): end it. */
struct port_waiter;
void iocp_alert_locked(struct port_waiter *w);

/* Wake sources: a producer of completions whose readiness shows on a
 * file descriptor (an ND completion queue's completion channel) and
 * which normally has its own reader (the ND provider's event thread).
 * While a source is attached to a port, a thread that blocks in
 * iocp_remove as the port's only waiter (and with at most
 * IOCP_SOURCES_MAX sources attached) sleeps in epoll_wait() on the port's
 * epoll (its wake eventfd, and the sources' fds with EPOLLEXCLUSIVE)
 * instead of its futex, and drains a source that epoll reports itself:
 * the completion reaches the port, and this thread, with no other
 * thread woken.  See docs/nd2-decisions.md ("Blocking on a CQ through a
 * port") for why no event is lost.
 *
 * Every op but hold is called without any ndshim lock held (hold runs
 * under the port lock and must not block); drain posts to ports through
 * the usual path.  claim, called once the fd is in the port's epoll,
 * makes the waiter's watch win over the reader's: either the reader
 * watches the fd with EPOLLEXCLUSIVE from an epoll registered after the
 * port's (the kernel then wakes the port's sleeping waiter alone, and
 * the reader whenever none sleeps), or the reader stops watching until
 * unclaim, after which it must see anything still pending (level-
 * triggered).  claim and drain return false when the source is gone
 * (the waiter then stops draining it).  hold/release count references
 * on ctx: the port holds one while attached, a polling waiter one while
 * it uses the source.  The owner detaches a source before it closes its
 * fd. */
#define IOCP_SOURCES_MAX 4
struct iocp_source_ops {
	bool (*claim)(void *ctx);
	void (*unclaim)(void *ctx);
	bool (*drain)(void *ctx);
	void (*hold)(void *ctx);
	void (*release)(void *ctx);
};
struct iocp_source;

/* Attaches a source to port (which it references until detached); NULL
 * when out of memory or the port is closed.  Not called on any fast
 * path: once per source and port. */
struct iocp_source *iocp_source_attach(struct object *port, int fd, const struct iocp_source_ops *ops,
				       void *ctx);
/* Detaches it and drops the port's reference on ctx; a waiter polling it
 * keeps its own reference until it leaves. */
void iocp_source_detach(struct iocp_source *src);

/* The channel through which other processes post to the port
 * (core/iocp_remote.h), once it left its process.  peek: false with
 * ERROR_INVALID_HANDLE when the port's last handle is closed, else the
 * channel (NULL if none yet).  set: the port takes ch (and frees it
 * when destroyed); false with ERROR_INVALID_HANDLE, ch not taken, when
 * the last handle is closed.  Callers serialize their peek-then-set. */
struct iocp_channel;
bool iocp_channel_peek(struct object *port, struct iocp_channel **ch);
bool iocp_channel_set(struct object *port, struct iocp_channel *ch);

/* For tests: threads blocked on the port, threads active on it, packets
 * queued. */
void iocp_get_counts(struct object *port, unsigned int *waiters, unsigned int *active,
		     unsigned int *queued);

#endif
