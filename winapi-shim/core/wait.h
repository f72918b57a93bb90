/* The wait engine: the one place threads block on kernel objects.
 *
 * One wait lock guards the state of every waitable object (event flags,
 * semaphore counts, mutex owners, thread exit) and every object's waiter
 * list.  A waiting thread queues a wait entry per object on the objects'
 * lists, all pointing at its wait block, and sleeps on the block's futex
 * word.  A signaling operation changes the object's state and calls
 * wait_wake_object with the lock held; that satisfies (consumes) the
 * objects for each waiter whose wait can now complete, in queue order,
 * stores the result in its block and takes the block off every list.  So
 * an auto-reset event is consumed by exactly one waiter, and a wait-all
 * takes all its objects at once or none.  The wake itself happens in
 * wait_unlock, after the lock is dropped: the woken thread finds its
 * result in its block and returns without taking the lock again, one
 * hand-off per wake. */
#ifndef NDSHIM_WAIT_H
#define NDSHIM_WAIT_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

#include "core/object.h"

void wait_lock(void);
/* Also does the wakes decided while the lock was held. */
void wait_unlock(void);

/* Wait lock held: obj's state changed to (possibly) signaled. */
void wait_wake_object(struct object *obj);

/* Wait lock held: obj was promoted to a shared object (core/promote.c).
 * Every wait blocked on it starts again, to find it shared. */
void wait_restart_waiters_locked(struct object *obj);

struct thread;

/* Wait lock held: t's alertable wait, if any, ends with
 * WAIT_IO_COMPLETION (an APC was queued to it). */
void wait_alert_locked(struct thread *t);

/* WaitForMultipleObjectsEx on objects: WAIT_OBJECT_0 + i,
 * WAIT_ABANDONED_0 + i, WAIT_TIMEOUT, WAIT_IO_COMPLETION (alertable: APCs
 * were run), or WAIT_FAILED with the last error set.  count may be 0 (an
 * alertable sleep).  timeout in ms, INFINITE for none. */
DWORD wait_for_objects(DWORD count, struct object *const *objs, bool wait_all, DWORD timeout,
		       bool alertable);

/* The same on handles (pseudo-handles included), with Win32's argument
 * checks: ERROR_INVALID_PARAMETER for count 0 or > MAXIMUM_WAIT_OBJECTS,
 * ERROR_INVALID_HANDLE for a handle that is not open or not waitable. */
DWORD wait_for_handles(DWORD count, const HANDLE *handles, bool wait_all, DWORD timeout,
		       bool alertable);

#endif
