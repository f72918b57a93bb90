/* CancelSynchronousIo's machinery (see core/syncio.h).
 *
 * Each thread's slot lives in its TLS and is on the list of blocked
 * threads only between syncio_begin_* and syncio_end, so a canceller
 * that finds it under syncio_lock knows the thread is alive and inside
 * the bracket.  Signals go out only then, under the lock; syncio_end
 * takes the lock to leave the list and then waits until every signal
 * sent to it has been handled, so none lands on a later system call of
 * the thread's.
 *
 * The fd case has a window: the thread checks syncio_cancelled and then
 * enters the system call; a signal in between finds no call to
 * interrupt.  The canceller therefore keeps signalling (every
 * millisecond) until the thread has left the bracket. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <stdatomic.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WIN32_NO_STATUS /* the STATUS_* values come from ntstatus.h */
#include "core/debug.h"
#include "core/klock.h"
#include "core/list.h"
#include "core/object.h"
#include "core/overlapped.h"
#include "core/syncio.h"
#include "core/thread.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

enum syncio_kind { SYNCIO_FD, SYNCIO_REQUEST };

struct syncio {
	struct list entry;         /* in blocked; syncio_lock */
	DWORD tid;
	enum syncio_kind kind;
	struct io_target *target;  /* SYNCIO_REQUEST */
	OVERLAPPED *ov;
	unsigned int gen;          /* brackets begun; syncio_lock */
	_Atomic bool cancel;
	_Atomic unsigned int sent; /* signals sent to the thread */
};

static pthread_mutex_t syncio_lock = PTHREAD_MUTEX_INITIALIZER;
static struct list blocked = LIST_INIT(blocked);
static pthread_once_t sig_once = PTHREAD_ONCE_INIT;
static int sig_cancel;

static __thread struct syncio slot;
static __thread _Atomic unsigned int delivered;

/* Its only job is to be there: a handled signal without SA_RESTART makes
 * the blocked system call return EINTR. */
static void syncio_handler(int sig)
{
	(void)sig;
	atomic_fetch_add(&delivered, 1);
}

static void syncio_sig_init(void)
{
	struct sigaction sa = { 0 };

	/* core/suspend.c has SIGRTMIN + 6. */
	sig_cancel = SIGRTMIN + 7;
	sa.sa_handler = syncio_handler;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig_cancel, &sa, NULL) < 0)
		ndrun_error("CancelSynchronousIo: sigaction: %s\n", strerror(errno));
}

static void begin(enum syncio_kind kind, struct io_target *t, OVERLAPPED *ov)
{
	slot.tid = thread_current_id();
	slot.kind = kind;
	slot.target = t;
	slot.ov = ov;
	klock(&syncio_lock);
	slot.gen++;
	atomic_store(&slot.cancel, false);
	list_add_tail(&blocked, &slot.entry);
	kunlock(&syncio_lock);
}

void syncio_begin_fd(void)
{
	begin(SYNCIO_FD, NULL, NULL);
}

void syncio_begin_request(struct io_target *t, OVERLAPPED *ov)
{
	begin(SYNCIO_REQUEST, t, ov);
}

bool syncio_cancelled(void)
{
	return atomic_load(&slot.cancel);
}

void syncio_end(void)
{
	klock(&syncio_lock);
	list_remove(&slot.entry);
	kunlock(&syncio_lock);
	/* A signal sent to oneself is handled on the way out of the next
	 * system call (unless the program blocked it: then it waits,
	 * harmless, for the mask to open). */
	for (int i = 0; i < 1000 && atomic_load(&delivered) != atomic_load(&slot.sent); i++)
		sched_yield();
}

static bool match_ov(struct io_request *req, void *ctx)
{
	return req->ov == ctx;
}

/* syncio_lock held: the thread's slot, if it is in a bracket. */
static struct syncio *find_locked(DWORD tid)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &blocked) {
		struct syncio *s = LIST_ENTRY(cur, struct syncio, entry);

		if (s->tid == tid)
			return s;
	}
	return NULL;
}

static bool cancel_request(struct syncio *s)
{
	struct io_target *t = s->target;
	struct object *obj = t->obj;
	OVERLAPPED *ov = s->ov;

	/* The waiting thread holds the file; this reference keeps the
	 * target after the lock is gone, should the thread return first. */
	object_ref(obj);
	atomic_store(&s->cancel, true);
	kunlock(&syncio_lock);
	io_cancel(t, match_ov, ov, STATUS_CANCELLED);
	object_unref(obj);
	return true;
}

bool syncio_cancel_thread(DWORD tid)
{
	struct syncio *s;
	unsigned int gen;

	pthread_once(&sig_once, syncio_sig_init);
	klock(&syncio_lock);
	if (!(s = find_locked(tid))) {
		kunlock(&syncio_lock);
		return false;
	}
	if (s->kind == SYNCIO_REQUEST)
		return cancel_request(s);
	atomic_store(&s->cancel, true);
	gen = s->gen;
	/* Until the thread leaves this bracket (2 s at most: a read of a
	 * disk file is not interruptible, but ends on its own). */
	for (int i = 0; i < 2000 && s && s->gen == gen; i++) {
		struct timespec ms = { 0, 1000000 };

		atomic_fetch_add(&s->sent, 1);
		syscall(SYS_tgkill, getpid(), tid, sig_cancel);
		kunlock(&syncio_lock);
		nanosleep(&ms, NULL);
		klock(&syncio_lock);
		s = find_locked(tid);
	}
	kunlock(&syncio_lock);
	return true;
}
