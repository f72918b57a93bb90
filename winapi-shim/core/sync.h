/* Events, semaphores and mutexes: the internal C API for ndshim code
 * (overlapped I/O, completion ports, ...), under the Win32 exports of
 * kernel32/synchapi.c.  Each *_create returns an object with one
 * reference (no handle): handle_create gives it one, object_unref drops
 * it.  The functions taking an object check nothing: pass the right type. */
#ifndef NDSHIM_SYNC_H
#define NDSHIM_SYNC_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

#include "core/object.h"

extern const struct object_ops event_ops, semaphore_ops, mutex_ops, timer_ops;

struct object *event_create(bool manual_reset, bool initial_state);
void event_set(struct object *event);
void event_reset(struct object *event);
void event_pulse(struct object *event);
/* The event behind h (in-process or shared), with a new reference, if
 * the handle has access (0: not checked); else NULL with
 * ERROR_INVALID_HANDLE or ERROR_ACCESS_DENIED. */
struct object *event_get(HANDLE h, DWORD access);
/* SetEvent on a handle, for code that holds only the HANDLE (an
 * OVERLAPPED's hEvent): FALSE + ERROR_INVALID_HANDLE if not an event. */
BOOL event_set_handle(HANDLE h);

struct object *semaphore_create(LONG initial, LONG maximum);
/* ReleaseSemaphore: FALSE + ERROR_TOO_MANY_POSTS past the maximum. */
BOOL semaphore_release(struct object *sem, LONG count, LONG *previous);

/* initial_owner: owned by the calling thread. */
struct object *mutex_create(bool initial_owner);
/* ReleaseMutex: FALSE + ERROR_NOT_OWNER unless the caller owns it. */
BOOL mutex_release(struct object *mutex);

/* Unnamed events, semaphores and mutexes in other processes
 * (core/promote.c): the first DuplicateHandle into another process, or
 * inheritance by a child, makes the object a shared one (core/shsync.h)
 * without a name.  The in-process object stays, with these ops, as a
 * stand-in that forwards to its shared twin; handles are re-pointed to
 * the twin. */
extern const struct object_ops promoted_event_ops, promoted_semaphore_ops, promoted_mutex_ops;
/* The shared object for obj, with a new reference: obj itself if it is
 * shared already, its twin if promoted, a new twin for an in-process
 * event, semaphore or mutex (its state, owner and waiters moved to it);
 * NULL with ERROR_NOT_SUPPORTED for other types, or the last error. */
struct object *sync_share(struct object *obj);
/* The object that holds obj's state: the twin of a promoted one, else
 * obj (borrowed). */
struct object *sync_shared_target(struct object *obj);
/* Any flavour of the type (in-process, promoted, named). */
bool sync_is_event(const struct object *obj);
bool sync_is_semaphore(const struct object *obj);
bool sync_is_mutex(const struct object *obj);
/* An in-process event, semaphore or mutex not promoted (yet). */
bool sync_is_local(const struct object *obj);

/* Waitable timers (core/timer.c).  manual_reset: a notification timer
 * (stays signaled), else a synchronization timer (one waiter per
 * expiry). */
struct object *waitable_timer_create(bool manual_reset);
/* SetWaitableTimer: due < 0 relative (100 ns units), else an absolute
 * UTC FILETIME; period_ms 0 for one-shot (< 0: ERROR_INVALID_PARAMETER).
 * Resets the timer to non-signaled; routine(arg, time low, time high)
 * is queued as an APC to the calling thread at each expiry. */
BOOL waitable_timer_set(struct object *timer, LONGLONG due, LONG period_ms, PTIMERAPCROUTINE routine, void *arg);
/* CancelWaitableTimer: disarms, drops queued APCs, leaves the state. */
void waitable_timer_cancel(struct object *timer);

/* Windows' rules for an object name (its length, and no backslash but
 * the one ending a Local or Global prefix): 0 or the error Create*
 * fails with. */
DWORD namespace_check_name(const WCHAR *name);

/* Named objects only this process sees (waitable timers, jobs,
 * file-backed mappings; events, semaphores and mutexes are shared,
 * core/shsync.h).  "Local\\x", "Global\\x" and "x" are one name, as
 * in core/shm.c.  Inserts obj under name and returns it, or returns the
 * object already named so (with a new reference, *existed set; the
 * caller drops its own obj), or NULL with ERROR_INVALID_HANDLE when that
 * object is of another type or a shared object or mapping has the name. */
struct object *namespace_insert(const WCHAR *name, struct object *obj, bool *existed);
/* The object named so (any type), with a new reference; NULL if none. */
struct object *namespace_find_object(const WCHAR *name);
/* The object's destroy calls this if it was ever inserted. */
void namespace_remove(struct object *obj);
/* name converted from an ANSI (ASCII/Latin-1) string; free() it.  NULL
 * in, NULL out. */
WCHAR *namespace_name_from_a(const char *name);

/* The HANDLE for a new (or existing named) object: the Create*A/W tail.
 * Sets ERROR_ALREADY_EXISTS or ERROR_SUCCESS as Windows does; consumes
 * the reference on obj. */
HANDLE sync_create_handle(struct object *obj, const WCHAR *name);
/* The same for the Create*Ex functions: the handle has access (mapped
 * already) instead of every right. */
HANDLE sync_create_handle_access(struct object *obj, const WCHAR *name, DWORD access);
/* access with its generic rights replaced by the type's specific ones. */
DWORD sync_map_access(DWORD access, const GENERIC_MAPPING *mapping);

/* The Open* functions: a new handle with access (generic rights mapped)
 * to the object named name, which must be of type ops: else NULL with
 * ERROR_FILE_NOT_FOUND (no such name), ERROR_INVALID_HANDLE (another
 * type), ERROR_INVALID_PARAMETER (name NULL). */
HANDLE namespace_open(const WCHAR *name, const struct object_ops *ops, DWORD access, BOOL inherit,
		      const GENERIC_MAPPING *mapping);

#endif
