/* Shared named events, semaphores and mutexes (see shsync.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/futex.h"
#include "core/klock.h"
#include "core/shm.h"
#include "core/shsync.h"
#include "core/sync.h"
#include "core/thread.h"

#define SHSYNC_MAGIC 0x6e797368u /* "hsyn" */
#define PAGE 4096

struct shsync_page {
	uint32_t magic;
	uint32_t type;       /* enum shsync_type */
	_Atomic uint32_t seq; /* bumped by every change that may satisfy a waiter */
	uint32_t manual;
	int32_t count;       /* event: 0/1; semaphore: its count */
	int32_t maximum;
	uint32_t owner;      /* mutex: the owner's Linux tid (unique across processes), 0: free */
	uint32_t recursion;
	uint32_t abandoned;  /* mutex: its owner died; the next owner is told */
	/* mutex: held by the owner thread while it owns the mutex; the
	 * kernel's robust list sets FUTEX_OWNER_DIED in its word when that
	 * thread dies holding it. */
	pthread_mutex_t robust;
};

_Static_assert(sizeof(struct shsync_page) <= PAGE, "one page");

struct shsync {
	struct object obj;
	struct shsync_page *page;
	int fd;
	char *path;
};

static struct shsync *to_shsync(struct object *obj) { return container_of(obj, struct shsync, obj); }

/* The entry points also get promoted in-process objects (core/promote.c),
 * which stand in for their shared twin. */
static struct shsync *shsync_of(struct object *obj) { return to_shsync(sync_shared_target(obj)); }

static _Atomic uint32_t *robust_word(struct shsync_page *p)
{
	/* glibc keeps the owner tid and the FUTEX_* bits of a robust mutex
	 * in its first int, the word the kernel's robust list handles. */
	return (_Atomic uint32_t *)&p->robust.__data.__lock;
}

/* The lock over all shared state. */

struct lock_page {
	pthread_mutex_t m;
};

static struct lock_page *the_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

static int init_robust(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	int err;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	err = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return err;
}

static int init_lock_page(int fd, void *ctx)
{
	struct lock_page *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int err;

	if (p == MAP_FAILED)
		return -1;
	err = init_robust(&p->m);
	munmap(p, PAGE);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static DWORD lock_error;

static void open_lock(void)
{
	static const WCHAR lock_name[] = u"lock";
	bool existed;
	char *path;
	void *p;
	int fd;

	/* Kind "synclock" cannot clash with an object's name: those are
	 * "sync-<name>". */
	fd = shm_open_named_init("synclock", lock_name, true, PAGE, init_lock_page, NULL, &existed,
				 &lock_error, &path);
	if (fd < 0)
		return;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		lock_error = ERROR_NOT_ENOUGH_MEMORY;
		shm_close_named(fd, path);
		return;
	}
	/* fd stays open (its shared flock held) for the life of the
	 * process, which keeps the segment. */
	free(path);
	the_lock = p;
}

/* Every shared object is made or opened only once the lock is there, so
 * shsync_lock needs no check. */
static bool lock_ready(void)
{
	pthread_once(&lock_once, open_lock);
	if (!the_lock)
		SetLastError(lock_error);
	return the_lock != NULL;
}

void shsync_lock(void)
{
	int err;

	suspend_hold();
	err = pthread_mutex_lock(&the_lock->m);
	/* A process died inside a state change: the change was a few
	 * stores, which its next holder finds done or not done. */
	if (err == EOWNERDEAD)
		pthread_mutex_consistent(&the_lock->m);
}

void shsync_unlock(void)
{
	pthread_mutex_unlock(&the_lock->m);
	suspend_allow();
}

/* Lock held: wakes every waiter of p, in every process. */
static void changed(struct shsync_page *p)
{
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_release);
}

static void wake_all(struct shsync_page *p)
{
	syscall(SYS_futex, &p->seq, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Owners without their robust lock.  A promoted mutex owned by a thread
 * other than the promoting one (core/promote.c) cannot take the robust
 * lock for it: only the owner thread can put a lock on its own robust
 * list.  That thread takes it at its next acquisition; until then its
 * exit abandons the mutex here (shsync_thread_exit).  Shared lock. */

struct pending_owner {
	struct pending_owner *next;
	struct shsync_page *page; /* kept mapped while its owner lives (shared_destroy) */
	uint32_t tid;
};

static struct pending_owner *pending;
static _Atomic bool any_pending;

static bool robust_held_by(struct shsync_page *p, uint32_t tid)
{
	return (atomic_load_explicit(robust_word(p), memory_order_acquire) & FUTEX_TID_MASK) == tid;
}

static void pending_drop(struct shsync_page *p)
{
	struct pending_owner **link = &pending, *e;

	while ((e = *link)) {
		if (e->page == p) {
			*link = e->next;
			free(e);
		} else {
			link = &e->next;
		}
	}
	atomic_store_explicit(&any_pending, pending != NULL, memory_order_relaxed);
}

/* The owner thread itself, acquiring again: the robust lock is free
 * (only owners hold it). */
static void take_pending(struct shsync_page *p, uint32_t tid)
{
	int err = pthread_mutex_trylock(&p->robust);

	if (err == EOWNERDEAD)
		pthread_mutex_consistent(&p->robust);
	else if (err)
		ndrun_error("shared mutex: robust lock error %d", err);
	pending_drop(p);
}

void shsync_thread_exit(DWORD tid)
{
	struct pending_owner **link = &pending, *e;

	if (!atomic_load_explicit(&any_pending, memory_order_relaxed))
		return;
	shsync_lock();
	while ((e = *link)) {
		struct shsync_page *p = e->page;

		if (tid && e->tid != tid) {
			link = &e->next;
			continue;
		}
		*link = e->next;
		free(e);
		if (p->owner && !robust_held_by(p, p->owner)) {
			TRACE(sync, "mutex %p: owner %u exited holding it\n", (void *)p, p->owner);
			p->owner = 0;
			p->recursion = 0;
			p->abandoned = 1;
			changed(p);
			wake_all(p);
		}
	}
	atomic_store_explicit(&any_pending, pending != NULL, memory_order_relaxed);
	shsync_unlock();
}

/* Object operations (wait lock and shsync lock held). */

/* A mutex whose owner thread died holding it (the kernel marked the
 * robust word): made free and abandoned, and every waiter woken, by
 * whoever sees it first, so no waiter depends on the one the kernel
 * woke. */
static void reap_dead_owner(struct shsync_page *p)
{
	int err;

	if (!p->owner || !(atomic_load_explicit(robust_word(p), memory_order_acquire) & FUTEX_OWNER_DIED))
		return;
	err = pthread_mutex_trylock(&p->robust);
	if (err != EOWNERDEAD) {
		if (!err)
			pthread_mutex_unlock(&p->robust);
		return;
	}
	pthread_mutex_consistent(&p->robust);
	pthread_mutex_unlock(&p->robust);
	TRACE(sync, "mutex %p: owner %u died\n", (void *)p, p->owner);
	p->owner = 0;
	p->recursion = 0;
	p->abandoned = 1;
	changed(p);
	wake_all(p);
}

static bool shared_signaled(struct object *obj, unsigned int tid)
{
	struct shsync_page *p = to_shsync(obj)->page;

	switch (p->type) {
	case SHSYNC_EVENT:
	case SHSYNC_SEMAPHORE:
		return p->count > 0;
	default:
		reap_dead_owner(p);
		return !p->owner || p->owner == tid;
	}
}

/* Only ever for the calling thread's own wait (wait.c never satisfies
 * a wait on shared objects for another thread), so a mutex's robust lock
 * is taken by its new owner itself. */
static bool shared_satisfied(struct object *obj, unsigned int tid)
{
	struct shsync_page *p = to_shsync(obj)->page;
	bool abandoned;
	int err;

	switch (p->type) {
	case SHSYNC_EVENT:
		if (!p->manual)
			p->count = 0;
		return false;
	case SHSYNC_SEMAPHORE:
		p->count--;
		return false;
	default:
		if (p->owner == tid) {
			p->recursion++;
			if (!robust_held_by(p, tid))
				take_pending(p, tid);
			return false;
		}
		/* Free (signaled said so): only owners hold the robust lock. */
		err = pthread_mutex_trylock(&p->robust);
		if (err == EOWNERDEAD)
			pthread_mutex_consistent(&p->robust);
		else if (err)
			ndrun_error("shared mutex: robust lock error %d", err);
		abandoned = p->abandoned || err == EOWNERDEAD;
		p->abandoned = 0;
		p->owner = tid;
		p->recursion = 1;
		return abandoned;
	}
}

/* Whether tid is a live thread of this process. */
static bool own_thread(uint32_t tid)
{
	return !syscall(SYS_tgkill, getpid(), tid, 0);
}

static void shared_destroy(struct object *obj)
{
	struct shsync *s = to_shsync(obj);
	bool keep = false;

	/* A mutex this process's thread still owns stays mapped: the
	 * thread's robust list points into the page, and its death must
	 * still reach the other processes. */
	if (s->page->type == SHSYNC_MUTEX) {
		shsync_lock();
		keep = s->page->owner && own_thread(s->page->owner);
		shsync_unlock();
	}
	if (!keep)
		munmap(s->page, PAGE);
	shm_close_named(s->fd, s->path);
	free(s);
}

const struct object_ops shared_event_ops = {
	.type_name = "shared event",
	.signaled = shared_signaled,
	.satisfied = shared_satisfied,
	.destroy = shared_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

const struct object_ops shared_semaphore_ops = {
	.type_name = "shared semaphore",
	.signaled = shared_signaled,
	.satisfied = shared_satisfied,
	.destroy = shared_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

const struct object_ops shared_mutex_ops = {
	.type_name = "shared mutex",
	.signaled = shared_signaled,
	.satisfied = shared_satisfied,
	.destroy = shared_destroy,
	.wait_access = SYNCHRONIZE,
	.cross_process = true,
};

static const struct object_ops *ops_of(uint32_t type)
{
	return type == SHSYNC_EVENT ? &shared_event_ops
	       : type == SHSYNC_SEMAPHORE ? &shared_semaphore_ops
	       : &shared_mutex_ops;
}

/* Making and opening. */

struct create_ctx {
	const struct shsync_init *init;
	struct shsync_page *page; /* the mapping init made, kept if ours wins */
};

static void discard(struct shsync_page *p)
{
	if (p->type == SHSYNC_MUTEX && p->owner)
		pthread_mutex_unlock(&p->robust);
	munmap(p, PAGE);
}

/* Runs in the creating thread before the segment gets its name, so an
 * initial owner holds the robust lock before anyone can see the mutex. */
static int init_page(int fd, void *arg)
{
	struct create_ctx *ctx = arg;
	const struct shsync_init *in = ctx->init;
	struct shsync_page *p;
	int err;

	if (ctx->page) {
		discard(ctx->page);
		ctx->page = NULL;
	}
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	p->type = in->type;
	p->manual = in->manual;
	if (in->type == SHSYNC_MUTEX) {
		err = init_robust(&p->robust);
		if (!err && in->initial && !(err = pthread_mutex_trylock(&p->robust))) {
			p->owner = thread_current_id();
			p->recursion = 1;
		}
		if (err) {
			munmap(p, PAGE);
			errno = err;
			return -1;
		}
	} else {
		p->count = in->initial;
		p->maximum = in->maximum;
	}
	p->magic = SHSYNC_MAGIC;
	ctx->page = p;
	return 0;
}

static struct object *wrap(int fd, char *path, struct shsync_page *page)
{
	struct shsync *s;

	if (!page) {
		page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (page == MAP_FAILED) {
			SetLastError(ERROR_NOT_ENOUGH_MEMORY);
			shm_close_named(fd, path);
			return NULL;
		}
	}
	/* Made by another program using the same folder, or cut short. */
	if (page->magic != SHSYNC_MAGIC || page->type < SHSYNC_EVENT || page->type > SHSYNC_MUTEX) {
		munmap(page, PAGE);
		shm_close_named(fd, path);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	s = malloc(sizeof(*s));
	if (!s) {
		munmap(page, PAGE);
		shm_close_named(fd, path);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&s->obj, ops_of(page->type));
	s->page = page;
	s->fd = fd;
	s->path = path;
	return &s->obj;
}

/* Names are one namespace across types: a file mapping, or an object
 * only this process names (a waitable timer, a job), takes it too. */
static bool other_kind_named(const WCHAR *name)
{
	struct object *local;

	if (shm_named_exists("map", name))
		return true;
	local = namespace_find_object(name);
	if (local)
		object_unref(local);
	return local != NULL;
}

struct object *shsync_create(const WCHAR *name, const struct shsync_init *init, bool *existed)
{
	struct create_ctx ctx = { init, NULL };
	struct object *obj;
	char *path;
	DWORD err;
	int fd;

	*existed = false;
	if (!lock_ready())
		return NULL;
	if (other_kind_named(name)) {
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	fd = shm_open_named_init("sync", name, true, PAGE, init_page, &ctx, existed, &err, &path);
	if (fd < 0) {
		if (ctx.page)
			discard(ctx.page);
		SetLastError(err);
		return NULL;
	}
	if (*existed && ctx.page) {
		discard(ctx.page);
		ctx.page = NULL;
	}
	obj = wrap(fd, path, ctx.page);
	if (obj && obj->ops != ops_of(init->type)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	TRACE(sync, "%s %s%s\n", ops_of(init->type)->type_name, debugstr_w(name), *existed ? " (existed)" : "");
	return obj;
}

struct object *shsync_open(const WCHAR *name, enum shsync_type type)
{
	struct object *obj;
	bool existed;
	char *path;
	DWORD err;
	int fd;

	if (!lock_ready())
		return NULL;
	fd = shm_open_named("sync", name, false, 0, &existed, &err, &path);
	if (fd < 0) {
		SetLastError(err == ERROR_FILE_NOT_FOUND && other_kind_named(name) ? ERROR_INVALID_HANDLE : err);
		return NULL;
	}
	obj = wrap(fd, path, NULL);
	if (obj && obj->ops != ops_of(type)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return obj;
}

struct object *shsync_create_unnamed(enum shsync_type type)
{
	struct shsync_page *p;
	int fd, err;

	if (!lock_ready())
		return NULL;
	/* No name, so no segment file: the memfd lives while a process
	 * holds it, and travels by SCM_RIGHTS or inheritance. */
	fd = memfd_create("ndshim-sync", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, PAGE)) {
		err = errno;
		if (fd >= 0)
			close(fd);
		SetLastError(err == ENOMEM || err == ENOSPC ? ERROR_NOT_ENOUGH_MEMORY : ERROR_TOO_MANY_OPEN_FILES);
		return NULL;
	}
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	p->type = type;
	if (type == SHSYNC_MUTEX && (err = init_robust(&p->robust))) {
		munmap(p, PAGE);
		close(fd);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	p->magic = SHSYNC_MAGIC;
	return wrap(fd, NULL, p);
}

void shsync_adopt_locked(struct object *obj, const struct shsync_state *st)
{
	struct shsync_page *p = to_shsync(obj)->page;
	uint32_t self = thread_current_id();
	struct pending_owner *e;
	int err;

	shsync_lock();
	p->manual = st->manual;
	p->count = st->count;
	p->maximum = st->maximum;
	if (p->type == SHSYNC_MUTEX) {
		p->abandoned = st->abandoned;
		p->owner = st->owner;
		p->recursion = st->owner ? st->recursion : 0;
		if (st->owner == self) {
			err = pthread_mutex_trylock(&p->robust);
			if (err)
				ndrun_error("shared mutex: robust lock error %d", err);
		} else if (st->owner) {
			/* Out of memory: that thread's exit goes unreported
			 * unless it acquires the mutex again first. */
			e = malloc(sizeof(*e));
			if (!e) {
				shsync_unlock();
				return;
			}
			e->page = p;
			e->tid = st->owner;
			e->next = pending;
			pending = e;
			atomic_store_explicit(&any_pending, true, memory_order_relaxed);
		}
	}
	shsync_unlock();
}

bool shsync_name_taken(const WCHAR *name)
{
	return shm_named_exists("sync", name);
}

/* Signaling. */

void shsync_event_set(struct object *obj)
{
	struct shsync_page *p = shsync_of(obj)->page;

	shsync_lock();
	p->count = 1;
	changed(p);
	shsync_unlock();
	wake_all(p);
}

void shsync_event_reset(struct object *obj)
{
	struct shsync_page *p = shsync_of(obj)->page;

	shsync_lock();
	p->count = 0;
	shsync_unlock();
}

/* Waiters run in their own threads (and processes) and look at the state
 * only once they run, after the pulse reset it: a pulse wakes them but
 * satisfies none.  PulseEvent is documented as unreliable for that very
 * reason; only in-process events give it its exact meaning. */
void shsync_event_pulse(struct object *obj)
{
	struct shsync_page *p = shsync_of(obj)->page;

	shsync_lock();
	p->count = 0;
	changed(p);
	shsync_unlock();
	wake_all(p);
}

BOOL shsync_semaphore_release(struct object *obj, LONG count, LONG *previous)
{
	struct shsync_page *p = shsync_of(obj)->page;
	LONG prev;

	if (count <= 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	shsync_lock();
	prev = p->count;
	if (count > p->maximum - prev) {
		shsync_unlock();
		SetLastError(ERROR_TOO_MANY_POSTS);
		return FALSE;
	}
	p->count = prev + count;
	changed(p);
	shsync_unlock();
	wake_all(p);
	if (previous)
		*previous = prev;
	return TRUE;
}

BOOL shsync_mutex_release(struct object *obj)
{
	struct shsync_page *p = shsync_of(obj)->page;

	shsync_lock();
	if (p->owner != thread_current_id()) {
		shsync_unlock();
		SetLastError(ERROR_NOT_OWNER);
		return FALSE;
	}
	if (!--p->recursion) {
		if (robust_held_by(p, p->owner))
			pthread_mutex_unlock(&p->robust);
		else
			pending_drop(p);
		p->owner = 0;
		changed(p);
	}
	shsync_unlock();
	wake_all(p);
	return TRUE;
}

unsigned int shsync_wait_words(struct object *obj, unsigned int tid, struct futex_waitv *wv,
			       unsigned int max)
{
	struct shsync_page *p = shsync_of(obj)->page;
	unsigned int n = 0;
	uint32_t w;

	if (!max)
		return 0;
	wv[n++] = (struct futex_waitv){
		.val = atomic_load_explicit(&p->seq, memory_order_acquire),
		.uaddr = (uintptr_t)&p->seq,
		.flags = FUTEX_32,
	};
	if (p->type != SHSYNC_MUTEX || n == max)
		return n;
	/* The owner's death changes no sequence word: the kernel wakes
	 * one sleeper on the robust word, and only if FUTEX_WAITERS is set
	 * in it.  That sleeper then finds the owner dead, and its own wait
	 * or the next release wakes the others. */
	w = atomic_load_explicit(robust_word(p), memory_order_acquire);
	if (w & FUTEX_OWNER_DIED) {
		/* Died since signaled looked: this bumps seq past the value
		 * just taken, so the wait returns at once. */
		reap_dead_owner(p);
		return n;
	}
	if (!(w & FUTEX_TID_MASK))
		return n;
	if (!(w & FUTEX_WAITERS) &&
	    atomic_compare_exchange_strong(robust_word(p), &w, w | FUTEX_WAITERS))
		w |= FUTEX_WAITERS;
	/* A failed exchange leaves w stale: the wait returns at once. */
	wv[n++] = (struct futex_waitv){ .val = w, .uaddr = (uintptr_t)robust_word(p), .flags = FUTEX_32 };
	return n;
}

bool shsync_export(struct object *obj, enum shsync_type *type, int *fd, const char **path)
{
	struct shsync *s;

	if (!obj->ops->cross_process)
		return false;
	s = shsync_of(obj);
	*type = (enum shsync_type)s->page->type;
	*fd = s->fd;
	*path = s->path;
	return true;
}

struct object *shsync_import(int fd, char *path, enum shsync_type type)
{
	struct object *obj;

	if (!lock_ready()) {
		shm_close_named(fd, path);
		return NULL;
	}
	obj = wrap(fd, path, NULL);
	if (obj && obj->ops != ops_of(type)) {
		object_unref(obj);
		SetLastError(ERROR_INVALID_HANDLE);
		return NULL;
	}
	return obj;
}
