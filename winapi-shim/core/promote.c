/* An unnamed event, semaphore or mutex that goes to another process
 * (DuplicateHandle, or inheritance by a child) becomes a shared object
 * without a name: see docs/processes.md, "Unnamed objects in other
 * processes".
 *
 * Until then it is the in-process object of event.c, semaphore.c or
 * mutex.c and pays nothing for this.  Promotion makes its shared twin
 * (core/shsync.c, a memfd page instead of a named segment), moves the
 * state over under the wait lock, and switches the object's ops to the
 * promoted_* ones below, so that every reference anyone still holds (a
 * handle not re-pointed yet, a thread pool wait, a call in flight)
 * reaches the twin.  Threads blocked on it at that moment are sent back
 * to the start of their wait (WAIT_RESTART in core/wait.c), where they
 * find a shared object and sleep on its futex word, which the other
 * process's SetEvent bumps. */
#include <stdlib.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/syncobj.h"
#include "core/thread.h"
#include "core/wait.h"

struct object *sync_shared_target(struct object *obj)
{
	const struct object_ops *ops = obj->ops;

	if (ops == &promoted_event_ops)
		return to_event(obj)->shared;
	if (ops == &promoted_semaphore_ops)
		return to_semaphore(obj)->shared;
	if (ops == &promoted_mutex_ops)
		return to_mutex(obj)->shared;
	return obj;
}

/* Waits that began before the switch were restarted; these serve the
 * ones that began after it with the old object in hand. */
static bool promoted_signaled(struct object *obj, unsigned int tid)
{
	struct object *twin = sync_shared_target(obj);

	return twin->ops->signaled(twin, tid);
}

static bool promoted_satisfied(struct object *obj, unsigned int tid)
{
	struct object *twin = sync_shared_target(obj);

	return twin->ops->satisfied(twin, tid);
}

static void promoted_event_destroy(struct object *obj)
{
	object_unref(to_event(obj)->shared);
	event_ops.destroy(obj);
}

static void promoted_semaphore_destroy(struct object *obj)
{
	object_unref(to_semaphore(obj)->shared);
	semaphore_ops.destroy(obj);
}

static void promoted_mutex_destroy(struct object *obj)
{
	object_unref(to_mutex(obj)->shared);
	mutex_ops.destroy(obj);
}

const struct object_ops promoted_event_ops = {
	.type_name = "promoted event",
	.signaled = promoted_signaled,
	.satisfied = promoted_satisfied,
	.destroy = promoted_event_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

const struct object_ops promoted_semaphore_ops = {
	.type_name = "promoted semaphore",
	.signaled = promoted_signaled,
	.satisfied = promoted_satisfied,
	.destroy = promoted_semaphore_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

const struct object_ops promoted_mutex_ops = {
	.type_name = "promoted mutex",
	.signaled = promoted_signaled,
	.satisfied = promoted_satisfied,
	.destroy = promoted_mutex_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

bool sync_is_event(const struct object *obj)
{
	return obj->ops == &event_ops || obj->ops == &shared_event_ops || obj->ops == &promoted_event_ops;
}

bool sync_is_semaphore(const struct object *obj)
{
	return obj->ops == &semaphore_ops || obj->ops == &shared_semaphore_ops ||
	       obj->ops == &promoted_semaphore_ops;
}

bool sync_is_mutex(const struct object *obj)
{
	return obj->ops == &mutex_ops || obj->ops == &shared_mutex_ops || obj->ops == &promoted_mutex_ops;
}

bool sync_is_local(const struct object *obj)
{
	return obj->ops == &event_ops || obj->ops == &semaphore_ops || obj->ops == &mutex_ops;
}

/* Wait lock held: obj's state, for its twin; its own state is dead from
 * here on (a mutex leaves the list of owned in-process mutexes). */
static void take_state(struct object *obj, struct shsync_state *st)
{
	*st = (struct shsync_state){ 0 };
	if (obj->ops == &event_ops) {
		st->manual = to_event(obj)->manual_reset;
		st->count = to_event(obj)->signaled;
	} else if (obj->ops == &semaphore_ops) {
		st->count = to_semaphore(obj)->count;
		st->maximum = to_semaphore(obj)->maximum;
	} else {
		struct mutex *m = to_mutex(obj);

		st->owner = m->owner;
		st->recursion = m->recursion;
		st->abandoned = m->abandoned;
		mutex_disown_locked(m);
	}
}

static void set_twin(struct object *obj, struct object *twin)
{
	const struct object_ops *ops;

	if (obj->ops == &event_ops) {
		to_event(obj)->shared = twin;
		ops = &promoted_event_ops;
	} else if (obj->ops == &semaphore_ops) {
		to_semaphore(obj)->shared = twin;
		ops = &promoted_semaphore_ops;
	} else {
		to_mutex(obj)->shared = twin;
		ops = &promoted_mutex_ops;
	}
	/* The fast paths read ops without the wait lock and look again
	 * under it (event_set, ...), so the store needs only be atomic. */
	__atomic_store_n(&obj->ops, ops, __ATOMIC_RELEASE);
}

struct object *sync_share(struct object *obj)
{
	enum shsync_type type;
	struct shsync_state st;
	struct object *twin;

	if (obj->ops->cross_process)
		return object_ref(sync_shared_target(obj));
	if (obj->ops == &event_ops)
		type = SHSYNC_EVENT;
	else if (obj->ops == &semaphore_ops)
		type = SHSYNC_SEMAPHORE;
	else if (obj->ops == &mutex_ops)
		type = SHSYNC_MUTEX;
	else {
		SetLastError(ERROR_NOT_SUPPORTED);
		return NULL;
	}
	twin = shsync_create_unnamed(type);
	if (!twin)
		return NULL;
	wait_lock();
	if (obj->ops->cross_process) {
		/* Another thread promoted it meanwhile. */
		struct object *theirs = object_ref(sync_shared_target(obj));

		wait_unlock();
		object_unref(twin);
		return theirs;
	}
	take_state(obj, &st);
	shsync_adopt_locked(twin, &st);
	set_twin(obj, object_ref(twin));
	wait_restart_waiters_locked(obj);
	wait_unlock();
	TRACE(sync, "%p: now shared (%s %p)\n", (void *)obj, twin->ops->type_name, (void *)twin);
	/* Handles now name the twin itself: their operations skip the
	 * stand-in (a promoted object found later still forwards). */
	handle_repoint(obj, twin);
	return twin;
}
