/* CancelSynchronousIo's machinery (see core/syncio.h).
 *
 * A bracket costs a few atomic operations on the thread's own slot: the
 * slot is allocated and put on the registry (under registry_lock) the
 * first time the thread brackets anything, and taken off by a thread-key
 * destructor when the thread ends.  A slot's state is the number of the
 * bracket it is in, 0 outside.
 *
 * A canceller works under registry_lock (so the slot stays) and raises
 * the slot's `sending` while it looks at the bracket and signals the
 * thread; syncio_end clears the state and then waits for `sending` to
 * drop and for every signal sent to have been handled.  So no signal
 * lands on a later system call of the thread's, and a request's target
 * is referenced by the canceller before the thread can drop it.
 *
 * The fd case has a window: the thread checks syncio_cancelled and then
 * enters the system call; a signal in between finds no call to
 * interrupt.  The canceller therefore keeps signalling (every
 * millisecond) until the thread has left the bracket. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WIN32_NO_STATUS /* the STATUS_* values come from ntstatus.h */
#include "core/debug.h"
#include "core/klock.h"
#include "core/object.h"
#include "core/overlapped.h"
#include "core/syncio.h"
#include "core/thread.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

enum syncio_kind { SYNCIO_FD, SYNCIO_REQUEST };

struct syncio {
	struct syncio *next;        /* the registry; registry_lock */
	DWORD tid;
	_Atomic unsigned int state; /* the bracket's number, 0 outside */
	enum syncio_kind kind;      /* these three: written before state */
	struct io_target *target;   /* SYNCIO_REQUEST */
	OVERLAPPED *ov;
	_Atomic bool cancel;
	_Atomic unsigned int sending;   /* cancellers at work on it */
	_Atomic unsigned int sent;      /* signals sent to the thread */
	_Atomic unsigned int delivered; /* and handled by it */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct syncio *registry;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static int sig_cancel;

static __thread struct syncio *self;
static __thread unsigned int brackets;

/* Its only job is to be there: a handled signal without SA_RESTART makes
 * the blocked system call return EINTR. */
static void syncio_handler(int sig)
{
	(void)sig;
	if (self)
		atomic_fetch_add(&self->delivered, 1);
}

static void unregister(void *p)
{
	struct syncio **link;

	klock(&registry_lock);
	for (link = &registry; *link; link = &(*link)->next) {
		if (*link == p) {
			*link = ((struct syncio *)p)->next;
			break;
		}
	}
	kunlock(&registry_lock);
	free(p);
}

static void syncio_init(void)
{
	struct sigaction sa = { 0 };

	if (pthread_key_create(&slot_key, unregister))
		ndrun_error("CancelSynchronousIo: no thread key\n");
	/* core/suspend.c has SIGRTMIN + 6. */
	sig_cancel = SIGRTMIN + 7;
	sa.sa_handler = syncio_handler;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig_cancel, &sa, NULL) < 0)
		ndrun_error("CancelSynchronousIo: sigaction: %s\n", strerror(errno));
}

/* The calling thread's slot, registered on first use; NULL when out of
 * memory (its I/O is then not cancellable). */
static struct syncio *slot(void)
{
	struct syncio *s, **link;

	if (self)
		return self;
	pthread_once(&once, syncio_init);
	if (!(s = calloc(1, sizeof(*s))))
		return NULL;
	s->tid = thread_current_id();
	klock(&registry_lock);
	/* A slot left with this id belonged to a thread that is gone. */
	for (link = &registry; *link; link = &(*link)->next) {
		if ((*link)->tid == s->tid) {
			*link = (*link)->next;
			break;
		}
	}
	s->next = registry;
	registry = s;
	kunlock(&registry_lock);
	pthread_setspecific(slot_key, s);
	self = s;
	return s;
}

static void begin(enum syncio_kind kind, struct io_target *t, OVERLAPPED *ov)
{
	struct syncio *s = slot();

	if (!s)
		return;
	s->kind = kind;
	s->target = t;
	s->ov = ov;
	atomic_store(&s->cancel, false);
	if (!++brackets)
		brackets = 1;
	atomic_store(&s->state, brackets);
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
	return self && atomic_load_explicit(&self->cancel, memory_order_relaxed);
}

void syncio_end(void)
{
	struct syncio *s = self;

	if (!s)
		return;
	atomic_store(&s->state, 0);
	while (atomic_load(&s->sending))
		sched_yield();
	/* A signal sent to oneself is handled on the way out of the next
	 * system call (unless the program blocked it: then it waits,
	 * harmless, for the mask to open). */
	for (int i = 0; i < 1000 && atomic_load(&s->delivered) != atomic_load(&s->sent); i++)
		sched_yield();
}

static bool match_ov(struct io_request *req, void *ctx)
{
	return req->ov == ctx;
}

/* registry_lock held. */
static struct syncio *find_locked(DWORD tid)
{
	for (struct syncio *s = registry; s; s = s->next)
		if (s->tid == tid)
			return s;
	return NULL;
}

bool syncio_cancel_thread(DWORD tid)
{
	struct timespec ms = { 0, 1000000 };
	struct io_target *t;
	struct object *obj;
	struct syncio *s;
	unsigned int bracket;
	OVERLAPPED *ov;

	pthread_once(&once, syncio_init);
	klock(&registry_lock);
	if (!(s = find_locked(tid))) {
		kunlock(&registry_lock);
		return false;
	}
	atomic_fetch_add(&s->sending, 1);
	if (!(bracket = atomic_load(&s->state))) {
		atomic_fetch_sub(&s->sending, 1);
		kunlock(&registry_lock);
		return false;
	}
	atomic_store(&s->cancel, true);
	if (s->kind == SYNCIO_REQUEST) {
		/* The thread waits for sending to drop before it lets go of
		 * the file: the reference is taken in time. */
		t = s->target;
		ov = s->ov;
		obj = object_ref(t->obj);
		atomic_fetch_sub(&s->sending, 1);
		kunlock(&registry_lock);
		io_cancel(t, match_ov, ov, STATUS_CANCELLED);
		object_unref(obj);
		return true;
	}
	/* Until the thread leaves this bracket (2 s at most: a read of a
	 * disk file is not interruptible, but ends on its own). */
	for (int i = 0;; i++) {
		atomic_fetch_add(&s->sent, 1);
		syscall(SYS_tgkill, getpid(), tid, sig_cancel);
		atomic_fetch_sub(&s->sending, 1);
		kunlock(&registry_lock);
		if (i == 2000)
			return true;
		nanosleep(&ms, NULL);
		klock(&registry_lock);
		if (!(s = find_locked(tid)))
			break;
		atomic_fetch_add(&s->sending, 1);
		if (atomic_load(&s->state) != bracket) {
			atomic_fetch_sub(&s->sending, 1);
			break;
		}
	}
	kunlock(&registry_lock);
	return true;
}
