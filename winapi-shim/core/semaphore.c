#include <stdlib.h>

#include "core/shsync.h"
#include "core/sync.h"
#include "core/syncobj.h"
#include "core/wait.h"

static bool semaphore_signaled(struct object *obj, unsigned int tid)
{
	return to_semaphore(obj)->count > 0;
}

static bool semaphore_satisfied(struct object *obj, unsigned int tid)
{
	to_semaphore(obj)->count--;
	return false;
}

static void semaphore_destroy(struct object *obj)
{
	namespace_remove(obj);
	free(to_semaphore(obj));
}

const struct object_ops semaphore_ops = {
	.type_name = "semaphore",
	.signaled = semaphore_signaled,
	.satisfied = semaphore_satisfied,
	.destroy = semaphore_destroy,
	.wait_access = SYNCHRONIZE,
};

struct object *semaphore_create(LONG initial, LONG maximum)
{
	struct semaphore *sem;

	if (maximum <= 0 || initial < 0 || initial > maximum) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	sem = malloc(sizeof(*sem));
	if (!sem) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&sem->obj, &semaphore_ops);
	sem->count = initial;
	sem->maximum = maximum;
	sem->shared = NULL;
	return &sem->obj;
}

BOOL semaphore_release(struct object *obj, LONG count, LONG *previous)
{
	struct semaphore *sem = to_semaphore(obj);
	LONG prev;

	if (obj->ops != &semaphore_ops)
		return shsync_semaphore_release(obj, count, previous);
	if (count <= 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	wait_lock();
	/* Promoted since the first look (core/promote.c). */
	if (obj->ops != &semaphore_ops) {
		wait_unlock();
		return shsync_semaphore_release(obj, count, previous);
	}
	prev = sem->count;
	if (count > sem->maximum - prev) {
		wait_unlock();
		SetLastError(ERROR_TOO_MANY_POSTS);
		return FALSE;
	}
	sem->count = prev + count;
	wait_wake_object(obj);
	wait_unlock();
	if (previous)
		*previous = prev;
	return TRUE;
}
