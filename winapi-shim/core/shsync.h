/* Named events, semaphores and mutexes shared by the ndrun processes of
 * one user (docs/processes.md, "Shared named objects").  Each lives in a
 * per-user segment (core/shm.h) of one page: type, state, a sequence
 * word that every change that may satisfy a waiter bumps (the futex word
 * waiters sleep on, from any process), and for a mutex a robust,
 * process-shared pthread mutex that its owner thread holds, so that the
 * kernel marks it when that thread dies, even by SIGKILL.
 *
 * One robust process-shared lock (itself a per-user segment) serializes
 * every state change of every shared object, so that a wait on several
 * of them takes all or none, across processes.  Unnamed objects never
 * come here: they are the in-process objects of event.c, semaphore.c
 * and mutex.c, and nothing they do touches this file. */
#ifndef NDSHIM_SHSYNC_H
#define NDSHIM_SHSYNC_H

#include <stdbool.h>
#include <windef.h>
#include <winbase.h>
#include <linux/futex.h>

#include "core/object.h"

extern const struct object_ops shared_event_ops, shared_semaphore_ops, shared_mutex_ops;

enum shsync_type { SHSYNC_EVENT = 1, SHSYNC_SEMAPHORE, SHSYNC_MUTEX };

/* What a new object starts as: event (manual, initial != 0), semaphore
 * (initial, maximum), mutex (initial != 0: owned by the caller). */
struct shsync_init {
	enum shsync_type type;
	bool manual;
	LONG initial;
	LONG maximum;
};

/* The object named name (Local\ and Global\ stripped): a new one made
 * from init, or the existing one (*existed; init ignored, as Windows
 * does).  NULL with ERROR_INVALID_HANDLE when the name is another
 * type's, or the segment's error. */
struct object *shsync_create(const WCHAR *name, const struct shsync_init *init, bool *existed);

/* An existing object of type: NULL with ERROR_FILE_NOT_FOUND (no such
 * name) or ERROR_INVALID_HANDLE (another type). */
struct object *shsync_open(const WCHAR *name, enum shsync_type type);

/* A shared object without a name (core/promote.c): a one-page memfd,
 * free or unsignaled until shsync_adopt_locked gives it a state.  NULL
 * with the last error. */
struct object *shsync_create_unnamed(enum shsync_type type);

/* The state an in-process object had, for its shared twin. */
struct shsync_state {
	bool manual;
	LONG count;       /* event: 0/1; semaphore: its count */
	LONG maximum;
	DWORD owner;      /* mutex: the owner thread's tid, 0: free */
	DWORD recursion;
	bool abandoned;
};

/* Wait lock held, obj not yet seen by anyone else: takes st.  A mutex
 * owned by the calling thread gets its robust lock now; one owned by
 * another thread of ours takes it when that thread next acquires the
 * mutex, and until then that thread's exit abandons it
 * (shsync_thread_exit). */
void shsync_adopt_locked(struct object *obj, const struct shsync_state *st);

/* Thread tid of this process is exiting: promoted mutexes it owns
 * without their robust lock are abandoned (the kernel sees no lock). */
void shsync_thread_exit(DWORD tid);

/* Whether name is taken by a shared object of any type. */
bool shsync_name_taken(const WCHAR *name);

void shsync_event_set(struct object *obj);
void shsync_event_reset(struct object *obj);
void shsync_event_pulse(struct object *obj);
BOOL shsync_semaphore_release(struct object *obj, LONG count, LONG *previous);
BOOL shsync_mutex_release(struct object *obj);

/* For DuplicateHandle into another process: obj's type, segment fd
 * (still obj's) and file name, if obj is a shared object. */
bool shsync_export(struct object *obj, enum shsync_type *type, int *fd, const char **path);
/* The object for a segment fd received from another process (fd and
 * path now belong to it; a shared flock already held on fd).  NULL with
 * ERROR_INVALID_HANDLE when fd is not such a segment of type. */
struct object *shsync_import(int fd, char *path, enum shsync_type type);

/* For the wait engine (core/wait.c).  The lock over every shared
 * object's state: signaled/satisfied of shared objects run with it (and
 * the process's wait lock) held. */
void shsync_lock(void);
void shsync_unlock(void);

/* Lock held, after a wait by tid on obj could not be satisfied: fills
 * wv (room for max entries) with the futex words that change when obj
 * may become available to tid, each with the value it has now; returns
 * how many. */
unsigned int shsync_wait_words(struct object *obj, unsigned int tid, struct futex_waitv *wv,
			       unsigned int max);

#endif
