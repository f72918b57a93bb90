/* The overlapped-completion path: how every overlapped request in ndshim
 * ends (files, named pipes, sockets, the ND provider's requests), so that
 * the Windows rules hold in one place.
 *
 * An "io target" is what an overlapped-capable object embeds (struct file
 * does; a socket would): its completion port and key (set once by
 * CreateIoCompletionPort), its notification modes
 * (SetFileCompletionNotificationModes: flags are only ever added), the
 * object's own signaled state (what a wait on the file handle sees, and
 * what GetOverlappedResult waits for when hEvent is NULL), and the list of
 * its pending requests, in issue order, for CancelIo/CancelIoEx.
 *
 * A producer's request goes:
 *   io_begin(t, ov)                  Internal = STATUS_PENDING, events reset
 *   then either, at once:
 *     io_complete(t, ov, st, n, true)   it finished synchronously
 *   or, when it must wait:
 *     io_request_add_locked(t, ...)     registered as pending (target lock)
 *     ... later, from any thread:
 *     io_request_remove_locked + io_complete(t, ov, st, n, false)
 *     or io_finish(t, ov, st, n)        the same for a request found by ov
 *   and CancelIo/CancelIoEx/close complete pending requests with
 *   STATUS_CANCELLED through io_complete.
 *
 * io_complete is the one place that applies the rules:
 *   - InternalHigh = info, then Internal = status (release ordering, so a
 *     thread seeing HasOverlappedIoCompleted also sees InternalHigh);
 *   - a synchronous failure (NT_ERROR) reports only through the caller's
 *     return value: no event, no packet;
 *   - the OVERLAPPED's event (hEvent with its low bit masked off) is set;
 *   - without an event, the object's own signaled state is set instead,
 *     unless FILE_SKIP_SET_EVENT_ON_HANDLE ("if an event is not used,
 *     each completed I/O operation will signal the file": a request with
 *     an event never signals the handle);
 *   - a packet (key, ov, status, info) goes to the associated port unless
 *     hEvent's low bit is set, or the request finished synchronously with
 *     a success status and FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is set.
 * The OVERLAPPED is not touched after the packet is queued.
 *
 * Locks: the target lock (possibly shared: both ends of a pipe use one)
 * guards the port association and the pending list; io_complete must be
 * called WITHOUT it (it takes the wait lock and the port's lock).  Every
 * function here works on any thread, including Linux threads without a
 * TEB (the ND provider's event thread). */
#ifndef NDSHIM_OVERLAPPED_H
#define NDSHIM_OVERLAPPED_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include "core/list.h"
#include "core/object.h"

struct io_request;

struct io_target {
	struct object *obj;        /* the object embedding this target */
	pthread_mutex_t *lock;     /* own_lock, or one shared with other targets */
	pthread_mutex_t own_lock;
	_Atomic(struct object *) port; /* set once; the target holds a reference */
	ULONG_PTR key;             /* written before port is published */
	_Atomic unsigned char modes; /* FILE_SKIP_*, only ever OR-ed in */
	bool signaled;             /* the object's own event; wait lock */
	struct list pending;       /* struct io_request, in issue order */
	/* For producers that queue requests their own way (sockets): cancel
	 * those for which match(probe, ctx) holds, where probe carries the
	 * request's ov and issuing tid; complete each with status (in issue
	 * order, before returning) and return how many.  NULL: none. */
	unsigned int (*cancel)(struct io_target *t, bool (*match)(struct io_request *probe, void *ctx),
			       void *ctx, NTSTATUS status);
};

/* A pending request.  Producers may put their own data around it: the
 * request is allocated by io_request_add_locked with `extra` bytes after
 * it (io_request_data) and freed by whoever completes it. */
struct io_request {
	struct list entry; /* in target->pending; target lock */
	OVERLAPPED *ov;
	DWORD tid;         /* the issuing thread, for CancelIo */
	int kind;          /* the producer's request type */
	ULONG_PTR owner;   /* the producer's tag (the ND object issuing it) */
};

static inline void *io_request_data(struct io_request *req) { return req + 1; }

/* shared_lock NULL: the target uses its own lock. */
void io_target_init(struct io_target *t, struct object *obj, pthread_mutex_t *shared_lock);
/* Drops the port reference and frees requests still listed (the object
 * is being destroyed: nobody can complete them any more). */
void io_target_destroy(struct io_target *t);

/* The io target of h's object, with a reference on the object in *obj
 * (object_unref it); NULL with ERROR_INVALID_HANDLE when h is not open
 * or not an io target. */
struct io_target *io_target_get(HANDLE h, struct object **obj);

/* CreateIoCompletionPort's association: FALSE with
 * ERROR_INVALID_PARAMETER when t already has a port. */
BOOL io_target_associate(struct io_target *t, struct object *port, ULONG_PTR key);
void io_target_add_modes(struct io_target *t, unsigned char modes);

/* Wait lock held: the object's signaled state, for waitable objects'
 * ops->signaled (a notification event: waits do not reset it). */
static inline bool io_target_signaled(struct io_target *t) { return t->signaled; }

/* A request starts: Internal = STATUS_PENDING, InternalHigh = 0, the
 * OVERLAPPED's event and the object's state reset (as NtReadFile does). */
void io_begin(struct io_target *t, OVERLAPPED *ov);

/* See above.  sync: the request finished before its issuing call
 * returned (what FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is about). */
void io_complete(struct io_target *t, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info, bool sync);

/* Target lock held.  Lists a pending request at the end (issue order);
 * NULL when out of memory. */
struct io_request *io_request_add_locked(struct io_target *t, OVERLAPPED *ov, int kind,
					 ULONG_PTR owner, size_t extra);
/* Target lock held: unlists req; the caller then completes it and
 * frees it (io_request_free) after unlocking. */
void io_request_remove_locked(struct io_request *req);
void io_request_free(struct io_request *req);

/* Completes (sync = false) the pending request issued with ov on t: false
 * when there is none (already completed or cancelled). */
bool io_finish(struct io_target *t, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info);

/* The first step of io_complete, alone: InternalHigh = info, then
 * Internal = status (sequentially consistent), then io_wait_overlapped's
 * waiters woken.  For a producer that reports a result some other way
 * than events and ports (Winsock's completion routines). */
void io_publish(OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info);

/* Sleeps until ov is no longer pending, with no event or handle to wait
 * on: a futex on Internal's low word (the status), which io_complete
 * wakes only while someone waits this way.  Returns the status.  For an
 * ND client's GetOverlappedResult(ov, TRUE) on an OVERLAPPED without an
 * event (the ND overlapped file never signals itself).  Any thread. */
NTSTATUS io_wait_overlapped(OVERLAPPED *ov);

/* io_finish on a handle, for Linux code that only holds the HANDLE (an ND
 * provider's event thread): false when h is not an io target or has no
 * such pending request.  A sysv function: never hand it to PE code. */
bool io_finish_handle(HANDLE h, OVERLAPPED *ov, NTSTATUS status, ULONG_PTR info);

/* Completes every pending request of t for which match(req, ctx) holds,
 * with status, in issue order, before returning; the number completed.
 * Requests the producer queues itself go through t->cancel. */
unsigned int io_cancel(struct io_target *t, bool (*match)(struct io_request *req, void *ctx),
		       void *ctx, NTSTATUS status);

#endif
