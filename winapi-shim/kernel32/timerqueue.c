/* Timer queues (threadpoollegacyapiset.h): CreateTimerQueue,
 * CreateTimerQueueTimer, ChangeTimerQueueTimer, DeleteTimerQueueTimer,
 * DeleteTimerQueue(Ex), and the older SetTimerQueueTimer /
 * CancelTimerQueueTimer; and the Vista pool's timers (TP_TIMER:
 * CreateThreadpoolTimer and its family), which are the same timers with
 * another callback and no queue of their own.
 *
 * One timer thread (an ndshim thread with a TEB, started on first use)
 * sleeps until the earliest due time of every queue's armed timers.  A
 * timer that is due is handed to the thread pool (QueueUserWorkItem), or
 * run by the timer thread itself with WT_EXECUTEINTIMERTHREAD.  Queue
 * and timer handles are not kernel handles, as on Windows; they are
 * looked up in the lists here, never dereferenced unchecked, so a stale
 * or made-up one fails with ERROR_INVALID_HANDLE.
 *
 * Deletion follows the documented protocol: a timer whose callbacks are
 * still queued or running is marked and freed by its last callback.
 * With INVALID_HANDLE_VALUE the caller waits for them; with an event,
 * the event is set when they are done; with NULL nobody is told.  Both
 * non-blocking forms fail with ERROR_IO_PENDING while callbacks are
 * outstanding ("no need to call again").  A blocking delete of the timer
 * whose callback the caller is running cannot wait for itself: it is
 * refused the same way instead of deadlocking.
 *
 * Due times are on CLOCK_MONOTONIC.  A periodic timer whose callbacks
 * fall behind skips the periods it missed rather than firing a burst. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "core/debug.h"
#include "core/list.h"
#include "core/thread.h"
#include "kernel32/kernel32_private.h"
#include "core/pecall.h"

#define WT_FLAGS_KNOWN                                                                                   \
	(WT_EXECUTEINIOTHREAD | WT_EXECUTEINUITHREAD | WT_EXECUTEINWAITTHREAD | WT_EXECUTEONLYONCE |     \
	 WT_EXECUTELONGFUNCTION | WT_EXECUTEINTIMERTHREAD | WT_EXECUTEINPERSISTENTIOTHREAD |             \
	 WT_EXECUTEINPERSISTENTTHREAD | WT_TRANSFER_IMPERSONATION)

struct timer_queue {
	struct list timers;  /* struct tq_timer, lock */
	struct list entry;   /* in queues */
	bool deleted;
	bool waiter;         /* a blocking delete frees it, not its last timer */
	HANDLE done_event;   /* set when its last timer is freed */
};

struct tq_timer {
	struct _TP_TIMER *tp; /* a TP_TIMER's (which embeds it); NULL: a queue's */
	struct timer_queue *queue;
	WAITORTIMERCALLBACK callback;
	void *param;
	ULONG flags;
	bool armed, fired, deleted;
	uint64_t due, period; /* CLOCK_MONOTONIC ns; period 0: once */
	unsigned int running; /* callbacks queued or running */
	unsigned int waiters; /* blocking deletes waiting for them (keep it) */
	HANDLE done_event;    /* set when the last of them returns */
	struct list entry;    /* in queue->timers */
	struct list armed_entry; /* in armed, by due time */
};

/* A TP_TIMER: its callback, and a generation that outdates callbacks
 * queued before WaitForThreadpoolTimerCallbacks cancelled them. */
struct _TP_TIMER {
	struct tq_timer timer; /* first: freed as one */
	PTP_TIMER_CALLBACK callback;
	void *context;
	unsigned int generation; /* lock */
};

/* Opaque to callbacks: the instance functions are not implemented. */
struct _TP_CALLBACK_INSTANCE {
	int unused;
};
static struct _TP_CALLBACK_INSTANCE tp_instance;

/* A callback handed to the pool: the generation it was queued in. */
struct dispatch {
	struct tq_timer *t;
	unsigned int generation;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timer_cond;  /* the timer thread: armed changed */
static pthread_cond_t done_cond;   /* blocking deletes: a callback returned */
static struct list queues = LIST_INIT(queues);
static struct list armed = LIST_INIT(armed);
static struct timer_queue default_queue = { .timers = LIST_INIT(default_queue.timers) };
/* TP_TIMERs: not in queues, so no timer-queue function finds one. */
static struct timer_queue tp_queue = { .timers = LIST_INIT(tp_queue.timers) };
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static bool thread_ok;
static __thread struct tq_timer *current_timer; /* whose callback this thread runs */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* lock held: the default queue is in queues once the thread runs. */
static struct timer_queue *find_queue(HANDLE h)
{
	struct list *cur;

	if (!h)
		return &default_queue;
	LIST_FOR_EACH(cur, &queues) {
		struct timer_queue *q = LIST_ENTRY(cur, struct timer_queue, entry);

		if (q == (struct timer_queue *)h && q != &default_queue && !q->deleted)
			return q;
	}
	return NULL;
}

/* lock held: timer h of queue qh (NULL: whichever queue holds it, so
 * that a timer of another queue named with NULL is still found). */
static struct tq_timer *find_timer(HANDLE qh, HANDLE h)
{
	struct timer_queue *want = qh ? find_queue(qh) : NULL;
	struct list *qcur, *cur;

	if (qh && !want)
		return NULL;
	LIST_FOR_EACH(qcur, &queues) {
		struct timer_queue *q = LIST_ENTRY(qcur, struct timer_queue, entry);

		if (want && want != q)
			continue;
		LIST_FOR_EACH(cur, &q->timers) {
			struct tq_timer *t = LIST_ENTRY(cur, struct tq_timer, entry);

			if (t == (struct tq_timer *)h && !t->deleted)
				return t;
		}
	}
	return NULL;
}

/* lock held */
static void disarm(struct tq_timer *t)
{
	if (t->armed) {
		list_remove(&t->armed_entry);
		t->armed = false;
	}
}

/* lock held */
static void arm(struct tq_timer *t, uint64_t due)
{
	struct list *pos = &armed, *cur;

	disarm(t);
	t->due = due;
	t->armed = true;
	LIST_FOR_EACH(cur, &armed) {
		if (LIST_ENTRY(cur, struct tq_timer, armed_entry)->due > due) {
			pos = cur;
			break;
		}
	}
	list_add_before(pos, &t->armed_entry);
	pthread_cond_signal(&timer_cond);
}

/* lock held: frees what nobody can reach any more. */
static void maybe_free(struct tq_timer *t)
{
	struct timer_queue *q = t->queue;
	HANDLE ev;

	if (!t->deleted || t->running || t->waiters)
		return;
	ev = t->done_event;
	list_remove(&t->entry);
	free(t);
	if (ev && ev != INVALID_HANDLE_VALUE)
		SetEvent(ev);
	if (q->deleted && !q->waiter && list_empty(&q->timers)) {
		ev = q->done_event;
		list_remove(&q->entry);
		free(q);
		if (ev && ev != INVALID_HANDLE_VALUE)
			SetEvent(ev);
	}
}

/* A callback returned. */
static void callback_done(struct tq_timer *t)
{
	pthread_mutex_lock(&lock);
	t->running--;
	maybe_free(t);
	pthread_cond_broadcast(&done_cond);
	pthread_mutex_unlock(&lock);
}

static void run_callback(struct tq_timer *t, unsigned int generation)
{
	struct tq_timer *outer = current_timer;

	current_timer = t;
	if (!t->tp)
		PE_CALL2(t->callback, t->param, TRUE);
	else if (generation == __atomic_load_n(&t->tp->generation, __ATOMIC_RELAXED))
		PE_CALL3(t->tp->callback, &tp_instance, t->tp->context, t->tp);
	current_timer = outer;
	callback_done(t);
}

static DWORD WINAPI pool_callback(void *arg)
{
	struct dispatch d = *(struct dispatch *)arg;

	free(arg);
	run_callback(d.t, d.generation);
	return 0;
}

static DWORD WINAPI timer_thread(void *arg)
{
	pthread_mutex_lock(&lock);
	for (;;) {
		unsigned int generation;
		struct dispatch *d;
		struct tq_timer *t;
		uint64_t now = now_ns();

		if (list_empty(&armed)) {
			pthread_cond_wait(&timer_cond, &lock);
			continue;
		}
		t = LIST_ENTRY(armed.next, struct tq_timer, armed_entry);
		if (t->due > now) {
			struct timespec ts = { (time_t)(t->due / 1000000000ull), (long)(t->due % 1000000000ull) };

			pthread_cond_timedwait(&timer_cond, &lock, &ts);
			continue;
		}
		t->fired = true;
		if (t->period) {
			uint64_t due = t->due + t->period;

			arm(t, due > now ? due : now + t->period);
		} else {
			disarm(t);
		}
		t->running++;
		generation = t->tp ? t->tp->generation : 0;
		pthread_mutex_unlock(&lock);
		if (t->flags & WT_EXECUTEINTIMERTHREAD) {
			run_callback(t, generation);
		} else if (!(d = malloc(sizeof(*d))) || (d->t = t, d->generation = generation,
							 !QueueUserWorkItem(pool_callback, d, t->flags & WT_EXECUTELONGFUNCTION))) {
			ndrun_error("timer queue: cannot queue a callback (error %u)", (unsigned)GetLastError());
			free(d);
			callback_done(t);
		}
		pthread_mutex_lock(&lock);
	}
	return 0;
}

static void start_thread(void)
{
	pthread_condattr_t attr;
	struct thread *t;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&timer_cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&done_cond, NULL);
	list_add_tail(&queues, &default_queue.entry);
	if (!(t = thread_create(0, timer_thread, NULL, 0, NULL)))
		return;
	TRACE(thread, "timer queue thread %u\n", t->tid);
	object_unref(&t->obj);
	thread_ok = true;
}

static bool ensure_thread(void)
{
	pthread_once(&thread_once, start_thread);
	if (!thread_ok)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return thread_ok;
}

HANDLE WINAPI CreateTimerQueue(void)
{
	struct timer_queue *q;

	if (!ensure_thread())
		return NULL;
	if (!(q = calloc(1, sizeof(*q)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	list_init(&q->timers);
	pthread_mutex_lock(&lock);
	list_add_tail(&queues, &q->entry);
	pthread_mutex_unlock(&lock);
	TRACE(thread, "-> %p\n", (void *)q);
	return q;
}

BOOL WINAPI CreateTimerQueueTimer(PHANDLE out, HANDLE queue, WAITORTIMERCALLBACK callback, PVOID param, DWORD due,
				  DWORD period, ULONG flags)
{
	struct timer_queue *q;
	struct tq_timer *t;

	TRACE(thread, "%p, %p(%p), due %u, period %u, flags %#x\n", queue, (void *)callback, param, (unsigned)due,
	      (unsigned)period, (unsigned)flags);
	if (!out || !callback || (flags & ~WT_FLAGS_KNOWN)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (!ensure_thread())
		return FALSE;
	if (!(t = calloc(1, sizeof(*t)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	t->callback = callback;
	t->param = param;
	t->flags = flags;
	t->period = flags & WT_EXECUTEONLYONCE ? 0 : period * 1000000ull;
	pthread_mutex_lock(&lock);
	if (!(q = find_queue(queue))) {
		pthread_mutex_unlock(&lock);
		free(t);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	t->queue = q;
	list_add_tail(&q->timers, &t->entry);
	arm(t, now_ns() + due * 1000000ull);
	pthread_mutex_unlock(&lock);
	*out = t;
	return TRUE;
}

HANDLE WINAPI SetTimerQueueTimer(HANDLE queue, WAITORTIMERCALLBACK callback, PVOID param, DWORD due, DWORD period,
				 BOOL prefer_io)
{
	HANDLE t;

	if (!CreateTimerQueueTimer(&t, queue, callback, param, due, period,
				   prefer_io ? WT_EXECUTEINIOTHREAD : WT_EXECUTEDEFAULT))
		return NULL;
	return t;
}

BOOL WINAPI ChangeTimerQueueTimer(HANDLE queue, HANDLE timer, ULONG due, ULONG period)
{
	struct tq_timer *t;

	TRACE(thread, "%p, %p, due %u, period %u\n", queue, timer, (unsigned)due, (unsigned)period);
	pthread_mutex_lock(&lock);
	if (!(t = find_timer(queue, timer))) {
		pthread_mutex_unlock(&lock);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	/* A one-shot timer that has fired is not updated (documented). */
	if (!t->fired || t->period) {
		t->period = t->flags & WT_EXECUTEONLYONCE ? 0 : period * 1000000ull;
		arm(t, now_ns() + due * 1000000ull);
	}
	pthread_mutex_unlock(&lock);
	return TRUE;
}

/* lock held: cancels t and says how its deletion ends. */
static BOOL delete_timer(struct tq_timer *t, HANDLE event)
{
	disarm(t);
	t->deleted = true;
	if (event == INVALID_HANDLE_VALUE) {
		/* Its own callback cannot wait for itself. */
		if (current_timer == t) {
			SetLastError(ERROR_IO_PENDING);
			return FALSE;
		}
		t->waiters++;
		while (t->running)
			pthread_cond_wait(&done_cond, &lock);
		t->waiters--;
	} else {
		t->done_event = event;
	}
	if (t->running) {
		SetLastError(ERROR_IO_PENDING);
		return FALSE;
	}
	maybe_free(t);
	return TRUE;
}

BOOL WINAPI DeleteTimerQueueTimer(HANDLE queue, HANDLE timer, HANDLE event)
{
	struct tq_timer *t;
	BOOL ok;

	TRACE(thread, "%p, %p, %p\n", queue, timer, event);
	pthread_mutex_lock(&lock);
	if (!(t = find_timer(queue, timer))) {
		pthread_mutex_unlock(&lock);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	ok = delete_timer(t, event);
	pthread_mutex_unlock(&lock);
	return ok;
}

BOOL WINAPI CancelTimerQueueTimer(HANDLE queue, HANDLE timer)
{
	return DeleteTimerQueueTimer(queue, timer, NULL);
}

BOOL WINAPI DeleteTimerQueueEx(HANDLE queue, HANDLE event)
{
	struct list *cur, *next;
	struct timer_queue *q;
	unsigned int busy = 0;
	bool self = false;

	TRACE(thread, "%p, %p\n", queue, event);
	pthread_mutex_lock(&lock);
	/* The default queue lives as long as the process. */
	if (!queue || !(q = find_queue(queue))) {
		pthread_mutex_unlock(&lock);
		SetLastError(ERROR_INVALID_HANDLE);
		return FALSE;
	}
	q->deleted = true;
	q->done_event = event == INVALID_HANDLE_VALUE ? NULL : event;
	LIST_FOR_EACH(cur, &q->timers) {
		struct tq_timer *t = LIST_ENTRY(cur, struct tq_timer, entry);

		disarm(t);
		t->deleted = true;
		t->done_event = NULL;
		if (t->running)
			busy++;
		if (t->running && current_timer == t)
			self = true;
	}
	if (!busy) {
		q->waiter = true; /* freed here, after its timers */
		LIST_FOR_EACH_SAFE(cur, next, &q->timers)
			maybe_free(LIST_ENTRY(cur, struct tq_timer, entry));
		list_remove(&q->entry);
		free(q);
		pthread_mutex_unlock(&lock);
		if (event && event != INVALID_HANDLE_VALUE)
			SetEvent(event);
		return TRUE;
	}
	LIST_FOR_EACH_SAFE(cur, next, &q->timers) /* q outlives this: one is busy */
		maybe_free(LIST_ENTRY(cur, struct tq_timer, entry));
	if (event != INVALID_HANDLE_VALUE || self) {
		pthread_mutex_unlock(&lock);
		SetLastError(ERROR_IO_PENDING);
		return FALSE;
	}
	q->waiter = true;
	while (!list_empty(&q->timers))
		pthread_cond_wait(&done_cond, &lock);
	list_remove(&q->entry);
	free(q);
	pthread_mutex_unlock(&lock);
	return TRUE;
}

BOOL WINAPI DeleteTimerQueue(HANDLE queue)
{
	return DeleteTimerQueueEx(queue, NULL);
}

/* ---- TP_TIMER --------------------------------------------------------------- */

/* Callback environments (private pools, cleanup groups) are not
 * supported, as for the pool's other objects: every timer runs on the
 * process pool. */
PTP_TIMER WINAPI CreateThreadpoolTimer(PTP_TIMER_CALLBACK callback, PVOID context, PTP_CALLBACK_ENVIRON env)
{
	struct _TP_TIMER *tp;

	TRACE(thread, "%p(%p), env %p\n", (void *)callback, context, (void *)env);
	if (!callback) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!ensure_thread())
		return NULL;
	if (!(tp = calloc(1, sizeof(*tp)))) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	tp->callback = callback;
	tp->context = context;
	tp->timer.tp = tp;
	tp->timer.queue = &tp_queue;
	pthread_mutex_lock(&lock);
	list_add_tail(&tp_queue.timers, &tp->timer.entry);
	pthread_mutex_unlock(&lock);
	return tp;
}

/* A FILETIME due time on CLOCK_MONOTONIC: negative is relative (100 ns
 * units), 0 is now, positive an absolute UTC time. */
static uint64_t due_from_filetime(const FILETIME *ft)
{
	LONGLONG v = (LONGLONG)((ULONGLONG)ft->dwHighDateTime << 32 | ft->dwLowDateTime);
	struct timespec ts;
	LONGLONG now_ft;

	if (v <= 0)
		return now_ns() + (uint64_t)(-v) * 100;
	clock_gettime(CLOCK_REALTIME, &ts);
	now_ft = (LONGLONG)ts.tv_sec * 10000000 + ts.tv_nsec / 100 + 116444736000000000ll;
	return now_ns() + (v > now_ft ? (uint64_t)(v - now_ft) * 100 : 0);
}

/* The window (how late the callback may come, to batch timers) is a
 * hint: every timer here fires as close to its due time as it can. */
BOOL WINAPI SetThreadpoolTimerEx(PTP_TIMER tp, PFILETIME due, DWORD period, DWORD window)
{
	bool was;

	TRACE(thread, "%p, %p, period %u, window %u\n", (void *)tp, (void *)due, (unsigned)period, (unsigned)window);
	pthread_mutex_lock(&lock);
	was = tp->timer.armed;
	if (!due) {
		disarm(&tp->timer);
	} else {
		tp->timer.period = period * 1000000ull;
		arm(&tp->timer, due_from_filetime(due));
	}
	pthread_mutex_unlock(&lock);
	return was;
}

VOID WINAPI SetThreadpoolTimer(PTP_TIMER tp, PFILETIME due, DWORD period, DWORD window)
{
	SetThreadpoolTimerEx(tp, due, period, window);
}

BOOL WINAPI IsThreadpoolTimerSet(PTP_TIMER tp)
{
	bool set;

	pthread_mutex_lock(&lock);
	set = tp->timer.armed;
	pthread_mutex_unlock(&lock);
	return set;
}

/* Waits for its callbacks (not for itself when called from one);
 * cancel: those queued and not started yet do not run. */
VOID WINAPI WaitForThreadpoolTimerCallbacks(PTP_TIMER tp, BOOL cancel)
{
	struct tq_timer *t = &tp->timer;
	unsigned int self = current_timer == t;

	pthread_mutex_lock(&lock);
	if (cancel)
		__atomic_store_n(&tp->generation, tp->generation + 1, __ATOMIC_RELAXED);
	t->waiters++;
	while (t->running > self)
		pthread_cond_wait(&done_cond, &lock);
	t->waiters--;
	maybe_free(t);
	pthread_mutex_unlock(&lock);
}

/* Freed once its callbacks are done, as Windows does. */
VOID WINAPI CloseThreadpoolTimer(PTP_TIMER tp)
{
	TRACE(thread, "%p\n", (void *)tp);
	pthread_mutex_lock(&lock);
	disarm(&tp->timer);
	tp->timer.deleted = true;
	maybe_free(&tp->timer);
	pthread_mutex_unlock(&lock);
}
