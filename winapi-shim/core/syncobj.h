/* The in-process (unnamed) event, semaphore and mutex, for the files
 * that make them (event.c, semaphore.c, mutex.c) and for promote.c,
 * which turns one into a shared object when it is first duplicated
 * into another process (docs/processes.md, "Unnamed objects in other
 * processes").  Everything else goes through core/sync.h. */
#ifndef NDSHIM_SYNCOBJ_H
#define NDSHIM_SYNCOBJ_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>

#include "core/list.h"
#include "core/object.h"

/* Each has a shared twin once promoted (ops switched to the promoted_*
 * ones, under the wait lock): from then on its own state is dead and
 * every operation goes to the twin, which it holds a reference on. */

struct event {
	struct object obj;
	bool manual_reset;
	bool signaled; /* wait lock */
	struct object *shared; /* set once promoted */
};

struct semaphore {
	struct object obj;
	LONG count; /* wait lock */
	LONG maximum;
	struct object *shared;
};

struct mutex {
	struct object obj;
	DWORD owner;      /* tid, 0: free; wait lock */
	DWORD recursion;
	bool abandoned;   /* the owner exited holding it; reported once */
	struct list owned_entry; /* in owned_mutexes while owned */
	struct object *shared;
};

static inline struct event *to_event(struct object *obj) { return container_of(obj, struct event, obj); }
static inline struct semaphore *to_semaphore(struct object *obj)
{
	return container_of(obj, struct semaphore, obj);
}
static inline struct mutex *to_mutex(struct object *obj) { return container_of(obj, struct mutex, obj); }

/* mutex.c, wait lock held: m is no longer owned here (it was promoted:
 * the shared twin keeps its owner). */
void mutex_disown_locked(struct mutex *m);

#endif
