#include <stdlib.h>

#include "core/shsync.h"
#include "core/sync.h"
#include "core/syncobj.h"
#include "core/thread.h"
#include "core/wait.h"

/* Every owned mutex, so a thread's exit can abandon its own (wait lock). */
static struct list owned_mutexes = LIST_INIT(owned_mutexes);

static bool mutex_signaled(struct object *obj, unsigned int tid)
{
	struct mutex *m = to_mutex(obj);

	return !m->owner || m->owner == tid;
}

static bool mutex_satisfied(struct object *obj, unsigned int tid)
{
	struct mutex *m = to_mutex(obj);
	bool abandoned = m->abandoned;

	if (!m->owner) {
		m->owner = tid;
		list_add_tail(&owned_mutexes, &m->owned_entry);
	}
	m->recursion++;
	m->abandoned = false;
	return abandoned;
}

static void mutex_destroy(struct object *obj)
{
	struct mutex *m = to_mutex(obj);

	wait_lock();
	if (m->owner)
		list_remove(&m->owned_entry);
	wait_unlock();
	namespace_remove(obj);
	free(m);
}

const struct object_ops mutex_ops = {
	.type_name = "mutex",
	.signaled = mutex_signaled,
	.satisfied = mutex_satisfied,
	.destroy = mutex_destroy,
	.wait_access = SYNCHRONIZE,
};

struct object *mutex_create(bool initial_owner)
{
	struct mutex *m = calloc(1, sizeof(*m));

	if (!m) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&m->obj, &mutex_ops);
	list_init(&m->owned_entry);
	if (initial_owner) {
		wait_lock();
		mutex_satisfied(&m->obj, thread_current_id());
		wait_unlock();
	}
	return &m->obj;
}

BOOL mutex_release(struct object *obj)
{
	struct mutex *m = to_mutex(obj);

	if (obj->ops != &mutex_ops)
		return shsync_mutex_release(obj);
	wait_lock();
	/* Promoted since the first look (core/promote.c). */
	if (obj->ops != &mutex_ops) {
		wait_unlock();
		return shsync_mutex_release(obj);
	}
	if (m->owner != thread_current_id()) {
		wait_unlock();
		SetLastError(ERROR_NOT_OWNER);
		return FALSE;
	}
	if (!--m->recursion) {
		m->owner = 0;
		list_remove(&m->owned_entry);
		wait_wake_object(obj);
	}
	wait_unlock();
	return TRUE;
}

void mutex_disown_locked(struct mutex *m)
{
	if (m->owner)
		list_remove(&m->owned_entry);
	m->owner = 0;
	m->recursion = 0;
	m->abandoned = false;
}

void mutex_abandon_owned(DWORD tid)
{
	struct list *cur, *tmp;

	/* Promoted mutexes whose owner never took their robust lock. */
	shsync_thread_exit(tid);
	wait_lock();
	LIST_FOR_EACH_SAFE(cur, tmp, &owned_mutexes) {
		struct mutex *m = LIST_ENTRY(cur, struct mutex, owned_entry);

		if (m->owner != tid)
			continue;
		m->owner = 0;
		m->recursion = 0;
		m->abandoned = true;
		list_remove(&m->owned_entry);
		wait_wake_object(&m->obj);
	}
	wait_unlock();
}
