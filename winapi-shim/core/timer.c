/* Waitable timers: kernel objects signaled at a due time, optionally
 * again every period, optionally queuing an APC to the thread that set
 * them.
 *
 * One timer thread (started on first use) sleeps until the earliest due
 * time of the armed timers, kept in due order in `armed`.  Lock order:
 * timers_lock, then the wait lock; never the reverse.  An armed timer
 * holds a reference on itself (dropped when it disarms), so a timer fires
 * even while no handle names it ... until its last handle closes, which
 * cancels it: nothing could wait on it any more.
 *
 * Due times are kept on CLOCK_MONOTONIC: an absolute due time (a UTC
 * FILETIME) is converted when the timer is set, so a later change of
 * the system clock does not move it (Windows would follow the clock). */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "core/debug.h"
#include "core/klock.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "core/pecall.h"

#define EPOCH_DIFF 116444736000000000ull

struct timer {
	struct object obj;
	bool manual_reset;
	bool signaled;           /* wait lock */
	/* timers_lock: */
	bool armed;
	uint64_t due;            /* CLOCK_MONOTONIC, ns */
	uint64_t period;         /* ns, 0: one-shot */
	PTIMERAPCROUTINE routine;
	void *arg;
	struct thread *apc_thread; /* referenced while armed with a routine */
	struct timer_apc *queued; /* the timer's APC not run yet (at most one) */
	unsigned int generation; /* Set and Cancel outdate queued APCs */
	struct list entry;       /* in armed */
};

static void WINAPI timer_apc(ULONG_PTR data);

struct timer_apc {
	struct thread *thread;
	struct timer *timer;
	unsigned int generation;
	PTIMERAPCROUTINE routine;
	void *arg;
	DWORD low, high;
};

static struct list armed = LIST_INIT(armed);
/* A kernel lock (klock.h) for program threads, which SuspendThread may
 * stop; the timer thread, never suspended, takes it plainly, as its
 * condition waits must. */
static pthread_mutex_t timers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timers_cond;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static bool thread_ok;

static struct timer *to_timer(struct object *obj) { return container_of(obj, struct timer, obj); }

static uint64_t now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static ULONGLONG now_filetime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (ULONGLONG)ts.tv_sec * 10000000ull + ts.tv_nsec / 100 + EPOCH_DIFF;
}

static bool timer_signaled(struct object *obj, unsigned int tid)
{
	return to_timer(obj)->signaled;
}

/* A synchronization timer releases one waiter per expiry. */
static bool timer_satisfied(struct object *obj, unsigned int tid)
{
	struct timer *t = to_timer(obj);

	if (!t->manual_reset)
		t->signaled = false;
	return false;
}

/* timers_lock held.  Set and Cancel take back the APC of an earlier
 * expiry that has not run yet; the caller drops the timer reference it
 * held (*unref), outside the lock.  One already being run is outdated by
 * the generation instead. */
static void drop_queued_locked(struct timer *t, bool *unref)
{
	struct timer_apc *a = t->queued;

	t->queued = NULL;
	*unref = false;
	if (a && apc_remove(a->thread, (PAPCFUNC)timer_apc, (ULONG_PTR)a)) {
		object_unref(&a->thread->obj);
		free(a);
		*unref = true;
	}
}

/* timers_lock held.  Drops what arming took; the caller drops the
 * timer's self-reference (outside the lock: it may be the last). */
static void disarm_locked(struct timer *t, struct thread **apc_thread)
{
	list_remove(&t->entry);
	t->armed = false;
	*apc_thread = t->apc_thread;
	t->apc_thread = NULL;
}

void waitable_timer_cancel(struct object *obj)
{
	struct timer *t = to_timer(obj);
	struct thread *th = NULL;
	bool was_armed, unref_apc;

	klock(&timers_lock);
	was_armed = t->armed;
	if (was_armed)
		disarm_locked(t, &th);
	t->generation++;
	drop_queued_locked(t, &unref_apc);
	kunlock(&timers_lock);
	if (th)
		object_unref(&th->obj);
	if (unref_apc)
		object_unref(obj);
	if (was_armed)
		object_unref(obj);
}

static void timer_close_handle(struct object *obj, unsigned int handles_left)
{
	/* The last handle gone: nothing may fire or queue an APC for a timer
	 * nobody can name. */
	if (!handles_left)
		waitable_timer_cancel(obj);
}

static void timer_destroy(struct object *obj)
{
	namespace_remove(obj);
	free(to_timer(obj));
}

const struct object_ops timer_ops = {
	.type_name = "timer",
	.signaled = timer_signaled,
	.satisfied = timer_satisfied,
	.close_handle = timer_close_handle,
	.destroy = timer_destroy,
	.wait_access = SYNCHRONIZE,
};

struct object *waitable_timer_create(bool manual_reset)
{
	struct timer *t = calloc(1, sizeof(*t));

	if (!t) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	object_init(&t->obj, &timer_ops);
	t->manual_reset = manual_reset;
	list_init(&t->entry);
	return &t->obj;
}

/* Runs in the thread that set the timer, in an alertable wait. */
static void WINAPI timer_apc(ULONG_PTR data)
{
	struct timer_apc *a = (struct timer_apc *)data;
	bool current;

	klock(&timers_lock);
	current = a->generation == a->timer->generation;
	if (a->timer->queued == a)
		a->timer->queued = NULL;
	kunlock(&timers_lock);
	if (current)
		PE_CALL3(a->routine, a->arg, a->low, a->high);
	object_unref(&a->thread->obj);
	object_unref(&a->timer->obj);
	free(a);
}

/* timers_lock held. */
static void insert_locked(struct timer *t)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &armed)
		if (LIST_ENTRY(cur, struct timer, entry)->due > t->due)
			break;
	list_add_before(cur, &t->entry);
	if (armed.next == &t->entry)
		pthread_cond_signal(&timers_cond);
}

/* timers_lock held: t is due.  Signals it, queues its APC, rearms a
 * periodic timer.  Returns the thread reference to drop (one-shot) and
 * whether the self-reference must be dropped. */
static bool fire_locked(struct timer *t, uint64_t now, struct thread **drop_thread)
{
	ULONGLONG ft = now_filetime();

	list_remove(&t->entry);
	wait_lock();
	t->signaled = true;
	wait_wake_object(&t->obj);
	wait_unlock();
	if (t->routine && t->apc_thread && !t->queued) {
		struct timer_apc *a = malloc(sizeof(*a));

		if (a) {
			a->thread = to_thread(object_ref(&t->apc_thread->obj));
			a->timer = to_timer(object_ref(&t->obj));
			a->generation = t->generation;
			a->routine = t->routine;
			a->arg = t->arg;
			a->low = (DWORD)ft;
			a->high = (DWORD)(ft >> 32);
			if (apc_queue(t->apc_thread, (PAPCFUNC)timer_apc, (ULONG_PTR)a)) {
				t->queued = a;
			} else {
				object_unref(&a->thread->obj);
				object_unref(&t->obj);
				free(a);
			}
		}
	}
	TRACE(sync, "timer %p fired, period %llu ns\n", t, (unsigned long long)t->period);
	if (t->period) {
		/* Missed periods are skipped, not replayed in a burst. */
		do
			t->due += t->period;
		while (t->due <= now);
		insert_locked(t);
		return false;
	}
	t->armed = false;
	*drop_thread = t->apc_thread;
	t->apc_thread = NULL;
	return true;
}

static void *timer_thread(void *unused)
{
	pthread_mutex_lock(&timers_lock);
	for (;;) {
		struct timer *t;
		uint64_t now;

		if (list_empty(&armed)) {
			pthread_cond_wait(&timers_cond, &timers_lock);
			continue;
		}
		t = LIST_ENTRY(armed.next, struct timer, entry);
		now = now_mono();
		if (t->due > now) {
			struct timespec ts = { t->due / 1000000000ull, t->due % 1000000000ull };

			pthread_cond_timedwait(&timers_cond, &timers_lock, &ts);
			continue;
		}
		struct thread *th = NULL;
		if (fire_locked(t, now, &th)) {
			/* Drop references without the lock: the last one
			 * destroys the timer. */
			pthread_mutex_unlock(&timers_lock);
			if (th)
				object_unref(&th->obj);
			object_unref(&t->obj);
			pthread_mutex_lock(&timers_lock);
		}
	}
	return NULL;
}

static void start_thread(void)
{
	pthread_condattr_t attr;
	pthread_t tid;
	sigset_t all, old;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&timers_cond, &attr);
	pthread_condattr_destroy(&attr);
	/* Signals belong to the program's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	thread_ok = !pthread_create(&tid, NULL, timer_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (thread_ok)
		pthread_detach(tid);
}

BOOL waitable_timer_set(struct object *obj, LONGLONG due, LONG period_ms, PTIMERAPCROUTINE routine, void *arg)
{
	struct timer *t = to_timer(obj);
	struct thread *self = routine ? thread_current() : NULL, *old_thread = NULL;
	uint64_t now = now_mono(), when;
	bool was_armed, unref_apc;

	if (period_ms < 0) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	pthread_once(&thread_once, start_thread);
	if (!thread_ok) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	if (due < 0) {
		when = now + (uint64_t)(-due) * 100;
	} else {
		ULONGLONG ft = now_filetime();

		when = (ULONGLONG)due > ft ? now + ((ULONGLONG)due - ft) * 100 : now;
	}
	if (self)
		object_ref(&self->obj);
	klock(&timers_lock);
	was_armed = t->armed;
	if (was_armed)
		disarm_locked(t, &old_thread);
	else
		object_ref(obj); /* the armed timer's self-reference */
	t->generation++;
	drop_queued_locked(t, &unref_apc);
	wait_lock();
	t->signaled = false;
	wait_unlock();
	t->due = when;
	t->period = (uint64_t)period_ms * 1000000ull;
	t->routine = routine;
	t->arg = arg;
	t->apc_thread = self;
	t->armed = true;
	insert_locked(t);
	kunlock(&timers_lock);
	if (old_thread)
		object_unref(&old_thread->obj);
	if (unref_apc)
		object_unref(obj);
	TRACE(sync, "timer %p due in %lld ns, period %d ms, apc %p\n", t, (long long)(when - now),
	      period_ms, routine);
	return TRUE;
}

