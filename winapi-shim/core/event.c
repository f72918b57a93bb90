#include <stdlib.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/syncobj.h"
#include "core/wait.h"

static bool event_signaled(struct object *obj, unsigned int tid)
{
	return to_event(obj)->signaled;
}

static bool event_satisfied(struct object *obj, unsigned int tid)
{
	struct event *ev = to_event(obj);

	if (!ev->manual_reset)
		ev->signaled = false;
	return false;
}

static void event_destroy(struct object *obj)
{
	namespace_remove(obj);
	free(to_event(obj));
}

const struct object_ops event_ops = {
	.type_name = "event",
	.signaled = event_signaled,
	.satisfied = event_satisfied,
	.destroy = event_destroy,
	.wait_access = SYNCHRONIZE,
};

struct object *event_create(bool manual_reset, bool initial_state)
{
	struct event *ev = malloc(sizeof(*ev));

	if (!ev) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&ev->obj, &event_ops);
	ev->manual_reset = manual_reset;
	ev->signaled = initial_state;
	ev->shared = NULL;
	return &ev->obj;
}

/* A named event is a shared one (core/shsync.c): one pointer compare
 * is all an in-process event pays for it.  The second one, under the
 * wait lock, catches an event promoted (core/promote.c) since the
 * first. */
void event_set(struct object *obj)
{
	if (obj->ops != &event_ops)
		return shsync_event_set(obj);
	wait_lock();
	if (obj->ops != &event_ops) {
		wait_unlock();
		return shsync_event_set(obj);
	}
	to_event(obj)->signaled = true;
	wait_wake_object(obj);
	wait_unlock();
}

void event_reset(struct object *obj)
{
	if (obj->ops != &event_ops)
		return shsync_event_reset(obj);
	wait_lock();
	if (obj->ops != &event_ops) {
		wait_unlock();
		return shsync_event_reset(obj);
	}
	to_event(obj)->signaled = false;
	wait_unlock();
}

/* Releases whoever waits now (all for manual-reset, one for auto-reset)
 * and leaves the event reset. */
void event_pulse(struct object *obj)
{
	if (obj->ops != &event_ops)
		return shsync_event_pulse(obj);
	wait_lock();
	if (obj->ops != &event_ops) {
		wait_unlock();
		return shsync_event_pulse(obj);
	}
	to_event(obj)->signaled = true;
	wait_wake_object(obj);
	to_event(obj)->signaled = false;
	wait_unlock();
}

struct object *event_get(HANDLE h, DWORD access)
{
	struct object *obj = access ? handle_get_access(h, NULL, access) : handle_get(h, NULL);

	if (obj && !sync_is_event(obj)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return obj;
}

BOOL event_set_handle(HANDLE h)
{
	struct object *obj = event_get(h, 0);

	if (!obj)
		return FALSE;
	event_set(obj);
	object_unref(obj);
	return TRUE;
}
