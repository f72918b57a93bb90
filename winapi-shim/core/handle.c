#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/debug.h"
#include "core/handle.h"
#include "core/klock.h"
#include "core/process.h"

/* Entries live in chunks that are never freed or moved, so a handle's
 * slot address is stable; the table lock guards slot contents. */
#define CHUNK_SHIFT 10
#define CHUNK_SIZE (1u << CHUNK_SHIFT)
#define MAX_CHUNKS 1024 /* a million handles */

struct handle_entry {
	struct object *obj; /* NULL: free */
	DWORD access;
	DWORD flags;         /* HANDLE_FLAG_* */
	unsigned int next_free;
};

static struct handle_entry *chunks[MAX_CHUNKS];
static unsigned int nr_slots;   /* slots ever allocated */
static unsigned int free_head;  /* 1-based index of a free slot, 0: none */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

struct object *(*handle_current_thread_object)(void);

_Atomic unsigned long handle_closes;

static inline HANDLE index_to_handle(unsigned int i) { return (HANDLE)(uintptr_t)((i + 1) << 2); }

static struct handle_entry *slot(unsigned int i) { return &chunks[i >> CHUNK_SHIFT][i & (CHUNK_SIZE - 1)]; }

/* table_lock held.  The entry for h, or NULL when h is not an open handle. */
static struct handle_entry *lookup_locked(HANDLE h)
{
	uintptr_t v = (uintptr_t)h;
	unsigned int i;

	if (!v || (v & 3) || v > ((uintptr_t)MAX_CHUNKS * CHUNK_SIZE) << 2)
		return NULL;
	i = (unsigned int)(v >> 2) - 1;
	if (i >= nr_slots || !slot(i)->obj)
		return NULL;
	return slot(i);
}

HANDLE handle_create(struct object *obj, DWORD access, DWORD flags)
{
	struct handle_entry *e;
	unsigned int i;

	klock(&table_lock);
	if (free_head) {
		i = free_head - 1;
		free_head = slot(i)->next_free;
	} else {
		i = nr_slots;
		if ((i >> CHUNK_SHIFT) >= MAX_CHUNKS) {
			kunlock(&table_lock);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
		if (!chunks[i >> CHUNK_SHIFT]) {
			chunks[i >> CHUNK_SHIFT] = calloc(CHUNK_SIZE, sizeof(struct handle_entry));
			if (!chunks[i >> CHUNK_SHIFT]) {
				kunlock(&table_lock);
				SetLastError(ERROR_NOT_ENOUGH_MEMORY);
				return NULL;
			}
		}
		nr_slots++;
	}
	e = slot(i);
	e->obj = object_ref(obj);
	e->access = access;
	e->flags = flags;
	atomic_fetch_add(&obj->handle_count, 1);
	kunlock(&table_lock);
	TRACE(handle, "%p -> %s %p\n", index_to_handle(i), obj->ops->type_name, (void *)obj);
	return index_to_handle(i);
}

/* table_lock held: grows the table to hold slot i, the slots skipped on
 * the way going to the free list.  false when out of memory. */
static bool grow_to(unsigned int i)
{
	while (nr_slots <= i) {
		unsigned int n = nr_slots;

		if ((n >> CHUNK_SHIFT) >= MAX_CHUNKS)
			return false;
		if (!chunks[n >> CHUNK_SHIFT] &&
		    !(chunks[n >> CHUNK_SHIFT] = calloc(CHUNK_SIZE, sizeof(struct handle_entry))))
			return false;
		nr_slots++;
		if (n != i) {
			slot(n)->next_free = free_head;
			free_head = n + 1;
		}
	}
	return true;
}

HANDLE handle_create_at(HANDLE h, struct object *obj, DWORD access, DWORD flags)
{
	uintptr_t v = (uintptr_t)h;
	unsigned int i, *link;
	struct handle_entry *e;

	if (!v || (v & 3) || v > ((uintptr_t)MAX_CHUNKS * CHUNK_SIZE) << 2) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	i = (unsigned int)(v >> 2) - 1;
	klock(&table_lock);
	if (i >= nr_slots) {
		if (!grow_to(i)) {
			kunlock(&table_lock);
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			return NULL;
		}
	} else {
		if (slot(i)->obj) {
			kunlock(&table_lock);
			SetLastError(ERROR_INVALID_HANDLE);
			return NULL;
		}
		/* Unlink slot i from the free list (only ever at startup,
		 * when the list is short). */
		for (link = &free_head; *link != i + 1; link = &slot(*link - 1)->next_free)
			;
		*link = slot(i)->next_free;
	}
	e = slot(i);
	e->obj = object_ref(obj);
	e->access = access;
	e->flags = flags;
	atomic_fetch_add(&obj->handle_count, 1);
	kunlock(&table_lock);
	TRACE(handle, "%p -> %s %p (given value)\n", h, obj->ops->type_name, (void *)obj);
	return h;
}

void handle_for_each(DWORD flags, void (*fn)(HANDLE h, struct object *obj, DWORD access, void *ctx),
		     void *ctx)
{
	klock(&table_lock);
	for (unsigned int i = 0; i < nr_slots; i++) {
		struct handle_entry *e = slot(i);

		if (e->obj && (e->flags & flags) == flags)
			fn(index_to_handle(i), e->obj, e->access, ctx);
	}
	kunlock(&table_lock);
}

struct object *handle_get(HANDLE h, const struct object_ops *ops)
{
	struct handle_entry *e;
	struct object *obj = NULL;

	if (h == PSEUDO_HANDLE_CURRENT_THREAD) {
		if (handle_current_thread_object)
			obj = handle_current_thread_object();
	} else if (h == PSEUDO_HANDLE_CURRENT_PROCESS) {
		obj = process_current();
	} else {
		klock(&table_lock);
		e = lookup_locked(h);
		if (e)
			obj = object_ref(e->obj);
		kunlock(&table_lock);
	}
	if (obj && ops && obj->ops != ops) {
		object_unref(obj);
		obj = NULL;
	}
	if (!obj)
		SetLastError(ERROR_INVALID_HANDLE);
	return obj;
}

/* GENERIC_ALL stands for every right (what Create* handles carry);
 * pseudo-handles have every right too. */
struct object *handle_get_access(HANDLE h, const struct object_ops *ops, DWORD needed)
{
	struct handle_entry *e;
	struct object *obj;
	bool denied = false;

	if (h == PSEUDO_HANDLE_CURRENT_THREAD || h == PSEUDO_HANDLE_CURRENT_PROCESS)
		return handle_get(h, ops);
	klock(&table_lock);
	e = lookup_locked(h);
	obj = e && (!ops || e->obj->ops == ops) ? object_ref(e->obj) : NULL;
	if (obj && !(e->access & GENERIC_ALL) && (e->access & needed) != needed)
		denied = true;
	kunlock(&table_lock);
	if (!obj) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	if (denied) {
		object_unref(obj);
		SetLastError(ERROR_ACCESS_DENIED);
		return NULL;
	}
	return obj;
}

BOOL handle_close(HANDLE h)
{
	struct handle_entry *e;
	struct object *obj;
	unsigned int left;

	klock(&table_lock);
	e = lookup_locked(h);
	if (!e || (e->flags & HANDLE_FLAG_PROTECT_FROM_CLOSE)) {
		kunlock(&table_lock);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	obj = e->obj;
	e->obj = NULL;
	atomic_fetch_add_explicit(&handle_closes, 1, memory_order_release);
	e->next_free = free_head;
	free_head = (unsigned int)((uintptr_t)h >> 2);
	left = atomic_fetch_sub(&obj->handle_count, 1) - 1;
	kunlock(&table_lock);

	TRACE(handle, "%p (%s %p), %u left\n", h, obj->ops->type_name, (void *)obj, left);
	if (obj->ops->close_handle)
		obj->ops->close_handle(obj, left);
	object_unref(obj);
	return TRUE;
}

void handle_repoint(struct object *old, struct object *new)
{
	unsigned int moved = 0;

	klock(&table_lock);
	for (unsigned int i = 0; i < nr_slots; i++) {
		struct handle_entry *e = slot(i);

		if (e->obj != old)
			continue;
		e->obj = object_ref(new);
		atomic_fetch_add(&new->handle_count, 1);
		atomic_fetch_sub(&old->handle_count, 1);
		moved++;
	}
	/* Lookups cached against the count see the change. */
	if (moved)
		atomic_fetch_add_explicit(&handle_closes, 1, memory_order_release);
	kunlock(&table_lock);
	TRACE(handle, "%u handles of %s %p now name %s %p\n", moved, old->ops->type_name, (void *)old,
	      new->ops->type_name, (void *)new);
	/* The caller holds old: none of these is its last reference. */
	while (moved--)
		object_unref(old);
}

BOOL handle_get_info(HANDLE h, DWORD *access, DWORD *flags)
{
	struct handle_entry *e;

	klock(&table_lock);
	e = lookup_locked(h);
	if (e) {
		if (access)
			*access = e->access;
		if (flags)
			*flags = e->flags;
	}
	kunlock(&table_lock);
	if (!e)
		SetLastError(ERROR_INVALID_HANDLE);
	return e != NULL;
}

BOOL handle_set_flags(HANDLE h, DWORD mask, DWORD flags)
{
	struct handle_entry *e;

	klock(&table_lock);
	e = lookup_locked(h);
	if (e)
		e->flags = (e->flags & ~mask) | (flags & mask);
	kunlock(&table_lock);
	if (!e)
		SetLastError(ERROR_INVALID_HANDLE);
	return e != NULL;
}
