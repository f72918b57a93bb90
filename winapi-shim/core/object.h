/* Kernel objects: everything a HANDLE can name (events, threads, ports,
 * files, sockets, ...) embeds a struct object as its first member and
 * converts with a one-line container_of helper.
 *
 * Lifetime: an object holds one reference per handle plus one per
 * in-flight user (handle_get takes one, object_unref drops it).  The last
 * unref calls ops->destroy.  ops->close_handle runs when a handle to the
 * object is closed, with the number of handles still open, so a port can
 * wake its waiters when its last handle goes away. */
#ifndef NDSHIM_OBJECT_H
#define NDSHIM_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/list.h"

struct object;
struct wait_block;
struct io_target;

struct object_ops {
	const char *type_name; /* "event", "thread", ... for traces */
	/* Waitable objects only (NULL otherwise); called with the wait lock
	 * held, for the waiting thread tid (not always the calling thread:
	 * a signaling thread satisfies other threads' waits).  signaled:
	 * could a wait by tid be satisfied now?  satisfied: consume it
	 * (auto-reset, count--, take ownership); true when the wait must
	 * report WAIT_ABANDONED (a mutex whose owner exited). */
	bool (*signaled)(struct object *obj, unsigned int tid);
	bool (*satisfied)(struct object *obj, unsigned int tid);
	void (*close_handle)(struct object *obj, unsigned int handles_left);
	/* Objects that take overlapped requests (core/overlapped.h): their
	 * io target.  NULL for the others. */
	struct io_target *(*io_target)(struct object *obj);
	void (*destroy)(struct object *obj);
	/* The access right a wait on a handle needs (SYNCHRONIZE for the
	 * synchronization objects, whose handles may be opened without
	 * it); 0: not checked. */
	unsigned int wait_access;
	/* State shared with other processes (core/shsync.h): waits on it
	 * take the shared lock and sleep on its shared futex words too. */
	bool cross_process;
};

struct object {
	const struct object_ops *ops;
	atomic_uint refcount;
	atomic_uint handle_count;
	struct list waiters; /* struct wait_entry, under the wait lock */
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

void object_init(struct object *obj, const struct object_ops *ops);
struct object *object_ref(struct object *obj);
void object_unref(struct object *obj);

#endif
