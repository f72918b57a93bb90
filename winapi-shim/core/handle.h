/* The handle table: one per process, typed objects, reference counted.
 *
 * Handle values are multiples of 4 starting at 4, as on Windows, so
 * programs that stash flags in the low bits keep working.  Pseudo-handles
 * (GetCurrentProcess() == (HANDLE)-1, GetCurrentThread() == (HANDLE)-2)
 * are not in the table; handle_get resolves both. */
#ifndef NDSHIM_HANDLE_H
#define NDSHIM_HANDLE_H

#include <windef.h>
#include <winbase.h>

#include "core/object.h"

#define PSEUDO_HANDLE_CURRENT_PROCESS ((HANDLE)(LONG_PTR)-1)
#define PSEUDO_HANDLE_CURRENT_THREAD  ((HANDLE)(LONG_PTR)-2)

/* Adds a handle (and a reference) to obj.  NULL with
 * ERROR_NOT_ENOUGH_MEMORY when the table is full. */
HANDLE handle_create(struct object *obj, DWORD access, DWORD flags);

/* The same at the given handle value (an inherited handle keeps the
 * value it had in the parent): ERROR_INVALID_HANDLE when h is taken or
 * not a handle value. */
HANDLE handle_create_at(HANDLE h, struct object *obj, DWORD access, DWORD flags);

/* Calls fn for every open handle whose HANDLE_FLAG_* include flags,
 * with the table lock held: fn must not touch the table. */
void handle_for_each(DWORD flags, void (*fn)(HANDLE h, struct object *obj, DWORD access, void *ctx),
		     void *ctx);

/* The object behind h with a new reference, or NULL with
 * ERROR_INVALID_HANDLE when h is not open or (ops != NULL) is of
 * another type.  Drop the reference with object_unref. */
struct object *handle_get(HANDLE h, const struct object_ops *ops);

/* handle_get, and FALSE with ERROR_ACCESS_DENIED unless the handle
 * was opened with every right in needed. */
struct object *handle_get_access(HANDLE h, const struct object_ops *ops, DWORD needed);

/* Every handle to old names new from now on (same access and flags):
 * old became a stand-in for new (a promoted event, semaphore or mutex,
 * core/sync.h).  Not with the table lock held (handle_for_each). */
void handle_repoint(struct object *old, struct object *new);

/* Counts handle_close calls.  A lookup made while it read n still
 * holds while it reads n: handles change meaning only by being closed
 * (a slot is reused only after that).  Read without the table lock,
 * before the lookup it validates. */
extern _Atomic unsigned long handle_closes;

/* CloseHandle: FALSE with ERROR_INVALID_HANDLE for a handle not open,
 * or ERROR_INVALID_HANDLE for one marked HANDLE_FLAG_PROTECT_FROM_CLOSE. */
BOOL handle_close(HANDLE h);

/* The access mask and HANDLE_FLAG_* of an open handle (pseudo-handles
 * are not in the table: ERROR_INVALID_HANDLE).  Either pointer may be NULL. */
BOOL handle_get_info(HANDLE h, DWORD *access, DWORD *flags);
BOOL handle_set_flags(HANDLE h, DWORD mask, DWORD flags);

/* The object the GetCurrentThread() pseudo-handle stands for; installed
 * by the thread code. */
extern struct object *(*handle_current_thread_object)(void);

#endif
